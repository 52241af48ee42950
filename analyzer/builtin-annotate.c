// SPDX-License-Identifier: GPL-2.0
/*
 * entrytrace annotate: name the kernel and the source line of every
 * instruction in QEMU mix plugin output, from the vmlinux that ran.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"

#define WHO "entrytrace annotate"

static const char annotate_usage[] =
	"usage: entrytrace annotate --vmlinux=VMLINUX FILE.mix[.gz]...\n"
	"\n"
	"Adds to QEMU mix plugin output (version 2, Documentation/qemu-plugin.md)\n"
	"what only the kernel's vmlinux knows, so that the file carries it wherever\n"
	"it goes:\n"
	"  kernel RELEASE        the release of the vmlinux's \"Linux version\" banner\n"
	"                        (it tells report and diff which entry path ran)\n"
	"  src ID FUNC@FILE:LINE ...\n"
	"                        for every instruction the tables counted: its line,\n"
	"                        then each line it was inlined at, out to the function\n"
	"                        it is in (elfutils libdw; build the kernel with\n"
	"                        DEBUG_INFO, DEBUG_INFO_REDUCED is enough)\n"
	"Each FILE is rewritten in place (gzip'd if it was) with a new end line.\n"
	"Earlier src lines are replaced; a kernel line must name the same release.\n"
	"The vmlinux must be the kernel that ran: its build id is the file's.\n"
	"\n"
	"options:\n";
static const char annotate_usage_tail[] =
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 annotated, 1 a file could not be written, 2 usage error,\n"
	"3 a file is not version 2 plugin output, is damaged, or is not of this\n"
	"vmlinux (build id, release), or the vmlinux cannot be read, 4 the vmlinux\n"
	"has no DWARF line table for any instruction of a file.\n";

static void usage(FILE *f, const struct et_optdef *opts)
{
	fputs(annotate_usage, f);
	et_optdefs_usage(f, opts);
	fputs(annotate_usage_tail, f);
}

int cmd_annotate(int argc, char **argv)
{
	enum { OPT_VMLINUX = 256 };
	const char *vmlinux = NULL;
	bool quiet = false;
	const struct et_optdef opts[] = {
		{ .key = OPT_VMLINUX, .name = "vmlinux", .arg = "PATH", .kind = ET_OPTK_STR,
		  .value = &vmlinux, .help = "the kernel image with its symbols (and DWARF)" },
		{ .key = 'q', .name = "quiet", .kind = ET_OPTK_FLAG, .value = &quiet,
		  .help = "no line per file" },
		{ 0 },
	};
	struct et_cmdline cl = { .defs = opts, .own_only = true, .who = WHO };
	int c, ret = ET_EXIT_OK;

	while ((c = et_next_option(NULL, &cl, argc, argv)) != ET_OPT_END) {
		if (c == ET_OPT_HELP) {
			usage(stdout, opts);
			return ET_EXIT_OK;
		}
		usage(stderr, opts);
		return ET_EXIT_USAGE;
	}
	if (!vmlinux || optind == argc) {
		fprintf(stderr, WHO ": %s\n", !vmlinux ? "--vmlinux is required" :
			"no plugin output file given");
		return ET_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		struct et_annotate_result r;
		char err[512];

		if (et_mix_annotate(argv[i], vmlinux, &r, err, sizeof(err))) {
			fprintf(stderr, "entrytrace annotate: %s\n", err);
			ret = strncmp(err, "writing ", 8) ? ET_EXIT_INPUT : ET_EXIT_FAIL;
			continue;
		}
		if (!quiet)
			printf("%s: kernel %s, %zu instructions, %zu named, %zu with a source line\n",
			       argv[i], r.release, r.insns, r.resolved, r.with_lines);
		if (r.insns && !r.with_lines) {
			fprintf(stderr, "entrytrace annotate: %s: no instruction has a source line: "
				"%s has no DWARF line table (DEBUG_INFO)\n", argv[i], vmlinux);
			if (ret == ET_EXIT_OK)
				ret = ET_EXIT_EMPTY;
		}
	}
	return ret;
}
