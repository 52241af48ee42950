# SPDX-License-Identifier: GPL-2.0
# One series source (scripts/kernel/build/series-export): the files the series adds
# live once in kernel/src, arch/powerpc/src and tracepoints/; the per-base
# patches hold only hunks into files that exist upstream; the export fills in
# the rest as git format-patch would.  Checked on the committed series, and
# with a fix planted in a copy of the sources: it must reach every base.
# (That the exported series applies to every Debian tree and builds is
# scripts/kernel/check/kernel-apply-check's and build-kernel's: they need trees.)
. "$(dirname "$0")/lib.sh"

SE=$TOP/scripts/kernel/build/series-export
. "$TOP/scripts/lib/bases.sh"
read -ra BASES <<<"$(et_bases)"
NEWEST=$(et_newest_base)
# git and patch: scripts/setup --tests (make check runs it)

for b in "${BASES[@]}"; do
	for a in x86_64 ppc64le; do
		check "$b $a: exports" "$SE" --arch "$a" "$b" "exp-$a"
	done
	nk=$(ls "$TOP/kernel/$b"/[0-9]*.patch | wc -l)
	np=$(ls "$TOP/arch/powerpc/$b"/[0-9]*.patch | wc -l)
	expect_eq "$b: one exported patch per source patch (kernel)" \
		"$(ls exp-x86_64/kernel/"$b"/[0-9]*.patch | grep -vc /0000-)" "$nk"
	expect_eq "$b: one exported patch per source patch (powerpc)" \
		"$(ls exp-ppc64le/arch/powerpc/"$b"/[0-9]*.patch | grep -vc /0000-)" "$np"
	expect_eq "$b: the powerpc export carries the same kernel part as x86_64's" \
		"$(cat exp-ppc64le/kernel/"$b"/*.patch | sha256sum)" "$(cat exp-x86_64/kernel/"$b"/*.patch | sha256sum)"
done

# Every exported patch: its diffstat is what git counts in its diff, its
# subject numbers it n/m, and git mailinfo reads it as a mail with a patch.
statcheck() {
	local f n m bad=0 want got i=0 seen=0
	for part in exp-ppc64le/kernel/* exp-ppc64le/arch/powerpc/*; do
		m=$(ls "$part"/[0-9]*.patch | grep -vc /0000-)
		i=0
		for f in $(ls "$part"/[0-9]*.patch | grep -v /0000-); do
			i=$((i + 1)) seen=$((seen + 1))
			want=$(git apply --numstat "$f" | awk '{ a += $1; d += $2; n++ } END { print n, a, d }')
			got=$(awk '/^ [0-9]+ files? changed/ {
				n = $1; a = 0; d = 0
				for (k = 2; k <= NF; k++) {
					if ($k ~ /^insertion/) a = $(k - 1)
					if ($k ~ /^deletion/) d = $(k - 1)
				}
				print n, a + 0, d + 0; exit }' "$f")
			[ "$want" = "$got" ] || { echo "$f: diffstat says $got, git counts $want"; bad=1; }
			grep -q "^Subject: \[PATCH $i/$m\] " "$f" || { echo "$f: not [PATCH $i/$m]"; bad=1; }
			git mailinfo msg patch <"$f" >info || { echo "$f: git mailinfo fails"; bad=1; }
			[ -s patch ] || { echo "$f: no patch in the mail"; bad=1; }
			n=$(git apply --numstat patch | wc -l)
			[ "$n" -gt 0 ] || { echo "$f: the mail's patch is empty"; bad=1; }
		done
		grep -q "^Subject: \[PATCH 0/$m\] " "$part/0000-cover-letter.patch" ||
			{ echo "$part: cover letter not [PATCH 0/$m]"; bad=1; }
	done
	echo "$seen patches"
	[ "$seen" -ge 30 ] || { echo "only $seen patches checked"; bad=1; }
	return $bad
}
check "every exported patch: diffstat as git counts it, [PATCH n/m], a mail git reads" statcheck

# added TREE BASE PATH: the content the exported series adds at PATH
added() {
	local -a p=("$1"/kernel/"$2"/[0-9]*.patch)
	[ -d "$1/arch/powerpc/$2" ] && p+=("$1"/arch/powerpc/"$2"/[0-9]*.patch)
	awk -v f="+++ b/$3" 'FNR == 1 { on = 0 }
			$0 == f { on = 1; getline; next }
			on && /^diff --git / { on = 0 }
			on && /^\+/ { print substr($0, 2) }' "${p[@]}"
}
# Each file of src/ is added once per series, as src/ has it for the newest
# base, and as patch(1) makes src/ + BASE/src.diff for an older one.
srccheck() {
	local bad=0 b part f want seen=0
	for b in "${BASES[@]}"; do
		for part in kernel arch/powerpc; do
			rm -rf want && cp -r "$TOP/$part/src" want
			if [ -f "$TOP/$part/$b/src.diff" ]; then
				[ "$b" != "$NEWEST" ] || { echo "$part/$b/src.diff: the newest base is src/ itself"; bad=1; }
				(cd want && patch -s -p1 <"$TOP/$part/$b/src.diff") || { bad=1; continue; }
			fi
			while read -r f; do
				f=${f#want/} seen=$((seen + 1))
				n=$(cat exp-ppc64le/"$part"/"$b"/[0-9]*.patch | grep -c "^+++ b/$f\$")
				[ "$n" = 1 ] || { echo "$b: $f added $n times"; bad=1; }
				added exp-ppc64le "$b" "$f" | cmp -s - "want/$f" ||
					{ echo "$b: $f is not src/'s (+ src.diff)"; bad=1; }
			done < <(find want -type f)
		done
	done
	[ "$seen" -ge 15 ] || { echo "only $seen files checked"; bad=1; }
	return $bad
}
check "every base: each src/ file added once, as src/ (+ the base's src.diff) has it" srccheck
expect_eq "the vocabulary: every base adds tracepoints/stages.def as entry_stage_defs.h" \
	"$(for b in "${BASES[@]}"; do added exp-x86_64 "$b" include/linux/entry_stage_defs.h | cmp -s - "$TOP/tracepoints/stages.def" && echo same; done | sort -u)" same

check "the export is deterministic" bash -c "'$SE' --arch ppc64le 7.2 again && diff -r again/kernel/7.2 exp-ppc64le/kernel/7.2 && diff -r again/arch/powerpc/7.2 exp-ppc64le/arch/powerpc/7.2"
expect_eq "--hash is the sha256 of the exported patches, cover letters excepted" \
	"$("$SE" --arch ppc64le --hash 7.2)" \
	"$( { ls exp-ppc64le/kernel/7.2/[0-9]*.patch; ls exp-ppc64le/arch/powerpc/7.2/[0-9]*.patch; } |
		grep -v /0000- | xargs cat | sha256sum | cut -c1-16)"

# ---- a fix is made once: planted in a copy of the sources -----------------
mkdir -p copy/scripts/kernel/build copy/scripts/lib
cp -r "$TOP/kernel" "$TOP/arch" "$TOP/tracepoints" copy/
cp "$SE" copy/scripts/kernel/build/
cp "$TOP/scripts/lib/bases" copy/scripts/lib/
echo '/* planted: a fix made once */' >>copy/kernel/src/kernel/entry/stage.c
echo '/* planted: a powerpc fix made once */' >>copy/arch/powerpc/src/arch/powerpc/kernel/entry_stage.c
sed -i 's/^ENTRY_STAGE(.*/&  \/\* planted \*\//; t done; b; :done; n; b done' copy/tracepoints/stages.def 2>/dev/null || true
for b in "${BASES[@]}"; do
	check "$b: the copy exports" copy/scripts/kernel/build/series-export --arch ppc750 "$b" "fix-$b"
	expect_eq "$b: the fix in kernel/src reaches the series" \
		"$(added "fix-$b" "$b" kernel/entry/stage.c | tail -n1)" '/* planted: a fix made once */'
	expect_eq "$b: the fix in arch/powerpc/src reaches the series" \
		"$(added "fix-$b" "$b" arch/powerpc/kernel/entry_stage.c | tail -n1)" '/* planted: a powerpc fix made once */'
	expect_eq "$b: tracepoints/stages.def reaches the series as it is" \
		"$(added "fix-$b" "$b" include/linux/entry_stage_defs.h | sha256sum)" "$(sha256sum <copy/tracepoints/stages.def)"
done

# ---- what the export refuses (exit 2, one line naming the file) -------------
rm -rf bad && cp -r copy bad
p=$(ls bad/kernel/7.2/0002-*.patch)
cat >>"$p" <<'EOF'
diff --git a/kernel/entry/stage.c b/kernel/entry/stage.c
--- a/kernel/entry/stage.c
+++ b/kernel/entry/stage.c
@@ -1,1 +1,1 @@
-x
+y
EOF
expect_exit "a per-base hunk into a file of src/ is refused" 2 bad/scripts/kernel/build/series-export 7.2 out1
grep_err() { bad/scripts/kernel/build/series-export "$@" 2>&1 >/dev/null | grep -q 'kernel/entry/stage.c, which lives in kernel/src'; }
check "... and the error names the file and its home" grep_err 7.2 out1b
rm -rf bad && cp -r copy bad
sed -i 's/^+/+ damaged/' bad/kernel/6.12/src.diff
expect_exit "a src.diff that does not apply is refused" 2 bad/scripts/kernel/build/series-export 6.12 out2
rm -rf bad && cp -r copy bad
sed -i 's/^Adds: kernel\/entry\/stage.c$/Adds: kernel\/entry\/stage2.c/' bad/kernel/7.3/0001-*.patch
expect_exit "an Adds: line naming no file of src/ is refused" 2 bad/scripts/kernel/build/series-export 7.3 out3
expect_exit "an unknown base is refused" 2 "$SE" 9.9 out4
expect_exit "an unknown arch is refused" 2 "$SE" --arch mips 7.2 out5

# ---- the powerpc variants (scripts/lib/bases: 7.2-legacy) -------------------
# A variant's series is its base's kernel part and its own powerpc part,
# and that powerpc part is its donor's (the legacy stage series, 6.12's)
# with its base's Kconfig and Makefile hunks: what else differs is listed
# here, each line with the reason, so that a port drifting from the
# donor's stages fails.
#   7.2-legacy: __secure_computing() takes no argument on 7.2
PORTED='__secure_computing(NULL)=__secure_computing()'
for v in $(et_variants); do
	vb=$(et_variant "$v" base) donor=$(et_variant "$v" donor)
	check "$v ppc64le: exports" "$SE" --arch ppc64le "$v" "exp-$v"
	expect_exit "$v x86_64: refused (a powerpc variant has no x86_64 series)" 2 "$SE" --arch x86_64 "$v" "exp-$v-x86"
	expect_eq "$v: its kernel part is $vb's" \
		"$(cat "exp-$v"/kernel/"$v"/*.patch | sha256sum)" "$(cat exp-ppc64le/kernel/"$vb"/*.patch | sha256sum)"
	expect_eq "$v: one exported patch per source patch (powerpc)" \
		"$(ls "exp-$v"/arch/powerpc/"$v"/[0-9]*.patch | grep -vc /0000-)" \
		"$(ls "$TOP/arch/powerpc/$v"/[0-9]*.patch | wc -l)"
	python3 - "exp-$v/arch/powerpc/$v" "exp-ppc64le/arch/powerpc/$donor" "exp-ppc64le/arch/powerpc/$vb" "$PORTED" >"port-$v.txt" 2>&1 <<'PY'
import glob, os, sys
var, donor, base, ported = sys.argv[1:5]
subst = [p.split('=', 1) for p in ported.split()]
BASE_FILES = ('arch/powerpc/Kconfig', 'arch/powerpc/kernel/Makefile')


def blocks(path):
    out, cur = {}, None
    for ln in open(path):
        if ln.startswith('diff --git '):
            cur = ln.split(' b/', 1)[1].strip()
            out[cur] = []
        elif cur and ln[:1] in '+-' and not ln.startswith(('+++', '---')):
            out[cur].append(ln)
    return out


bad = n = 0
for vp in sorted(glob.glob(var + '/[0-9]*.patch')):
    name = os.path.basename(vp)
    if name.startswith('0000-'):
        continue
    num = name[:4]
    dp = glob.glob('%s/%s-*.patch' % (donor, num))
    bp = glob.glob('%s/%s-*.patch' % (base, num))
    if not dp:
        print('%s: %s has no patch %s' % (name, donor, num)); bad = 1; continue
    vb, db = blocks(vp), blocks(dp[0])
    bb = blocks(bp[0]) if bp else {}
    if set(vb) != set(db):
        print('%s: files %s, the donor\'s %s' % (name, sorted(vb), sorted(db))); bad = 1
    for f, lines in vb.items():
        n += 1
        if f in BASE_FILES:
            want = bb.get(f)
            what = "the base's series'"
        else:
            want = db.get(f, [])
            for a, b in subst:
                want = [x.replace(a, b) for x in want]
            what = "the donor's" + (' (with %s)' % ported if subst else '')
        if lines != want:
            print('%s %s: not %s hunk lines' % (name, f, what)); bad = 1
print('%d file blocks compared' % n)
sys.exit(bad if n else 1)
PY
	rc=$?
	expect_eq "$v: its powerpc series is $donor's stage series, $vb's Kconfig/Makefile hunks and the listed API changes ($(tail -n1 "port-$v.txt"))" "$rc" 0
	[ "$rc" = 0 ] || cat "port-$v.txt"
	# the recipe: every file adapt.patch touches is one the recipe takes,
	# edits or adds; every one it edits or adds is touched, none it keeps
	recipe=$TOP/arch/powerpc/$v/tree
	expect_eq "$v: adapt.patch touches the recipe's files only" \
		"$(sed -n 's|^+++ b/||p' "$recipe/adapt.patch" | sort -u | while read -r f; do
			awk -v f="$f" '($1 == "take" || $1 == "edit" || $1 == "new") && $2 == f { ok = 1 } END { if (!ok) print f }' "$recipe/files"; done)" ""
	expect_eq "$v: every file the recipe edits or adds is in adapt.patch" \
		"$(awk '$1 == "edit" || $1 == "new" { print $2 }' "$recipe/files" | while read -r f; do
			grep -qxF "+++ b/$f" "$recipe/adapt.patch" || echo "$f"; done)" ""
	check "$v: the recipe edits files (edit lines: $(grep -c '^edit ' "$recipe/files"))" grep -q '^edit ' "$recipe/files"
	expect_eq "$v: no file the recipe keeps as it is is in adapt.patch" \
		"$(awk '$1 == "keep" { print $2 }' "$recipe/files" | while read -r f; do
			grep -qxF "+++ b/$f" "$recipe/adapt.patch" && echo "$f"; done)" ""
	check "$v: adapt.patch is ours, GPL-2.0 (SPDX line in its header)" \
		sh -c "sed '/^---\$/q' '$recipe/adapt.patch' | grep -q '^SPDX-License-Identifier: GPL-2.0\$'"
done

# ---- the entry path each built powerpc kernel has ---------------------------
# analyzer/tests/data/entry-path-powerpc.txt: scripts/kernel/check/
# kernel-entry-path on real builds (its header names the images): the path
# each build has (GENERIC_ENTRY, the legacy and generic entry symbols, what
# system_call_exception() calls) must be the one scripts/lib/bases gives
# its base or variant, and every variant must have a built image there.
EP=$DATA/entry-path-powerpc.txt
# wrong_paths FILE: the rows whose path is not their base's or variant's
wrong_paths() {
	awk 'NR > 1 && !/^#/ && !/^image / { print $1, $(NF - 1) }' "$1" | while read -r img path; do
		b=$(sed -E 's/^(ppc64le|ppc750|ppce500)-(.+)-(base|entrytrace|pmu|off)(-(noforce|distro|debian|8xx))?-[0-9a-f]{12}$/\2/' <<<"$img")
		w=$(et_entry_of "$b")
		[ -n "$w" ] && [ "$path" = "$w" ] || echo "$img: $path, not ${w:-a base of scripts/lib/bases}"
	done
}
rows=$(grep -cvE '^(#|image )' "$EP")
check "entry-path-powerpc.txt: rows of kernel-entry-path on real images ($rows)" test "$rows" -gt 0
check "entry-path-powerpc.txt: the command that wrote it" grep -q '^# scripts/kernel/check/kernel-entry-path ' "$EP"
expect_eq "every built powerpc image has its base's or variant's entry path" "$(wrong_paths "$EP")" ""
for v in $(et_variants); do
	check "$v: an image of it is in entry-path-powerpc.txt" grep -qE "^ppc[0-9a-z]*-$v-" "$EP"
done
# a generic build where the variant should be legacy is named
sed -E '/-legacy-/ s/ legacy +legacy$/ generic  legacy/' "$EP" >ep-planted.txt
cmp -s "$EP" ep-planted.txt && _fail "the planted generic path changed nothing"
check "a variant's image with the generic path is named ($(wrong_paths ep-planted.txt))" \
	test -n "$(wrong_paths ep-planted.txt)"

# ---- the series from one manifest (kernel/manifest, series-refresh) ---------
# Every patch is kept once, in its SOURCE base; another base's patch is made
# from it by git apply on that base's tree, the base's PART/BASE/SLUG.fixup
# and git format-patch.  That every committed per-base patch equals a fresh
# export needs the Debian trees: 'make kernel-series' (series-refresh
# --check) runs it, and check-kernel does.  Here, without trees: the
# committed files are the manifest's, and what --lint refuses.
SR=$TOP/scripts/kernel/build/series-refresh
out=$("$SR" --lint)
check "series-refresh --lint: the committed per-base files are kernel/manifest's ($out)" \
	grep -qE '^series-refresh: [1-9][0-9]* patch rows, [1-9][0-9]* per-base files and fixups agree' <<<"$out"
expect_eq "--lint counts every per-base patch and fixup" \
	"$(sed -E 's/.* rows, ([0-9]+) per-base.*/\1/' <<<"$out")" \
	"$(ls "$TOP"/kernel/*/[0-9]*.patch "$TOP"/arch/powerpc/*/[0-9]*.patch "$TOP"/kernel/*/*.fixup \
		"$TOP"/arch/powerpc/*/*.fixup | grep -vc /fixes/)"
for b in "${BASES[@]}"; do
	expect_eq "$b: kernel/manifest gives kernel/$b as many patches as it has" \
		"$(awk -v b="$b" '$1 == "kernel" { for (i = 4; i <= NF; i++) if ($i == b) n++ } END { print n + 0 }' "$TOP/kernel/manifest")" \
		"$(ls "$TOP/kernel/$b"/[0-9]*.patch | wc -l)"
done
# every message is kept once: no two SOURCE rows name the same file, and a
# base other than SOURCE's has no hand-kept copy (its patch is made)
expect_eq "no SOURCE named twice" \
	"$(awk '!/^#/ && NF >= 4 { print $1 "/" $3 }' "$TOP/kernel/manifest" | sort | uniq -d)" ""
mkdir -p sr/scripts/kernel/build sr/scripts/lib
cp -r "$TOP/kernel" "$TOP/arch" sr/
cp "$SR" "$SE" sr/scripts/kernel/build/
cp "$TOP/scripts/lib/bases" sr/scripts/lib/
check "the copy lints" sr/scripts/kernel/build/series-refresh --lint
rm -rf srbad && cp -r sr srbad
cp srbad/kernel/7.2/exit.fixup srbad/kernel/7.2/nosuch.fixup
expect_exit "a fixup of no row is refused" 1 srbad/scripts/kernel/build/series-refresh --lint
check "... naming it" sh -c "srbad/scripts/kernel/build/series-refresh --lint 2>&1 | grep -q 'kernel/7.2/nosuch.fixup: kernel/manifest has no kernel patch nosuch on 7.2'"
rm -rf srbad && cp -r sr srbad
cp srbad/kernel/7.2/exit.fixup srbad/kernel/7.3/exit.fixup
expect_exit "a fixup on the SOURCE base is refused" 1 srbad/scripts/kernel/build/series-refresh --lint
rm -rf srbad && cp -r sr srbad
rm srbad/kernel/6.12/0004-*.patch
expect_exit "a per-base patch missing is refused" 1 srbad/scripts/kernel/build/series-refresh --lint
rm -rf srbad && cp -r sr srbad
sed -i 's/^\(kernel  *body-probes .*\) 6\.12 /\1 /' srbad/kernel/manifest
expect_exit "a per-base patch no row gives is refused" 1 srbad/scripts/kernel/build/series-refresh --lint
rm -rf srbad && cp -r sr srbad
sed -i 's/^\(kernel  *exit .*\) 7\.3$/\1 7.3 9.9/' srbad/kernel/manifest
expect_exit "a base not in scripts/lib/bases is refused" 2 srbad/scripts/kernel/build/series-refresh --lint
rm -rf srbad && cp -r sr srbad
sed -i 's/^\(kernel  *exit  *\)7\.3\/0003-/\17.3\/0009-/' srbad/kernel/manifest
expect_exit "a SOURCE that is no file is refused" 2 srbad/scripts/kernel/build/series-refresh --lint
rm -rf srbad && cp -r sr srbad
# (a line it takes out of src/ that src/ no longer has, as after a change
# to src/ that the older base's src.diff was not written again for)
sed -i '0,/^-\tasm goto(ARCH_STATIC_BRANCH_ASM/s//-\tasm goto(STALE_BRANCH_ASM/' srbad/arch/powerpc/6.12/src.diff
expect_exit "a src.diff that no longer applies to src/ is refused" 1 srbad/scripts/kernel/build/series-refresh --lint
check "... naming it" sh -c "srbad/scripts/kernel/build/series-refresh --lint 2>&1 | grep -q 'arch/powerpc/6.12/src.diff does not apply to arch/powerpc/src'"
rm -rf srbad && cp -r sr srbad
: >srbad/kernel/manifest
expect_exit "a manifest with no patch is refused" 2 srbad/scripts/kernel/build/series-refresh --lint
expect_exit "--lint with a base is a usage error" 2 "$SR" --lint 7.2
expect_exit "an unknown base is a usage error" 2 "$SR" --check 9.9
# With the Debian trees in the cache (make kernel-fetch, or any kernel
# build): the whole comparison, and what it refuses.
have_trees=1
for b in "${BASES[@]}"; do
	[ -e "${ENTRYTRACE_CACHE:-/var/cache/entrytrace}/src/linux-source-$b/.entrytrace-extracted" ] || have_trees=
done
if [ -n "$have_trees" ]; then
	out=$("$SR" --check 2>&1)
	check "series-refresh --check: every base equals a fresh export ($(grep -c 'equal to the committed' <<<"$out") bases)" \
		test "$(grep -c 'equal to the committed' <<<"$out")" -eq "$(awk '!/^#/ && NF >= 4 { for (i = 4; i <= NF; i++) print $i }' "$TOP/kernel/manifest" | sort -u | wc -l)"
	rm -rf sr/scripts && cp -r "$TOP/scripts" sr/
	rm -rf srbad && cp -r sr srbad
	sed -i '0,/^ $/s//\t/' "$(ls srbad/kernel/7.2/0003-*.patch)"
	expect_exit "a committed per-base patch that is not the export is named" 1 srbad/scripts/kernel/build/series-refresh --check 7.2
	rm -rf srbad && cp -r sr srbad
	sed -i '/^Leaves out: /d' srbad/kernel/6.12/entry.fixup
	expect_exit "a file SOURCE's hunks miss, with no fixup for it, is refused" 1 srbad/scripts/kernel/build/series-refresh --check 6.12
	rm -rf srbad && cp -r sr srbad
	sed -i '0,/^ /s/^ /  /' srbad/kernel/7.2/exit.fixup
	expect_exit "a fixup that does not apply is refused" 1 srbad/scripts/kernel/build/series-refresh --check 7.2
else
	echo "# t-series: no Debian trees in the cache: series-refresh --check is make kernel-series's"
fi
