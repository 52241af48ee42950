# SPDX-License-Identifier: GPL-2.0
# Bad input and bad usage: one clear line on stderr, the documented exit code,
# never a report that looks complete.
. "$(dirname "$0")/lib.sh"

f=$DATA/host-kill-getppid.dat

expect_exit "no arguments" 2 "$ET"
expect_exit "unknown command" 2 "$ET" frobnicate
expect_exit "report without a file" 2 "$ET" report
expect_exit "unknown option" 2 "$ET" report --frob "$f"
expect_exit "bad --format" 2 "$ET" report --format=xml "$f"
expect_exit "unknown --stage" 2 "$ET" report -S nosuchstage "$f"
expect_exit "bad --time-window" 2 "$ET" report -w 5 "$f"
expect_exit "reversed --time-window" 2 "$ET" report -w 5,1 "$f"
expect_exit "syscall name unknown on the trace's arch" 2 "$ET" report -s nosuchcall "$f"
expect_exit "--mode the file cannot do" 4 "$ET" report --mode=stages "$f"
check "--help exits 0" "$ET" report --help
check "--help documents the exit codes" grep -q "exit status" <("$ET" report --help)
check "entrytrace --help lists report" grep -q "report" <("$ET" --help)
check "entrytrace help report = report --help" cmp <("$ET" help report) <("$ET" report --help)

expect_exit "missing file" 3 "$ET" report /nonexistent/trace.dat
expect_exit "a directory" 3 "$ET" report "$DATA"
: > empty.dat
expect_exit "an empty file" 3 "$ET" report empty.dat
printf 'not a trace at all\n' > text.dat
expect_exit "not a trace.dat" 3 "$ET" report text.dat
head -c 4096 "$f" > head.dat
expect_exit "v7 cut after 4 KB" 3 "$ET" report head.dat
size=$(stat -c %s "$f")
head -c $((size / 2)) "$f" > half.dat
expect_exit "v7 cut in half" 3 "$ET" report half.dat
trace-cmd convert --file-version 6 --compression none -i "$f" -o v6.dat >/dev/null 2>&1
size=$(stat -c %s v6.dat)
head -c $((size * 8 / 10)) v6.dat > v6cut.dat
expect_exit "v6 cut inside the CPU data (libtracecmd alone would crash here)" 3 "$ET" report v6cut.dat
expect_exit "one bad file among good ones fails the whole report" 3 "$ET" report "$f" half.dat
"$ET" report "$f" half.dat > partial.txt 2>/dev/null
expect_eq "...and prints no partial table" "$(wc -c < partial.txt)" 0

# A real trace without syscall events (only sched_switch): exit 4.
if scripts_ok=$("$TOP/scripts/host/record-host" -E sched:sched_switch -o nosys.dat -- /bin/true 2>&1); then
	expect_exit "a trace with no syscall events" 4 "$ET" report nosys.dat
else
	_fail "could not record a sched-only trace: $scripts_ok"
fi

# Two architectures: their syscall numbers are different tables, so their
# cells must not be merged or compared.
ppc=$DATA/ppc64le-6.12-compact.dat
x86=$DATA/x86_64-6.12-compact.dat
if [ -f "$ppc" ] && [ -f "$x86" ]; then
	expect_exit "report of an x86_64 and a ppc64le file together" 2 "$ET" report "$x86" "$ppc"
	expect_exit "diff of an x86_64 base against a ppc64le test" 2 "$ET" diff "$x86" "$ppc"
	"$ET" report --json -s getppid "$ppc" > ppc.json
	expect_eq "a ppc64le trace read here names its syscalls by ppc64's table (getppid = 64)" \
		"$(jget ppc.json "sorted(set(c['nr'] for c in d['cells']))")" "[64]"
else
	_fail "ppc64le-6.12 and x86_64-6.12 compact fixtures missing"
fi

# A bad option value: one line naming the value (and a pointer to --help),
# not the whole usage text.
short_bad() {
	local desc=$1 value=$2 err rc
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -le 2 ] &&
	   printf '%s\n' "$err" | head -1 | grep -qF -- "'$value'"; then
		_pass "$desc: exit 2 in one line ($(printf '%s' "$err" | head -1 | cut -c1-90))"
	else
		_fail "$desc: exit $rc, $(printf '%s\n' "$err" | wc -l) lines: $(printf '%s' "$err" | head -2)"
	fi
}
short_bad "report --time-window abc" abc "$ET" report --time-window abc "$f"
short_bad "report -j 0" 0 "$ET" report -j 0 "$f"
short_bad "report --mode bogus" bogus "$ET" report --mode bogus "$f"
short_bad "report --format xml" xml "$ET" report --format xml "$f"
short_bad "diff --fail-on without a unit" 'getppid:total>2' "$ET" diff --fail-on 'getppid:total>2' "$f" "$f"
short_bad "diff --alpha 2" 2 "$ET" diff --alpha 2 "$f" "$f"
short_bad "export --format svg" svg "$ET" export --format svg "$f"
short_bad "top -d 0" 0 "$ET" top -d 0
short_bad "record -b x" x "$ET" record -b x -- true
# numbers taken whole: the session-start build accepted every one of these
# (a truncated int, a wrapped unsigned, an infinite duration, a NaN window)
short_bad "report --top past int" 9999999999 "$ET" report --top 9999999999 "$f"
short_bad "report --slowest with a blank" ' 5' "$ET" report --slowest ' 5' "$f"
short_bad "report --pid past int" 99999999999 "$ET" report --pid 99999999999 "$f"
# the --pid/--cpu lists' items as whole as any number (the build before
# this one took ' 5' as 5, and an empty list as no filter at all)
short_bad "report --pid with a blank" ' 5' "$ET" report --pid ' 5' "$f"
short_bad "report --cpu with a blank after the comma" '0, 1' "$ET" report --cpu '0, 1' "$f"
short_bad "report --pid with no pid" '' "$ET" report --pid '' "$f"
short_bad "report --cpu with no cpu" ',' "$ET" report --cpu , "$f"
short_bad "report --time-window with no start" ',5' "$ET" report --time-window ,5 "$f"
short_bad "report --time-window ending at NaN" '1,nan' "$ET" report --time-window 1,nan "$f"
short_bad "diff --seed -1" -1 "$ET" diff --seed -1 "$f" "$f"
short_bad "diff --top past int" 99999999999 "$ET" diff --top 99999999999 "$f" "$f"
short_bad "list --min-dur inf" inf "$ET" list --min-dur inf "$f"
short_bad "list --min-dur past 2^64 ns" 1e30s "$ET" list --min-dur 1e30s "$f"
short_bad "record -b -5 (not 2^64 - 5 KB)" -5 "$ET" record -b -5 -- true
short_bad "top -d nan" nan "$ET" top -d nan
# ranges of a command's option table (struct et_optdef: list, diff)
short_bad "list --slowest 0 (1 to 100000)" 0 "$ET" list --slowest 0 "$f"
short_bad "diff --bootstrap 99 (100 to 1000000)" 99 "$ET" diff --bootstrap 99 "$f" "$f"
short_bad "diff --threshold 100 (0 to 100, 100 left out)" 100 "$ET" diff --threshold 100 "$f" "$f"
short_bad "diff --min-count -1" -1 "$ET" diff --min-count -1 "$f" "$f"

# A time window outside the trace says where the trace is.
read -r t0 t1 < <(trace-cmd report "$f" 2>/dev/null | awk '$3 ~ /^[0-9.]+:$/ { t = $3; sub(":", "", t); if (!a) a = t; b = t } END { print a, b }')
err=$("$ET" report -w 0,1 "$f" 2>&1 >/dev/null)
check "a window outside the trace names the trace's own range ($t0 .. $t1 by trace-cmd report)" \
	grep -q -- "--time-window 0,1: the trace runs from $t0 to $t1 s" <<< "$err"

# Standard input ("-") and pipes: copied to a temporary file first (libtracecmd
# maps and seeks), so they read like the file itself.
"$ET" report --csv "$f" > file.csv
cat "$f" | "$ET" report --csv - > stdin.csv
check "report - reads a trace.dat from a pipe on standard input, as the file" cmp file.csv stdin.csv
cat "$f" | "$ET" report -j 2 --csv - > stdin2.csv
check "...with two reader threads too" cmp file.csv stdin2.csv
mkfifo fifo.dat
cat "$f" > fifo.dat &
"$ET" report --csv fifo.dat > fifo.csv
wait
check "a FIFO reads as the file" cmp file.csv fifo.csv
expect_exit "an empty standard input: exit 3" 3 sh -c ": | '$ET' report -"
check "...named as standard input, not as a temporary file" grep -q '^entrytrace report: standard input: empty file$' \
	<(: | "$ET" report - 2>&1)
cat "$f" | "$ET" export -o stdin.json - 2>/dev/null
check "export - works" python3 -m json.tool stdin.json
expect_exit "diff - FILE: a pipe as the base" 0 sh -c "cat '$f' | '$ET' diff - '$f' > /dev/null && echo compared >&2"
