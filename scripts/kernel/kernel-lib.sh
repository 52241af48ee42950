# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by the kernel-side scripts (scripts/kernel/*).

ET_CACHE=${ENTRYTRACE_CACHE:-/var/cache/entrytrace}

# die MSG: the calling script's name, MSG, exit 1
die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# need PKG...: apt-get install whatever is not installed yet.  Scripts
# that run side by side (kernel-parity --parallel boots three guests, each
# needing its QEMU) take turns: one lock for all of them, and the list is
# read again under it, so the second finds installed what the first did
need() {
	local missing
	_need_missing "$@" || return 0
	(
		flock 9
		_need_missing "$@" || exit 0
		apt-get update -qq >&2 || true
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
			install -y -qq "${missing[@]}" >&2
	) 9>/run/lock/entrytrace-apt.lock
}

# _need_missing PKG...: set the caller's (local) missing to the ones not
# installed; false if none
_need_missing() {
	local p
	missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ]
}

# kernel_arch ARCH: set karch, cross, target and image (the boot image,
# relative to the build directory) for the guest kernels of ARCH, and
# srcarch, the kernel source's arch/ directory (kbuild's SRCARCH)
kernel_arch() {
	case "$1" in
	x86_64) karch=x86_64 srcarch=x86 cross="" target=bzImage image=arch/x86/boot/bzImage ;;
	ppc64le) karch=powerpc srcarch=powerpc cross=powerpc64le-linux-gnu- target=vmlinux image=vmlinux ;;
	# 32-bit powerpc guests: ppc750 (Book3S-32, 750 core: QEMU g3beige) and
	# ppce500 (e500v2: QEMU mpc8544ds); both boot the ELF vmlinux
	ppc750|ppce500) karch=powerpc srcarch=powerpc cross=powerpc-linux-gnu- target=vmlinux image=vmlinux ;;
	*) die "unknown arch $1" ;;
	esac
}

# kernel_make TREE OUT MAKEARG...: scripts/kernel/build/build-kernel's make command line
# (after kernel_arch).  Whoever reuses a build directory must build with
# exactly this line, or kbuild sees changed commands and rebuilds it all.
kernel_make() {
	local tree=$1 out=$2
	shift 2
	nice -n 10 make -s -C "$tree" O="$out" ARCH="$karch" ${cross:+CROSS_COMPILE=$cross} "$@"
}

# kernel_lock_name TOP ARCH BASE: the name build-kernel locks and keeps its
# patched tree under: ARCH-BASE when arch/KARCH/BASE has a series of its
# own, BASE otherwise (after kernel_arch); the 32-bit powerpc guests share
# one tree, ppc32-BASE (same series, same sources)
kernel_lock_name() {
	case "$2" in ppc750|ppce500) echo "ppc32-$3"; return ;; esac
	if [ -d "$1/arch/$karch/$3" ]; then echo "$2-$3"; else echo "$3"; fi
}

# ---- Provenance tables (analyzer/tests/data/PROVENANCE-*.md) -----------------
# A header and a table of one row per fixture file.  A run rewrites the
# header, replaces the rows of the files it recorded and keeps the others
# (another base's or arch's, recorded by an earlier run), sorted by file:
#
#   prov_begin FILE ROW_ERE   the rows kept: FILE's lines matching ROW_ERE
#   prov_row NAME CELL...     this run's row for NAME: "| NAME | CELL | ... |"
#   prov_end HEADER_FN        FILE = what HEADER_FN prints, then the rows
#
# and the cells most tables have:
#   series_hash BASE [ARCH]   sha256 (16 hex) of the exported series (below)
#   config_hash IMAGE_DIR     sha256 (16 hex) of a built image's .config
#   tracecmd_version RUN_DIR  trace-cmd's version as the guest printed it
prov_begin() {
	PROV=$1
	PROV_ROWS=$(mktemp)
	[ -f "$PROV" ] && grep -E "$2" "$PROV" >"$PROV_ROWS" || true
}

prov_row() {
	local name=$1 row
	shift
	row="| $name |"
	for cell in "$@"; do row+=" $cell |"; done
	grep -vF "| $name |" "$PROV_ROWS" >"$PROV_ROWS.new" || true
	echo "$row" >>"$PROV_ROWS.new"
	mv "$PROV_ROWS.new" "$PROV_ROWS"
}

prov_end() {
	{ "$1"; sort -t'|' -k2,2 "$PROV_ROWS"; } >"$PROV.tmp"
	mv "$PROV.tmp" "$PROV"
	rm -f "$PROV_ROWS"
	echo "wrote $PROV"
}

# ---- Fixture kinds (kernel-fixtures, ppc-fixtures: scripts/guest/plan-fixture.sh) --
#   fixture_only_ok "KIND..." "ALLOWED..."  die unless every KIND is one of ALLOWED
#   fixture_kinds OUT "KIND..."   the kinds to keep of a guest run's OUT: stage
#                                 and compact, then batch and migrate when the
#                                 guest recorded them; with KIND..., those, each
#                                 of which it must have recorded
fixture_only_ok() {
	local k
	for k in $1; do
		case " $2 " in *" $k "*) ;; *)
			die "--only: want ${2// /, }, not '$k'" ;;
		esac
	done
}

fixture_kinds() {
	local out=$1 only=$2 kinds="stage compact" k
	for k in batch migrate; do
		[ -f "$out/$k.dat" ] && kinds="$kinds $k"
	done
	[ -n "$only" ] || { echo "$kinds"; return 0; }
	for k in $only; do
		case " $kinds " in *" $k "*) ;; *) die "the guest recorded no $k file ($out)" ;; esac
	done
	echo "$only"
}

# ---- The series, exported from its one source (scripts/kernel/build/series-export) --
#   series_dir BASE [ARCH]      export BASE's series for ARCH (default x86_64)
#                               into $ENTRYTRACE_CACHE/series/ (one directory
#                               per content) and print it: DIR/kernel/BASE/,
#                               and DIR/arch/powerpc/BASE/ for a powerpc ARCH
#   series_patches BASE [ARCH]  those patches in git-am order, no cover letter
#   series_hash BASE [ARCH]     sha256 (16 hex) of series_patches' content
series_dir() {
	local top cache tmp h dst cls
	local -a list
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	cache=${ENTRYTRACE_CACHE:-/var/cache/entrytrace}/series
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/.export.XXXXXX")
	mapfile -t list < <("$top/scripts/kernel/build/series-export" --arch "${2:-x86_64}" \
		--list "$1" "$tmp") || { rm -rf "$tmp"; die "series-export ${2:-x86_64} $1 failed"; }
	[ ${#list[@]} -gt 0 ] || { rm -rf "$tmp"; die "series-export ${2:-x86_64} $1 wrote no patch"; }
	h=$(cat "${list[@]}" | sha256sum | cut -c1-16)
	case "${2:-x86_64}" in x86_64) cls=x86 ;; *) cls=powerpc ;; esac
	dst=$cache/$1-$cls-$h
	if [ -d "$dst" ]; then
		rm -rf "$tmp"
	else
		mv -T "$tmp" "$dst" 2>/dev/null || rm -rf "$tmp"
	fi
	echo "$dst"
}

series_patches() {
	local d
	d=$(series_dir "$@") || return 1
	find "$d" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' |
		awk -F/ '{ print ($(NF-2) == "powerpc" ? 1 : 0) "\t" $0 }' | sort | cut -f2-
}

series_hash() {
	local -a p
	mapfile -t p < <(series_patches "$@")
	[ ${#p[@]} -gt 0 ] || die "no series for $*"
	cat "${p[@]}" | sha256sum | cut -c1-16
}

config_hash() {
	sha256sum <"$1/.config" | cut -c1-16
}

tracecmd_version() {
	grep -m1 -o "version [^ ]*" "$1/out/trace-cmd.version" 2>/dev/null || echo unknown
}

# derive_sources SUITE: a sources.list with this machine's Debian URIs for
# SUITE: the URIs of the deb822 stanzas that carry a -security suite for a
# -security SUITE, of those that carry a plain release suite otherwise.
derive_sources() {
	local suite=$1 want=plain f
	case "$suite" in *-security) want=security ;; esac
	shopt -s nullglob
	for f in /etc/apt/sources.list.d/*.sources; do
		awk -v RS= -v want="$want" '
		{
			uris = ""; sig = ""; types = ""; plain = 0; sec = 0
			n = split($0, l, "\n")
			for (i = 1; i <= n; i++) {
				if (l[i] ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", l[i]); uris = l[i] }
				else if (l[i] ~ /^Signed-By:/) { sub(/^Signed-By:[ \t]*/, "", l[i]); sig = l[i] }
				else if (l[i] ~ /^Types:/) types = l[i]
				else if (l[i] ~ /^Suites:/) {
					m = split(l[i], s, /[ \t]+/)
					for (j = 2; j <= m; j++) {
						if (s[j] !~ /-/) plain = 1
						if (s[j] ~ /-security$/) sec = 1
					}
				}
			}
			ok = (want == "plain") ? plain : sec
			if (types ~ /(^|[ \t])deb([ \t]|$)/ && ok && uris != "")
				print uris "|" sig
		}' "$f"
	done | sort -u | while IFS='|' read -r uris sigs; do
		for u in $uris; do
			if [ -n "$sigs" ]; then
				echo "deb [signed-by=$sigs] $u $suite main"
			else
				echo "deb $u $suite main"
			fi
		done
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v suite="$suite" -v want="$want" '$1 == "deb" {
			opt = ""; k = 2
			if ($2 ~ /^\[/) { while ($k !~ /\]$/) { opt = opt $k " "; k++ } opt = opt $k " "; k++ }
			s = $(k + 1)
			if ((want == "plain" && s !~ /-/) || (want == "security" && s ~ /-security$/))
				print "deb " opt $k " " suite " main"
		}' "$f"
	done
}

# deb_fetch TOOL PKG DARCH DIR SUITE...: download PKG (for Debian architecture
# DARCH, "" for this machine's) into DIR from the first SUITE that has it
# ("system": this machine's apt sources as they are; any other suite through
# a temporary apt configuration of derive_sources, under $ET_CACHE/dl, so
# nothing under /etc/apt changes), and check its SHA256 against the Packages
# index.  Sets deb_path, deb_version, deb_suite and deb_sha; dies with one
# line naming the package when no suite has it or the download is wrong.
deb_fetch() {
	local tool=$1 pkg=$2 darch=$3 dir=$4 suite aptdir want q failed=""
	shift 4
	local -a aptopts
	deb_path="" deb_version="" deb_suite="" deb_sha=""
	q=$pkg
	[ -n "$darch" ] && q=$pkg:$darch
	for suite in "$@"; do
		aptdir=$ET_CACHE/dl/apt-${darch:+$darch-}$suite
		mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/sources.list.d"
		aptopts=(-o "Dir::Cache=$aptdir/cache" -o "Dir::State::Lists=$aptdir/lists"
			 -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
		[ -n "$darch" ] && aptopts+=(-o "APT::Architecture=$darch" -o "APT::Architectures=$darch")
		if [ "$suite" != system ]; then
			derive_sources "$suite" >"$aptdir/sources.list"
			[ -s "$aptdir/sources.list" ] ||
				die "no Debian URIs for $suite found in /etc/apt/sources.list.d/*.sources"
			aptopts+=(-o "Dir::Etc::sourcelist=$aptdir/sources.list"
				  -o "Dir::Etc::sourceparts=$aptdir/sources.list.d")
		fi
		echo "$tool: looking for $q in $suite" >&2
		# a mirror in sync fails one suite's index: say so, try the next
		if ! apt-get "${aptopts[@]}" update -qq >&2; then
			echo "$tool: warning: apt-get update failed for $suite (temporary configuration in $aptdir); trying the next suite" >&2
			failed="$failed $suite"
			continue
		fi
		deb_version=$(apt-cache "${aptopts[@]}" policy "$q" 2>/dev/null | awk '/Candidate:/ {print $2}')
		if [ -n "$deb_version" ] && [ "$deb_version" != "(none)" ]; then
			deb_suite=$suite
			break
		fi
	done
	[ -n "$deb_suite" ] ||
		die "$q is in none of: $* (Debian publishes no such package there${failed:+; apt-get update failed for$failed})"
	want=$(apt-cache "${aptopts[@]}" show "$q=$deb_version" | awk '/^SHA256:/ {print $2; exit}')
	mkdir -p "$dir"
	(cd "$dir" && apt-get "${aptopts[@]}" download "$q=$deb_version" >&2) ||
		die "download of $q=$deb_version from $deb_suite failed (apt's message is above)"
	deb_path=$(ls -1 "$dir/${pkg}_"*.deb 2>/dev/null |
		grep -F "_$(echo "$deb_version" | sed 's/:/%3a/')_" | head -n1)
	[ -f "$deb_path" ] || die "download of $q=$deb_version produced no .deb"
	deb_sha=$(sha256sum "$deb_path" | cut -d' ' -f1)
	[ "$deb_sha" = "$want" ] ||
		die "sha256 mismatch for $deb_path: got $deb_sha, Packages index says $want"
	echo "$tool: $(basename "$deb_path") ($deb_version) from $deb_suite, sha256 $deb_sha (matches the Packages index)" >&2
}

# Sysroots of Debian packages of another architecture (guest-sysroot,
# cross-analyzer): this machine's apt sources, a temporary apt state under
# $ET_CACHE/dl/apt-DEBARCH, nothing under /etc/apt or dpkg's database.
#
# sysroot_apt TOOL DEBARCH: set aptopts and aptdir for DEBARCH and refresh
# its index at most once a day.
sysroot_apt() {
	local tool=$1 stamp
	sysroot_tool=$1 sysroot_debarch=$2
	aptdir=$ET_CACHE/dl/apt-$sysroot_debarch
	mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/debs"
	aptopts=(-o "Dir::Cache=$aptdir/cache" -o "Dir::State::Lists=$aptdir/lists"
		 -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
		 -o "APT::Architecture=$sysroot_debarch"
		 -o "APT::Architectures::=$sysroot_debarch")
	stamp=$aptdir/lists/.updated
	if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
		# An index that fails (a mirror caught mid-sync) is left out by
		# apt; the packages must still be found in the others.
		apt-get "${aptopts[@]}" update -qq >&2 ||
			echo "$tool: apt-get update ($sysroot_debarch) reported errors; going on with the indexes it got" >&2
		touch "$stamp"
	fi
}

# sysroot_closure PKG...: the packages PKG... depend on, themselves
# included (no recommends), one per line, sorted.
sysroot_closure() {
	apt-cache "${aptopts[@]}" depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
		grep -v -e '^ ' -e '^<' | sort -u
}

# sysroot_unpack ROOT PKG...: the candidate version of each PKG, each .deb
# checked against the Packages index and unpacked (dpkg -x) into ROOT, with
# ROOT/SOURCES naming them.  Kept as it is while the packages and versions
# apt offers are the same.
sysroot_unpack() {
	local root=$1 want="" p v sha deb got
	shift
	for p in "$@"; do
		v=$(apt-cache "${aptopts[@]}" policy "$p" | awk '/Candidate:/ {print $2}')
		[ -n "$v" ] && [ "$v" != "(none)" ] || die "$p:$sysroot_debarch not found"
		want+="$p $v"$'\n'
	done
	# ($(cat) drops the last newline that $want ends with)
	[ -f "$root/.entrytrace-sysroot" ] &&
		[ "$(cat "$root/.entrytrace-want")" = "${want%$'\n'}" ] && return 0
	echo "$sysroot_tool: unpacking $# $sysroot_debarch packages into $root" >&2
	rm -rf "$root.tmp"
	mkdir -p "$root.tmp"
	: >"$root.tmp/SOURCES"
	while read -r p v; do
		[ -n "$p" ] || continue
		sha=$(apt-cache "${aptopts[@]}" show "$p=$v" | awk '/^SHA256:/ {print $2; exit}')
		(cd "$aptdir/debs" && apt-get "${aptopts[@]}" download -qq "$p=$v" >&2)
		deb=$(ls -1 "$aptdir/debs/${p}_"*"_$sysroot_debarch.deb" "$aptdir/debs/${p}_"*"_all.deb" 2>/dev/null |
			grep -F "_$(echo "$v" | sed 's/:/%3a/')_" | head -n1 || true)
		[ -f "$deb" ] || die "download of $p=$v produced no .deb"
		got=$(sha256sum "$deb" | cut -d' ' -f1)
		[ "$got" = "$sha" ] || die "sha256 mismatch for $deb: $got, index says $sha"
		dpkg -x "$deb" "$root.tmp"
		echo "$p $v $(basename "$deb") sha256=$got" >>"$root.tmp/SOURCES"
	done <<<"$want"
	printf '%s' "$want" >"$root.tmp/.entrytrace-want"
	touch "$root.tmp/.entrytrace-sysroot"
	rm -rf "$root"
	mv "$root.tmp" "$root"
}

# debian_flavour ARCH: Debian's architecture and generic kernel flavour for
# ARCH (darch, flavour); returns 1 for an ARCH Debian has no kernel for.
debian_flavour() {
	case "$1" in
	x86_64) darch=amd64 flavour=amd64_none_amd64 ;;
	ppc64le) darch=ppc64el flavour=ppc64el_none_powerpc64le ;;
	*) return 1 ;;
	esac
}

# debian_config_get TOOL X.Y DARCH FLAVOUR OUT SUITE...: Debian's kernel
# config of that flavour from linux-config-X.Y (deb_fetch: the first SUITE
# that has it, checked against its index), decompressed into OUT.  Leaves
# deb_path, deb_version and deb_suite set.
debian_config_get() {
	local tool=$1 ver=$2 dar=$3 flav=$4 out=$5 tmp dcfg
	shift 5
	need xz-utils dpkg
	tmp=$(mktemp -d)
	deb_fetch "$tool" "linux-config-$ver" "$dar" "$tmp" "$@"
	dpkg -x "$deb_path" "$tmp/x"
	dcfg=$(ls -1 "$tmp"/x/usr/src/linux-config-*/config."$flav".xz 2>/dev/null | head -n1)
	[ -f "$dcfg" ] || { rm -rf "$tmp"; die "$(basename "$deb_path") has no config.$flav.xz"; }
	xz -dc "$dcfg" >"$out"
	rm -rf "$tmp"
}

# The configs the plugin-side scripts take (kernel-mix, kernel-tiling,
# kernel-stage-compare and its allowlist's X.Y/CONFIG): build-kernel's
# --config but 8xx, the 32-bit guests' config, which the plugin does not run.
MIX_CONFIGS="tiny noforce distro debian debian-dynamic"

# mix_config_ok CFG: CFG is one of MIX_CONFIGS
mix_config_ok() {
	case " $MIX_CONFIGS " in *" $1 "*) return 0 ;; esac
	return 1
}

# The LSM lists the Debian-config kernels boot with, in Fedora's order (the
# POWER10 reporter's SELinux distribution, not Debian's AppArmor): with
# SELinux, and without it.
LSM_SELINUX=lockdown,yama,integrity,selinux,bpf,landlock
LSM_NO_SELINUX=lockdown,yama,integrity,bpf,landlock

# plain_opens SITES: whether a site file's kernel opens a plain syscall for
# the plugin, a site or zero-width marker that begins a syscall
# (SYSCALL_BEGIN, flag bit 0x1) outside the staged copies (entry_stage_*).
# Series v4 on powerpc has none: its plain copy has no marker, so in sites
# mode no syscall with every event off is opened or named.
plain_opens() {
	local tag addr st ed st2 fl bytes where
	while read -r tag addr st ed st2 fl bytes where; do
		[ "$tag" = site ] || continue
		(( 16#${fl#0x} & 1 )) || continue
		case "$where" in entry_stage_*) continue ;; esac
		return 0
	done < "$1"
	return 1
}

# rcu_calls TOOL SITES: the plugin's calls= list for a kernel's site file:
# __rcu_read_lock and __rcu_read_unlock where each is out of line once
# (PREEMPT_RCU).  Debian's configs have TREE_RCU without them (their
# rcu_read_lock() is preempt_disable()), and static copies of an inline
# helper are not the calls: such a function is left out, and TOOL says so.
rcu_calls() {
	local tool=$1 sites=$2 f n out=
	for f in __rcu_read_lock __rcu_read_unlock; do
		n=$(awk -v f="$f" '$1 == "func" && $4 == f { n++ } END { print n + 0 }' "$sites")
		if [ "$n" = 1 ]; then
			out=${out:+$out:}$f
		else
			echo "$tool: $f is in this kernel $n times, not once out of line: its calls are not counted" >&2
		fi
	done
	printf '%s\n' "$out"
}

# mix_annotate TOOL ENTRYTRACE VMLINUX MIX: entrytrace annotate a plugin
# output with its kernel.  A vmlinux without debug info (the distro and
# debian configs) still gives the kernel line (the release, so the entry
# path and the allowlist's bases) and every instruction's function:
# annotate exits 4 for the source lines it could not give, which is then
# no failure.  Says which it was; returns 1 if MIX could not be annotated.
mix_annotate() {
	local tool=$1 et=$2 vml=$3 mix=$4 arc=0 err
	err=$(mktemp)
	"$et" annotate -q --vmlinux "$vml" "$mix" 2>"$err" || arc=$?
	if [ $arc = 0 ]; then
		echo "$tool: $mix annotated" >&2
	elif [ $arc = 4 ] && ! readelf -S "$vml" | grep -q '\.debug_line'; then
		echo "$tool: $mix annotated: functions only, $vml has no line table (no DEBUG_INFO)" >&2
		arc=0
	else
		cat "$err" >&2
		echo "$tool: $mix could not be annotated (exit $arc, above)" >&2
		arc=1
	fi
	rm -f "$err"
	return $arc
}
