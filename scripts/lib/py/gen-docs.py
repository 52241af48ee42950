# SPDX-License-Identifier: GPL-2.0
# The Python half of scripts/host/gen-docs (its arguments: see the call there).
import re, subprocess, sys
src, dst, check = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
LIVE = re.compile(r'entrytrace (record|top)\b|--plot|(^|; *)make ')

# A block's command runs under bash with pipefail and must exit 0, or the
# status its opening line names: ```console exit=8
OPEN = re.compile(r'^```console(?: exit=(\d+))?$')
# Under pipefail a reader that stops early (head, grep -q, awk's exit, sed's
# q) makes the writer's status a race: SIGPIPE (141) when the writer's
# second buffer comes after the reader has gone.  Refused, not run.
EARLY = re.compile(r"\|\s*(head\b|grep\s+-[a-zA-Z]*[qm]|awk\s+'[^']*\bexit\b)")
# sed's q or Q in any of its scripts: "sed 5q", "sed q", "sed -n '/x/{p;q}'",
# "sed '/re/q'", "sed -e ... -e q"; not a q inside s/// ("sed 's/q/x/'")
SED = re.compile(r"\|\s*sed((?:\s+(?:'[^']*'|\"[^\"]*\"|[^\s|;&'\"]+))+)")
SED_QUIT = re.compile(r"(^|[;{}\s]|\d|\$)[qQ]\d*\s*([;}]|$)|^/[^/]*/[qQ]$")


def early_reader(cmd):
    """The reader in CMD's pipeline that may stop before its input ends, or None."""
    m = EARLY.search(cmd)
    if m:
        return m.group(1)
    for m in SED.finditer(cmd):
        for tok in re.findall(r"'([^']*)'|\"([^\"]*)\"|(\S+)", m.group(1)):
            t = next(x for x in tok if x)
            if not t.startswith('-') and not t.startswith('s') and SED_QUIT.search(t.strip()):
                return 'sed ' + t
    return None


def blocks(lines):
    """(first line, last line, command, output lines, expected exit) of each console block"""
    i = 0
    while i < len(lines):
        m = OPEN.match(lines[i].strip())
        if m and i + 1 < len(lines) and lines[i + 1].startswith('$ '):
            j = i + 2
            while lines[j].strip() != '```':
                j += 1
            yield i, j, lines[i + 1][2:], lines[i + 2:j], int(m.group(1) or 0)
            i = j + 1
        else:
            i += 1

def prose(ls):
    """The page without its console blocks (each left as its command) and
    without the generated-by line: what only the .md.in may change."""
    res, last = [], 0
    if ls and ls[0].startswith('<!-- generated from '):
        ls = ls[1:]
    for i, j, cmd, _, _ in blocks(ls):
        res += ls[last:i] + ['$ ' + cmd]
        last = j + 1
    return res + ls[last:]


lines = open(src).read().split('\n')
shown = {}
out, last, bad, skipped, same = [], 0, 0, 0, 0
if check:
    page = open(dst).read().split('\n')
    for _, _, cmd, text, _ in blocks(page):
        shown.setdefault(cmd, []).append(text)
    # the page's own text is the template's: an edit to the generated page
    # would be lost at the next gen-docs
    want, have = prose(lines), prose(page)
    if want != have:
        bad += 1
        k = next((k for k, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
        print('  PROSE DIFFERS from %s (edit that file, then gen-docs): near its text line %d' % (src, k + 1))
        print('    %s: %s\n    %s: %s' % (src.split('/')[-1], (want[k] if k < len(want) else '(end)')[:150],
                                        dst.split('/')[-1], (have[k] if k < len(have) else '(end)')[:150]))
live_files = set()	# what the live commands write (-o FILE): their readers vary too
for i, j, cmd, _, want_rc in blocks(lines):
    out += lines[last:i]
    last = j + 1
    if check and LIVE.search(cmd):
        skipped += 1
        live_files.update(re.findall(r'(?:^| )-o ?(\S+)', cmd))
        print('  not compared (live or writes files): $ %s' % cmd[:100])
        continue
    if check and any(re.search(r'(^| )%s( |$)' % re.escape(f), cmd) for f in live_files):
        skipped += 1
        print('  not compared (reads what a live command wrote): $ %s' % cmd[:100])
        continue
    er = early_reader(cmd)
    if er:
        bad += 1
        print('  EARLY READER "%s": its writer may die of SIGPIPE (a race under pipefail): $ %s'
              % (er, cmd[:120]))
        continue
    # one stream, as a terminal shows it: stderr where it was written
    res = subprocess.run(['bash', '-o', 'pipefail', '-c', cmd], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    text = res.stdout.rstrip('\n')
    new = text.split('\n') if text else []
    if res.returncode != want_rc:
        bad += 1
        print('  EXIT %d, the block expects %d: $ %s' % (res.returncode, want_rc, cmd[:120]))
        for line in new[-3:]:
            print('    ' + line[:150])
    if check:
        want = shown.get(cmd, [None]).pop(0) if shown.get(cmd) else None
        if want != new:
            bad += 1
            print('  DIFFERS: $ %s' % cmd[:120])
            for k, (a, b) in enumerate(zip(want or [], new)):
                if a != b:
                    print('    page line %d: %s\n    now:         %s' % (k + 1, a[:150], b[:150]))
                    break
            else:
                print('    page %s lines, now %d' % (len(want) if want is not None else 'no block:', len(new)))
        else:
            same += 1
    out += ['```console' + (' exit=%d' % want_rc if want_rc else ''), '$ ' + cmd] + new + ['```']
out += lines[last:]
if check:
    print('%s: %d commands print what the page shows, %d differ, %d not compared' %
          (dst, same, bad, skipped))
    sys.exit(1 if bad else 0)
if bad:
    print('%s: %d commands exited other than their blocks say: not written' % (dst, bad))
    sys.exit(1)
open(dst, 'w').write('<!-- generated from %s by scripts/host/gen-docs: edit that file -->\n' % src.split('/')[-1] + '\n'.join(out))
print('wrote %s' % dst)
