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
QPLUGIN_HDRS := $(wildcard analyzer/qemu-plugin/*.h)
QPLUGIN_CFLAGS := -std=gnu11 -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
		  -Wno-unused-parameter

$(O)/entrytrace-mix.so: $(QPLUGIN_SRCS) $(QPLUGIN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(QPLUGIN_CFLAGS) $(OPT_CFLAGS) $(CFLAGS) -shared -o $@ $(QPLUGIN_SRCS)

qemu-plugin: $(O)/entrytrace-mix.so

.PHONY: qemu-plugin
