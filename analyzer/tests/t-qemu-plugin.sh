# SPDX-License-Identifier: GPL-2.0
# The QEMU mix plugin (Documentation/qemu-plugin.md): its install checks and
# state machine through fakeqemu (QEMU's side of plugin API version 1:
# loads the plugin, replays an instruction stream), then the outputs of
# real guest runs committed by scripts/kernel/record/kernel-mix --data
# (PROVENANCE-mix.md): whole files, syscalls matched, determinism between
# two boots, the user loop against objdump, the counts against QEMU's own
# -icount clock, SELinux's cost where it is and nowhere else, the sites
# mode on the series v2 kernels and the truth (scripts/host/mix-truth), and
# every gate failing when it checked nothing.
# weight: 113
. "$(dirname "$0")/lib.sh"

plugin_tools || exit 0

# ---- a site file by hand: made-up addresses, real format ---------------------
# K = 0xffffffff81000000; user code at 0x400000.  Stages: outer > inner,
# body > agg (AGG, BODY: counts in the body only), exit > rep (AGG, EXIT:
# counts anywhere), tail and restart (DEFERRED).  The sites are the kinds
# of include/linux/entry_stage{,_stamp}.h: the syscall begin and the tail begin (no
# stage), the tail end (SYSCALL_END), a syscall end (SYSCALL_END|SHARED),
# powerpc's restart begin and end.  Two shapes of syscall: powerpc's (tail
# begin, tail end, two exit restarts) and x86's (the last stage's end ends
# the syscall); the numbers below are the rules of include/linux/entry_stage{,_stamp}.h
# applied by hand to the stream in replay.txt.
python3 - "$TOP/analyzer/tests" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from sitefile import K, head, write
lines = head(['outer - ENTRY TIMED', 'inner 0 ENTRY TIMED', 'body - BODY TIMED',
              'agg 2 BODY AGG', 'exit - EXIT TIMED', 'rep 4 EXIT AGG',
              'tail - EXIT DEFERRED', 'restart - EXIT DEFERRED'])
def site(off, st, edge, st2, fl):
    lines.append(f'site {K + off:#x} {st} {edge} {st2} {fl:#x} 6690 t+{off:#x}')
site(0x10, '-', 'begin', '-', 0x1)      # A: the syscall begin
site(0x14, 0, 'begin', '-', 0)          # B
site(0x20, 1, 'begin', '-', 0)          # C
site(0x30, 1, 'end', '-', 0)            # C2
site(0x40, 0, 'end', '-', 0)            # D
site(0x44, 2, 'begin', '-', 0)          # D2: the body
site(0x50, 3, 'begin', '-', 0x8)        # E: AGG (BODY)
site(0x60, 3, 'end', '-', 0x8)          # F
site(0x70, 2, 'switch', 4, 0)           # G
site(0x74, 5, 'begin', '-', 0x8)        # R: AGG (EXIT)
site(0x78, 5, 'end', '-', 0x8)          # R2
site(0x80, 4, 'switch', 6, 0x4)         # H: SHARED
site(0x84, '-', 'begin', '-', 0x14)     # T: the tail begin
site(0x8c, 6, 'end', '-', 0x6)          # Y: a syscall end (x86)
site(0x90, 6, 'end', '-', 0x2)          # J: the tail end (powerpc)
site(0x98, 7, 'begin', '-', 0x1)        # X: the restart begin
site(0x9c, 7, 'end', '-', 0x2)          # X2: the restart end
site(0xb0, 1, 'begin', '-', 0x4)        # S: SHARED
lines += [f'sysentry {K:#x} entry any 0f01f8',
          f'return {K + 0xa0:#x} sysret user 480f07',
          f'return {K + 0x110:#x} iret any 48cf',
          f'vector {K + 0x100:#x} timer any 90',
          f'switch {K + 0x200:#x} switch_to any 55',
          f'handler {K + 0x1000:#x} getppid __x64_sys_getppid 55',
          f'func {K:#x} 0x1000 entry_text',
          f'func {K + 0x1000:#x} 0x100 __x64_sys_getppid']
write('t.sites', lines)
# the fallback flavour: the same markers, no sites
fb = [l for l in lines if not l.startswith('site ')]
fb[fb.index('mode sites')] = 'mode fallback'
write('fb.sites', fb)
# site lines the series never emits: the plugin refuses them too
write('noneend.sites', [l.replace(' - begin - 0x1 ', ' - end - 0x1 ') if 't+0x10' in l else l
                        for l in lines])
write('nobegin.sites', [l for l in lines if 't+0x10' not in l])
write('aggshared.sites', [l.replace(' 0x8 6690 t+0x50', ' 0xc 6690 t+0x50') for l in lines])

# the stream: (address offset or user address, bytes)
s = []
def k(off, b='90', n=1):
    for i in range(n):
        s.append((K + off + i, b))
def u(n):
    for i in range(n):
        s.append((0x400000 + i, '90'))
def nop(off):
    k(off, '6690')
def entry():
    k(0, '0f01f8'); k(3, n=2)                     # entry: outside 1 + 2
def ppc(switch=False):
    entry()
    nop(0x10)                                     # A: NOP outside (4), window opens
    k(0x12)                                       # gap 1
    nop(0x14)                                     # B: gap 2, outer opens
    if switch:
        k(0x200, '55')                            # switch: set apart
        k(0xa0, '480f07')                         # sysret, nothing open
        return
    k(0x16, n=3)                                  # outer 3
    nop(0x20)                                     # C: outer 4, inner opens
    k(0x22, n=2)                                  # outer 6, inner 2
    nop(0x30)                                     # C2: outer 7, inner 3
    k(0x32)                                       # outer 8
    nop(0x40)                                     # D: outer 9
    k(0x42)                                       # gap 3
    nop(0x44)                                     # D2: gap 4, body opens
    k(0x1000, '55'); k(0x1001, n=4)               # handler: body 5, named
    for _ in range(2):                            # agg twice: body +4, agg +3
        nop(0x50); k(0x52, n=2); nop(0x60)
    k(0x62)                                       # body 14 (agg 6, 2 runs)
    nop(0x70)                                     # G: body 15 -> exit
    k(0x100); k(0x101, n=2); nop(0x50)            # interrupt: its E is no stage's,
    k(0x110, '48cf')                              # 5 instructions, excluded
    k(0x72, n=2)                                  # exit 2
    nop(0x50); k(0x52); nop(0x60)                 # E, F outside the body: exit 5
    nop(0x74); k(0x76); nop(0x78)                 # R, R2: exit 8, rep 2
    nop(0x80)                                     # H: exit 9 -> tail
    k(0x82)                                       # tail 1
    nop(0x84)                                     # T: tail 2, the tail begins
    k(0x86)                                       # tail 3
    nop(0x14)                                     # B in the tail: ignored (tail 4)
    k(0x16)                                       # tail 5
    nop(0x90)                                     # J: tail 6, the syscall ends
    k(0x92, n=2)                                  # outside 6
    nop(0x98)                                     # X: outside 7, restart opens
    k(0x9a)                                       # restart 1
    nop(0x20)                                     # C in a restart: ignored (2)
    nop(0x9c)                                     # X2: restart 3, pending
    k(0x9e, n=2)                                  # pending 2
    nop(0x98)                                     # X again: pending 3 -> restart 6
    k(0x9a)                                       # restart 7
    nop(0x9c)                                     # X2: restart 8, pending
    k(0x9e)                                       # pending 1
    k(0xa0, '480f07')                             # sysret: pending 2 -> outside 9
def x86():
    entry()
    nop(0xb0)                                     # S before the syscall begins: outside 4
    nop(0x10)                                     # A: outside 5
    nop(0x14)                                     # B: gap 1
    k(0x16)                                       # outer 1
    nop(0x40)                                     # D: outer 2
    nop(0x44)                                     # D2: gap 2, body
    k(0x1000, '55'); k(0x1001, n=4)               # body 5
    nop(0x70)                                     # G: body 6
    k(0x72)                                       # exit 1
    nop(0x80)                                     # H: exit 2 -> tail
    k(0x82)                                       # tail 1
    nop(0x8c)                                     # Y: tail 2, the syscall ends
    k(0xa0, '480f07')                             # outside 6
u(5)
ppc()                                             # seq 0: user unknown
u(3)
ppc()                                             # seq 1: user 3
u(2)
ppc(switch=True)                                  # seq 2: set apart
u(2)
k(0x100); nop(0xb0); k(0x110, '48cf')             # irq from user, SHARED site
u(1)
x86()                                             # seq 3: user 3, gapirq
u(3)
x86()                                             # seq 4
open('replay.txt', 'w').write(''.join(f'{a:x} {b}\n' for a, b in s))
# other code at a vector's address (powerpc boot code at the real-mode
# vectors), then a syscall; and a syscall whose first site is a jmp
s = []
k(0x100, 'cc')
ppc()
open('other.txt', 'w').write(''.join(f'{a:x} {b}\n' for a, b in s))
s = []
ppc()
s[3] = (K + 0x10, 'eb05')
open('jmp.txt', 'w').write(''.join(f'{a:x} {b}\n' for a, b in s))
# the tail end of a syscall that never began its tail: the kernel ignores it
s = []
entry(); nop(0x10); nop(0x14); nop(0x40); nop(0x44); k(0x1000, '55'); nop(0x70); nop(0x80)
nop(0x90); nop(0x8c); k(0xa0, '480f07')
open('notail.txt', 'w').write(''.join(f'{a:x} {b}\n' for a, b in s))
PY

"$FQ" --replay replay.txt "$PL" sites=t.sites out=t.mix >fq.out 2>fq.err
check "fakeqemu replays the stream through the plugin" grep -qx 'install: 0' fq.out
check "the replayed output is a whole mix file" "$MC" check t.mix
sample() { grep "^sample $1 " t.mix; }
expect_eq "powerpc's shape: every account by hand" "$(sample 0)" \
	"sample 0 getppid irq user=- whole=60 irq=5 nirq=1 total=51 gap=4 outside=9 s.outer=9 s.inner=3 s.body=15 s.agg=6 r.agg=2 s.exit=9 s.rep=2 s.tail=6 s.restart=8"
expect_eq "syscall 1: the user gap before it" "$(sample 1 | cut -d' ' -f1-6)" \
	"sample 1 getppid irq user=3 whole=60"
expect_eq "syscall 2: a context switch sets it apart, unnamed (the body never began)" \
	"$(sample 2 | cut -d' ' -f1-5)" "sample 2 ? switched user=2"
expect_eq "x86's shape: a SHARED syscall end closes it; an interrupt in the user gap" \
	"$(sample 3)" \
	"sample 3 getppid gapirq user=3 whole=20 irq=0 nirq=0 total=14 gap=2 outside=6 s.outer=2 s.body=6 s.exit=2 s.tail=2"
expect_eq "stat: four getppid syscalls in the tables, the switched one not" \
	"$(grep '^stat getppid whole ' t.mix)" "stat getppid whole 4 4 160 20 20 40.0 60"
expect_eq "stat: the body's AGG stage ran twice per syscall, not in the exit, not in the interrupt" \
	"$(grep '^stat getppid agg ' t.mix)" "stat getppid agg 2 4 12 6 6 6.0 6"
expect_eq "stat: two restarts in a row are one stage, first begin to last end" \
	"$(grep '^stat getppid restart ' t.mix)" "stat getppid restart 2 2 16 8 8 8.0 8"
expect_eq "the tail and the restarts ignored one site each" "$(grep '^count ign_tail ' t.mix)" \
	"count ign_tail 4"
expect_eq "the body's AGG sites outside the body were ignored" \
	"$(grep '^count ign_agg_outside_body ' t.mix)" "count ign_agg_outside_body 4"
expect_eq "the sites in interrupts were ignored (two in syscalls, one from user)" \
	"$(grep '^count ign_not_syscall ' t.mix)" "count ign_not_syscall 3"
expect_eq "a SHARED site before the syscall begin was ignored" \
	"$(grep '^count ign_outside_window ' t.mix)" "count ign_outside_window 2"
expect_eq "no site out of order" \
	"$(grep -E '^count (reopen|end_not_open|unclosed|begin_in_window|window_reopened|end_outside_tail) ' t.mix | awk '{s += $3} END {print s}')" 0
expect_eq "interrupts: two of 5 instructions (vector to iret), one of 3" \
	"$(grep '^stat irq:timer whole ' t.mix)" "stat irq:timer whole 3 3 13 3 5 4.3 5"
expect_eq "setapart row" "$(grep '^setapart ' t.mix)" "setapart ? switched 1"
expect_eq "kinds: swapgs at each entry, sysret at each return" \
	"$(grep '^kinds getppid whole ' t.mix | sort | tr '\n' ' ')" \
	"kinds getppid whole swapgs 4 kinds getppid whole sysret 4 "
expect_eq "functions: the handler's 5 instructions per syscall" \
	"$(grep '^func getppid body ' t.mix | sort)" \
	"$(printf '%s\n' 'func getppid body 1 entry_text 22' 'func getppid body 2 __x64_sys_getppid 20')"
expect_eq "functions: the restart's instructions between two restarts, settled into it" \
	"$(grep '^func getppid restart ' t.mix)" "func getppid restart 1 entry_text 16"
expect_eq "functions: and after the last one into outside" \
	"$(grep '^func getppid outside ' t.mix)" "func getppid outside 1 entry_text 30"

# the same stream in fallback mode: whole alone, the same count
"$FQ" --replay replay.txt "$PL" sites=fb.sites out=fb.mix >/dev/null 2>&1
expect_eq "fallback mode: the same whole, no stage" "$(grep '^sample 0 ' fb.mix)" \
	"sample 0 getppid irq user=- whole=60 irq=5 nirq=1"

# other code at a marker's address is no marker; a site that is no NOP fails
"$FQ" --replay other.txt "$PL" sites=t.sites out=other.mix >/dev/null 2>&1
expect_eq "other code at a vector's address: counted, not an interrupt" \
	"$(grep -E '^count (unarmed|irqs) ' other.mix | tr '\n' ' ')" "count irqs 1 count unarmed 1 "
expect_eq "... and the syscall after it counts as ever" "$(grep '^sample 0 ' other.mix | cut -d' ' -f1-6)" \
	"sample 0 getppid irq user=- whole=60"
check "... and the check passes" "$MC" check other.mix
"$FQ" --replay jmp.txt "$PL" sites=t.sites out=jmp.mix >/dev/null 2>&1
expect_eq "a site that is a jmp (its event on) is counted" "$(grep '^count site_mismatches ' jmp.mix)" \
	"count site_mismatches 1"
expect_exit "mix-check check fails on it" 1 "$MC" check jmp.mix
"$FQ" --replay jmp.txt "$PL" sites=t.sites out=armed.mix armed=ok >/dev/null 2>&1
expect_eq "armed=ok: the jmp is the site (its event on), counted apart" \
	"$(grep -E '^count (site_mismatches|sites_armed) ' armed.mix | tr '\n' ' ')" \
	"count site_mismatches 0 count sites_armed 1 "
expect_eq "armed=ok: and the syscall is staged as with the NOP" \
	"$(grep '^sample 0 ' armed.mix | cut -d' ' -f1-8)" "$(sample 0 | cut -d' ' -f1-8)"

# calls=: a function's entries, counted as a kind of class call
"$FQ" --replay replay.txt "$PL" sites=t.sites out=calls.mix calls=__x64_sys_getppid >/dev/null 2>&1
expect_eq "calls=: the handler entered once per staged syscall, in the body" \
	"$(grep '^kinds getppid body call:' calls.mix)" "kinds getppid body call:__x64_sys_getppid 4"
expect_eq "calls=: the header says what was asked" "$(grep '^calls ' calls.mix)" "calls __x64_sys_getppid"
expect_eq "calls=: the other counts do not move" "$(grep '^sample ' calls.mix)" "$(grep '^sample ' t.mix)"

# a site out of order is counted, and the check fails on it
awk 'NR == 20 && !done { print "ffffffff81000030 6690"; done = 1 } { print }' replay.txt >bad.txt
"$FQ" --replay bad.txt "$PL" sites=t.sites out=bad.mix >/dev/null 2>&1
expect_exit "mix-check check fails on sites out of order" 1 "$MC" check bad.mix
"$FQ" --replay notail.txt "$PL" sites=t.sites out=notail.mix >/dev/null 2>&1
expect_eq "a tail end without the tail begin is ignored, as the kernel does, and counted" \
	"$(grep '^count end_outside_tail ' notail.mix)" "count end_outside_tail 1"
expect_exit "mix-check check fails on it" 1 "$MC" check notail.mix

# ---- zero-width markers (MARK: series v4's plain copy) ---------------------------
# A marker has no instruction of its own: it runs before the instruction at
# its address, which is the next stage's.  Markers may share an address and
# run in the file's order.  One at the end of a conditional block has the
# address where the paths join: on the other path it ends a stage that is
# not open, and is skipped and counted (ign_other_path).  The exit here:
# prep, then on the work path loop and back to prep (a shared resume
# switch at the join), then last.
python3 - "$TOP/analyzer/tests" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from sitefile import K, head, write
lines = head(['outer - ENTRY TIMED', 'body - BODY TIMED', 'prep - EXIT TIMED',
              'loop - EXIT TIMED', 'last - EXIT TIMED'])
def mark(off, st, edge, st2, fl):
    lines.append(f'site {K + off:#x} {st} {edge} {st2} {fl | 0x40:#x} 90 t+{off:#x}')
mark(0x10, '-', 'begin', '-', 0x1)      # the syscall begin, and outer's, at one address
mark(0x10, 0, 'begin', '-', 0)
mark(0x20, 0, 'switch', 1, 0)           # the body
mark(0x30, 1, 'switch', 2, 0)           # prep
mark(0x34, 2, 'switch', 3, 0x4)         # the work path: loop
mark(0x38, 3, 'switch', 2, 0x24)        # the join: back to prep (RESUME|SHARED) ...
mark(0x38, 2, 'switch', 4, 0x4)         # ... and last
mark(0x3c, 4, 'end', '-', 0x6)          # the syscall end
lines += [f'sysentry {K:#x} entry any 0f01f8', f'return {K + 0xa0:#x} sysret user 480f07',
          f'handler {K + 0x1000:#x} getppid __x64_sys_getppid 55',
          f'func {K:#x} 0x1000 entry_text', f'func {K + 0x1000:#x} 0x100 __x64_sys_getppid']
write('mark.sites', lines)
s = []
def k(off, b='90', n=1):
    s.extend((K + off + i, b) for i in range(n))
def syscall(work):
    s.append((0x400000, '90'))
    k(0, '0f01f8'); k(3, n=2)            # outside 3
    k(0x10, n=2)                         # outer 2: the markers run before 0x10
    k(0x20); k(0x1000, '55'); k(0x1001, n=2)   # body 4
    k(0x30, n=2)                         # prep 2
    if work:
        k(0x34, n=3)                     # loop 3
    k(0x38, n=2)                         # last 2 (no-work path: the resume is skipped)
    k(0x3c); k(0xa0, '480f07')           # outside 5
syscall(False)
syscall(True)
open('mark.txt', 'w').write(''.join(f'{a:x} {b}\n' for a, b in s))
PY
"$FQ" --replay mark.txt "$PL" sites=mark.sites out=mark.mix >mark.out 2>&1
check "markers: two at one address and a shared resume switch load" grep -qx 'install: 0' mark.out
expect_eq "markers: the no-work path, each instruction in the stage its markers began" \
	"$(grep '^sample 0 ' mark.mix | grep -o ' gap=[0-9]* .*')" \
	" gap=0 outside=5 s.outer=2 s.body=4 s.prep=2 s.last=2"
expect_eq "markers: the work path, loop between the two pieces of prep" \
	"$(grep '^sample 1 ' mark.mix | grep -o ' gap=[0-9]* .*')" \
	" gap=0 outside=5 s.outer=2 s.body=4 s.prep=2 s.loop=3 s.last=2"
expect_eq "markers: the resume at the join skipped once, on the path that did not loop" \
	"$(grep '^count ign_other_path ' mark.mix)" "count ign_other_path 1"
expect_eq "markers: no site out of order" \
	"$(grep -E '^count (reopen|end_not_open|unclosed|begin_in_window|window_reopened|end_outside_tail) ' mark.mix | awk '{s += $3} END {print s}')" 0
check "markers: and the check passes" "$MC" check mark.mix

# ---- every site action is reached -----------------------------------------------
# A site does what its form's action is (scripts/lib/siteabi.py ACTIONS and
# FORMS, site-abi.h's SITE_ACTIONS; harvest.c's act_*()).  fakeqemu
# --actions asks the plugin how often each action did what it does (not
# ignored, no anomaly): every action the header lists must be reached by
# the streams here, so a new action comes with a stream that reaches it.
# replay.txt by hand: 5 syscall begins; the tail begins in the 2 powerpc
# syscalls; 2 restart begins in each; 2 tail ends and 4 restart ends; the
# x86 syscalls' 2 shared ends; 6 AGG edges in each powerpc syscall (the
# body's E, F twice, R, R2; E, F outside the body are ignored); and 25
# edges (B C C2 D D2 G H twice, B D D2 G H twice, B of the switched one).
# resume.txt: one x86 syscall whose exit switches back into the body
# (RESUME, Z) and on to the exit again.
# tailstage.txt: one powerpc syscall with a stage inside its exit tail (kuap,
# a DEFERRED child of the tail, TAIL sites: entry_stage_tail_stage_begin
# and _end), and that stage's begin once before the tail begins, where the
# kernel does not stamp it.
python3 - <<'PY'
K = 0xffffffff81000000
def table(name, sites, stages=()):
    """t.sites with more stages and sites, and its hash again"""
    lines = [l.rstrip('\n') for l in open('t.sites') if not l.startswith('table_hash ')]
    if stages:
        lines[lines.index('stages 8')] = 'stages %d' % (8 + len(stages))
        j = lines.index('stage 7 restart - EXIT DEFERRED') + 1
        lines[j:j] = list(stages)
    i = max(n for n, l in enumerate(lines) if l.startswith('site '))
    lines[i + 1:i + 1] = [f'site {K + off:#x} {rest} 6690 t+{off:#x}' for off, rest in sites]
    body = ''.join(l + '\n' for l in lines)
    h = 0xcbf29ce484222325
    for b in body.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    open(name, 'w').write(body + f'table_hash {h:016x}\n')
s = []
def k(off, b='90', n=1):
    s.extend((K + off + i, b) for i in range(n))
def nop(off):
    k(off, '6690')
def stream(name):
    open(name, 'w').write(''.join(f'{a:x} {b}\n' for a, b in s))
    s.clear()
def head():
    k(0, '0f01f8'); k(3, n=2)                     # entry: outside 3
    nop(0x10); nop(0x14); k(0x16); nop(0x40)      # A: outside 4; B: gap 1; outer 2
    nop(0x44); k(0x1000, '55'); k(0x1001, n=4)    # D2: gap 2; body 5

table('resume.sites', [(0xc0, '4 switch 2 0x20')])     # Z: exit -> body, RESUME
head()
nop(0x70); k(0x72)                                # G: body 6 -> exit 1
nop(0xc0); k(0x1001, n=2)                         # Z: exit 2 -> body 8, its one run goes on
nop(0x70); k(0x72)                                # G: body 9 -> exit 3, its second run
nop(0x80); k(0x82); nop(0x8c)                     # H: exit 4 -> tail 2, Y ends the syscall
k(0xa0, '480f07')                                 # sysret: outside 5
stream('resume.txt')

table('tailstage.sites', [(0xd0, '8 begin - 0x10'), (0xd4, '8 end - 0x10')],   # KB, KE: TAIL
      ['stage 8 kuap 6 EXIT DEFERRED'])
head()
nop(0x70)                                         # G: body 6 -> exit
nop(0xd0)                                         # KB before the tail: exit 1, ignored
k(0x72)                                           # exit 2
nop(0x80); nop(0x84)                              # H: exit 3 -> tail; T: tail 1, it begins
nop(0xd0)                                         # KB: tail 2, kuap begins
k(0xd2, n=2)                                      # kuap 2
nop(0xd4)                                         # KE: kuap 3, ends
nop(0x90)                                         # J: tail 6 (kuap's 3 in it), the syscall ends
k(0xa0, '480f07')                                 # sysret: outside 5
stream('tailstage.txt')
PY
"$FQ" --actions --replay replay.txt "$PL" sites=t.sites out=act.mix >act.out 2>&1
"$FQ" --actions --replay resume.txt "$PL" sites=resume.sites out=resume.mix >resume.out 2>&1
"$FQ" --actions --replay tailstage.txt "$PL" sites=tailstage.sites out=tailstage.mix >tailstage.out 2>&1
expect_eq "tailstage.txt: the tail's stage begins and ends in the tail (2), its begin before the tail is ignored" \
	"$(awk '$1 == "action" && $2 == "tail_stage" { print $3 }' tailstage.out) $(grep '^count ign_outside_window ' tailstage.mix)" \
	"2 count ign_outside_window 1"
expect_eq "tailstage.txt: kuap inside the tail" "$(grep '^sample 0 ' tailstage.mix)" \
	"sample 0 getppid ok user=- whole=24 irq=0 nirq=0 total=19 gap=2 outside=5 s.outer=2 s.body=6 s.exit=3 s.tail=6 s.kuap=3"
actions=$(sed -n 's/^\tX([A-Z_]*, \([a-z_]*\)) \\$/\1/p' "$TOP/build/qemu-plugin/site-abi.h" | tr '\n' ' ')
check "site-abi.h lists the actions ($actions)" test "$(echo $actions | wc -w)" -ge 8
expect_eq "the plugin answers for every action of site-abi.h, in its order" \
	"$(awk '$1 == "action" { printf "%s ", $2 }' act.out)" "$actions"
expect_eq "replay.txt: each action as counted by hand" \
	"$(awk '$1 == "action" { printf "%s %s ", $2, $3 }' act.out)" \
	"window_open 5 tail_open 2 restart_begin 4 tail_end 6 syscall_end 2 resume_switch 0 agg_edge 12 edge 25 tail_stage 0 "
expect_eq "resume.txt: the resume switch, and the body one run in two pieces" \
	"$(awk '$1 == "action" && $2 == "resume_switch" { print $3 }' resume.out) $(grep '^sample 0 ' resume.mix)" \
	"1 sample 0 getppid ok user=- whole=24 irq=0 nirq=0 total=19 gap=2 outside=5 s.outer=2 s.body=9 s.exit=4 r.exit=2 s.tail=2"
unreached=""
for a in $actions; do
	n=$(cat act.out resume.out tailstage.out | awk -v a="$a" '$1 == "action" && $2 == a { n += $3 } END { print n + 0 }')
	[ "$n" -gt 0 ] || unreached="$unreached $a"
done
expect_eq "every action of site-abi.h is reached by replay.txt, resume.txt or tailstage.txt" "${unreached:-none unreached}" \
	"none unreached"

# ---- the timing model off: byte for byte the plugin before it -----------------
# The plugin of 07dac22 (the last one without the timing model, from git),
# built as make builds it, and this one without model=: the same replays
# give the same files, byte for byte (scripts/kernel/record/kernel-model-identical does
# the same on a real guest).
OLDPL=$TMP/old-plugin
if git -C "$TOP" cat-file -e 07dac22 2>/dev/null; then
	mkdir -p "$OLDPL/b"
	git -C "$TOP" archive 07dac22 analyzer/qemu-plugin kernel/src/include/linux/entry_stage_types.h \
		scripts/lib/siteabi.py | tar -x -C "$OLDPL"
	(cd "$OLDPL" && scripts/lib/siteabi.py --header kernel/src/include/linux/entry_stage_types.h c \
		>b/site-abi.h && ${CC:-cc} -std=gnu11 -fPIC -fvisibility=hidden -O2 -iquote b -shared \
		-o b/old.so analyzer/qemu-plugin/*.c) >old.log 2>&1
	nsame=0 ndiff=0
	for st in replay other jmp notail; do
		for args in "" "calls=__x64_sys_getppid" "armed=ok" "samples=none" "topk=1"; do
			"$FQ" --replay $st.txt "$OLDPL/b/old.so" sites=t.sites out=old-$st.mix $args >/dev/null 2>&1
			"$FQ" --replay $st.txt "$PL" sites=t.sites out=new-$st.mix $args >/dev/null 2>&1
			if [ -s old-$st.mix ] && cmp -s old-$st.mix new-$st.mix; then
				nsame=$((nsame + 1))
			else
				ndiff=$((ndiff + 1))
			fi
		done
	done
	expect_eq "model off: 20 replays write the same bytes as the plugin of 07dac22" "$nsame of $((nsame + ndiff))" "20 of 20"
else
	_fail "model off: commit 07dac22 (the plugin before the timing model) is not in this clone's history"
fi

# ---- what it writes, against mix-format.def ---------------------------------------
# The plugin writes every line with mix-write.h's mix_put(), whose struct
# per record is made from mix-format.def: a writer that names a field the
# list does not have does not build.  This plugin, built against a list
# whose stat record lacks its max field, must fail to compile, naming it.
# (It also checks every line it wrote against the list before it writes
# the file: a WORD with a blank in it would be named there.)
SHP=$TMP/shape-plugin
mkdir -p "$SHP/inc"
cp "$TOP"/analyzer/include/mix-shape.h "$TOP"/analyzer/include/mix-write.h "$SHP/inc/"
grep -v '^MIX_FIELD(STAT, max, NUM)$' "$TOP/analyzer/include/mix-format.def" > "$SHP/inc/mix-format.def"
check "...the shortened list lacks one line" test "$(wc -l < "$SHP/inc/mix-format.def")" -eq \
	"$(($(wc -l < "$TOP/analyzer/include/mix-format.def") - 1))"
if ${CC:-cc} -std=gnu11 -fPIC -fvisibility=hidden -O0 -iquote "$SHP/inc" -iquote "$SAN/../qemu-plugin" \
	-shared -o "$SHP/p.so" "$TOP"/analyzer/qemu-plugin/*.c >shp.log 2>&1; then
	_fail "a plugin built against a list without stat's max field: it built"
else
	check "a writer the list disagrees with does not build: the compiler names stat's max" \
		grep -q "mix_line_STAT.* has no member named [^a-z]*max[^a-z]" shp.log
fi
"$FQ" --replay replay.txt "$PL" sites=t.sites out=shp2.mix >/dev/null 2>shp2.err
check "...which this plugin, built against the list, writes and checks" test -s shp2.mix

# ---- the timing model (model=FILE): a stream worked by hand ----------------------
# Every instruction 1 cycle (0.5..2), an L1D of one set of two 64-byte
# lines, no L2, memory at 100 cycles (50..200), loads exposing all of it,
# no fetch cost, a store queue of 2 with one miss in flight, mfence 10 and
# a drain.  Documentation/cycles-model.md has the rules applied here.
cat >t.params <<'PAR'
# the model test's CPU
cpu test
target x86_64
clock.ghz 1 cite test
cpi.base 1 0.5 2 guess test
l1i.size 256 cite test
l1i.ways 2 cite test
l1i.line 64 cite test
l1d.size 128 cite test
l1d.ways 2 cite test
l1d.line 64 cite test
l2.size 0 omit test
l3.size 0 omit test
lat.l1d 2 cite test
lat.mem 100 50 200 guess test
load.exposed 1 cite test
miss.exposed 1 cite test
ifetch.exposed 0 omit test
tlb.entries 0 omit test
sq.entries 2 cite test
sq.mlp 1 cite test
sq.hit 1 cite test
kind.mfence 10 cite test
drain mfence cite test
PAR
# nop; a load that misses (1 + 2 + 98 = 101; low 0.5 + 50, high 2 + 200);
# the same line again (1 + 2); a store that misses (1: it waits in the
# queue until 106 + 100); mfence: 1 + 10 and the drain, 206 - 117 = 89
printf '%s\n' '400000 90' '400001 488b07 r:1000:8' '400004 488b07 r:1000:8' \
	'400007 48890f w:2000:8' '40000a 0faef0' >model.txt
"$FQ" --user --replay model.txt "$PL" model=t.params out=u.mix >u.out 2>u.err
check "user mode with model=: the plugin loads and writes its file" grep -qx 'install: 0' u.out
expect_eq "the modelled cycles, by hand: 104 (low), 206, 410 (high); 1 L1I miss, 2 L1D" \
	"$(grep '^ctotal \* ' u.mix)" "ctotal * 104 206 410 1 2 0 0 0"
check "a version 3 file, whole and checked" "$MC" check u.mix --user
expect_eq "its parameters are in the file" "$(grep -c '^model_param ' u.mix)" 20
"$FQ" --replay replay.txt "$PL" sites=t.sites out=m.mix model=t.params >/dev/null 2>&1
strip() { grep -v -e '^model' -e '^cstat ' -e '^ctotal ' -e '^cat ' -e '^count model_' -e '^end ' \
	-e '^entrytrace-mix ' "$1" | sed 's/ cyc_lo=.*//; s/ ucyc_lo=.*//'; }
expect_eq "model on: every count the same as with it off (samples, stats, kinds, places)" \
	"$(strip m.mix | md5sum)" "$(grep -v -e '^end ' -e '^entrytrace-mix ' t.mix | sed 's/ cyc_lo=.*//' | md5sum)"
expect_eq "model on: every stage's cycles are its instructions (1 a cycle, no memory)" \
	"$(awk '$1 == "stat" { s[$2" "$3] = $6 } $1 == "cstat" && s[$2" "$3] != $6 { bad++ }
		$1 == "cstat" { n++ } END { print n + 0, bad + 0 }' m.mix)" "$(grep -c '^stat ' m.mix) 0"
expect_eq "... at the low end half, at the high end twice" \
	"$(awk '$1 == "cstat" && $3 == "whole" && $2 == "getppid" { print $5, $6, $7 }' m.mix)" "80 160 320"
expect_eq "a sample carries its cycles" "$(grep '^sample 1 ' m.mix | grep -o 'cyc_lo=[0-9]* cyc=[0-9]* cyc_hi=[0-9]*')" \
	"cyc_lo=30 cyc=60 cyc_hi=120"
expect_eq "every at line has its cat line" "$(grep -c '^at ' m.mix)" "$(grep -c '^cat ' m.mix)"
sed 's/^lat.mem 100 50 200 guess test/lat.mem 100 guess test/' t.params >bad1.params
sed 's/^lat.l1d 2 cite test/lat.l1d 2/' t.params >bad2.params
sed 's/^l1d.ways 2 cite test/l1d.ways 2 1 3 guess test/' t.params >bad3.params
sed 's/^target x86_64/target ppc64/' t.params >bad4.params
sed 's/^kind.mfence 10 cite test/kind.mfenz 10 cite test/' t.params >bad5.params
grep -v '^lat.mem' t.params >bad6.params
sed 's/^l1d.size 128/l1d.size 100/' t.params >bad7.params

# ---- install: refuse clearly ------------------------------------------------
refuse() {
	local desc=$1 want=$2
	shift 2
	"$FQ" "$@" >r.out 2>r.err
	local rc=$? msg
	msg=$(grep -v '^qemu_plugin_version\|^install' r.err | head -1)
	if [ $rc = 1 ] && grep -qx 'install: -1' r.out && printf '%s' "$msg" | grep -q -- "$want"; then
		_pass "$desc ($msg)"
	else
		_fail "$desc: rc $rc, '$msg', want '$want'"
	fi
}
refuse "an API range without version 1" "API version 1; this QEMU offers 2..3" \
	--api 2 3 "$PL" sites=t.sites out=o.mix
refuse "user-mode QEMU" "needs system emulation" --user "$PL" sites=t.sites out=o.mix
refuse "-smp 2" "run with -smp 1" --smp 2 "$PL" sites=t.sites out=o.mix
refuse "a site file for another target" "this QEMU emulates ppc64" \
	--target ppc64 "$PL" sites=t.sites out=o.mix
refuse "no sites=" "sites=FILE missing" "$PL" out=o.mix
refuse "no out=" "out=FILE missing" "$PL" sites=t.sites
refuse "an unknown argument" "unknown argument 'colour=red'" "$PL" sites=t.sites out=o.mix colour=red
refuse "a bad topk" "topk=0: want a number" "$PL" sites=t.sites out=o.mix topk=0
refuse "an unwritable out=" "out=/nonexistent/o.mix" "$PL" sites=t.sites out=/nonexistent/o.mix
refuse "a missing site file" "site file nofile: No such file" "$PL" sites=nofile out=o.mix
sed 's/^stage 3 agg 2/stage 3 agg 1/' t.sites >edited.sites
refuse "an edited site file (table_hash)" "edited or truncated" "$PL" sites=edited.sites out=o.mix
head -c 300 t.sites >trunc.sites
refuse "a truncated site file" "truncated" "$PL" sites=trunc.sites out=o.mix
refuse "a site of no stage on an end edge" "end of no stage, flags 0x1: not a site the series emits" \
	"$PL" sites=noneend.sites out=o.mix
refuse "a sites-mode file without a syscall begin" "no syscall begin (no stage, SYSCALL_BEGIN) site" \
	"$PL" sites=nobegin.sites out=o.mix
refuse "an AGG site with another flag" "begin of AGG stage agg, flags 0xc: not a site the series emits" \
	"$PL" sites=aggshared.sites out=o.mix
refuse "calls= naming no function of the site file" "calls=nosuch: no function nosuch" \
	"$PL" sites=t.sites out=o.mix calls=nosuch
refuse "armed= other than ok" "armed=yes: the only value is ok" "$PL" sites=t.sites out=o.mix armed=yes
refuse "the old arg= form still parses (and is checked)" "unknown argument 'bogus'" \
	"$PL" arg=sites=t.sites arg=out=o.mix arg=bogus
refuse "model=: a guess without its range" "lat.mem: a guess needs its range" \
	"$PL" sites=t.sites out=o.mix model=bad1.params
refuse "model=: a parameter without its source" "lat.l1d: no source" \
	"$PL" sites=t.sites out=o.mix model=bad2.params
refuse "model=: a cache's geometry as a range" "l1d.ways: a whole number, one value" \
	"$PL" sites=t.sites out=o.mix model=bad3.params
refuse "model=: parameters of another target" "are for QEMU target ppc64, this QEMU emulates x86_64" \
	"$PL" sites=t.sites out=o.mix model=bad4.params
refuse "model=: a kind the architecture lacks" "kind.mfenz: no instruction kind mfenz" \
	"$PL" sites=t.sites out=o.mix model=bad5.params
refuse "model=: a required parameter missing" "no lat.mem" "$PL" sites=t.sites out=o.mix model=bad6.params
refuse "model=: a cache that is no whole number of sets" "l1d 100 bytes, 2 ways of 64-byte lines" \
	"$PL" sites=t.sites out=o.mix model=bad7.params
refuse "model=: a missing parameter file" "model=nofile: No such file" "$PL" sites=t.sites out=o.mix model=nofile
refuse "user mode without model=" "user mode runs the timing model alone" --user "$PL" out=o.mix
refuse "user mode with a site file" "user mode has no kernel to place" --user "$PL" sites=t.sites \
	out=o.mix model=t.params
# every parameter file loads on its target (a fallback site file of each)
python3 - <<'PY'
for arch, name in (('ppc64le', 'ppc64'), ('ppc', 'ppc')):
    body = ''.join(l + '\n' for l in ['entrytrace-sites 1', f'arch {arch}',
                   'endian ' + ('little' if arch == 'ppc64le' else 'big'), 'build_id 00',
                   'vmlinux test', 'mode fallback', 'sites_sha256 none', 'stages 0',
                   'func ' + ('0xc000000000000000' if arch == 'ppc64le' else '0xc0000000') +
                   ' 0x100 test'])
    h = 0xcbf29ce484222325
    for b in body.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    open(f'{name}.sites', 'w').write(body + f'table_hash {h:016x}\n')
PY
nparams=0
for f in "$TOP"/analyzer/qemu-plugin/cpus/*.params; do
	tg=$(awk '$1 == "target" { print $2 }' "$f")
	sf=fb.sites
	[ "$tg" = x86_64 ] || sf=$tg.sites
	"$FQ" --target "$tg" "$PL" sites=$sf out=o.mix model="$f" >r.out 2>r.err
	expect_eq "$(basename "$f"): every parameter cited, a guess or omitted: it loads on $tg" \
		"$(grep '^install' r.out) $(grep -v '^entrytrace-mix: ' r.err | head -1)" "install: 0 "
	nparams=$((nparams + 1))
done
[ "$nparams" -ge 4 ] && _pass "$nparams parameter files" || _fail "$nparams parameter files, want 4 or more"
expect_eq "qemu_plugin_version is 1" "$(head -1 r.out)" "qemu_plugin_version: 1"

# ---- gates that checked nothing fail ------------------------------------------
"$FQ" "$PL" sites=t.sites out=none.mix >/dev/null 2>none.err
check "the plugin says so when no syscall matched" grep -q 'no syscall matched' none.err
expect_exit "check: no syscall matched" 1 "$MC" check none.mix
: >empty.mix
expect_exit "check: an empty file" 1 "$MC" check empty.mix
printf '%s\n' 'ffffffff81000000 0f01f8' 'ffffffff810000a0 480f07' >nosite.txt
"$FQ" --replay nosite.txt "$PL" sites=t.sites out=nosite.mix >/dev/null 2>&1
expect_exit "check: sites mode and no site ran" 1 "$MC" check nosite.mix
head -n 40 t.mix >cut.mix
expect_exit "check: a truncated file (no end line)" 1 "$MC" check cut.mix
expect_exit "same: a syscall in neither run" 1 "$MC" same t.mix t.mix write
expect_exit "loop: no getppid sample" 1 "$MC" loop none.mix "$(sysloop)"
printf 'nothing here\n' >empty.expect
expect_exit "check --expect: an expect file naming no syscall" 1 "$MC" check t.mix --expect empty.expect
printf 'sysloop: getppid getppid 6 pid=1\n' >few.expect
expect_exit "check --expect: fewer samples than sysloop made" 1 "$MC" check t.mix --expect few.expect
expect_exit "summary: a name with no stat line" 1 "$MC" summary t.mix nosuchcall

# ---- real guest runs (scripts/kernel/record/kernel-mix --data) --------------------------------
# sysloop's runs; kernel-stress's (stress-ng, PROVENANCE-stress-mix.md) are
# t-mix-report's
files=()
for f in "$DATA"/mix-*.mix.gz; do
	case "$f" in *-stress-*) ;; *) files+=("$f") ;; esac
done
if [ ! -f "${files[0]:-}" ]; then
	_fail "no committed mix-*.mix.gz: run make kernel-mix MIX_ARGS=--data"
	exit 0
fi
# kernel-mix's outputs in PROVENANCE-mix.md, kernel-tiling's (series v3) in PROVENANCE-tiling.md
want=$(cat "$DATA/PROVENANCE-mix.md" "$DATA/PROVENANCE-tiling.md" | grep -c '^| mix-.*\.mix\.gz |')
expect_eq "every committed sysloop output has a PROVENANCE-mix.md or -tiling.md row" "$want" "${#files[@]}"
stress=("$DATA"/mix-*-stress-*.mix.gz)
expect_eq "every committed stress-ng output has a PROVENANCE-stress-mix.md row" \
	"$(grep -c '^| mix-.*-stress-.*\.mix\.gz |' "$DATA/PROVENANCE-stress-mix.md")" "${#stress[@]}"
loop_skipped=0
for f in "${files[@]}"; do
	b=$(basename "$f" .mix.gz)
	check "$b: whole, syscalls matched, no marker mismatch, sysloop's counts" \
		"$MC" check "$f" --expect "$DATA/$b.expect"
	# the plugin against QEMU's -icount clock (1 ns per instruction):
	# sysloop -t times its getppid loop; whole + user per getppid must be it
	t=$(awk '$1 == "sysloop-time:" && $2 == "getppid" { print $3 }' "$DATA/$b.expect")
	n=$(awk '$1 == "sysloop:" && $2 == "getppid" { print $4 }' "$DATA/$b.expect")
	python3 - "$f" "$t" "$n" >loop.out <<'PY'
import gzip, sys
f, t, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# the loop: the longest run of getppid samples with consecutive numbers
# (its first one's gap is sysloop's start, not the loop); interrupts are
# out of the samples, in the clock: ok samples only, 1 instruction of slack
smp = []
for line in gzip.open(f, 'rt'):
    p = line.split()
    if p[0] == 'sample':
        smp.append((int(p[1]), p[2], p[3], dict(x.split('=') for x in p[4:])))
best, cur = [], []
for s in smp:
    if s[1] == 'getppid' and cur and s[0] == cur[-1][0] + 1:
        cur.append(s)
    else:
        cur = [s] if s[1] == 'getppid' else []
    if len(cur) > len(best):
        best = list(cur)
ok = [int(s[3]['whole']) + int(s[3]['user']) for s in best[1:]
      if s[2] == 'ok' and s[3]['user'] != '-']
if len(best) < n - 1 or not ok:
    # a syscall of the loop switched out (set apart, a '?' or getppid
    # sample flagged switched) splits it: the clock then holds another
    # task's run and there is nothing to compare
    g = [s for s in smp if s[1] in ('getppid', '?')]
    for i in range(len(g) - n + 1):
        w = g[i:i + n]
        if all(w[j][0] + 1 == w[j + 1][0] for j in range(n - 1)) and \
                any('switched' in x[2] for x in w) and \
                sum(x[1] == 'getppid' for x in w) >= n - 1:
            sw = [x[0] for x in w if 'switched' in x[2]]
            print(f'not compared: the loop switched out at sample {sw[0]}: the clock holds '
                  f'another task\'s run')
            sys.exit(3)
    print(f'the loop: {len(best)} consecutive getppid samples, sysloop made {n}')
    sys.exit(1)
# a getppid of the unbroken loop flagged switched: the clock holds another
# task's run there too, and nothing bounds it
sw = [s[0] for s in best[1:] if 'switched' in s[2]]
if sw:
    print(f'not compared: getppid sample {sw[0]} of the loop switched out: the clock holds '
          f'another task\'s run')
    sys.exit(3)
per = sum(ok) / len(ok)
# an interrupt in the loop is in the clock, not in the samples: beyond the
# slack, the clock may exceed the samples by at most the loop's flagged
# samples times the largest interrupt the file recorded
# a user gap the plugin could not count ('-': out of step after it) may hold one too
flagged = sum(1 for s in best[1:] if s[2] != 'ok' or s[3]['user'] == '-')
big = max([int(l.split()[9]) for l in gzip.open(f, 'rt')
           if l.startswith('stat irq:') and l.split()[2] == 'whole'] or [0])
excess = t - per * n
print(f'plugin {per:.2f} per iteration ({len(ok)} samples), clock {t / n:.2f}'
      + (f'; {flagged} samples with an interrupt, {excess:.0f} more in the clock, '
         f'the largest interrupt {big}' if abs(per - t / n) >= 1 else ''))
sys.exit(0 if abs(per - t / n) < 1 or 0 <= excess <= flagged * big else 1)
PY
	rc=$?
	what="$b: whole + user per getppid = the -icount loop time / N ($t / $n): $(cat loop.out)"
	case $rc in
	0) _pass "$what" ;;
	3) _pass "$what"; loop_skipped=$((loop_skipped + 1)) ;;
	*) _fail "$what" ;;
	esac
done
check "the loop was compared with the clock on most outputs ($loop_skipped of ${#files[@]} split by a switch)" \
	test $((2 * loop_skipped)) -lt "${#files[@]}"

for f in "$DATA"/mix-*-run2.mix.gz; do
	[ -f "$f" ] || continue
	a=${f%-run2.mix.gz}.mix.gz
	check "$(basename "$a" .mix.gz): two boots count the same (getppid, kill)" \
		"$MC" same "$a" "$f" getppid:kill
done
check "determinism was checked on at least one pair" ls "$DATA"/mix-*-run2.mix.gz

stat() { "$MC" summary "$1" "$2" | awk -v a="$3" '$2 == a && $1 != "" { print $5; exit }'; }
x=$DATA/mix-x86_64-$NEWEST-base
if [ -f "$x-selinux.mix.gz" ]; then
	want=$(sed -n 's/^The guests. sysloop (x86_64, .*sha256 \([0-9a-f]*\)$/\1/p' "$DATA/PROVENANCE-mix.md")
	expect_eq "build/sysloop is the binary the guests ran (PROVENANCE-mix.md)" \
		"$(sha256sum "$(sysloop)" | cut -d' ' -f1)" "$want"
	check "x86_64 $NEWEST: the getppid loop's user instructions = objdump's count" \
		"$MC" loop "$x-selinux.mix.gz" "$(sysloop)"
fi
# SELinux's cost where it is and nowhere else, on every kernel with the three
pairs=0
for y in "$DATA"/mix-*-selinux.mix.gz; do
	y=${y%-selinux.mix.gz}
	k=$(basename "$y" | sed 's/^mix-//')
	[ -f "$y-noselinux.mix.gz" ] && [ -f "$y-enforcing.mix.gz" ] || continue
	pairs=$((pairs + 1))
	g1=$(stat "$y-selinux.mix.gz" getppid whole)
	g0=$(stat "$y-noselinux.mix.gz" getppid whole)
	ge=$(stat "$y-enforcing.mix.gz" getppid whole)
	expect_eq "$k: getppid costs the same with SELinux off, on, enforcing" "$g0 $g1 $ge" "$g0 $g0 $g0"
	k1=$(stat "$y-selinux.mix.gz" kill whole)
	k0=$(stat "$y-noselinux.mix.gz" kill whole)
	check "$k: kill(self, 0) costs more with SELinux ($k1) than without ($k0)" test "$k1" -gt "$k0"
	check "$k: the AVC (avc_*) is among kill's top functions with SELinux" \
		sh -c "zcat '$y-selinux.mix.gz' | grep -q '^func kill whole [0-9]* avc_'"
	check "$k: and not without" \
		sh -c "! zcat '$y-noselinux.mix.gz' | grep -q '^func kill whole [0-9]* avc_'"
done
check "SELinux variants were compared on at least one kernel" test "$pairs" -gt 0

# sites mode on the series v2 kernels (their .entry_stage_sites), events off
v2=("$DATA"/mix-*-entrytrace-*.mix.gz)
if [ ! -f "${v2[0]}" ]; then
	_fail "no committed mix-*-entrytrace-*.mix.gz: run make kernel-mix MIX_VARIANT=entrytrace MIX_ARGS=--data"
	exit 0
fi
for f in "${v2[@]}"; do
	b=$(basename "$f" .mix.gz)
	# kernel-mix --events: events on, the plugin in fallback mode (t-mix-report)
	case "$b" in *-entrytrace-off-*|*-entrytrace-compact-*|*-entrytrace-stages-*) continue ;; esac
	check "$b: sites mode; every clean sample's whole = total + outside, total = gap + its top-level stages, and it has the syscall's body" \
		python3 - "$f" <<'PY'
import gzip, sys
parent, mode, n, bad = {}, None, 0, []
for line in gzip.open(sys.argv[1], 'rt'):
    p = line.split()
    if p[0] == 'mode':
        mode = p[1]
    elif p[0] == 'account':
        parent[p[2]] = p[3]
    elif p[0] == 'sample' and p[2] in ('getppid', 'kill') and p[3] in ('ok', 'gapirq'):
        kv = dict(x.split('=') for x in p[4:] if '=' in x)
        w, t, o, g = (int(kv[k]) for k in ('whole', 'total', 'outside', 'gap'))
        top = sum(int(v) for k, v in kv.items() if k.startswith('s.') and parent.get(k[2:]) == '-')
        if w != t + o or t != g + top or 's.syscall' not in kv:
            bad.append(line.strip())
        n += 1
if mode != 'sites' or bad or n < 100:
    print(f'mode {mode}, {n} samples, first bad: {bad[:1]}')
    sys.exit(1)
print(n, 'samples')
PY
	check "$b: no site came out of order" sh -c \
		"zcat '$f' | awk '\$1 == \"count\" && \$2 ~ /^(reopen|end_not_open|unclosed|begin_in_window|window_reopened|end_outside_tail)\$/ && \$3 != 0' | grep -q . && exit 1; exit 0"
	check "$b: the SHARED sites interrupts from user mode pass were ignored, and counted" sh -c \
		"zcat '$f' | awk '\$1 == \"count\" && \$2 == \"ign_not_syscall\" && \$3 > 0' | grep -q ."
done

# ---- the instrument against the truth (scripts/host/mix-truth) ---------------------
# each v2 plugin output (events off) beside the seed recording of the same
# kernel image and SELinux variant (PROVENANCE-seed.md): every stage both
# have is judged MET or MISSED, none dropped; the verdicts are what they are
# (Documentation/qemu-plugin.md has the table), the test checks that the
# comparison ran and says so, and that its gates fail when nothing compares
MT=$TOP/scripts/host/mix-truth
pairs=0 compared=""
for f in "${v2[@]}"; do
	b=$(basename "$f" .mix.gz)
	# fixed kernels (arch/powerpc/fixes) have no seed recording of their own
	# nor do the series v3 ones (kernel-tiling: the gap, not the truth), nor
	# the v2 one kept for t-tiling, nor the Debian-config ones (kernel-tiling
	# --config debian), nor the same-tree pair (kernel-tiling --data ab:
	# 7.2-legacy and 7.2, Documentation/legacy-7.2.md), nor v4's plain copy
	# timed by its markers (kernel-tiling --data v4; --marks: the kernel
	# built with them, entrytrace-marks-v4)
	case "$b" in *-run[0-9]*|*-entrytrace-off-*|*-entrytrace-compact-*|*-entrytrace-stages-*|*-entrytrace-fix-*|*-entrytrace-v[234]-*|*-entrytrace-marks-*|*-entrytrace-debian-*|*-entrytrace-ab-*) continue ;; esac
	k=${b#mix-} var=${k##*-}
	k=${k%-entrytrace-*}
	dat=$DATA/$k-$var.dat sys="" min=20 want="getppid MET kill MET "
	case "$b" in
	*-entrytrace-noforce-*)
		# context tracking not forced: its own recording, not in the list below
		dat=$DATA/$k-noforce-$var.dat ;;
	*-entrytrace-distro-*)
		# the distribution-like kernel's recording: kill only, SELinux initialised
		[ "$var" = selinux ] || continue
		dat=$DATA/$k-distro-compact.dat sys="--syscalls kill" min=10 want="kill MET " ;;
	esac
	[ -f "$dat" ] || continue
	"$MT" $sys "$f" "$dat" >"truth-$b.out" 2>&1
	rc=$?
	check "$b against $(basename "$dat"): the comparison ran (exit 0 or 4, not $rc)" test $rc = 0 -o $rc = 4
	check "$b: ${sys:-getppid and kill}, at least $min stages judged" \
		awk -v min=$min '/stages judged/ { exit !($1 >= min) }' "truth-$b.out"
	check "$b: every row has a verdict" awk 'NR > 5 && NF && !/judged/ && $NF != "MET" && $NF != "MISSED" && !/not judged|only in the/ { exit 1 }' "truth-$b.out"
	m=$(grep -c ' MISSED$' "truth-$b.out")
	expect_eq "$b: exit 4 exactly when a stage MISSED ($m)" "$rc" "$([ "$m" -gt 0 ] && echo 4 || echo 0)"
	# v1's legacy arch_enter held one stamp more than the generic one: the
	# truth is what says a stage brackets what it claims to
	expect_eq "$b: arch_enter MET for ${sys:-getppid and kill}" \
		"$(awk '$2 == "arch_enter" { print $1, $NF }' "truth-$b.out" | sort -u | tr '\n' ' ')" \
		"$want"
	expect_eq "$b: the tracer's stage emit shown, not judged" \
		"$(awk '$2 == "emit" { print $1, $NF }' "truth-$b.out" | sort -u | tr '\n' ' ')" \
		"$(echo "$want" | sed 's/MET/run/g')"
	pairs=$((pairs + 1))
	case "$b" in *-noforce-*) ;; *) [ -n "$sys" ] || compared="$compared $k-$var" ;; esac
done
check "the truth was compared on at least two kernels and SELinux variants" test "$pairs" -ge 2
# every kernel we build (issue 14: x86_64 and ppc64le, every base), every
# SELinux variant, getppid and kill (the distribution-like kernel's kill-only
# pair is apart): a missing plugin output or seed recording fails here
want=""
for a in ppc64le x86_64; do
	for k in $BASES; do
		for v in enforcing noselinux selinux; do want="$want $a-$k-$v"; done
	done
done
expect_eq "the truth was compared on every kernel and SELinux variant" \
	"$(echo $compared | tr ' ' '\n' | sort | tr '\n' ' ')" "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')"
doc=$TOP/Documentation/qemu-plugin.md
# the document shows the generic bases' tables (6.12's MISSED lines are
# quoted apart)
docs=0
for k in $(for b in $GENERIC; do echo x86_64-$b ppc64le-$b; done); do
	t=truth-mix-$k-entrytrace-selinux.out
	[ -f "$t" ] || continue
	docs=$((docs + 1))
	check "Documentation/qemu-plugin.md has the $k table as mix-truth prints it" \
		python3 -c 'import sys; t = open(sys.argv[1]).read(); t = t[t.index("syscall "):]
sys.exit(t.strip() not in open(sys.argv[2]).read())' "$t" "$doc"
done
expect_eq "the document's tables were compared: x86_64 and ppc64le on every generic base" \
	"$docs" "$((2 * $(echo $GENERIC | wc -w)))"
expect_exit "mix-truth: a base (fallback) output has no stages" 1 "$MT" "$DATA/mix-x86_64-$NEWEST-base-selinux.mix.gz" \
	"$DATA/x86_64-$NEWEST-selinux.dat"
if [ -f "${v2[0]}" ]; then
	expect_exit "mix-truth: a trace of the other architecture" 1 "$MT" "${v2[0]}" \
		"$( [[ ${v2[0]} == *x86_64* ]] && echo "$DATA/ppc64le-$NEWEST-selinux.dat" || echo "$DATA/x86_64-$NEWEST-selinux.dat")"
	expect_exit "mix-truth: no syscall of the list in both" 1 "$MT" --syscalls nosuch "${v2[0]}" \
		"$DATA/x86_64-$NEWEST-selinux.dat"
fi
expect_exit "mix-truth: no trace" 2 "$MT" "$DATA/mix-x86_64-$NEWEST-base-selinux.mix.gz"
