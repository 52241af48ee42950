# SPDX-License-Identifier: GPL-2.0
# One JSON string writer for report, diff and export, tested with hostile
# task names on a live recording: a task renames itself (prctl) to a name
# with a quote, a backslash, control characters, a UTF-8 letter and bytes
# that are not UTF-8, and two threads run syscalls; the JSON of every
# command must load and carry the name byte for byte, and export must put
# the threads in their process.
. "$(dirname "$0")/lib.sh"

cat > hostile.py <<'PY'
import ctypes, os, sys, threading
libc = ctypes.CDLL(None)
name = b'a"b\\c\x01\x1f\xc3\xa9\xff\x7f<'
libc.prctl(15, ctypes.c_char_p(name), 0, 0, 0)      # PR_SET_NAME
for _ in range(200):
    os.getppid()
def work():
    for _ in range(100):
        os.getppid()
ts = [threading.Thread(target=work) for _ in range(2)]
for t in ts: t.start()
for t in ts: t.join()
print("pid=%d" % os.getpid(), flush=True)
PY
"$ET" record -q -o h.dat -- python3 hostile.py > h.out 2> h.err || { _fail "record: $(tail -3 h.err)"; exit 0; }
pid=$(sed -n 's/^pid=//p' h.out)
# what a JSON reader must get back: the name text (lib/escape.c) - valid
# printable UTF-8 as is, a backslash doubled, any other byte \xNN - from
# which the bytes can be recovered
want=$(python3 -c "print(repr('a\"b' + '\\\\' * 2 + 'c' + '\\\\x01' + '\\\\x1f' + '\u00e9' + '\\\\xff' + '\\\\x7f' + '<'))")
check "...and the bytes come back from it" python3 -c "
import re, sys
t = $want
b = re.sub(rb'\\\\(\\\\|x([0-9a-f]{2}))', lambda m: b'\\\\' if m.group(1) == b'\\\\' else bytes([int(m.group(2), 16)]), t.encode())
sys.exit(b != b'a\"b\\\\c\x01\x1f\xc3\xa9\xff\x7f<')"

"$ET" report --json --show-excluded -p "$pid" h.dat > r.json
check "report --json loads" python3 -m json.tool r.json
expect_eq "report: the renamed task's name, byte for byte" \
	"$(jget r.json "repr(sorted(set(g['comm'] for g in d['breakdown']['pid'] if g['syscall'] == 'getppid' and g['pid'] == $pid))[0])")" "$want"
"$ET" export -o e.json -p "$pid" h.dat 2> e.err
check "export loads (the name used to go out unescaped)" python3 -m json.tool e.json
expect_eq "export: the thread track is renamed to it" \
	"$(jget e.json "[repr(e['args']['name'].rsplit('-', 1)[0]) for e in d['traceEvents'] if e['ph'] == 'M' and e['name'] == 'thread_name' and e['tid'] == $pid][-1]")" "$want"
"$ET" export -o all.json h.dat 2> all.err
expect_eq "export: both threads' getppid slices are in the process (pid $pid, two other tids)" \
	"$(jget all.json "sorted(set((e['pid'] == $pid, e['tid'] != $pid) for e in d['traceEvents'] if e.get('cat') == 'syscall' and e['name'] == 'getppid' and e['tid'] != $pid and e['pid'] == $pid))")" "[(True, True)]"
expect_eq "export: threads with their own tid, one process" \
	"$(jget all.json "len(set(e['tid'] for e in d['traceEvents'] if e.get('cat') == 'syscall' and e['pid'] == $pid))")" 3
check "export says how many tasks it could group" grep -q 'thread groups known for' all.err
"$ET" export -o kg.json "$DATA/x86_64-6.12-stage.dat" 2> kg.err
check "a trace without task_newtask or exec: export says each thread is its own process" \
	grep -q 'does not say which threads share a process' kg.err

# Every other JSON writer goes through the same function.
check "render.c, render_diff.c and export have no JSON string writer of their own" \
	sh -c "! grep -n 'static void json_str' '$TOP'/analyzer/lib/render*.c '$TOP'/analyzer/builtin-*.c"
"$ET" report --json h.dat > all-r.json
check "report --json of the whole recording loads" python3 -m json.tool all-r.json

# export accounts for every syscall: written, or counted as not written.
for f in "$DATA"/host-edges.dat "$DATA"/x86_64-6.12-stage.dat; do
	n=$(basename "$f" .dat)
	"$ET" export -o "$n.json" "$f" 2> "$n.err"
	"$ET" report --json "$f" > "$n.r.json"
	read -r written none filt < <(sed -n 's/.*: \([0-9]*\) syscalls .*not exported: \([0-9]*\) without .*, \([0-9]*\) filtered out/\1 \2 \3/p' "$n.err")
	expect_eq "$n: exported + not exported = the syscalls the report saw" \
		"$((written + none + filt))" "$(jget "$n.r.json" "d['files'][0]['syscalls']['seen']")"
	expect_eq "$n: open_start syscalls exported are flagged incomplete, as --help says" \
		"$(jget "$n.json" "set(e['args']['complete'] for e in d['traceEvents'] if e.get('cat') == 'syscall' and 'open_start' in e['args']['flags']) <= {False}")" True
done
check "export --help says syscalls open at the start are drawn from their first stage" \
	grep -q "open at the start of the trace" <("$ET" export --help)
