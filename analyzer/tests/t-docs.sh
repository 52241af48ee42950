# SPDX-License-Identifier: GPL-2.0
# The documentation says what the program does: the man page is generated
# from the --help texts and renders without warnings, every option each
# command accepts is in its --help and in the man page, and every command
# the generated pages show still prints what they show (scripts/host/gen-docs
# --check; commands that record or watch the host live are named, not
# compared).
# weight: 111
. "$(dirname "$0")/lib.sh"

man=$TOP/Documentation/entrytrace.1
check "the man page is what scripts/gen-man makes of entrytrace.1.in and --help" \
	"$TOP/scripts/gen-man" --check "$ET"
groff -man -Tutf8 -ww -z "$man" > groff.txt 2>&1
expect_eq "groff -ww renders it without a warning" "$(cat groff.txt)" ""
MANWIDTH=100 man -l "$man" 2>/dev/null > man.txt
check "the rendered page has the sections of every command" \
	sh -c "for s in REPORT LIST DIFF ANNOTATE EXPORT RECORD TOP KIT 'EXIT STATUS'; do grep -q \"^\$s\" man.txt || exit 1; done"
check "no roff request leaked into the text (.IR, .BR, .TP)" sh -c "! grep -nE '(^|[^a-z])\\.(IR|BR|TP|B|I)( |$)' man.txt"

# every long option of every command: in its et_optdef table (the source),
# in --help and in that command's section of the man page
python3 - "$TOP/analyzer" "$ET" man.txt > opts.txt 2> opts.err <<'PY'
import re, subprocess, sys
src, et, mantxt = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
hdr = open(src + '/builtin.h').read()
def macro_opts(name):
    m = re.search(r'#define ' + name + r'\b(.*?)(?<!\\)\n', hdr, re.S)
    if not m:
        sys.exit('builtin.h: no ' + name)
    return set(re.findall(r'\{ "([a-z-]+)",', m.group(1)))
shared = {n: macro_opts(n) for n in ('ET_COMMON_LONGOPTS', 'ET_FORMAT_LONGOPTS')}
sections = {}
heads = list(re.finditer(r'^([A-Z][A-Z ]*[A-Z])$', mantxt, re.M))
for k, m in enumerate(heads):
    end = heads[k + 1].start() if k + 1 < len(heads) else len(mantxt)
    sections[m.group(1)] = mantxt[m.start():end]
for cmd in ('report', 'list', 'diff', 'export', 'record', 'top', 'annotate', 'kit'):
    code = open('%s/builtin-%s.c' % (src, cmd)).read()
    defs = re.search(r'struct et_optdef \w+\[\]', code)
    if defs:
        # a command's option table (optable.c): its names, and what
        # et_next_option() adds: -h, the common options unless own_only,
        # and -o and the formats when its command line has them
        table = code[defs.start():]
        table = table[:table.index('};')]
        opts = set(re.findall(r'\.name = "([a-z-]+)"', table))
        cl = re.search(r'struct et_cmdline cl = \{([^}]*)\}', code).group(1)
        opts |= {'help'} if '.own_only' in cl else shared['ET_COMMON_LONGOPTS'] | {'help'}
        if '.fmt' in cl:
            opts |= shared['ET_FORMAT_LONGOPTS']
        if '.output' in cl:
            opts.add('output')
    else:
        # every command's options are a table now: a getopt table of its
        # own would be a second place for its options and their help
        sys.exit('builtin-%s.c: no struct et_optdef table' % cmd)
    if re.search(r'struct option \w+\[\]', code):
        sys.exit('builtin-%s.c: a getopt table beside its et_optdef one' % cmd)
    helptext = subprocess.run([et, cmd, '--help'], capture_output=True, text=True).stdout
    sec = sections.get(cmd.upper(), '')
    for o in sorted(opts):
        print(cmd, o, int(('--' + o) in helptext), int(('--' + o) in sec.replace('\u2010', '-')))
PY
expect_eq "the option tables were read without an error" "$(cat opts.err)" ""
check "...over 60 options of 8 commands ($(wc -l < opts.txt))" \
	sh -c "test \$(wc -l < opts.txt) -gt 60 && test \$(cut -d' ' -f1 opts.txt | sort -u | wc -l) = 8"
expect_eq "every option is in its command's --help" "$(awk '$3 == 0 { print $1, "--" $2 }' opts.txt | tr '\n' ' ')" ""
expect_eq "every option is in its command's section of the man page" \
	"$(awk '$4 == 0 { print $1, "--" $2 }' opts.txt | tr '\n' ' ')" ""
check "...among them the ones the page missed (--raw-stamps, record -q, top --breakdown)" \
	sh -c "grep -q '^report raw-stamps 1 1' opts.txt && grep -q '^record quiet 1 1' opts.txt && grep -q '^top breakdown 1 1' opts.txt"
check "the man page names the summary event as the kernel does (entry_stage_summary)" \
	sh -c "! grep -q 'entry_stage:summary' '$man'"

# every documented command prints what its page shows
"$TOP/scripts/host/gen-docs" --check > docs.txt 2>&1
rc=$?
sed 's/^/#   /' docs.txt | grep -E 'DIFFERS|EXIT|EARLY|page line|now:|print what|stale' | head -40
expect_eq "gen-docs --check: every compared command prints what its page shows" "$rc" 0
check "...and it compared commands in every generated page" \
	sh -c "n=\$(grep -c 'commands print what the page shows' docs.txt); test \"\$n\" -ge 4"
check "...over 90 of them" \
	awk '/commands print what the page shows/ { n += $2 } END { exit !(n > 90) }' docs.txt

# A block's command runs under bash with pipefail and must exit as its
# block says (```console exit=N; 0 if it says nothing): an example that
# prints an error is refused, not shown as output that reproduces.
mkdir -p gd && printf '%s\n' '# planted' '' '```console' '$ entrytrace report analyzer/tests/data/nothing-{1,2}.dat' '```' > gd/bad.md.in
printf '%s\n' '# planted' '' '```console exit=3' '$ entrytrace report /nonexistent.dat' '```' > gd/ok.md.in
printf '%s\n' '# planted' '' '```console' "\$ printf 'a\\nb\\n' | false | cat" '```' > gd/pipe.md.in
(cd "$TOP" && PATH=$TOP/analyzer:$PATH python3 scripts/lib/py/gen-docs.py "$OLDPWD/gd/bad.md.in" "$OLDPWD/gd/bad.md" 0) > gd/bad.txt 2>&1
expect_eq "gen-docs refuses a block whose command fails unexpectedly (exit 1)" "$?" 1
check "...naming its exit and the block's" grep -q 'EXIT [0-9]*, the block expects 0' gd/bad.txt
check "...and writes no page" test ! -e gd/bad.md
(cd "$TOP" && PATH=$TOP/analyzer:$PATH python3 scripts/lib/py/gen-docs.py "$OLDPWD/gd/ok.md.in" "$OLDPWD/gd/ok.md" 0) > gd/ok.txt 2>&1
expect_eq "a block that names its exit (exit=3) is written" "$?" 0
check "...keeping exit=3 on its opening line" grep -qx '```console exit=3' gd/ok.md
(cd "$TOP" && python3 scripts/lib/py/gen-docs.py "$OLDPWD/gd/pipe.md.in" "$OLDPWD/gd/pipe.md" 0) > gd/pipe.txt 2>&1
expect_eq "pipefail: a failure inside a pipeline is one too" "$?" 1
printf '%s\n' '# planted' '' '```console' "\$ seq 3 | awk '{ print; exit }'" '```' > gd/early.md.in
(cd "$TOP" && python3 scripts/lib/py/gen-docs.py "$OLDPWD/gd/early.md.in" "$OLDPWD/gd/early.md" 0) > gd/early.txt 2>&1
expect_eq "a reader that stops early (awk's exit: SIGPIPE is a race) is refused" "$?" 1
check "...naming the reader" grep -q 'EARLY READER "awk' gd/early.txt
# sed's q in its forms, and a q that is not one
for c in "sed 5q" "sed -n '/2/{p;q}'" "sed '/2/q'" "sed -e 's/1/x/' -e q" "sed 's/q/x/'"; do
	printf '%s\n' '# planted' '' '```console' "\$ seq 3 | $c" '```' > gd/sed.md.in
	(cd "$TOP" && python3 scripts/lib/py/gen-docs.py "$OLDPWD/gd/sed.md.in" "$OLDPWD/gd/sed.md" 0) > gd/sed.txt 2>&1
	rc=$?
	case "$c" in
	*s/q/x/*) expect_eq "a sed whose q is inside s/// is no early reader ($c)" "$rc:$(grep -c EARLY gd/sed.txt)" "0:0" ;;
	*) expect_eq "sed's quit is an early reader, refused ($c)" "$rc:$(grep -c 'EARLY READER "sed' gd/sed.txt)" "1:1" ;;
	esac
done
check "gen-docs --check: Documentation/stages.md is what tracepoints/stages.def gives" \
	grep -qx 'Documentation/stages.md is current' docs.txt
# A generated page's own text is its template's: an edit made to the page
# (edb2002's to design.md) would be lost at the next gen-docs, so --check
# fails on it, and on nothing else of the page.
cp "$TOP/Documentation/kit.md.in" gd/prose.md.in
sed '5s/$/ PLANTED/' "$TOP/Documentation/kit.md" > gd/prose.md
rc=0
(cd "$TOP" && PATH=$TOP/analyzer:$PATH python3 scripts/lib/py/gen-docs.py "$OLDPWD/gd/prose.md.in" "$OLDPWD/gd/prose.md" 1) > gd/prose.txt 2>&1 || rc=$?
check "gen-docs --check: a page edited by hand, not through its .md.in, fails (exit $rc)" test "$rc" = 1
check "...naming the place and the one difference ($(grep -c DIFFERS gd/prose.txt) found)" \
	test "$(grep -c 'PROSE DIFFERS.*near its text line' gd/prose.txt):$(grep -c DIFFERS gd/prose.txt)" = 1:1
