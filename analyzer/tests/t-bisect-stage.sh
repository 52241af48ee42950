# SPDX-License-Identifier: GPL-2.0
# scripts/kernel/dev/bisect-stage refuses what it cannot bisect before it builds
# anything: a rule entrytrace diff refuses, commits that are not in the tree
# or out of order, a tree that is dirty or not a git tree.  Each refusal is
# exit 2 with one line naming the bad value.  The bisect itself needs
# kernels: make kernel-bisect-demo runs it (Documentation/bisect-stage.md).
. "$(dirname "$0")/lib.sh"

BS=$TOP/scripts/kernel/dev/bisect-stage
export ENTRYTRACE_CACHE=$TMP/cache

# refuses DESC NEEDLE ARGS...: exit 2, and stderr's first line names NEEDLE
refuses() {
	local desc=$1 needle=$2 rc err
	shift 2
	err=$("$BS" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && printf '%s' "$err" | head -n1 | grep -qF -- "$needle"; then
		_pass "$desc (exit 2: $(printf '%s' "$err" | head -n1 | cut -c1-100))"
	else
		_fail "$desc: exit $rc, expected 2 naming '$needle'; stderr: $(printf '%s' "$err" | head -n3)"
	fi
}

g=(-c user.name=t -c user.email=t@localhost)
git init -q tree
echo a >tree/f
git -C tree add f
git "${g[@]}" -C tree commit -qm one
echo b >tree/f
git "${g[@]}" -C tree commit -qam two
r='kill:lsm_task_kill>5%'

check "--help exits 0" "$BS" --help
check "--help explains the step and the exit codes" \
	grep -q 'git bisect run' <("$BS" --help)
check "--help documents exit 2" grep -q '; 2 usage' <("$BS" --help)
refuses "no --rule" "--rule" --good HEAD~1 --bad HEAD tree
refuses "unknown stage in the rule" "nosuch" --good HEAD~1 --bad HEAD --rule 'kill:nosuch>5%' tree
refuses "a limit without a unit" "kill:lsm_task_kill>5'" --good HEAD~1 --bad HEAD --rule 'kill:lsm_task_kill>5' tree
refuses "a rule that is no rule" "garbage" --good HEAD~1 --bad HEAD --rule garbage tree
refuses "a class rule on an unknown account" "nosuch" --good HEAD~1 --bad HEAD --rule 'nosuch.hwsync>0' tree
refuses "a class rule's limit with a unit" "whole.hwsync>0%" --good HEAD~1 --bad HEAD --rule 'whole.hwsync>0%' tree
# a good class rule passes the rule check and is refused for the range, later
refuses "a class rule is a rule (the bisect runs the plugin)" "same commit" --good HEAD --bad HEAD --rule 'whole.hwsync>0' tree
refuses "--good not a commit" "nosuch" --good nosuch --bad HEAD --rule "$r" tree
refuses "--bad not a commit" "nosuch" --good HEAD --bad nosuch --rule "$r" tree
refuses "--good after --bad" "not an ancestor" --good HEAD --bad HEAD~1 --rule "$r" tree
refuses "an empty range" "same commit" --good HEAD --bad HEAD --rule "$r" tree
mkdir plain
refuses "not a git tree" "not the top of a git tree" --good HEAD~1 --bad HEAD --rule "$r" plain
refuses "a subdirectory of a git tree" "not the top of a git tree" --good HEAD~1 --bad HEAD --rule "$r" tree/.git
refuses "no such TREE" "nosuchdir" --good HEAD~1 --bad HEAD --rule "$r" nosuchdir
refuses "an arch it cannot boot" "ppc750" --arch ppc750 --good HEAD~1 --bad HEAD --rule "$r" tree
refuses "--n not a number" "--n 'x'" --n x --good HEAD~1 --bad HEAD --rule "$r" tree
refuses "--config missing" "no such file" --config nosuch.config --good HEAD~1 --bad HEAD --rule "$r" tree
refuses "an option without its value" "--rule needs a value" --good HEAD~1 --bad HEAD --rule
echo c >tree/f
refuses "a dirty tree" "changes to tracked files" --good HEAD~1 --bad HEAD --rule "$r" tree
git -C tree checkout -q f
check "...and a refusal changed nothing in the tree" \
	test "$(git -C tree status --porcelain)" = ""
