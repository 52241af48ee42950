# SPDX-License-Identifier: GPL-2.0
# The KernelShark plugin, in KernelShark: real traces opened under Xvfb
# (scripts/host/kshark-shot).  Two witnesses that it drew: its own log
# (ENTRYTRACE_KSHARK_LOG: what it loaded, how many shapes each graph got)
# and the screenshots, which must show its stage colours in the graph pane.
# The same screens without the plugin show none of those colours, and a
# trace without lost events shows no lost-red, so the pixel checks can fail.
# weight: 81
. "$TOP/analyzer/tests/lib.sh"

"$TOP/scripts/setup" --tests >/dev/null || { _fail "scripts/setup --tests"; exit 0; }
check "plugin builds (make kshark)" make -s -C "$TOP" kshark
PLUGIN=$TOP/build/plugin-entrytrace.so
[ -r "$PLUGIN" ] || exit 0
SHOT=$TOP/scripts/host/kshark-shot
GETPPID=$DATA/host-kill-getppid.dat
LOST=$DATA/host-lost.dat
PID=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' "$DATA/host-kill-getppid.expect" | head -1)

RANGE=866.844440,866.844458	# 18 us of the kill(self, SIGUSR1) loop

# Colours from the plugin's palette (Documentation/kernelshark.md).
GREY=7d8a9a	# the syscall box (total)
YELLOW=fee090	# signal_exit
RED=ff0000	# the outline of a syscall that crossed lost events
LABEL=ffffc8	# the text box of a double-clicked box

# px PNG HEX...: pixels of each colour in the graph pane (rows 90..300)
px() {
	local png=$1
	shift
	convert "$png" -crop 1600x210+0+90 +repage -depth 8 rgb:- |
		python3 -c '
import collections, sys
d = sys.stdin.buffer.read()
n = collections.Counter(zip(d[0::3], d[1::3], d[2::3]))
print(" ".join(str(n[tuple(bytes.fromhex(c))]) for c in sys.argv[1:]))' "$@"
}

# logged KEY LOG: the value of KEY= on the load line
logged() { sed -n "s/^load .* $1=\([^ ]*\).*/\1/p" "$2" | head -1; }
# drawn LOG FIELD: sum of FIELD= over the draw lines
drawn() {
	awk -v f="$2" '$1 == "draw" { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == f) n += kv[2] } } END { print n + 0 }' "$1"
}

# 1. A CPU and a task graph, zoomed in; then double-click a signal_exit box.
export ENTRYTRACE_KSHARK_LOG=$TMP/zoom.log
check "kernelshark -p plugin: task plot, zoomed, double-click" \
	"$SHOT" -t "$PID" -r $RANGE "$GETPPID" \
	shot:"$TMP/zoom.png" "click:#$YELLOW" shot:"$TMP/click.png"
$ET report --json "$GETPPID" > "$TMP/getppid.json"
expect_eq "plugin saw the analyzer's syscalls" "$(logged syscalls "$TMP/zoom.log")" \
	"$(jget "$TMP/getppid.json" "d['files'][0]['syscalls']['seen']")"
expect_eq "plugin mode" "$(logged mode "$TMP/zoom.log")" stock
check "CPU graph drawn" grep -q "^draw stream=0 cpu=0 shapes=[1-9]" "$TMP/zoom.log"
check "task graph drawn" grep -q "^draw stream=0 pid=$PID shapes=[1-9]" "$TMP/zoom.log"
read -r grey yellow red label < <(px "$TMP/zoom.png" $GREY $YELLOW $RED $LABEL)
check "syscall boxes on screen ($grey px #$GREY)" test "$grey" -gt 1000
check "signal_exit boxes on screen ($yellow px #$YELLOW)" test "$yellow" -gt 200
expect_eq "no lost outline without lost events (#$RED px)" "$red" 0
click=$(sed -n 's/^click //p' "$TMP/zoom.log" | head -1)
check "click reported: $click" \
	grep -Eq "^click kill pid $PID: signal_exit [0-9]+ ns at 866\.8444" "$TMP/zoom.log"
read -r after < <(px "$TMP/click.png" $LABEL)
check "clicked box's text shown ($label -> $after px #$LABEL)" \
	test "$label" -eq 0 -a "$after" -gt 500
# a stock kernel's signal_exit runs from sys_exit to signal_deliver: both
# ends are events, so the markers sit exactly on them
expect_eq "markers A and B on the stage's own start and end (offsets in ns)" \
	"$(sed -n 's/^markers .* offset_a=\(-*[0-9]*\) offset_b=\(-*[0-9]*\)/\1 \2/p' "$TMP/zoom.log" | head -1)" "0 0"
check "the stage row is taller than before (stage_h=$(sed -n 's/.* stage_h=\([0-9]*\).*/\1/p' "$TMP/zoom.log" | head -1) px of a $(sed -n 's/.* height=\([0-9]*\) .*/\1/p' "$TMP/zoom.log" | head -1) px graph)" \
	awk '/^draw/ { split($0, a, "stage_h="); split($0, h, "height="); if (a[2] + 0 < 0.5 * (h[2] + 0)) bad++; n++ } END { exit !(n && !bad) }' "$TMP/zoom.log"
check "a legend above the graphs (the stages drawn)" grep -q '^draw .* legend=[1-9]' "$TMP/zoom.log"

# 2. The same screen without the plugin: none of its colours.
unset ENTRYTRACE_KSHARK_LOG
check "kernelshark, no plugin: the same view" \
	"$SHOT" -p none -t "$PID" -r $RANGE "$GETPPID" shot:"$TMP/bare.png"
expect_eq "no plugin: no #$GREY, #$YELLOW, #$RED, #$LABEL pixels" \
	"$(px "$TMP/bare.png" $GREY $YELLOW $RED $LABEL)" "0 0 0 0"

# 3. `kernelshark -p plugin trace.dat` on lost events: the whole trace in
# one CPU graph, and the syscall that crossed the gap outlined in red.
export ENTRYTRACE_KSHARK_LOG=$TMP/lost.log
check "kernelshark -p plugin host-lost.dat" \
	"$SHOT" -p "$PLUGIN" "$LOST" shot:"$TMP/lost.png"
$ET report --json "$LOST" > "$TMP/lost.json"
expect_eq "plugin's lost syscalls = the analyzer's" "$(logged lost "$TMP/lost.log")" \
	"$(jget "$TMP/lost.json" "d['files'][0]['syscalls']['flagged']['lost']")"
# The last paint: shapes=N lost=L ... x=FIRST..LAST, for rows= rows.
read -r shapes nlost x0 x1 < <(awk '$1 == "draw" { line = $0 } END {
	gsub(/[a-z_]+=|\.\./, " ", line); split(line, f, " ");
	print f[4], f[5], f[8], f[9] }' "$TMP/lost.log")
max=$(( (x1 - x0 + 2) * $(logged rows "$TMP/lost.log") + nlost ))
check "zoomed out: $(logged boxes "$TMP/lost.log") boxes in $shapes shapes (<= $max: one per pixel and row)" \
	test "$shapes" -gt 100 -a "$shapes" -le "$max"
check "lost syscall drawn" test "$(drawn "$TMP/lost.log" lost)" -gt 0
read -r grey red < <(px "$TMP/lost.png" $GREY $RED)
check "syscall boxes on screen ($grey px #$GREY)" test "$grey" -gt 1000
check "lost outline on screen ($red px #$RED)" test "$red" -gt 5

# An entrytrace kernel's recording, if the fixtures have one.
stage=$(ls "$DATA"/x86_64-*-stage.dat 2>/dev/null | head -1)
if [ -n "$stage" ]; then
	export ENTRYTRACE_KSHARK_LOG=$TMP/stage.log
	check "kernelshark -p plugin $(basename "$stage")" \
		"$SHOT" -p "$PLUGIN" "$stage" shot:"$TMP/stage.png"
	expect_eq "stage fixture mode" "$(logged mode "$TMP/stage.log")" stages
	check "stage rows under the syscalls" test "$(logged rows "$TMP/stage.log")" -ge 2
	check "stage boxes drawn" test "$(drawn "$TMP/stage.log" shapes)" -gt 0
	read -r body < <(px "$TMP/stage.png" 33a02c)
	check "syscall-body stage boxes on screen ($body px #33a02c)" test "$body" -gt 0

	# zoomed in on one kill(SIGUSR1): stage names inside the boxes, and a
	# double click on the signal stage (inside exit_loop: the inner one wins)
	# (the first signal stage the analyzer's export draws: task, place, time)
	"$ET" export -o "$TMP/stagex.json" "$DATA/x86_64-6.12-stage.dat" 2>/dev/null
	read -r sig_tid sig_lo sig_hi sig_ns sig_at < <(python3 -c '
import json, sys
e = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "stage" and e["name"] == "signal"][0]
print(e["tid"], "%.6f" % ((e["ts"] - 8) / 1e6), "%.6f" % ((e["ts"] + e["dur"] + 8) / 1e6),
      e["args"]["ns"], "%.9f" % (e["ts"] / 1e6))' "$TMP/stagex.json")
	export ENTRYTRACE_KSHARK_LOG=$TMP/stagez.log
	check "kernelshark: a stage-mode kill, zoomed in, double-click its signal stage" \
		"$SHOT" -t "$sig_tid" -r "$sig_lo,$sig_hi" "$DATA/x86_64-6.12-stage.dat" \
		shot:"$TMP/stagez.png" "click:#ffd92f" shot:"$TMP/stagez-click.png"
	check "stage names drawn inside the boxes wide enough" grep -q '^draw .* labels=[1-9]' "$TMP/stagez.log"
	check "the double click picked the inner stage: $(sed -n 's/^click //p' "$TMP/stagez.log" | head -1)" \
		grep -q "^click kill pid $sig_tid: signal $sig_ns ns at ${sig_at%?}" "$TMP/stagez.log"
	# its stamps are the kernel's: no event lies on them, so the markers go
	# to the nearest events, which trace-cmd report -t agrees are the nearest
	read -r ma mb s0 s1 < <(sed -n 's/^markers A=\([0-9]*\) B=\([0-9]*\) start=\([0-9]*\) end=\([0-9]*\).*/\1 \2 \3 \4/p' "$TMP/stagez.log" | head -1)
	trace-cmd report -t "$DATA/x86_64-6.12-stage.dat" 2>/dev/null |
		awk '$3 ~ /^[0-9.]+:$/ { t = $3; sub(":", "", t); split(t, p, "."); print p[1] p[2] }' > "$TMP/ts.txt"
	expect_eq "markers: the events nearest to the stage's start and end (trace-cmd report -t)" "$ma $mb" \
		"$(awk -v s="$s0" -v e="$s1" 'function d(x, y) { return x > y ? x - y : y - x }
			{ if (!n++ || d($1, s) < d(a, s)) a = $1; if (n == 1 || d($1, e) < d(b, e)) b = $1 }
			END { print a, b }' "$TMP/ts.txt")"
	check "...and the text says how far off they are" \
		grep -q "markers on the nearest events, $(printf %+d $((ma - s0))) ns and $(printf %+d $((mb - s1))) ns off" "$TMP/stagez.log"
else
	_fail "no analyzer/tests/data/x86_64-*-stage.dat: the stage-mode screen cannot be checked"
fi

# The documented legend is the plugin's palette: every row is the colour the
# plugin draws, and every colour of the plugin's own has its row.  A stage
# drawn in its phase's colour (the log's "(phase default)": one appended to
# stages.def and given no colour yet) may have a row or not.
grep '^palette ' "$TMP/zoom.log" | awk '{ print $2, $3 }' | sort > "$TMP/palette"
grep '^palette ' "$TMP/zoom.log" | grep -v '(phase default)' | awk '{ print $2, $3 }' | sort > "$TMP/palette-own"
sed -n 's/^| `\([a-z_]*\)` *| `\(#[0-9a-f]\{6\}\)`.*/\1 \2/p' \
	"$TOP/Documentation/kernelshark.md" | sort > "$TMP/legend"
check "Documentation/kernelshark.md: every legend row is the plugin's colour ($(wc -l < "$TMP/legend") rows)" \
	test -z "$(comm -23 "$TMP/legend" "$TMP/palette")"
check "...and every colour of the plugin's own has a row ($(wc -l < "$TMP/palette-own") of $(wc -l < "$TMP/palette"))" \
	test -z "$(comm -13 "$TMP/legend" "$TMP/palette-own")" -a -s "$TMP/palette-own"

# kernelshark.md's two commands as the page writes them: each exits 0 and
# saves a screen that is not blank (the stage one had gone stale: a task
# and range of an earlier recording, KernelShark aborted, and the shot
# was a black 232-byte PNG with exit 0).
sed -n '/^    scripts\/host\/kshark-shot/,/shot:/p' "$TOP/Documentation/kernelshark.md" |
	tr -d '\\\n' | sed 's/shot:[^ ]*/\n/g' | sed 's/^ *//' | grep kshark-shot > doc-cmds.txt
expect_eq "kernelshark.md names two kshark-shot commands" "$(wc -l < doc-cmds.txt)" 2
n=0
while read -r cmd; do
	n=$((n + 1))
	(cd "$TOP" && eval "$cmd shot:$OLDPWD/doc-$n.png") > doc-$n.out 2>&1
	rc=$?
	expect_eq "kernelshark.md command $n exits 0 ($(echo "$cmd" | cut -c1-70)...)" "$rc" 0
	check "...and its screen has colours ($(convert doc-$n.png -format %k info: 2>/dev/null) of them)" \
		sh -c "test \$(convert doc-$n.png -format %k info:) -ge 100"
done < doc-cmds.txt

# A KernelShark that aborts (a session naming task 46 and a range of an
# earlier recording of x86_64-6.12-stage.dat): exit 1, said, no file.
rm -f abort.png
"$SHOT" -g 1240x520 -t 46 -r 1.343578,1.343598 "$DATA/x86_64-6.12-stage.dat" shot:abort.png > abort.out 2>&1
expect_eq "kshark-shot: KernelShark aborted: exit 1" "$?" 1
check "...said why (gone, or never connected)" grep -Eq 'kernelshark (is gone|exited|could not connect)' abort.out
check "...and no screenshot written" test ! -e abort.png
