# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by the kernel-side scripts (scripts/kernel-*, build-kernel, ...).

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

# kernel_make TREE OUT MAKEARG...: scripts/build-kernel's make command line
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
