# SPDX-License-Identifier: GPL-2.0
"""Reading a built vmlinux for the kernel-side scripts (kernel-noinstr,
kernel-hotpath): sections, symbols, the entry_stage_key static branches of
__jump_table, the .entry_stage_sites table and objdump disassembly, for
x86_64 and powerpc."""
import re
import struct
import subprocess
import sys


def die(msg, code=2):
    sys.stderr.write('%s: %s\n' % (sys.argv[0].split('/')[-1], msg))
    sys.exit(code)


class Elf:
    def __init__(self, path):
        self.path = path
        self.data = open(path, 'rb').read()
        d = self.data
        if d[:4] != b'\x7fELF':
            die('%s: not an ELF file' % path)
        self.is64 = d[4] == 2
        self.e = '<' if d[5] == 1 else '>'
        e = self.e
        if self.is64:
            self.machine, = struct.unpack_from(e + 'H', d, 18)
            shoff, = struct.unpack_from(e + 'Q', d, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', d, 0x3a)
            fmt = e + 'IIQQQQ'
        else:
            self.machine, = struct.unpack_from(e + 'H', d, 18)
            shoff, = struct.unpack_from(e + 'I', d, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(e + 'HHH', d, 0x2e)
            fmt = e + 'IIIIII'
        raw = [struct.unpack_from(fmt, d, shoff + i * shentsize) for i in range(shnum)]
        stro = raw[shstrndx][4]
        self.secs = {}
        self.alloc = []
        for name, typ, flags, addr, off, size in raw:
            n = d[stro + name:d.index(b'\0', stro + name)].decode()
            self.secs[n] = (typ, flags, addr, off, size)
            if typ != 8 and addr:
                self.alloc.append((addr, off, size))
        self.syms = {}
        self.funcs = []
        for line in subprocess.run(['nm', '-S', path], capture_output=True,
                                   text=True).stdout.splitlines():
            p = line.split()
            if len(p) == 4:
                a = int(p[0], 16)
                self.syms.setdefault(p[3], a)
                if p[2] in 'tT':
                    self.funcs.append((a, int(p[1], 16), p[3]))
            elif len(p) == 3:
                self.syms.setdefault(p[2], int(p[0], 16))
                if p[1] in 'tT':
                    self.funcs.append((int(p[0], 16), 0, p[2]))
        self.funcs.sort()

    def read(self, addr, n):
        for a, off, size in self.alloc:
            if a <= addr and addr + n <= a + size:
                return self.data[off + addr - a:off + addr - a + n]
        return None

    def section(self, name):
        s = self.secs.get(name)
        if not s:
            return b''
        return self.data[s[3]:s[3] + s[4]]

    def func_at(self, addr):
        lo, hi = 0, len(self.funcs)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.funcs[mid][0] <= addr:
                lo = mid + 1
            else:
                hi = mid
        if lo and self.funcs[lo - 1][0] <= addr < self.funcs[lo - 1][0] + max(self.funcs[lo - 1][1], 4):
            return self.funcs[lo - 1][2]
        return None


def objdump_tool(elf):
    if elf.machine == 62:          # EM_X86_64
        return 'objdump', 'x86'
    if elf.machine in (20, 21):    # EM_PPC, EM_PPC64
        cross = 'powerpc64le-linux-gnu-objdump' if elf.is64 else 'powerpc-linux-gnu-objdump'
        return cross, 'ppc'
    die('%s: machine %d is not x86_64 or powerpc' % (elf.path, elf.machine))


INSN = re.compile(r'^\s*([0-9a-f]+):\t(\S+)\s*(.*)$')


def disasm(tool, path, start, stop):
    out = subprocess.run([tool, '-d', '--no-show-raw-insn',
                          '--start-address=%#x' % start, '--stop-address=%#x' % stop, path],
                         capture_output=True, text=True).stdout
    res = []
    for line in out.splitlines():
        m = INSN.match(line)
        if m:
            res.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return res


def target_of(ops):
    m = re.match(r'([0-9a-f]+)\b', ops.replace('0x', ''))
    if m:
        try:
            return int(m.group(1), 16)
        except ValueError:
            return None
    return None


def is_call(kind, mnem, ops):
    if kind == 'x86':
        return mnem.startswith('call')
    return mnem in ('bl', 'bla', 'bctrl', 'blrl', 'bcl') or \
        (mnem.startswith('bl') and mnem not in ('blr', 'blt', 'ble', 'blt-', 'blt+',
                                                 'ble-', 'ble+', 'blr+', 'blr-'))


def is_uncond(kind, mnem):
    if kind == 'x86':
        return mnem in ('jmp', 'jmpq', 'ret', 'retq') or mnem.startswith('ret')
    return mnem in ('b', 'ba', 'blr', 'bctr', 'rfid', 'hrfid', 'rfscv', 'rfi')


def is_cond(kind, mnem):
    if kind == 'x86':
        return mnem.startswith('j') and mnem not in ('jmp', 'jmpq')
    return mnem.startswith('b') and not is_uncond(kind, mnem) and not is_call(kind, mnem, '')


def jump_labels(elf):
    """Code address -> target of every static branch of entry_stage_key."""
    key = elf.syms.get('entry_stage_key')
    st, sp = elf.syms.get('__start___jump_table'), elf.syms.get('__stop___jump_table')
    if key is None or st is None or sp is None:
        return {}
    tab = elf.read(st, sp - st) or b''
    esz = 16 if elf.is64 else 12
    kfmt = elf.e + ('q' if elf.is64 else 'i')
    res = {}
    for o in range(0, len(tab) - esz + 1, esz):
        code, target = struct.unpack_from(elf.e + 'ii', tab, o)
        k, = struct.unpack_from(kfmt, tab, o + 8)
        if ((st + o + 8 + k) & ~3) == key:
            res[st + o + code] = st + o + 4 + target
    return res


def sites(elf):
    tab = elf.section('.entry_stage_sites')
    res = []
    for o in range(0, len(tab) - 15, 16):
        addr, = struct.unpack_from(elf.e + 'Q', tab, o)
        res.append((addr,) + struct.unpack_from('BBBB', tab, o + 8))
    return res


