# SPDX-License-Identifier: GPL-2.0
# Series v3: the stages tile the syscall and the two powerpc paths compare
# like for like (and v4's plain copy on x86_64, by its markers).  On the mix plugin outputs of the v3 kernels (ppc64le 6.12
# legacy, 7.2 and 7.3 generic; PROVENANCE-tiling.md) and, as the case that
# must fail, of the v2 kernels (PROVENANCE-mix.md):
#   scripts/kernel/check/kernel-tiling: the plugin's gap account (instructions
#     between a syscall's first and last stamp outside every top-level
#     stage) at most one stamp's worth;
#   scripts/kernel/check/kernel-stage-compare: every stage difference between the
#     legacy and a generic kernel listed, with its reason, in
#     scripts/kernel/check/stage-compare-allow.
# weight: 50
. "$(dirname "$0")/lib.sh"

KT=$TOP/scripts/kernel/check/kernel-tiling
KC=$TOP/scripts/kernel/check/kernel-stage-compare
v3() { echo "$DATA/mix-ppc64le-$1-entrytrace-v3-enforcing.mix.gz"; }
# the v2 outputs kept when the plain ones were re-recorded on v3
v2() { echo "$DATA/mix-ppc64le-$1-entrytrace-v2-enforcing.mix.gz"; }

# gaps_ok FILE NBASES: how many of kernel-tiling's median gap cells (one
# per syscall and base, of a table of NBASES bases) are at most 10
gaps_ok() {
	awk -v nb="$2" '$2 == "gap" && NF == 2 + nb { for (i = 3; i <= NF; i++) if ($i <= 10) n++ } END { print n + 0 }' "$1"
}
nb=$(echo $BASES | wc -w)
pmix=()
for b in $BASES; do pmix+=("$(v3 $b)"); done
ARCH=ppc64le "$KT" --mix "${pmix[@]}" -- $BASES >tiling.txt 2>&1
rc=$?
expect_eq "v3: the stages tile on ppc64le $(echo $BASES) (kernel-tiling exit)" "$rc" 0
sed 's/^/#   /' tiling.txt | grep -E 'gap|samples'
gaps=$(awk '$2 == "gap" && NF == 2 + '"$(echo $BASES | wc -w)"' { $1 = $2 = ""; print }' tiling.txt | sort -u | tr '\n' ' ')
check "v3: a median gap per syscall and kernel was read, each at most 10 ($gaps)" \
	test "$(gaps_ok tiling.txt $nb)" = $((2 * nb))
ARCH=ppc64le "$KT" --mix "$(v2 $LEGACY)" "$(v2 $CONVERSION)" -- $LEGACY $CONVERSION >tiling-v2.txt 2>&1
rc=$?
expect_eq "v2: the stages do not tile (gap over one stamp's worth)" "$rc" 1
check "v2: ... and it says which kernel and how much" grep -q "$CONVERSION getppid: median gap 35 instructions, over 10" tiling-v2.txt
X=$DATA/mix-x86_64-$NEWEST-entrytrace
xmix=() xgaps=""
for b in $BASES; do xmix+=("$DATA/mix-x86_64-$b-entrytrace-v3-enforcing.mix.gz"); done
"$KT" --mix "${xmix[@]}" -- $BASES >tiling-x86.txt 2>&1
rc=$?
xgaps=$(awk '$1 == "getppid" && $2 == "gap" && NF >= 3 { $1 = $2 = ""; print }' tiling-x86.txt | xargs)
expect_eq "v3: the stages tile on x86_64 $(echo $BASES) (getppid median gap $xgaps)" "$rc" 0
check "v3: x86_64 gaps read on every base, each at most 10" test "$(gaps_ok tiling-x86.txt $nb)" = $((2 * nb))
gapof() { awk '$1 == "getppid" && $2 == "gap" && NF == 3 { print $3 }' "$1"; }
# mix_kernel_line IN OUT [RELEASE]: plugin output IN with its kernel line's
# release made RELEASE or, none given, the line dropped (as the plugin wrote
# it, before annotate added it); the end line's count and CRC made anew
mix_kernel_line() {
	python3 - "$@" <<'PY'
import gzip, sys, zlib
rel = sys.argv[3] if len(sys.argv) > 3 else None
lines = []
for l in gzip.open(sys.argv[1], 'rt'):
    if l.startswith('end ') or (l.startswith('kernel ') and rel is None):
        continue
    lines.append('kernel %s\n' % rel if l.startswith('kernel ') else l)
crc = 0
for l in lines:
    crc = zlib.crc32(l.encode(), crc)
with gzip.open(sys.argv[2], 'wt') as f:
    f.writelines(lines)
    f.write('end %d %08x\n' % (len(lines), crc))
PY
}
"$KT" --mix "$X-v2-enforcing.mix.gz" -- $NEWEST >tiling-x86-v2.txt 2>&1
rc=$?
expect_eq "v2: they do not on x86_64 $NEWEST (getppid gap $(gapof tiling-x86-v2.txt))" "$rc" 1
expect_exit "a --mix file count that does not match the bases is refused" 2 \
	env ARCH=ppc64le "$KT" --mix "$(v3 $LEGACY)" -- $LEGACY $CONVERSION
# Series v4 (x86_64): the plain copy of the syscall path has no site, only
# zero-width markers of the top-level stages (flag MARK).  With every event
# off the plugin times the plain path through them, and the stages tile.
# x86_tiles LABEL TAG BASE FILE: an x86_64 output of BASE tiles (kernel-tiling
# exit 0; getppid and kill gaps read, each at most 10; tiling-TAG.txt)
x86_tiles() {
	local rc
	"$KT" --mix "$4" -- "$3" >tiling-$2.txt 2>&1
	rc=$?
	expect_eq "$1 (getppid gap $(gapof tiling-$2.txt))" "$rc" 0
	check "$1: getppid and kill gaps read, each at most 10" test "$(gaps_ok tiling-$2.txt 1)" = 2
}
V4=$DATA/mix-x86_64-$NEWEST-entrytrace-v4-enforcing.mix.gz
x86_tiles "v4: the plain copy's markers tile x86_64 $NEWEST with every event off" v4 $NEWEST "$V4"
check "v4: the stages ran in the plain copy (do_syscall_64), none in the staged one" sh -c \
	"zcat '$V4' | grep -q '^func getppid arch_enter [0-9]* do_syscall_64 ' &&
	 ! zcat '$V4' | grep -q '^func .* entry_stage_do_syscall_64 '"
check "v4: the no-work path skipped the exit loop's resume at the join (ign_other_path)" sh -c \
	"zcat '$V4' | awk '\$1 == \"count\" && \$2 == \"ign_other_path\" && \$3 > 0 { ok = 1 } END { exit !ok }'"
# x86_64 6.12's plain copy (arch/x86/entry/common.c) has no marker as
# built (ENTRY_STAGE_NO_MARKS); with them (kernel-tiling --marks) it tiles
V4M=$DATA/mix-x86_64-$LEGACY-entrytrace-marks-v4-enforcing.mix.gz
x86_tiles "v4 with the markers: x86_64 $LEGACY's plain copy tiles" v4m $LEGACY "$V4M"
check "... timed in the plain do_syscall_64 of a kernel whose release says -marks" sh -c \
	"zcat '$V4M' | grep -q '^kernel $LEGACY\.[0-9]*-marks+\$' &&
	 zcat '$V4M' | grep -q '^func getppid arch_enter [0-9]* do_syscall_64 '"

# Series v4 on powerpc's generic entry: the plain copy has no marker as
# built by default (its code would change), so the generic kernels here
# were built with them (kernel-tiling --marks: kernel-mix --marks, release
# X.Y.Z-marks+); 6.12's legacy path keeps its sites inline.  With every
# event off the stages tile, and every difference from legacy is explained,
# the +marks allowlist lines included (PROVENANCE-tiling.md).
v4() { echo "$DATA/mix-ppc64le-$1-entrytrace$2-v4-enforcing.mix.gz"; }
p4=("$(v4 $LEGACY)")
for g in $GENERIC; do p4+=("$(v4 $g -marks)"); done
ARCH=ppc64le "$KT" --mix "${p4[@]}" -- $LEGACY $GENERIC >tiling-p4.txt 2>&1
rc=$?
expect_eq "v4 with the markers: the stages tile on ppc64le $LEGACY $GENERIC (kernel-tiling exit)" "$rc" 0
check "v4 with the markers: a median gap per syscall and kernel, each at most 10 ($(awk '$2 == "gap" && NF == 2 + '"$nb"' { $1 = $2 = ""; print }' tiling-p4.txt | sort -u | xargs))" \
	test "$(gaps_ok tiling-p4.txt $nb)" = $((2 * nb))
check "v4 with the markers: the generic stages ran in the plain copy (system_call_exception), none in the staged one" sh -c \
	"zcat '$(v4 $NEWEST -marks)' | grep -q '^func getppid arch_enter [0-9]* system_call_exception ' &&
	 ! zcat '$(v4 $NEWEST -marks)' | grep -q '^func .* entry_stage_system_call_exception '"
for g in $GENERIC; do
	for sc in getppid kill; do
		"$KC" --syscall $sc "$(v4 $LEGACY)" "$(v4 $g -marks)" >cmp4-$g-$sc.txt 2>&1
		rc=$?
		expect_eq "v4 $LEGACY vs $g with the markers, $sc: every stage difference is explained ($(tail -1 cmp4-$g-$sc.txt))" "$rc" 0
	done
done
check "... the generic prologue's place is a +marks line, and it was used" \
	grep -q '^allowed: arch_enter insns: +8 instructions' cmp4-$NEWEST-getppid.txt
# the same file with its release's -marks taken out: the +marks lines no
# longer apply, and the prologue's place is unexplained
mix_kernel_line "$(v4 $NEWEST -marks)" nomarks.mix.gz \
	"$(zcat "$(v4 $NEWEST -marks)" | sed -n 's/^kernel \(.*\)-marks+$/\1+/p')"
"$KC" "$(v4 $LEGACY)" nomarks.mix.gz >nomarks.txt 2>&1
rc=$?
expect_eq "a +marks line does not apply to a kernel whose release lacks -marks (exit)" "$rc" 1
check "... arch_enter is then NOT EXPLAINED" grep -q '^NOT EXPLAINED: arch_enter insns' nomarks.txt

for g in $GENERIC; do
	"$KC" --lines "$(v3 $LEGACY)" "$(v3 $g)" >cmp-$g.txt 2>&1
	rc=$?
	expect_eq "v3 $LEGACY vs $g: every stage difference is explained (kernel-stage-compare exit)" "$rc" 0
	sed 's/^/#   /' cmp-$g.txt | grep -E '^#   (allowed|NOT|STALE|[0-9]+ differences)'
done
check "v3: kstack_rand, irq_on, arch_syscall_entry are compared on both paths" \
	grep -qE '^arch_syscall_entry +[0-9]+ +[0-9]+' cmp-$NEWEST.txt
# the allowlist is the claim: drop one line and the difference is unexplained
grep -v '^#' "$TOP/scripts/kernel/check/stage-compare-allow" | head -n1 >dropped
grep -vxF -f dropped "$TOP/scripts/kernel/check/stage-compare-allow" >short.allow
"$KC" --allow short.allow "$(v3 $LEGACY)" "$(v3 $NEWEST)" >short.txt 2>&1
rc=$?
expect_eq "an allowlist without '$(cut -f1,2 dropped | tr '\t' ' ')' fails" "$rc" 1
check "... naming the difference NOT EXPLAINED" grep -q "^NOT EXPLAINED: $(cut -f1 dropped) $(cut -f2 dropped):" short.txt
{ cat "$TOP/scripts/kernel/check/stage-compare-allow"; printf 'kstack_rand\tinsns\t%s\tplanted: kstack_rand does not differ\n' "$NEWEST"; } >stale.allow
"$KC" --allow stale.allow "$(v3 $LEGACY)" "$(v3 $NEWEST)" >stale.txt 2>&1
rc=$?
expect_eq "an allowlist line no difference uses fails (stale)" "$rc" 1
check "... naming it STALE" grep -q "^STALE: kstack_rand insns" stale.txt
# Debian's own configs (series v3, PROVENANCE-tiling.md: kernel-tiling
# --config debian, -O2, context tracking not forced): the stages tile there
# too, and every difference between the paths is explained, on getppid and
# on kill(0)
deb() { echo "$DATA/mix-ppc64le-$1-entrytrace-debian-v3-enforcing.mix.gz"; }
# deb_pair LABEL TAG LEGACY.mix GENERIC.mix: on Debian's configs the stages
# tile on both ($LEGACY, $CONVERSION: four median gaps, each at most 10)
# and every stage difference is explained, getppid and kill
# (tiling-TAG.txt, TAG-SYSCALL.txt)
deb_pair() {
	local label=$1 tag=$2 l=$3 g=$4 sc rc
	ARCH=ppc64le "$KT" --mix "$l" "$g" -- $LEGACY $CONVERSION >tiling-$tag.txt 2>&1
	rc=$?
	expect_eq "$label: the stages tile on ppc64le $LEGACY and $CONVERSION (kernel-tiling exit; median gaps $(awk '$2 == "gap" && NF == 4 { printf "%s %s/%s ", $1, $3, $4 }' tiling-$tag.txt))" "$rc" 0
	check "$label: four median gaps read, each at most 10" test "$(gaps_ok tiling-$tag.txt 2)" = 4
	for sc in getppid kill; do
		"$KC" --config debian --syscall $sc "$l" "$g" >$tag-$sc.txt 2>&1
		rc=$?
		expect_eq "$label, $sc: every stage difference is explained ($(tail -1 $tag-$sc.txt))" "$rc" 0
	done
}
deb_pair "v3 Debian configs" dcmp "$(deb $LEGACY)" "$(deb $CONVERSION)"
check "... the conversion's atomic and its two sync are among them, in arch_syscall_entry" \
	grep -qE '^arch_syscall_entry +8 +19 +\+11 +hwsync \+2 ldarx \+1 stdcx \+1' dcmp-getppid.txt
check "... and every line the allowlist keeps for Debian's configs was used (none stale)" \
	sh -c "! grep -q '^STALE' dcmp-getppid.txt dcmp-kill.txt"
# series v4 on Debian's configs: 7.2 with the markers (kernel-tiling
# --marks --config debian --data v4), 6.12's legacy path as built
deb_pair "v4 Debian configs with the markers" dcmp4 \
	"$DATA/mix-ppc64le-$LEGACY-entrytrace-debian-v4-enforcing.mix.gz" \
	"$DATA/mix-ppc64le-$CONVERSION-entrytrace-debian-marks-v4-enforcing.mix.gz"
# the generic file as the plugin wrote it, before annotate added its
# release: the kernel line dropped, the end line's count and CRC made anew
mix_kernel_line "$(deb $CONVERSION)" norel.mix.gz
"$KC" --config debian "$(deb $LEGACY)" norel.mix.gz >norel.txt 2>&1
rc=$?
expect_eq "a generic file that names no kernel release is refused (no allowlist line could apply)" "$rc" 2
check "... saying why ($(tail -1 norel.txt | cut -c1-80))" grep -q "the generic file names no kernel release" norel.txt

# Debian's own configs (series v3, PROVENANCE-stress-mix.md): stress-ng
# --kill's kills under the plugin, legacy against the conversion.  The
# allowlist's X.Y/debian lines explain what differs there and not on the
# tiny config (kstack offset code, preemption model, code layout), its
# X.Y/tiny lines what the forced context tracking adds on the tiny one.
dstress() { echo "$DATA/mix-ppc64le-$1-debian-stress-$2.mix.gz"; }
for m in disabled enforcing; do
	"$KC" --config debian --syscall kill "$(dstress $LEGACY $m)" "$(dstress $CONVERSION $m)" >dcmp-$m.txt 2>&1
	rc=$?
	expect_eq "v3 Debian configs, stress-ng kill ($m): every stage difference is explained ($(tail -1 dcmp-$m.txt))" "$rc" 0
done
grep -E '^(kstack_rand|irq_on|exit_loop) ' dcmp-disabled.txt | sed 's/^/#   /'
check "... the exit loop, in 8 of 308251 legacy kills, is weighed per kill (-0.02), not by its median (756)" \
	grep -qE '^ +ran in 8 of 308251 legacy calls, 0 of 214788 generic: -0.02 instructions per call of kill' dcmp-disabled.txt
check "... and is no difference" sh -c "! grep -q '^NOT EXPLAINED: exit_loop' dcmp-disabled.txt"
"$KC" --syscall kill "$(dstress $LEGACY disabled)" "$(dstress $CONVERSION disabled)" >dcmp-tiny.txt 2>&1
rc=$?
expect_eq "the same files read with the tiny config's reasons fail" "$rc" 1
check "... naming the kstack offset's difference NOT EXPLAINED" grep -q '^NOT EXPLAINED: kstack_rand insns: +48' dcmp-tiny.txt
check "... and a forced-context-tracking reason STALE" grep -q '^STALE: ct_user_exit insns' dcmp-tiny.txt
printf 'exit_work\tinsns\t%s/debain\tplanted\n' "$CONVERSION" >badcfg.allow
expect_exit "an allowlist line naming a config there is not is refused" 2 \
	"$KC" --allow badcfg.allow "$(v3 $LEGACY)" "$(v3 $CONVERSION)"
expect_exit "--config names a config it does not know" 2 "$KC" --config debain "$(v3 $LEGACY)" "$(v3 $CONVERSION)"
"$KC" "$(v2 $LEGACY)" "$(v2 $CONVERSION)" >cmp-v2.txt 2>&1
rc=$?
expect_eq "v2: the stages do not compare like for like (kernel-stage-compare exit)" "$rc" 1
expect_exit "a file that cannot be read is refused" 2 "$KC" "$(v3 $LEGACY)" /nonexistent.mix

# The conversion alone (Documentation/legacy-7.2.md): SAMETREE, CONVERSION's
# tree with powerpc's legacy entry, recorded with CONVERSION in one run
# (kernel-tiling --data ab, PROVENANCE-tiling.md).  LEGACY -> SAMETREE, the
# legacy entry on two bases, differs in no stage; SAMETREE -> CONVERSION is
# the conversion alone, every difference explained by a line that says so,
# and the same differences as LEGACY -> CONVERSION: on the tiny config, all
# that changed in the entry path from LEGACY to CONVERSION is the conversion.
# ab BASE [CONFIG]: the BASE's recording of that run (tiny when no CONFIG)
ab() { echo "$DATA/mix-ppc64le-$1-entrytrace${2:+-$2}-ab-enforcing.mix.gz"; }
# diffs FILE: a compare's explained differences, "STAGE WHAT DELTA", sorted
diffs() { sed -n 's/^allowed: \([a-z_]*\) \([a-z0-9.]*\): \([^(]*\) (.*/\1 \2 \3/p' "$1" | sort; }
if [ -n "$SAMETREE" ]; then
	for sc in getppid kill; do
		"$KC" --syscall $sc "$(v3 $LEGACY)" "$(ab $SAMETREE)" >st-$sc.txt 2>&1
		expect_eq "$LEGACY -> $SAMETREE ($sc): the legacy entry on two bases, no stage differs" \
			"$?:$(tail -n1 st-$sc.txt)" "0:0 differences, 0 explained"
		"$KC" --lines --syscall $sc "$(ab $SAMETREE)" "$(ab $CONVERSION)" >conv-$sc.txt 2>&1
		rc=$?
		expect_eq "$SAMETREE -> $CONVERSION ($sc): the conversion alone, every difference explained ($(tail -n1 conv-$sc.txt))" "$rc" 0
		"$KC" --syscall $sc "$(v3 $LEGACY)" "$(ab $CONVERSION)" >full-$sc.txt 2>&1
		expect_eq "$LEGACY -> $CONVERSION ($sc): the same differences, by the same amounts" \
			"$(diffs full-$sc.txt | tr '\n' ';')" "$(diffs conv-$sc.txt | tr '\n' ';')"
		check "... eleven of them" test "$(diffs conv-$sc.txt | wc -l)" = 11
		# the same pair on the noforce config (context tracking not forced:
		# NO_HZ_FULL without nohz_full=), recorded in one run as well
		"$KC" --config noforce --syscall $sc "$(ab $SAMETREE noforce)" "$(ab $CONVERSION noforce)" >convnf-$sc.txt 2>&1
		expect_eq "$SAMETREE -> $CONVERSION, noforce ($sc): every difference explained as the conversion" \
			"$?:$(tail -n1 convnf-$sc.txt)" "0:9 differences, 9 explained"
		# and on Debian's config with PREEMPT_DYNAMIC (PREEMPT_RCU, -O2)
		"$KC" --config debian-dynamic --syscall $sc "$(ab $SAMETREE debian-dynamic)" \
			"$(ab $CONVERSION debian-dynamic)" >convdd-$sc.txt 2>&1
		expect_eq "$SAMETREE -> $CONVERSION, debian-dynamic ($sc): every difference explained as the conversion" \
			"$?:$(tail -n1 convdd-$sc.txt)" "0:10 differences, 10 explained"
		check "... the TIF_SYSCALL_RET atomic among them (hwsync +2)" \
			grep -q '^allowed: arch_syscall_entry hwsync: hwsync +2 per call' convdd-$sc.txt
		# and on Debian's config as shipped (PREEMPT_LAZY, TREE_RCU): SAMETREE's
		# recording (kernel-tiling --config debian --data v3) against
		# CONVERSION's, the same ten differences by the same amounts
		"$KC" --config debian --syscall $sc "$(deb $SAMETREE)" "$(deb $CONVERSION)" >convd-$sc.txt 2>&1
		expect_eq "$SAMETREE -> $CONVERSION, debian ($sc): every difference explained as the conversion" \
			"$?:$(tail -n1 convd-$sc.txt)" "0:10 differences, 10 explained"
		expect_eq "... the same as debian-dynamic's" \
			"$(diffs convd-$sc.txt | tr '\n' ';')" "$(diffs convdd-$sc.txt | tr '\n' ';')"
	done
	ARCH=ppc64le "$KT" --mix "$(deb $SAMETREE)" -- $SAMETREE >tiling-deb-st.txt 2>&1
	rc=$?
	expect_eq "v3 Debian config: the stages tile on ppc64le $SAMETREE (kernel-tiling exit; median gaps $(awk '$2 == "gap" && NF == 3 { printf "%s %s ", $1, $3 }' tiling-deb-st.txt))" "$rc" 0
	check "... two median gaps read, each at most 10" test "$(gaps_ok tiling-deb-st.txt 1)" = 2
	# only "the conversion:" lines for a same-tree pair
	sed "s/\tthe conversion: /\tplanted: /" "$TOP/scripts/kernel/check/stage-compare-allow" >noconv.allow
	expect_exit "a same-tree line whose reason is not 'the conversion:' is refused" 2 \
		"$KC" --allow noconv.allow "$(ab $SAMETREE)" "$(ab $CONVERSION)"
else
	_fail "scripts/lib/bases has no variant of $CONVERSION: the conversion alone is not checked"
fi

# The analyzer's side: untimed, the time between a syscall's first and last
# stamp that no top-level stage covers (stage mode: the gaps between the
# stage stamps, less a stamp each; summary mode, v3: the kernel's span less
# the stages and the stamp that begins the first, so the stamps of the
# boundaries that are not switches stay in it).  The recordings' series:
# PROVENANCE-kernel.md, PROVENANCE-ppc64le.md (v3 on every base and both arches; the -v2- files kept).
untimed() {	# FILE: getppid's untimed p50, the stamp, and counts of untimed and syscall
	"$ET" report --json -s getppid "$1" >u.json
	echo "$(cell u.json getppid untimed p50) $(jget u.json "d['files'][0]['syscalls']['stamp_ns']")" \
	     "$(cell u.json getppid untimed count) $(cell u.json getppid syscall count)"
}
for f in x86_64-7.2-v2-stage ppc64le-7.3-v2-stage; do
	read -r u50 stamp nu ns < <(untimed "$DATA/$f.dat")
	check "v2 $f: getppid's untimed p50 $u50 ns is over one stamp ($stamp ns): v2 does not tile" \
		python3 -c "import sys; sys.exit(not $u50 > $stamp)"
	expect_eq "v2 $f: untimed counted for every getppid" "$nu" "$ns"
done
# Known: two kernels' summaries hold one stamp more in their span than
# the others' (untimed over two stamps; their per-stage recordings tile as
# the others do).  A summary's untimed keeps the second stamp of every
# boundary that is an end and a separate begin, and each has one such
# boundary more than the newest base, kstack_rand's (checked below).
# Named with their sizes, so that one changing, or another kernel doing
# it, still fails.
known="x86_64-6.12:25 ppc64le-7.2:22"
declare -A u=() sn=()	# untimed p50 and stamp, per kernel
for a in x86_64 ppc64le; do
for b in $BASES; do
	k=$a-$b
	read -r u50 stamp nu ns < <(untimed "$DATA/$k-stage.dat")
	check "v3 $k-stage: getppid's untimed p50 $u50 ns is at most one stamp ($stamp ns): v3 tiles" \
		python3 -c "import sys; sys.exit(not $u50 <= $stamp)"
	expect_eq "v3 $k-stage: untimed counted for every getppid" "$nu" "$ns"
	read -r u50 stamp nu ns < <(untimed "$DATA/$k-compact.dat")
	u[$k]=$u50 sn[$k]=$stamp
	case " $known " in
	*" $k:"*)
		want=${known#*$k:} want=${want%% *}
		expect_eq "v3 $k-compact (span): getppid's untimed p50, a known third stamp" "$u50" "$want" ;;
	*)
		check "v3 $k-compact (span): getppid's untimed p50 $u50 ns is at most two stamps ($stamp ns)" \
			python3 -c "import sys; sys.exit(not 0 < $u50 <= 2 * $stamp)" ;;
	esac
	expect_eq "v3 $k-compact: untimed counted for every getppid" "$nu" "$ns"
done
done
# ... that boundary: x86_64 6.12's do_syscall_64() and ppc64le 7.2's
# system_call_exception() stamp add_random_kstack_offset() with its own
# begin and end before the generic entry begins arch_enter (kernel/6.12
# patch 5, arch/powerpc/7.2 patch 2); on the newest base kstack_rand is a switch of
# the entry chain.  The boundaries that are not a switch, from the
# per-stage recordings' exports, and the residual they leave (exactly on
# x86_64; ppc64le's timebase moves a nanosecond or two either way):
for kb in $known; do
	k=${kb%%:*} a=${kb%%-*} tol=0
	[ "$a" = ppc64le ] && tol=2
	for f in $k $a-$NEWEST; do
		"$ET" export -s getppid -o gaps-$f.json "$DATA/$f-stage.dat" 2>/dev/null
		python3 "$TOP/analyzer/tests/stagegaps.py" gaps-$f.json > gaps-$f.txt
		sed "s/^/#   $f: /" gaps-$f.txt
	done
	extra=$(awk 'NR == FNR { seen[$1 " " $2] = 1; next } $4 >= 50 && !((($1 " " $2)) in seen) { print $1, $2, $3 }' \
		gaps-$a-$NEWEST.txt gaps-$k.txt)
	expect_eq "$k's one boundary more than $a $NEWEST's: kstack_rand's end, then arch_enter's begin" \
		"$(echo "$extra" | cut -d' ' -f1,2)" "kstack_rand arch_enter"
	g=$(echo "$extra" | cut -d' ' -f3)
	check "... its second stamp and code ($g ns less a stamp) are the summary's extra untimed (${u[$k]} - ${u[$a-$NEWEST]} ns)" \
		python3 -c "import sys; sys.exit(not abs(($g - ${sn[$k]}) - (${u[$k]} - ${u[$a-$NEWEST]})) <= $tol)"
done
# The same-tree variant (SAMETREE, 7.2-legacy: 6.12's stage series on 7.2's
# tree), recorded as the bases are (scripts/kernel/record/ppc-fixtures,
# ppc64le only; PROVENANCE-ppc64le.md): the legacy stages tile on it too,
# per-stage within one stamp, the summary's span within two (its
# system_call_exception() stamps no kstack_rand boundary of its own, as
# 6.12's does not).
if [ -n "$SAMETREE" ]; then
	k=ppc64le-$SAMETREE
	if [ -f "$DATA/$k-stage.dat" ] && [ -f "$DATA/$k-compact.dat" ]; then
		read -r u50 stamp nu ns < <(untimed "$DATA/$k-stage.dat")
		check "v3 $k-stage: getppid's untimed p50 $u50 ns is at most one stamp ($stamp ns): v3 tiles" \
			python3 -c "import sys; sys.exit(not $u50 <= $stamp)"
		expect_eq "v3 $k-stage: untimed counted for every getppid" "$nu" "$ns"
		read -r u50 stamp nu ns < <(untimed "$DATA/$k-compact.dat")
		check "v3 $k-compact (span): getppid's untimed p50 $u50 ns is at most two stamps ($stamp ns)" \
			python3 -c "import sys; sys.exit(not 0 < $u50 <= 2 * $stamp)"
		expect_eq "v3 $k-compact: untimed counted for every getppid" "$nu" "$ns"
	else
		_fail "$k-stage.dat/-compact.dat missing (ARCH=ppc64le scripts/kernel/record/ppc-fixtures --no-seed $SAMETREE)"
	fi
fi
# The 32-bit guests (ppc32-fixtures, series v3): the stamps read the
# timebase, whose tick is coarse under -icount: g3beige's 16.6 MHz is 60.2
# instructions a tick (ppc750), mpc8544ds's 400 MHz 2.5 (ppce500;
# Documentation/kernel-powerpc.md, "32-bit guests").  untimed is then at most
# one stamp (stage mode) or two (summary) and a tick, and the known third
# stamp of 7.2's kstack_rand boundary shows on ppce500 (under ppc750's tick
# it does not).  Recorded: ppc750 45/46 on every base, ppce500 16/26,
# 17/41 (7.2), 16/25.
declare -A tick=([ppc750]=60.2 [ppce500]=2.5)
known32="ppce500-7.2:41"
n32=0
for a in $ARCHES32; do
for b in $BASES; do
	k=$a-$b t=${tick[$a]:?no timebase tick for $a}
	read -r u50 stamp nu ns < <(untimed "$DATA/$k-stage.dat")
	check "v3 $k-stage: getppid's untimed p50 $u50 ns is at most one stamp ($stamp ns) and a tick ($t): v3 tiles" \
		python3 -c "import sys; sys.exit(not $u50 <= $stamp + $t + 0.5)"
	expect_eq "v3 $k-stage: untimed counted for every getppid" "$nu" "$ns"
	read -r c50 stamp nu ns < <(untimed "$DATA/$k-compact.dat")
	case " $known32 " in
	*" $k:"*)
		want=${known32#*$k:} want=${want%% *}
		expect_eq "v3 $k-compact (span): getppid's untimed p50, a known third stamp" "$c50" "$want"
		check "... three stamps ($stamp ns) within a tick ($t)" \
			python3 -c "import sys; sys.exit(not abs($c50 - 3 * $stamp) <= $t)" ;;
	*)
		check "v3 $k-compact (span): getppid's untimed p50 $c50 ns is at most two stamps ($stamp ns) and a tick" \
			python3 -c "import sys; sys.exit(not 0 < $c50 <= 2 * $stamp + $t + 0.5)" ;;
	esac
	expect_eq "v3 $k-compact: untimed counted for every getppid" "$nu" "$ns"
	n32=$((n32 + 1))
done
done
expect_eq "every 32-bit kernel's untimed was checked" "$n32" "$(($(echo $ARCHES32 | wc -w) * $(echo $BASES | wc -w)))"
# A resumed stage (series v4: the exit loop goes back to exit_prepare)
# comes as one interval of its summed time, begun inside the stage before
# it by the length of its first piece: that piece is not untimed
# (timeline-stage.c, stage_gaps()).  In
# ppc64le 7.3's recording (series v4, PROVENANCE-ppc64le.md) the ptrace
# group runs the exit loop (notify_resume) and the plain group does not;
# counting the piece as a gap made the ptrace group's untimed 10.9 against
# 4.4.
byw() {	# FILE STAGE GROUP: the stage's mean in the path-signature group
	"$ET" report -s getppid --by-work -S "$2" "$DATA/$1.dat" |
		awk -v g="getppid[$3]" -v s="$2" '$1 == g { on = 1; next } /^getppid\[/ { on = 0 } on && $1 == s { print $4 }'
}
loopg='seccomp|ptrace|notify_resume|rseq'
ul=$(byw ppc64le-7.3-stage untimed "$loopg") up=$(byw ppc64le-7.3-stage untimed -)
check "v4 ppc64le-7.3-stage: untimed with the exit loop ($ul) within 1 of without ($up): exit_prepare's first piece is no gap" \
	python3 -c "import sys; sys.exit(not abs($ul - $up) <= 1)"
"$ET" report -s getppid "$DATA/x86_64-$NEWEST-compact.dat" >u-v3c.txt
check "v3 summary: the report says the total is the kernel's span" grep -q "total is the kernel's span" u-v3c.txt
# v2's summaries carry no span: no untimed, and the report says what the
# total is instead
"$ET" report -s getppid "$DATA/x86_64-$CONVERSION-v2-compact.dat" >u-v2c.txt
check "v2 summary: no untimed row without the kernel's span" sh -c "! grep -q ' untimed ' u-v2c.txt"
check "v2 summary: the total is the sum of the stages, the report says" \
	grep -q "total is the sum of the top-level stages" u-v2c.txt
