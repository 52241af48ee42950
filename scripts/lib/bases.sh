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
