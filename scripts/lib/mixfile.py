# SPDX-License-Identifier: GPL-2.0
"""The QEMU mix plugin's output (.mix, plain or gzip'd), read once for every
script: Documentation/qemu-plugin.md ("The output") describes the format.

    from mixfile import Mix, MixError
    m = Mix(path)            # raises MixError with one line naming the problem

Version 1 files end in a bare "end" line; version 2 files end in
"end LINES CRC32": the number of lines before it and zlib's CRC-32 of their
bytes, checked here, so an edited or cut file is refused.  Version 2 adds
the per-instruction tables: "insn ID ADDR FUNC+OFF KINDS" (one per kernel
instruction the tables counted), "at NAME ACCOUNT ID COUNT" (how often it
ran there, over every call), and, once `entrytrace annotate` has read the
vmlinux, "src ID FILE:LINE [FUNC@FILE:LINE]..." (its line, then the
functions inlined at it, innermost first).

Version 3 is version 2 with the timing model's lines (the plugin's
model=FILE; Documentation/cycles-model.md, "The .mix lines"): "model CPU
HASH", "model_param KEY LOW MID HIGH", "model_drain KIND...", "cstat NAME
ACCOUNT N CYC_LO CYC CYC_HI L1I L1D L2 L3 TLB" (sums over a stat line's N
syscalls), "ctotal NAME ..." (all the name ran), "cat NAME ACCOUNT ID ..."
(the at line before it, in cycles and misses) and, on sample lines,
cyc_lo= cyc= cyc_hi= (the whole syscall) and ucyc_lo= ucyc= ucyc_hi= (the
user gap before it).
"""
import gzip
import os
import re
import zlib


class MixError(Exception):
    pass


def _vocabulary():
    """analyzer/include/mix-format.def, the format's one list: the magic,
    the versions, the classes, the sample flags, the model's columns."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                        'analyzer', 'include', 'mix-format.def')
    text = open(path).read()
    calls = re.findall(r'^(MIX_\w+)\(([^\n]*)\)$', text, re.M)
    got = {}
    for macro, args in calls:
        got.setdefault(macro, []).append([a.strip() for a in args.split(',', 2)])
    magic = got['MIX_MAGIC'][0][0].strip('"')
    return (magic, tuple(int(a[0]) for a in got['MIX_VERSION']),
            tuple(a[1] for a in got['MIX_CLASS']), {a[0]: a[1] for a in got['MIX_FLAG']},
            tuple(a[1] for a in got['MIX_MET']))


MAGIC, VERSIONS, CLASSES, FLAG, MET = _vocabulary()
FLAGS = tuple(FLAG.values())    # a sample's flags in bit order; FLAG: by SYM
# MET: the timing model's columns (cstat, ctotal, cat lines), in order


def read_lines(path):
    """The file's lines (no newlines) and its version; checks the end line."""
    try:
        raw = open(path, 'rb').read()
        if path.endswith('.gz'):
            raw = gzip.decompress(raw)
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise MixError(f'{path}: {getattr(e, "strerror", None) or e}')
    try:
        text = raw.decode('ascii')
    except UnicodeDecodeError:
        raise MixError(f'{path}: not a text file')
    if not text:
        raise MixError(f'{path}: empty file')
    if not text.endswith('\n'):
        raise MixError(f'{path}: the last line is cut short')
    lines = text[:-1].split('\n')
    first = lines[0]
    if first == f'{MAGIC} 1':
        version = 1
        if lines[-1] != 'end':
            raise MixError(f'{path}: no "end" line: truncated (QEMU killed before its exit?)')
    elif first in (f'{MAGIC} {v}' for v in VERSIONS if v >= 2):
        version = int(first.split()[1])
        t = lines[-1].split()
        if not t or t[0] != 'end':
            raise MixError(f'{path}: no "end" line: truncated (QEMU killed before its exit?)')
        body = text[:len(text) - len(lines[-1]) - 1]
        if len(t) != 3 or not t[1].isdigit() or len(t[2]) != 8:
            raise MixError(f'{path}: malformed end line {lines[-1][:60]!r}')
        if int(t[1]) != len(lines) - 1:
            raise MixError(f'{path}: the end line counts {t[1]} lines, the file has '
                           f'{len(lines) - 1}: lines were added or removed')
        crc = f'{zlib.crc32(body.encode()):08x}'
        if crc != t[2]:
            raise MixError(f'{path}: CRC-32 {crc} of the content, the end line says {t[2]}: '
                           f'the file was changed after it was written')
    else:
        raise MixError(f'{path}: not an {MAGIC} file (first line {first[:40]!r})')
    return lines, version


def end_line(lines):
    """The version 2 end line for these lines (the first is the magic)."""
    body = ''.join(l + '\n' for l in lines)
    return f'end {len(lines)} {zlib.crc32(body.encode()):08x}'


def write(path, lines):
    """Write a version 2 file: lines without their end line; gzip'd if .gz."""
    out = ''.join(l + '\n' for l in lines) + end_line(lines) + '\n'
    data = out.encode()
    if path.endswith('.gz'):
        data = gzip.compress(data, mtime=0)
    with open(path, 'wb') as f:
        f.write(data)


class Mix:
    def __init__(self, path):
        self.path = path
        lines, self.version = read_lines(path)
        self.head, self.count, self.stat, self.samples = {}, {}, {}, []
        self.kinds, self.classes, self.funcs, self.mismatch, self.markers = [], [], [], [], {}
        self.setapart, self.insn, self.at, self.src = {}, {}, [], {}
        self.parent = {}
        # the timing model (version 3): parameters, per stat line, per name, per at line
        self.model, self.model_param, self.model_drain = None, {}, []
        self.cstat, self.ctotal, self.cat = {}, {}, {}
        for n, line in enumerate(lines[1:-1], 2):
            t = line.split()
            if not t:
                raise MixError(f'{path} line {n}: empty line')
            k = t[0]
            try:
                self._line(k, t, line)
            except (IndexError, ValueError):
                raise MixError(f'{path} line {n}: malformed {k} line: {line[:80]!r}')
        for need in ('arch', 'build_id', 'table_hash', 'mode'):
            if need not in self.head:
                raise MixError(f'{path}: no {need} line')
        if 'syscalls' not in self.count:
            raise MixError(f'{path}: no "count syscalls" line')

    def _line(self, k, t, line):
        if k == 'count':
            self.count[t[1]] = int(t[2])
        elif k == 'stat':
            self.stat[(t[1], t[2])] = dict(n=int(t[3]), runs=int(t[4]), sum=int(t[5]),
                                           min=int(t[6]), p50=int(t[7]),
                                           mean=float(t[8]), max=int(t[9]))
        elif k == 'sample':
            s = dict(seq=int(t[1]), name=t[2], flags=set(t[3].split(',')), acc={})
            for kv in t[4:]:
                key, val = kv.split('=')
                if key == 'user':
                    s['user'] = None if val == '-' else int(val)
                elif key.startswith('s.'):
                    s['acc'][key[2:]] = int(val)
                elif key.startswith('r.'):
                    s.setdefault('runs', {})[key[2:]] = int(val)
                else:
                    s[key] = int(val)
                    if key in ('whole', 'total', 'gap', 'outside'):
                        s['acc'][key] = int(val)
            self.samples.append(s)
        elif k == 'kinds':
            self.kinds.append((t[1], t[2], t[3], int(t[4])))
        elif k == 'class':
            self.classes.append((t[1], t[2], t[3], int(t[4])))
        elif k == 'func':
            self.funcs.append((t[1], t[2], int(t[3]), t[4], int(t[5])))
        elif k == 'insn':
            self.insn[int(t[1])] = dict(addr=int(t[2], 16), where=t[3], kinds=t[4])
        elif k == 'at':
            self.at.append((t[1], t[2], int(t[3]), int(t[4])))
        elif k == 'src':
            self.src[int(t[1])] = t[2:]
        elif k == 'model':
            self.model = dict(cpu=t[1], hash=t[2])
        elif k == 'model_param':
            self.model_param[t[1]] = tuple(float(x) for x in t[2:5])
        elif k == 'model_drain':
            self.model_drain = [] if t[1:] == ['-'] else t[1:]
        elif k == 'cstat':
            self.cstat[(t[1], t[2])] = dict(n=int(t[3]), **dict(zip(MET, map(int, t[4:12]))))
        elif k == 'ctotal':
            self.ctotal[t[1]] = dict(zip(MET, map(int, t[2:10])))
        elif k == 'cat':
            self.cat[(t[1], t[2], int(t[3]))] = dict(zip(MET, map(int, t[4:12])))
        elif k == 'unarmed':
            self.mismatch.append(line)
        elif k == 'markers':
            self.markers[t[1]] = tuple(int(x) for x in t[2:5])
        elif k == 'setapart':
            self.setapart[(t[1], t[2])] = int(t[3])
        elif k == 'account':
            self.parent[t[2]] = t[3]
            self.head.setdefault(k, []).append(t[1:])
        elif k == 'functions':
            self.head[k] = ' '.join(t[1:])
        elif k in ('detail', 'kind', 'disas_diff', 'qemu_api'):
            self.head.setdefault(k, []).append(t[1:])
        elif len(t) == 2:
            self.head[k] = t[1]
        else:
            raise ValueError(k)

    def clean(self, name):
        """samples of name with no interrupt, switch or anomaly inside"""
        return [s for s in self.samples if s['name'] == name and s['flags'] <= {'ok', FLAG['GAPIRQ']}]
