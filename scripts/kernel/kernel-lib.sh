# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by the kernel-side scripts (scripts/kernel/*).

ET_CACHE=${ENTRYTRACE_CACHE:-/var/cache/entrytrace}

# die MSG: the calling script's name, MSG, exit 1
die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# need PKG...: apt-get install whatever is not installed yet
need() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	apt-get update -qq >&2 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
}

# kernel_arch ARCH: set karch, cross, target and image (the boot image,
# relative to the build directory) for the guest kernels of ARCH
kernel_arch() {
	case "$1" in
	x86_64) karch=x86_64 cross="" target=bzImage image=arch/x86/boot/bzImage ;;
	ppc64le) karch=powerpc cross=powerpc64le-linux-gnu- target=vmlinux image=vmlinux ;;
	# 32-bit powerpc guests: ppc750 (Book3S-32, 750 core: QEMU g3beige) and
	# ppce500 (e500v2: QEMU mpc8544ds); both boot the ELF vmlinux
	ppc750|ppce500) karch=powerpc cross=powerpc-linux-gnu- target=vmlinux image=vmlinux ;;
	*) die "unknown arch $1" ;;
	esac
}

# kernel_make TREE OUT MAKEARG...: scripts/kernel/build-kernel's make command line
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
#   series_hash BASE [ARCH]   sha256 (16 hex) of kernel/BASE's patches, and
#                             of arch/powerpc/BASE's for the powerpc ARCHes
#                             (ppc64le, ppc750, ppce500)
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

series_hash() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

	{ cat "$top/kernel/$1"/[0-9][0-9][0-9][0-9]-*.patch
	  case "${2:-}" in ppc64le|ppc750|ppce500)
		cat "$top/arch/powerpc/$1"/[0-9][0-9][0-9][0-9]-*.patch ;; esac
	  true; } | sha256sum | cut -c1-16
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
	local tool=$1 pkg=$2 darch=$3 dir=$4 suite aptdir want q
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
		apt-get "${aptopts[@]}" update -qq >&2 ||
			die "apt-get update failed for $suite (temporary configuration in $aptdir)"
		deb_version=$(apt-cache "${aptopts[@]}" policy "$q" 2>/dev/null | awk '/Candidate:/ {print $2}')
		if [ -n "$deb_version" ] && [ "$deb_version" != "(none)" ]; then
			deb_suite=$suite
			break
		fi
	done
	[ -n "$deb_suite" ] ||
		die "$q is in none of: $* (Debian publishes no such package there)"
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
