# SPDX-License-Identifier: GPL-2.0
"""The syscall numbers of the guests' loops, per architecture: the one
table the kernel scripts read (x86_64 from the kernel's syscall_64.tbl,
ppc64le from its powerpc syscall.tbl, 64-bit entries).

    sys.path.insert(0, os.path.join(TOP, 'scripts', 'lib'))
    import sysnr
    sysnr.NR['x86_64']['getppid']       # 110
"""

NR = {
    'x86_64': {'getppid': 110, 'kill': 62, 'rt_sigreturn': 15},
    'ppc64le': {'getppid': 64, 'kill': 37, 'rt_sigreturn': 172},
}
