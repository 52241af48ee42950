# SPDX-License-Identifier: GPL-2.0
#
# The KernelShark plugin, included by the top Makefile.
#
#   make kshark               build $(O)/plugin-entrytrace.so
#   make install              also installs it, when libkshark-dev is there
#   kernelshark -p $(O)/plugin-entrytrace.so trace.dat
#
# The plugin links libentrytrace statically, from the same position-
# independent objects $(O)/libentrytrace.so is made of: KernelShark dlopens
# one file from its plugin directory, so there is no libentrytrace.so.0 to
# install and find, no version skew between plugin and library, and the
# library's symbols stay inside the plugin (--exclude-libs).
#
# KernelShark finds a plugin by name (-p entrytrace) in the directory it
# was built with, KS_PLUGIN_INSTALL_PREFIX in its KsCmakeDef.hpp (Debian:
# /usr/lib/x86_64-linux-gnu/kernelshark/plugins), so that is where install
# puts it; KSHARK_PLUGIN_DIR=DIR overrides.  Deps: scripts/setup --tests.

CXX ?= g++

KSHARK_PKG      := libkshark
KSHARK_INCDIR   := $(shell pkg-config --variable=includedir $(KSHARK_PKG) 2>/dev/null)
KSHARK_PLUGIN_DIR ?= $(or $(shell sed -n 's/^\#define KS_PLUGIN_INSTALL_PREFIX "\(.*\)"/\1/p' \
			 $(KSHARK_INCDIR)/KsCmakeDef.hpp 2>/dev/null),$(PREFIX)/lib/kernelshark/plugins)

# KernelShark's headers are someone else's: -isystem keeps -Werror on ours.
# (GCC ignores the -I pkg-config adds for a directory given with -isystem.)
KSHARK_CPPFLAGS = -isystem $(KSHARK_INCDIR) \
		  $(shell pkg-config --cflags $(KSHARK_PKG) 2>/dev/null) \
		  -Ianalyzer/kernelshark
KSHARK_LDLIBS   = $(shell pkg-config --libs $(KSHARK_PKG) 2>/dev/null) \
		  -lkshark-plot -lkshark-gui
KSHARK_WARN     = -Wall -Wextra -Werror
KSHARK_SRCS     := $(wildcard analyzer/kernelshark/*.c analyzer/kernelshark/*.cpp)
KSHARK_OBJS     := $(patsubst analyzer/kernelshark/%,$(O)/kshark/%.o,$(KSHARK_SRCS))
KSHARK_HDRS     := $(wildcard analyzer/kernelshark/*.h) $(HDRS)
KSHARK_PLUGIN   := $(O)/plugin-entrytrace.so

kshark: $(KSHARK_PLUGIN)

kshark-deps-check:
	@pkg-config --exists $(KSHARK_PKG) && [ -r $(KSHARK_INCDIR)/KsPlugins.hpp ] || { \
	  echo "missing KernelShark headers (libkshark-dev): run scripts/setup --tests"; \
	  exit 1; }

# The library's position-independent objects, as an archive.
$(O)/pic/libentrytrace.a: $(call objs,$(O)/pic,$(LIB_SRCS))
	$(AR) rcs $@ $^

$(O)/kshark/%.c.o: analyzer/kernelshark/%.c $(KSHARK_HDRS) | deps-check kshark-deps-check
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden $(KSHARK_WARN) \
		-Ianalyzer/include -Itracepoints $(KSHARK_CPPFLAGS) \
		$(OPT_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/kshark/%.cpp.o: analyzer/kernelshark/%.cpp $(KSHARK_HDRS) | kshark-deps-check
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -fPIC -fvisibility=hidden $(KSHARK_WARN) \
		$(KSHARK_CPPFLAGS) $(OPT_CFLAGS) $(CXXFLAGS) -c -o $@ $<

$(KSHARK_PLUGIN): $(KSHARK_OBJS) $(O)/pic/libentrytrace.a
	$(CXX) -shared -Wl,-z,defs -Wl,--exclude-libs,ALL $(LDFLAGS) -o $@ \
		$(KSHARK_OBJS) $(O)/pic/libentrytrace.a $(KSHARK_LDLIBS) $(ET_LDLIBS)

# Hooked into `make install`; skipped, with a note, without libkshark-dev.
install: install-kshark

install-kshark:
	@if pkg-config --exists $(KSHARK_PKG); then \
	  $(MAKE) --no-print-directory kshark && \
	  install -D -m 0644 $(KSHARK_PLUGIN) \
		$(DESTDIR)$(KSHARK_PLUGIN_DIR)/plugin-entrytrace.so && \
	  echo "installed $(DESTDIR)$(KSHARK_PLUGIN_DIR)/plugin-entrytrace.so"; \
	else \
	  echo "KernelShark plugin not installed: no libkshark-dev (scripts/setup --tests)"; \
	fi

.PHONY: kshark kshark-deps-check install-kshark
