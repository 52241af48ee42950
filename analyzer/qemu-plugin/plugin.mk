# SPDX-License-Identifier: GPL-2.0
#
# The QEMU TCG plugin (Documentation/qemu-plugin.md), included by the top
# Makefile and built by 'make' with the analyzer:
#
#   make qemu-plugin    build $(O)/entrytrace-mix.so
#   qemu-system-x86_64 ... -plugin $(O)/entrytrace-mix.so,sites=K.sites,out=RUN.mix
#
# No library, no QEMU header (Debian does not package qemu-plugin.h): the
# API subset it uses is declared in analyzer/qemu-plugin/qemu-api.h, and the
# QEMU binary provides the symbols when it loads the plugin.

QPLUGIN_SRCS := $(wildcard analyzer/qemu-plugin/*.c)
QPLUGIN_HDRS := $(wildcard analyzer/qemu-plugin/*.h) $(O)/qemu-plugin/site-abi.h \
		analyzer/include/mix-format.def analyzer/include/mix-shape.h
QPLUGIN_CFLAGS := -std=gnu11 -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
		  -Wno-unused-parameter -iquote $(O)/qemu-plugin -iquote analyzer/include

# The site ABI (edges, flags, no stage) from the header the kernel builds
# with, so that a flag the series adds reaches the plugin or fails here.
SITE_ABI_HEADER := kernel/src/include/linux/entry_stage_types.h
$(O)/qemu-plugin/site-abi.h: $(SITE_ABI_HEADER) scripts/lib/siteabi.py
	@mkdir -p $(dir $@)
	scripts/lib/siteabi.py --header $< c > $@.tmp && mv $@.tmp $@

$(O)/entrytrace-mix.so: $(QPLUGIN_SRCS) $(QPLUGIN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(QPLUGIN_CFLAGS) $(OPT_CFLAGS) $(CFLAGS) -shared -o $@ $(QPLUGIN_SRCS)

qemu-plugin: $(O)/entrytrace-mix.so

.PHONY: qemu-plugin

# The tests' builds (make san, make check): the plugin with ASan+UBSan, and
# fakeqemu, which loads it as QEMU would and replays instruction streams
# (analyzer/tests/t-qemu-plugin.sh).  -rdynamic: the plugin takes the
# qemu_plugin_* functions from the executable, as it does from QEMU.
$(O)/san/entrytrace-mix.so: $(QPLUGIN_SRCS) $(QPLUGIN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(QPLUGIN_CFLAGS) $(SAN_FLAGS) -shared -o $@ $(QPLUGIN_SRCS)

$(O)/san/fakeqemu: analyzer/qemu-plugin/test/fakeqemu.c analyzer/qemu-plugin/qemu-api.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -Wall -Wextra -Werror $(SAN_FLAGS) -rdynamic -o $@ $< -ldl

san: $(O)/san/entrytrace-mix.so $(O)/san/fakeqemu
