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
