# SPDX-License-Identifier: GPL-2.0
# scripts/ as a whole: every shell script parses, the Python halves live in
# scripts/lib/py/ (no Python in heredocs), each compiles and each is called
# by a script, and every call names a file that is there.
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
nsh=0 bad=""
while IFS= read -r f; do
	head -n1 "$f" | grep -q '^#!.*\(bash\|sh\)' || continue
	nsh=$((nsh + 1))
	bash -n "$f" 2>/dev/null || bad+=" ${f#"$TOP"/}"
done < <(find "$S" -type f ! -name '*.py' ! -name '*.c' ! -name '*.md' | sort)
expect_eq "every shell script in scripts/ parses (bash -n, $nsh scripts)" "${bad:-none}" "none"
[ "$nsh" -gt 50 ] || _fail "found only $nsh shell scripts under scripts/: checked nothing"

heredoc=$(grep -rlE "python3 - .*<<|python3 - .*\\\\$" "$S" | sed "s|$TOP/||" | sort | tr '\n' ' ')
expect_eq "no script feeds Python through a heredoc (scripts/lib/py/ instead)" "${heredoc:-none}" "none"

npy=0 bad="" orphan=""
for p in "$S"/lib/py/*.py; do
	npy=$((npy + 1))
	python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$p" 2>/dev/null ||
		bad+=" $(basename "$p")"
	grep -rqF "lib/py/$(basename "$p")" "$S" --exclude='*.py' || orphan+=" $(basename "$p")"
done
expect_eq "every scripts/lib/py/*.py parses ($npy files)" "${bad:-none}" "none"
expect_eq "every scripts/lib/py/*.py is called by a script" "${orphan:-none}" "none"
[ "$npy" -gt 10 ] || _fail "found only $npy Python files in scripts/lib/py: checked nothing"

missing=""
while IFS= read -r ref; do
	[ -f "$S/lib/py/$ref" ] || missing+=" $ref"
done < <(grep -rhoE "lib/py/[A-Za-z0-9_.-]+\.py" "$S" --exclude='*.py' --exclude='*.md' | sed 's|lib/py/||' | sort -u)
expect_eq "every lib/py/NAME.py a script calls is there" "${missing:-none}" "none"

# a planted heredoc is found (the check above can fail)
mkdir -p plant
printf '#!/bin/bash\npython3 - "$1" <<'"'"'PY'"'"'\nprint(1)\nPY\n' >plant/x
expect_eq "a planted heredoc is found" "$(grep -rlE "python3 - .*<<" plant | wc -l)" "1"
