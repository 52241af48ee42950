# SPDX-License-Identifier: GPL-2.0
# The public interface: analyzer/include/entrytrace.h alone is enough to
# build a report (the program is compiled with no other analyzer header in
# reach and run against libentrytrace.so), the report equals entrytrace's,
# and the .so exports exactly what the header declares.
. "$(dirname "$0")/lib.sh"

make -s -C "$TOP" build/libentrytrace.so >/dev/null
so=$TOP/build/libentrytrace.so
check "libentrytrace.so builds" test -s "$so"

# exported symbols against the header's declarations
nm -D --defined-only "$so" | awk '{ print $3 }' | sort > exported.txt
grep -o '^[a-z][a-z_ 0-9*]*[ *]et_[a-z_0-9]*(' "$TOP/analyzer/include/entrytrace.h" |
	grep -o 'et_[a-z_0-9]*(' | tr -d '(' | sort > declared.txt
check "the header declares functions ($(wc -l < declared.txt))" test -s declared.txt
check "the .so exports exactly the header's functions ($(wc -l < exported.txt) exported)" \
	cmp declared.txt exported.txt
check "nothing private leaks: no et_stages table, no decoder, no walker exported" \
	sh -c "! grep -qE '^(et_stages|et_decode|et_walk_|et_cpu_reader|tl_)' exported.txt"

# a program on the public header only
check "public-api.c builds with only analyzer/include and tracepoints/ in reach" \
	gcc -std=c11 -Wall -Wextra -Werror -I"$TOP/analyzer/include" -I"$TOP/tracepoints" \
		-o public-api "$TOP/analyzer/tests/public-api.c" "$so" -Wl,-rpath,"$TOP/build"

for f in "$DATA"/host-kill-getppid.dat "$DATA"/host-lost.dat; do
	b=$(basename "$f" .dat)
	./public-api "$f" > pub.txt 2>&1 || { _fail "$b: public-api ran"; continue; }
	"$ET" report --json "$f" > r.json 2>/dev/null
	v() { awk -v k="$1" '$1 == k { print $2 }' pub.txt; }
	expect_eq "$b: records through the public API = report's" "$(v records)" \
		"$(jget r.json "d['files'][0]['records']")"
	expect_eq "$b: syscalls seen = report's" "$(v seen)" \
		"$(jget r.json "d['files'][0]['syscalls']['seen']")"
	expect_eq "$b: syscalls in the table = report's" "$(v table)" \
		"$(jget r.json "d['syscalls']")"
	expect_eq "$b: lost events = report's" "$(v lost_events)" \
		"$(jget r.json "d['files'][0]['lost_events']")"
	# every cell's count, total, p50 and max, in report's order
	awk '$1 == "cell" { print $2, $3, $4, $5, $6, $7 }' pub.txt > cells-pub.txt
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for c in d["cells"]: print(c["syscall"], c["stage"], c["count"], c["total"], c["p50"], c["max"])' \
		r.json > cells-report.txt
	check "$b: every cell ($(wc -l < cells-pub.txt)) equals report's, in its order" \
		cmp cells-pub.txt cells-report.txt
	expect_eq "$b: the slowest total = list --slowest=1's" "$(v slowest)" \
		"$("$ET" list --slowest=1 "$f" 2>/dev/null | grep -o ' total [0-9]*' | awk '{ print $2 }')"
done
