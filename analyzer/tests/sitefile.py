# SPDX-License-Identifier: GPL-2.0
"""Site files by hand for the tests (the QEMU mix plugin's input,
Documentation/qemu-plugin.md): lines as scripts/kernel/build/kernel-sites
writes them, closed by the FNV-1a 64 table_hash of everything above it,
which the plugin checks.

    sys.path.insert(0, TOP + '/analyzer/tests')
    import sitefile
    lines = sitefile.head(['outer - ENTRY TIMED', 'body - BODY TIMED'])
    lines += ['site ...', 'sysentry ...', 'func ...']
    sitefile.write('t.sites', lines)
"""

K = 0xffffffff81000000    # the made-up kernel base the tests place code at


def head(stages, mode='sites'):
    """The lines a site file opens with, for a made-up x86_64 kernel: its
    stages ('NAME PARENT PHASE KIND', ids by position) and its mode."""
    return (['entrytrace-sites 1', 'arch x86_64', 'endian little', 'build_id 00112233',
             'vmlinux test', f'mode {mode}', f'sites_sha256 {"test" if stages else "none"}',
             f'stages {len(stages)}'] +
            [f'stage {i} {st}' for i, st in enumerate(stages)])


def write(name, lines):
    body = ''.join(l + '\n' for l in lines)
    h = 0xcbf29ce484222325
    for b in body.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    with open(name, 'w') as f:
        f.write(body + f'table_hash {h:016x}\n')
