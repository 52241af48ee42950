# SPDX-License-Identifier: GPL-2.0
# The bases and architectures of scripts/lib/bases, for shell scripts:
#   . scripts/lib/bases.sh; for b in $(et_bases); do ...
_et_bases_file=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bases
et_bases() { awk '$1 == "base" { printf "%s%s", n++ ? " " : "", $2 } END { print "" }' "$_et_bases_file"; }
et_arches() { awk '$1 == "arch" { printf "%s%s", n++ ? " " : "", $2 } END { print "" }' "$_et_bases_file"; }
et_arches32() { awk '$1 == "arch32" { printf "%s%s", n++ ? " " : "", $2 } END { print "" }' "$_et_bases_file"; }
# et_bases_of legacy|generic: the bases whose powerpc entry is that path
et_bases_of() { awk -v p="$1" '$1 == "base" && $3 == p { printf "%s%s", n++ ? " " : "", $2 } END { print "" }' "$_et_bases_file"; }
# the newest base (the tests' reference kernel)
et_newest_base() { awk '$1 == "base" { b = $2 } END { print b }' "$_et_bases_file"; }
# et_variants: the powerpc variants (7.2-legacy: 7.2 with the legacy entry)
et_variants() { awk '$1 == "variant" { printf "%s%s", n++ ? " " : "", $2 } END { print "" }' "$_et_bases_file"; }
# et_variant NAME FIELD: a variant's base, entry or donor (empty if NAME is
# no variant)
et_variant() {
	awk -v n="$1" -v f="$2" '$1 == "variant" && $2 == n {
		print (f == "base" ? $3 : f == "entry" ? $4 : f == "donor" ? $5 : "") }' "$_et_bases_file"
}
# et_source_base NAME: the base whose Debian source NAME is built from (a
# base itself, or a variant's base)
et_source_base() { local b; b=$(et_variant "$1" base); echo "${b:-$1}"; }
# et_entry_of NAME: the powerpc entry path of a base or variant
et_entry_of() {
	awk -v n="$1" '($1 == "base" && $2 == n) { print $3 } ($1 == "variant" && $2 == n) { print $4 }' "$_et_bases_file"
}
