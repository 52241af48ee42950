# SPDX-License-Identifier: GPL-2.0
#
# Kernel half of entrytrace: the kernel/BASE patch series, guest kernels built
# per (base, variant) and booted in QEMU.  Included by the top Makefile.
# Nothing here is part of 'make check'; 'make check-kernel' runs it all.
#
#   make check-vocabulary   the series' copies of tracepoints/ are current
#   make kernel-fetch       extract linux-source-BASE of every base into the cache
#   make kernel-apply       scripts/kernel/build/apply-series on Debian's trees: the bases,
#                           other point releases, a git tree, an older tree
#   make kernel-series      the committed per-base patches equal a fresh export
#                           from kernel/manifest (series-refresh --check)
#   make series-refresh     write them (after a change to a patch's SOURCE)
#   make kernel-images      build base + entrytrace kernels (cached)
#   make kernel-checkpatch  checkpatch.pl --strict on each series
#   make kernel-objtool     objtool silent, noinstr validation on vmlinux.o
#   make kernel-identity    CONFIG_ENTRY_STAGE_TRACE=n code == base code
#   make kernel-plain-identity  series v4, x86_64: the plain syscall path's code
#                           == base code, one selection point
#   make kernel-hotpath     static-branch NOPs added to the syscall path
#   make kernel-noinstr     stamps call nothing, no new calls out of .noinstr.text
#   make kernel-distro      the distribution-like (-O2, defconfig) kernels: build,
#                           hot path NOPs only, overhead
#   make kernel-coverage    per-workload stage coverage + icount determinism
#   make kernel-parity      selftests: base vs entrytrace (off, on)
#   make kernel-overhead    instructions per getppid() -> Documentation/overhead.md
#   make kernel-fixtures    guest trace.dat fixtures -> analyzer/tests/data/
#   make check-kernel       all of the checks above (not overhead/fixtures)
#   make check-kernel-ppc   the same for the ppc64le kernels (KARCH=ppc64le)
#   make kernel-fixtures-ppc  ppc64le fixtures and seed pair -> analyzer/tests/data/
#   make kernel-seed-noforce  the ppc64le seed pair (6.12, 7.2) on the kernels
#                           without forced context tracking -> analyzer/tests/data/
#   make kernel-mix         the QEMU mix plugin on the base kernels, checked
#                           (MIX_ARGS=--data: outputs -> analyzer/tests/data/)
#   make kernel-bisect-demo scripts/kernel/dev/bisect-stage names a planted commit on
#                           a 7.2 branch (BISECT_ARCH=ppc64le, the default,
#                           writes Documentation/bisect-stage.md)
#   make kernel-ppc32       the 32-bit powerpc guests (ppc750, ppce500) on
#                           PPC32_BASES: objdump identity, one boot each of
#                           base, off and entrytrace
#   make kernel-stress      the POWER10 report's table: Debian's ppc64el config
#                           (6.12, 7.2; build-kernel --config debian), stress-ng
#                           --kill 1 under SELinux enforcing, permissive, disabled
#   make kernel-reporter    the reporter's table on the same tree: 7.2-legacy
#                           against 7.2 (tiny entrytrace kernels), stress-ng
#                           --kill 1 per SELinux mode in the cells of
#                           REPORTER_CELLS (a population of N processes over K
#                           domains, audit, vCPUs), kill(-1, 0) per target
#   make kernel-8xx         the 8xx report's loops on ppc750 kernels with the
#                           choices of mpc885_ads_defconfig (--config 8xx), then
#                           scripts/host/ppc32-8xx-report on them
#   make kernel-legacy      7.2-legacy (7.2 with the conversion taken out): entry
#                           path, tiling, stage compares with 6.12 and 7.2, parity
#   make kernel-own-analyzer  the ppc64el analyzer inside a ppc64le guest:
#                           entrytrace record + report there, against the host's
#
# KERNEL_BASES and KARCH select what runs; the cache is $(ENTRYTRACE_CACHE).

# (the one list of bases and arches: scripts/lib/bases)
KERNEL_BASES     ?= $(shell awk '$$1 == "base" { print $$2 }' scripts/lib/bases)
# powerpc's conversion pair: the oldest legacy base, the first generic one
KERNEL_LEGACY     := $(firstword $(shell awk '$$1 == "base" && $$3 == "legacy" { print $$2 }' scripts/lib/bases))
KERNEL_CONVERSION := $(firstword $(shell awk '$$1 == "base" && $$3 == "generic" { print $$2 }' scripts/lib/bases))
KARCH            ?= x86_64
ENTRYTRACE_CACHE ?= /var/cache/entrytrace
export ENTRYTRACE_CACHE
KERNEL_ENV       := ARCH=$(KARCH)

check-vocabulary:
	scripts/gen-kernel-defs --check

kernel-fetch:
	@for b in $(KERNEL_BASES); do scripts/kernel/build/fetch-kernel $$b || exit 1; done

kernel-series:
	scripts/kernel/build/series-refresh --check

series-refresh:
	scripts/kernel/build/series-refresh

kernel-apply:
	KERNEL_BASES="$(KERNEL_BASES)" scripts/kernel/check/kernel-apply-check

kernel-images:
	@for b in $(KERNEL_BASES); do for v in base entrytrace; do \
		$(KERNEL_ENV) scripts/kernel/build/build-kernel $$b $$v || exit 1; done; done

kernel-checkpatch:
	$(KERNEL_ENV) scripts/kernel/check/kernel-checkpatch $(KERNEL_BASES)

kernel-objtool:
	$(KERNEL_ENV) scripts/kernel/check/kernel-objtool $(KERNEL_BASES)

kernel-identity:
	@for b in $(KERNEL_BASES); do $(KERNEL_ENV) scripts/kernel/check/kernel-objdump-identity $$b || exit 1; done

kernel-plain-identity:
	@for b in $(KERNEL_BASES); do ARCH=x86_64 scripts/kernel/check/kernel-plain-identity $$b || exit 1; done
	@for b in $(shell awk '$$1 == "base" && $$3 == "generic" { print $$2 }' scripts/lib/bases); do \
		for a in ppc64le ppc750 ppce500; do \
		ARCH=$$a scripts/kernel/check/kernel-plain-identity $$b || exit 1; done; done

kernel-hotpath:
	@for b in $(KERNEL_BASES); do $(KERNEL_ENV) scripts/kernel/check/kernel-hotpath $$b || exit 1; done

kernel-noinstr:
	@for b in $(KERNEL_BASES); do \
		$(KERNEL_ENV) scripts/kernel/check/kernel-noinstr \
			--base $$($(KERNEL_ENV) scripts/kernel/build/build-kernel $$b base)/vmlinux \
			$$($(KERNEL_ENV) scripts/kernel/build/build-kernel $$b entrytrace)/vmlinux || exit 1; done

kernel-distro:
	@for b in $(KERNEL_BASES); do for v in base entrytrace; do \
		$(KERNEL_ENV) scripts/kernel/build/build-kernel --config distro $$b $$v || exit 1; done; done
	@for b in $(KERNEL_BASES); do $(KERNEL_ENV) scripts/kernel/check/kernel-hotpath --config distro $$b || exit 1; done
	$(KERNEL_ENV) scripts/kernel/record/kernel-overhead --config distro $(KERNEL_BASES)

kernel-coverage:
	@for b in $(KERNEL_BASES); do $(KERNEL_ENV) scripts/kernel/check/kernel-record-check $$b || exit 1; done

kernel-parity:
	@for b in $(KERNEL_BASES); do $(KERNEL_ENV) scripts/kernel/check/kernel-parity $$b || exit 1; done

kernel-overhead:
	$(KERNEL_ENV) scripts/kernel/record/kernel-overhead $(KERNEL_BASES)
	scripts/kernel/record/kernel-overhead --write Documentation/overhead.md

kernel-fixtures:
	scripts/kernel/record/kernel-fixtures $(KERNEL_BASES)

check-kernel:
	$(KERNEL_ENV) KERNEL_BASES="$(KERNEL_BASES)" scripts/kernel/check/check-kernel

# powerpc: the legacy entry (6.12) and the generic-entry port (7.2, 7.3)
check-kernel-ppc:
	$(MAKE) check-kernel KARCH=ppc64le

kernel-fixtures-ppc:
	scripts/kernel/record/ppc-fixtures $(KERNEL_BASES)

# the reporter's pair without forced context tracking (build-kernel --config
# noforce; Documentation/seed-report.md), booted with nohz=off: in their
# NO_HZ tick an idle guest never wakes from a timed sleep here, on every base
# (scripts/guest/plan-sleeptest.sh).  (Series v2 recorded 7.2 enforcing with
# -n 299: at 300 its trace-cmd record read none of the events; with nohz=off
# the v3 kernel's records all 619.)
kernel-seed-noforce:
	ARCH=ppc64le scripts/kernel/record/kernel-seed --config noforce --append nohz=off $(KERNEL_LEGACY) $(KERNEL_CONVERSION)

# the QEMU mix plugin (Documentation/qemu-plugin.md): every SELinux variant,
# determinism, the user loop against objdump, the plugin's slowdown
MIX_VARIANT ?= base
MIX_ARGS    ?= --slowdown 20000
kernel-mix: qemu-plugin
	@for b in $(KERNEL_BASES); do \
		$(KERNEL_ENV) scripts/kernel/record/kernel-mix $(MIX_ARGS) $$b $(MIX_VARIANT) || exit 1; done

# scripts/kernel/dev/bisect-stage on eight commits on Debian's 7.2, one of them
# planted (an rcu_read_lock/unlock pair in selinux_task_kill)
BISECT_ARCH ?= ppc64le
kernel-bisect-demo:
	scripts/kernel/dev/bisect-demo --arch $(BISECT_ARCH)

# the 32-bit powerpc guests: tinyconfig only
PPC32_BASES ?= $(KERNEL_BASES)
kernel-ppc32:
	scripts/kernel/record/ppc32-variants $(PPC32_BASES)

# the reporters' setups (issue 26): the legacy base and the first generic one
STRESS_BASES ?= $(shell awk '$$1 == "base" && $$3 == "legacy" { l = $$2 } $$1 == "base" && $$3 == "generic" && !g { g = $$2 } END { print l, g }' scripts/lib/bases)
kernel-stress:
	ARCH=ppc64le scripts/kernel/record/kernel-stress --config debian $(STRESS_ARGS) $(STRESS_BASES)

# series v3: the stages tile (the mix plugin's gap) and powerpc's two paths
# compare stage by stage (scripts/kernel/check/stage-compare-allow); v4:
# the plain copies tile by their zero-width markers, every event off, in
# the kernels built with them where they change the code (--marks:
# powerpc's generic entry, x86_64 6.12), and powerpc's generic plain copy
# compares with the legacy path
kernel-tiling:
	ARCH=ppc64le scripts/kernel/check/kernel-tiling --marks $(TILING_ARGS) $(KERNEL_BASES)
	ARCH=x86_64 scripts/kernel/check/kernel-tiling --marks $(TILING_ARGS) $(KERNEL_BASES)
	for g in $(filter-out $(KERNEL_LEGACY),$(KERNEL_BASES)); do \
		scripts/kernel/check/kernel-stage-compare \
			$(ENTRYTRACE_CACHE)/runs/mix-ppc64le-$(KERNEL_LEGACY)-entrytrace/enforcing-1.mix \
			$(ENTRYTRACE_CACHE)/runs/mix-ppc64le-$$g-entrytrace-marks/enforcing-1.mix || exit 1; \
	done

# the conversion alone (issue 44, 1): 7.2-legacy, CONVERSION's tree with
# the legacy entry (scripts/lib/bases' variant), beside the legacy base and
# CONVERSION: which entry path each kernel built, the stages tile, and the
# two compares, LEGACY -> SAMETREE (the legacy entry on two bases) and
# SAMETREE -> CONVERSION (the conversion alone: only "the conversion:"
# lines of stage-compare-allow).  LEGACY_ARGS=--data ab records them into
# analyzer/tests/data/ (mix-ppc64le-BASE-entrytrace-ab-enforcing.mix.gz).
KERNEL_SAMETREE := $(shell awk -v c=$(KERNEL_CONVERSION) '$$1 == "variant" && $$3 == c { print $$2; exit }' scripts/lib/bases)
LEGACY_RUNS     := $(ENTRYTRACE_CACHE)/runs/mix-ppc64le
kernel-legacy:
	@for k in "$(KERNEL_SAMETREE) base" "$(KERNEL_SAMETREE) entrytrace" "$(KERNEL_LEGACY) entrytrace" \
		"$(KERNEL_CONVERSION) entrytrace"; do ARCH=ppc64le scripts/kernel/build/build-kernel $$k >/dev/null || exit 1; done
	scripts/kernel/check/kernel-entry-path $(LEGACY_ENTRY_ARGS) $$(for k in "$(KERNEL_LEGACY) entrytrace" "$(KERNEL_CONVERSION) entrytrace" \
		"$(KERNEL_SAMETREE) base" "$(KERNEL_SAMETREE) entrytrace"; do ARCH=ppc64le scripts/kernel/build/build-kernel --print-image $$k; done)
	ARCH=ppc64le scripts/kernel/check/kernel-tiling $(LEGACY_ARGS) $(KERNEL_LEGACY) $(KERNEL_CONVERSION) $(KERNEL_SAMETREE)
	scripts/kernel/check/kernel-stage-compare --lines $(LEGACY_RUNS)-$(KERNEL_LEGACY)-entrytrace/enforcing-1.mix \
		$(LEGACY_RUNS)-$(KERNEL_SAMETREE)-entrytrace/enforcing-1.mix
	scripts/kernel/check/kernel-stage-compare --lines $(LEGACY_RUNS)-$(KERNEL_SAMETREE)-entrytrace/enforcing-1.mix \
		$(LEGACY_RUNS)-$(KERNEL_CONVERSION)-entrytrace/enforcing-1.mix
	ARCH=ppc64le scripts/kernel/check/kernel-parity --icount $(KERNEL_SAMETREE)

kernel-own-analyzer:
	scripts/kernel/record/kernel-own-analyzer

# the reporter's question on the same tree (issue 44): the conversion alone
# (the cells of analyzer/tests/data/reporter/; smp2 hung in boot here)
REPORTER_CELLS ?= base,n300,k8,auditd,audkill
kernel-reporter:
	ARCH=ppc64le scripts/kernel/record/kernel-reporter --cells $(REPORTER_CELLS) $(REPORTER_ARGS) \
		$(KERNEL_SAMETREE) $(KERNEL_CONVERSION)

kernel-8xx:
	scripts/kernel/record/ppc32-fixtures --config 8xx --no-fixtures --arch ppc750 $(STRESS_BASES)
	scripts/host/ppc32-8xx-report --dir $(ENTRYTRACE_CACHE)/runs/ppc32-fixtures-8xx --bases "$(STRESS_BASES)" ppc750

.PHONY: kernel-stress kernel-tiling kernel-legacy kernel-reporter kernel-8xx kernel-own-analyzer kernel-bisect-demo kernel-ppc32 kernel-seed-noforce check-vocabulary kernel-fetch kernel-apply kernel-images kernel-checkpatch kernel-objtool \
	kernel-identity kernel-plain-identity kernel-hotpath kernel-noinstr kernel-distro kernel-coverage kernel-parity kernel-overhead \
	kernel-fixtures check-kernel check-kernel-ppc kernel-fixtures-ppc kernel-mix
