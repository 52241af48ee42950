# SPDX-License-Identifier: GPL-2.0
"""Where a trace.dat keeps what it says about itself: for tests and the
robustness campaign, which damage one field of a real recording and need
to find it by its meaning, not by searching for its bytes.

Reads trace-cmd's file versions 6 and 7 (trace-cmd.dat.v6(5),
trace-cmd.dat.v7(5)): the header (endianness, long size, page size), the
options (CPUSTAT, CPUCOUNT, BUFFER and its per-CPU index), a version 6
file's flyrecord index, the event formats where they are stored
uncompressed (version 6, or a version 7 file written with
--compression none), and each CPU's data.  Every field comes with its
position in the file, so that a caller can change it in place:

    t = TraceDat(open(path, 'rb').read())
    b = bytearray(t.data)
    t.put(b, t.page_size_at, 4, 1052672)

Compressed option or format sections are not rewritten here: make the
damage in a version 6 or uncompressed copy and let 'trace-cmd convert'
compress it (it copies formats and ring-buffer pages as they are).
"""
import struct

OPT_DONE, OPT_DATE, OPT_CPUSTAT, OPT_BUFFER = 0, 1, 2, 3
OPT_CPUCOUNT = 8
SEC_OPTIONS, SEC_FORMATS = 0, 18


class TraceDat:
    def __init__(self, data):
        self.data = bytes(data)
        d = self.data
        if d[:3] != b'\x17\x08\x44' or d[3:10] != b'tracing':
            raise ValueError('not a trace.dat (bad magic)')
        end = d.index(b'\0', 10)
        self.version = int(d[10:end])
        p = end + 1
        self.be = d[p] == 1
        self.long_size = d[p + 1]
        self.page_size_at = p + 2
        self.page_size = self.get(self.page_size_at, 4)
        p += 6
        self.options = []       # (id, at of the payload, size)
        self.cpustats = []      # (cpu, at, size, text)
        self.cpucount_at = None
        self.buffer = None      # the top instance's BUFFER option
        self.fly = []           # per CPU: dict(cpu, off, size, off_at, size_at)
        self.formats = []       # (system, at, size, text)
        self.sections = []      # version 7: (id, at, flags, size)
        if self.version >= 7:
            self.compression = d[p:d.index(b'\0', p)].decode()
            p = d.index(b'\0', p) + 1
            p = d.index(b'\0', p) + 1
            self._v7(self.get(p, 8))
        else:
            self.compression = 'none'
            self._v6(p)

    # -- numbers in the file's byte order
    def fmt(self, size):
        return ('>' if self.be else '<') + {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[size]

    def get(self, at, size):
        return struct.unpack(self.fmt(size), self.data[at:at + size])[0]

    def put(self, buf, at, size, value):
        buf[at:at + size] = struct.pack(self.fmt(size), value)

    # -- version 7: sections, chained option sections
    def _v7(self, opt):
        d = self.data
        seen = set()
        while opt and opt not in seen and opt + 16 <= len(d):
            seen.add(opt)
            sid, flags = self.get(opt, 2), self.get(opt + 2, 2)
            size = self.get(opt + 8, 8)
            nxt = 0
            if flags & 1:
                raise ValueError('compressed options section at %d' % opt)
            p, end = opt + 16, opt + 16 + size
            while p + 6 <= end:
                oid, osz = self.get(p, 2), self.get(p + 2, 4)
                at = p + 6
                self._option(oid, at, osz)
                if oid == OPT_DONE:
                    nxt = self.get(at, 8) if osz >= 8 else 0
                    break
                p = at + osz
            opt = nxt
        for oid, at, osz in self.options:
            if oid in (16, 17, 18, 19, 20, 21):     # HEADERS ... CMDLINES: a section's place
                s = self.get(at, 8)
                self.sections.append((self.get(s, 2), s, self.get(s + 2, 2), self.get(s + 8, 8)))
        for sid, at, flags, size in self.sections:
            if sid == SEC_FORMATS and not flags & 1:
                self._formats(at + 16)

    def _option(self, oid, at, osz):
        d = self.data
        self.options.append((oid, at, osz))
        if oid == OPT_CPUSTAT:
            text = d[at:at + osz].split(b'\0')[0].decode(errors='replace')
            cpu = int(text.split('\n')[0].split(':')[1]) if text.startswith('CPU:') else -1
            self.cpustats.append((cpu, at, osz, text))
        elif oid == OPT_CPUCOUNT:
            self.cpucount_at = at
        elif oid == OPT_BUFFER and self.version >= 7:
            name_at = at + 8
            name_end = d.index(b'\0', name_at)
            if name_end != name_at:
                return      # another instance's
            clock_end = d.index(b'\0', name_end + 1)
            q = clock_end + 1
            b = dict(at=at, section=self.get(at, 8), page_size_at=q, page_size=self.get(q, 4),
                     count_at=q + 4, count=self.get(q + 4, 4), cpus=[])
            q += 8
            for _ in range(b['count']):
                if q + 20 > at + osz:
                    break
                b['cpus'].append(dict(cpu=self.get(q, 4), off_at=q + 4, off=self.get(q + 4, 8),
                                      size_at=q + 12, size=self.get(q + 12, 8)))
                q += 20
            self.buffer = b
            self.fly = b['cpus']

    # -- version 6: the sections in their order
    def _v6(self, p):
        d = self.data

        def skip_str(p, s):
            assert d[p:p + len(s)] == s, (p, s)
            return p + len(s)
        p = skip_str(p, b'header_page\0')
        p += 8 + self.get(p, 8)
        p = skip_str(p, b'header_event\0')
        p += 8 + self.get(p, 8)
        n = self.get(p, 4)                  # ftrace events
        p += 4
        for _ in range(n):
            sz = self.get(p, 8)
            self.formats.append(('ftrace', p + 8, sz, d[p + 8:p + 8 + sz].decode(errors='replace')))
            p += 8 + sz
        n = self.get(p, 4)                  # event systems
        p += 4
        for _ in range(n):
            e = d.index(b'\0', p)
            system = d[p:e].decode(errors='replace')
            p = e + 1
            m = self.get(p, 4)
            p += 4
            for _ in range(m):
                sz = self.get(p, 8)
                self.formats.append((system, p + 8, sz, d[p + 8:p + 8 + sz].decode(errors='replace')))
                p += 8 + sz
        p += 4 + self.get(p, 4)             # kallsyms
        p += 4 + self.get(p, 4)             # printk
        self.cmdlines_at = p                # its 8-byte size
        p += 8 + self.get(p, 8)             # cmdlines
        self.cpus_at = p
        cpus = self.get(p, 4)
        p += 4
        while True:
            tag = d[p:p + 10]
            if tag == b'options  \0':
                p += 10
                while True:
                    oid, osz = self.get(p, 2), None
                    p += 2
                    if oid == OPT_DONE:
                        break
                    osz = self.get(p, 4)
                    self._option(oid, p + 4, osz)
                    p += 4 + osz
            elif tag == b'latency  \0':
                return
            elif tag == b'flyrecord\0':
                p += 10
                for c in range(cpus):
                    self.fly.append(dict(cpu=c, off_at=p, off=self.get(p, 8),
                                         size_at=p + 8, size=self.get(p + 8, 8)))
                    p += 16
                return
            else:
                raise ValueError('version 6 file: unknown section at %d' % p)

    def _formats(self, p):
        """A version 7 "events format" section's content, uncompressed."""
        n = self.get(p, 4)
        p += 4
        for _ in range(n):
            e = self.data.index(b'\0', p)
            system = self.data[p:e].decode(errors='replace')
            p = e + 1
            m = self.get(p, 4)
            p += 4
            for _ in range(m):
                sz = self.get(p, 8)
                self.formats.append((system, p + 8, sz,
                                     self.data[p + 8:p + 8 + sz].decode(errors='replace')))
                p += 8 + sz

    # -- what a caller looks for
    def format_of(self, event):
        """(at, text) of the format whose name line is 'name: EVENT'."""
        for system, at, size, text in self.formats:
            if text.startswith('name: %s\n' % event):
                return at, text
        return None, None

    def cpus_with_data(self):
        return [c for c in self.fly if c['size'] > 0]

    def pages(self, cpu):
        """File offsets of an uncompressed CPU's pages."""
        c = [x for x in self.fly if x['cpu'] == cpu][0]
        return list(range(c['off'], c['off'] + c['size'] - self.page_size + 1, self.page_size))
