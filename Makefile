# SPDX-License-Identifier: GPL-2.0
#
# entrytrace: syscall entry/exit stage tracing.
#
# Plain make: the analyzer is a dozen C files and a library, the kernel side
# is driven by the kernel's own Kbuild, and make is what both trace-cmd and
# the kernel use.  Meson would add a dependency for no gain at this size.
#
#   make            build analyzer/entrytrace and the QEMU plugin (build/entrytrace-mix.so)
#   make demo       install dependencies, build, report on the shipped trace
#   make check      install dependencies, ASan/UBSan build, run the test suite
#   make bench      paired benchmark: this build against a pinned commit (fails on a regression), trace-cmd, libtracecmd
#   make docs       regenerate the generated parts of Documentation/
#   make seed-report  regenerate Documentation/seed-report.md (the seed scenarios)
#   make install    PREFIX=/usr/local

# A recipe that fails or is killed leaves no half-written target that make
# would later take as current (a killed 'make kshark' once left a 0-byte
# plugin behind, and 27 checks failed on it).
.DELETE_ON_ERROR:

PREFIX   ?= /usr/local
CC       ?= gcc
O        ?= build
PKGS     := libtracecmd libtraceevent libtracefs audit libzstd zlib libdw
# libdw is compiled against but not linked: lib/srcline.c opens it when it
# first reads a vmlinux, so no other command loads it (and libelf, liblzma,
# libbz2) at start
LINK_PKGS := $(filter-out libdw,$(PKGS))

ET_CFLAGS  = -std=c11 -D_GNU_SOURCE -pthread -Wall -Wextra -Werror -Wno-unused-parameter \
	     -Ianalyzer/include -Ianalyzer/lib -Itracepoints \
	     $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
ET_LDLIBS  = $(shell pkg-config --libs $(LINK_PKGS) 2>/dev/null) -lm -pthread -ldl
OPT_CFLAGS ?= -O2 -g
SAN_FLAGS  := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	      -fno-sanitize-recover=all

LIB_SRCS := $(wildcard analyzer/lib/*.c)
CLI_SRCS := analyzer/entrytrace.c analyzer/options.c analyzer/optable.c analyzer/session.c \
	    analyzer/top-screen.c \
	    $(wildcard analyzer/builtin-*.c)
HDRS     := $(wildcard analyzer/include/*.h analyzer/include/*.def analyzer/lib/*.h analyzer/lib/*.def \
			  analyzer/*.h) tracepoints/stages.def

# $(call objs,dir,srcs)
objs = $(patsubst analyzer/%.c,$(1)/%.o,$(2))

all: analyzer/entrytrace $(O)/entrytrace-mix.so

# ---- release build -------------------------------------------------------
$(O)/rel/%.o: analyzer/%.c $(HDRS) | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ET_CFLAGS) $(OPT_CFLAGS) $(CFLAGS) -c -o $@ $<

# The program links its objects in this order, report's path first: the
# kernel maps a file's pages in windows around each page a process runs,
# so a report (the command scripts/host/bench-analyzer weighs) maps only
# the first windows of the text and not the other commands' code.
# Relative relocations packed (DT_RELR): a PIE's table of them is most of
# its first read-only segment, and every page of it is read at start.
HOT_SRCS := analyzer/entrytrace.c analyzer/options.c analyzer/builtin-report.c \
	    $(addprefix analyzer/lib/,load.c source.c trace.c walk.c pages.c decode.c \
		timeline.c timeline-stock.c timeline-syscall.c timeline-task.c timeline-batch.c timeline-hist.c \
		overlay.c shape.c stats.c hist.c stage.c columns.c escape.c json.c render.c \
		render_list.c sections.c index.c audit.c mix.c kit.c)
comma := ,
REL_LDFLAGS := $(if $(shell echo 'int main(void){return 0;}' | \
			 $(CC) -Wl,-z,pack-relative-relocs -x c -o /dev/null - 2>/dev/null && echo y),\
		  -Wl$(comma)-z$(comma)pack-relative-relocs)

analyzer/entrytrace: $(call objs,$(O)/rel,$(HOT_SRCS) $(filter-out $(HOT_SRCS),$(CLI_SRCS) $(LIB_SRCS)))
	$(CC) $(OPT_CFLAGS) $(REL_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ET_LDLIBS)

# ---- shared library: the public interface, analyzer/include/entrytrace.h --
# Hidden by default: the .so exports what entrytrace.h declares and nothing
# else (analyzer/tests/t-public.sh checks both).  The KernelShark plugin
# links the same objects statically.
$(O)/pic/%.o: analyzer/%.c $(HDRS) | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ET_CFLAGS) $(OPT_CFLAGS) -fPIC -fvisibility=hidden $(CFLAGS) -c -o $@ $<

$(O)/libentrytrace.so: $(call objs,$(O)/pic,$(LIB_SRCS))
	$(CC) -shared -Wl,-soname,libentrytrace.so.0 -Wl,-z,defs $(LDFLAGS) -o $@ $^ $(ET_LDLIBS)
	ln -sf libentrytrace.so $(O)/libentrytrace.so.0

libentrytrace: $(O)/libentrytrace.so

# ---- ASan + UBSan build, used by the tests -------------------------------
$(O)/san/%.o: analyzer/%.c $(HDRS) | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(ET_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(O)/san/libentrytrace.a: $(call objs,$(O)/san,$(LIB_SRCS))
	$(AR) rcs $@ $^

$(O)/san/entrytrace: $(call objs,$(O)/san,$(CLI_SRCS)) $(O)/san/libentrytrace.a
	$(CC) $(SAN_FLAGS) -o $@ $^ $(ET_LDLIBS)

# Test helpers: small programs on the library (unit checks, trace editing).
TEST_SRCS := $(wildcard analyzer/tests/*.c)
TEST_BINS := $(patsubst analyzer/tests/%.c,$(O)/san/tests/%,$(TEST_SRCS))

$(O)/san/tests/%: analyzer/tests/%.c $(O)/san/libentrytrace.a $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ET_CFLAGS) $(SAN_FLAGS) -o $@ $< $(O)/san/libentrytrace.a $(ET_LDLIBS)

san: $(O)/san/entrytrace $(TEST_BINS)

deps-check:
	@pkg-config --exists $(PKGS) || { \
	  echo "missing libraries ($(PKGS)): run scripts/setup (or make demo / make check)"; \
	  exit 1; }

# ---- the two README commands ---------------------------------------------
DEMO_TRACE := analyzer/tests/data/host-kill-getppid.dat

demo:
	scripts/setup
	$(MAKE) all
	analyzer/entrytrace report $(DEMO_TRACE)

# the suite, two tests at a time (CI has 2 cores); t-jobs reads one
# recording of each kind; check-full reads every one (ET_FULL=1)
check:
	scripts/setup --tests
	$(MAKE) all san
	analyzer/tests/run -j2

check-full: export ET_FULL := 1
check-full: check

bench: all build/bare-iterate build/sysloop
	scripts/host/bench-analyzer

# the fast tier (under a minute): the C unit tests and the analyzer on the
# committed recordings; no root, tracefs, X or kernel (after make check's
# first install of the packages).
CHECK_FAST := t-unit t-vocabulary t-series t-errors t-edges t-lost t-mix-where t-views
check-fast: all san
	analyzer/tests/run -j2 $(CHECK_FAST)

# the Debian packages (debian/): built, installed, used, removed
deb-check:
	scripts/host/deb-check

# the analyzer built for ppc64el and s390x (big-endian) with Debian's -dev
# packages, run under qemu-user: every committed recording read the same
# as here; on ppc64el also the tests of the reading half
CHECK_CROSS := t-views t-errors t-edges t-vocabulary t-lost t-mix-report t-mix-where t-ppc32 \
	       t-diff t-damage t-distro t-export t-perfetto
check-cross: all
	scripts/host/cross-analyzer --agree --run $(CHECK_CROSS) ppc64le
	scripts/host/cross-analyzer --agree s390x

# the mutation campaign: is a damaged file ever read as a clean one?
robustness: san
	scripts/host/robustness

# the diff gate on a real clock: A/A false trips and a planted difference
bench-replicates: all
	scripts/host/bench-replicates

docs: all
	scripts/host/gen-docs

# the seed-scenario report alone (Documentation/seed-report.md)
seed-report: all
	scripts/host/gen-docs Documentation/seed-report.md.in

install: all
	install -D -m 0755 analyzer/entrytrace $(DESTDIR)$(PREFIX)/bin/entrytrace
	install -D -m 0644 Documentation/entrytrace.1 $(DESTDIR)$(PREFIX)/share/man/man1/entrytrace.1

clean:
	rm -rf $(O) analyzer/entrytrace

.PHONY: all san deps-check demo check check-full check-fast check-cross deb-check bench bench-replicates robustness docs seed-report install clean fuzz libentrytrace
-include scripts/kernel/kernel.mk
-include analyzer/kernelshark/kshark.mk
include analyzer/qemu-plugin/plugin.mk

# The workload, static so the same binary runs on the host and in guests.
build/sysloop: scripts/guest/workloads/sysloop.c
	@mkdir -p build
	$(CC) -O2 -Wall -Wextra -Werror -static -o $@ $<

# The timing model's host microbenchmarks (scripts/host/cycles-validate):
# static, so the binary qemu-x86_64 runs is the one timed natively.
build/cyclebench: analyzer/tools/cyclebench.c
	@mkdir -p build
	$(CC) -O2 -Wall -Wextra -Werror -static -o $@ $<

# Benchmark baseline: libtracecmd's ordered iteration and nothing else.
build/bare-iterate: analyzer/tools/bare-iterate.c | deps-check
	@mkdir -p build
	$(CC) $(ET_CFLAGS) $(OPT_CFLAGS) -o $@ $< $(ET_LDLIBS)

# libFuzzer harness (clang): scripts/host/fuzz runs it; make fuzz for 30 minutes.
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
build/fuzz/fuzz-trace: analyzer/fuzz/fuzz-trace.c $(LIB_SRCS) $(HDRS) | deps-check
	@mkdir -p build/fuzz
	clang $(filter-out -Werror,$(ET_CFLAGS)) -Werror $(FUZZ_FLAGS) -o $@ \
		analyzer/fuzz/fuzz-trace.c $(LIB_SRCS) $(ET_LDLIBS)

fuzz:
	scripts/host/fuzz -t 1800
