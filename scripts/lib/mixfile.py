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
    the versions, the classes, the sample flags, the model's columns and
    the records (each line's word, first version, fields and their types)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                        'analyzer', 'include', 'mix-format.def')
    text = open(path).read()
    calls = re.findall(r'^(MIX_\w+)\(([^\n]*)\)$', text, re.M)
    got, records, sym = {}, {}, {}
    for macro, args in calls:
        a = [x.strip() for x in args.split(',', 3)]
        got.setdefault(macro, []).append(a)
        if macro == 'MIX_RECORD':
            sym[a[0]] = records[a[1]] = Record(a[1], int(a[2]), [], None)
        elif macro == 'MIX_FIELD':
            sym[a[0]].fields.append((a[1], a[2]))
        elif macro == 'MIX_REST':
            sym[a[0]].rest = (a[1], a[2])
    for r in records.values():
        r.fixed = sum(len(got['MIX_MET']) if kind == 'METS' else 1 for _, kind in r.fields)
    magic = got['MIX_MAGIC'][0][0].strip('"')
    return (magic, tuple(int(a[0]) for a in got['MIX_VERSION']),
            tuple(a[1] for a in got['MIX_CLASS']), {a[0]: a[1] for a in got['MIX_FLAG']},
            tuple(a[1] for a in got['MIX_MET']), records)


class Record:
    """A line kind of mix-format.def: its word, first version, fixed fields
    [(name, TYPE)] and the type its rest (any number of fields) takes."""
    def __init__(self, word, since, fields, rest):
        self.word, self.since, self.fields, self.rest = word, since, fields, rest


MAGIC, VERSIONS, CLASSES, FLAG, MET, RECORDS = _vocabulary()
FLAGS = tuple(FLAG.values())    # a sample's flags in bit order; FLAG: by SYM
# MET: the timing model's columns (cstat, ctotal, cat lines), in order
# RECORDS: by first word


def _num(v):
    if not v.isdigit():
        raise ValueError(v)
    return int(v)


def _hex(v):
    if not v.startswith('0x') or not v[2:] or v[2:].strip('0123456789abcdefABCDEF'):
        raise ValueError(v)
    return int(v, 16)


def _real(v):
    f = float(v)
    if f != f or f in (float('inf'), float('-inf')):
        raise ValueError(v)
    return f


def _pair(v):
    if '=' not in v:
        raise ValueError(v)
    return v


_TYPED = dict(NUM=_num, METS=_num, HEX=_hex, REAL=_real, REAL1=_real, PAIR=_pair, WORD=str)


def fields(t, version):
    """A line's tokens t (its word first) as {field: value} by its record in
    mix-format.def, typed (METS: {column: n}; the rest: a list); None for a
    "WORD VALUE" header fact of no record.  ValueError on another shape."""
    r = RECORDS.get(t[0])
    if r is None:
        if len(t) == 2:
            return None
        raise ValueError(f'unknown record {t[0]!r}')
    if version < r.since:
        raise ValueError(f'a {t[0]} line in a version {version} file (version {r.since} on)')
    fixed = r.fixed
    if len(t) - 1 < fixed or (not r.rest and len(t) - 1 > fixed):
        raise ValueError(f'{len(t) - 1} fields after its word, not '
                         f'{"at least " if r.rest else ""}{fixed}')
    out, pos = {}, 1
    for name, kind in r.fields:
        if kind == 'METS':
            out[name] = dict(zip(MET, map(_num, t[pos:pos + len(MET)])))
            pos += len(MET)
        else:
            out[name] = _TYPED[kind](t[pos])
            pos += 1
    if r.rest:
        name, kind = r.rest
        rest = t[pos:]
        if kind == 'PAIR':              # a sample's values: checked, kept as text
            if not all('=' in x for x in rest):
                raise ValueError(f'{name}: KEY=VALUE')
        elif kind != 'WORD':
            rest = [_TYPED[kind](x) for x in rest]
        out[name] = rest
    return out


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
            except (IndexError, ValueError) as e:
                raise MixError(f'{path} line {n}: malformed {k} line ({e}): {line[:80]!r}')
        for need in ('arch', 'build_id', 'table_hash', 'mode'):
            if need not in self.head:
                raise MixError(f'{path}: no {need} line')
        if 'syscalls' not in self.count:
            raise MixError(f'{path}: no "count syscalls" line')

    def _line(self, k, t, line):
        f = fields(t, self.version)
        if f is None:
            self.head[k] = t[1]             # a header fact of no record
        elif k == 'count':
            self.count[f['name']] = f['n']
        elif k == 'stat':
            self.stat[(f['name'], f['account'])] = {x: f[x] for x in
                                                    ('n', 'runs', 'sum', 'min', 'p50', 'mean', 'max')}
        elif k == 'sample':
            acc = {}
            s = dict(seq=f['seq'], name=f['name'], flags=set(f['flags'].split(',')), acc=acc)
            for kv in f['values']:
                key, _, val = kv.partition('=')
                head = key[:2]
                if head == 's.':
                    acc[key[2:]] = int(val)
                elif key == 'user':
                    s['user'] = None if val == '-' else int(val)
                elif head == 'r.':
                    s.setdefault('runs', {})[key[2:]] = int(val)
                else:
                    s[key] = int(val)
                    if key in ('whole', 'total', 'gap', 'outside'):
                        acc[key] = int(val)
            self.samples.append(s)
        elif k == 'kinds':
            self.kinds.append((f['name'], f['account'], f['kind'], f['n']))
        elif k == 'class':
            self.classes.append((f['name'], f['account'], f['class'], f['n']))
        elif k == 'func':
            self.funcs.append((f['name'], f['account'], f['rank'], f['func'], f['n']))
        elif k == 'insn':
            self.insn[f['id']] = dict(addr=f['addr'], where=f['where'], kinds=f['kinds'])
        elif k == 'at':
            self.at.append((f['name'], f['account'], f['insn'], f['n']))
        elif k == 'src':
            self.src[f['insn']] = f['frames']
        elif k == 'model':
            self.model = dict(cpu=f['cpu'], hash=f['hash'])
        elif k == 'model_param':
            self.model_param[f['key']] = (f['low'], f['mid'], f['high'])
        elif k == 'model_drain':
            self.model_drain = [] if f['kinds'] == ['-'] else f['kinds']
        elif k == 'cstat':
            self.cstat[(f['name'], f['account'])] = dict(n=f['n'], **f['mets'])
        elif k == 'ctotal':
            self.ctotal[f['name']] = f['mets']
        elif k == 'cat':
            self.cat[(f['name'], f['account'], f['insn'])] = f['mets']
        elif k == 'unarmed':
            self.mismatch.append(line)
        elif k == 'markers':
            self.markers[f['role']] = (f['listed'], f['checked'], f['hits'])
        elif k == 'setapart':
            self.setapart[(f['name'], f['reason'])] = f['n']
        elif k == 'account':
            self.parent[f['name']] = f['parent']
            self.head.setdefault(k, []).append(t[1:])
        elif k == 'functions':
            self.head[k] = ' '.join(t[1:])
        elif k in ('detail', 'kind', 'disas_diff', 'qemu_api'):
            self.head.setdefault(k, []).append(t[1:])
        else:
            self.head[k] = t[1]             # arch, build_id, mode ...: one WORD

    def per_call(self, name, account='whole'):
        """A stat line per call: n, ins, and each of the timing model's
        columns (MET) from its cstat line; MixError naming the line the
        file lacks."""
        st, cs = self.stat.get((name, account)), self.cstat.get((name, account))
        if not st or not cs:
            raise MixError(f'{self.path}: no {name} {account} '
                           f'{"stat" if not st else "cstat (no timing model?)"} line')
        n = st['n']
        return dict({col: cs[col] / n for col in MET}, n=n, ins=st['sum'] / n,
                    cpu=self.model['cpu'] if self.model else None)

    def clean(self, name):
        """samples of name with no interrupt, switch or anomaly inside"""
        return [s for s in self.samples if s['name'] == name and s['flags'] <= {'ok', FLAG['GAPIRQ']}]
