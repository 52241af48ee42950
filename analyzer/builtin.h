/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ET_BUILTIN_H
#define _ET_BUILTIN_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit codes every subcommand uses; documented in entrytrace(1). */
enum et_exit {
	ET_EXIT_OK = 0,		/* done */
	ET_EXIT_FAIL = 1,	/* runtime failure: memory, write error, tracefs */
	ET_EXIT_USAGE = 2,	/* bad command line */
	ET_EXIT_INPUT = 3,	/* an input file is missing, unreadable or corrupt */
	ET_EXIT_EMPTY = 4,	/* no syscall events, or nothing matched */
	ET_EXIT_LOST = 5,	/* --strict: lost events touched the result */
	ET_EXIT_GATE = 6,	/* diff --fail-on: a rule tripped */
	ET_EXIT_GATE_NONE = 7,	/* diff --fail-on: a rule checked nothing */
	ET_EXIT_DAMAGED = 8,	/* the data has holes: records the file holds not read */
};

#include "entrytrace-private.h"

int cmd_report(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_kit(int argc, char **argv);

/*
 * Kit archives (builtin-kit.c): report and diff read them instead of
 * traces.  et_kit_operands() (options.c, beside report's own code): true
 * when the operands are kits; *err set (usage, said) when kits and other
 * files are mixed.
 */
struct et_kit_diff_opts;
bool et_kit_operands(char *const *paths, int n, const char *who, int *err);
int et_kit_report_cmd(const char *path, enum et_format fmt, const char *output);
int et_kit_diff_cmd(const char *a, const char *b, const struct et_kit_diff_opts *opts,
		    enum et_format fmt, const char *output);

/*
 * The options report and diff share (options.c): -p -c -s -C -w -S -j
 * --mode, and their usage text.
 */
#define ET_OPT_MODE 300
#define ET_OPT_EXCLUSIVE 301
#define ET_OPT_NO_OVERHEAD 302
#define ET_OPT_RAW_STAMPS 303
#define ET_OPT_RESULT 304
#define ET_OPT_JSON 305
#define ET_OPT_CSV 306
#define ET_COMMON_SHORTOPTS "p:c:s:C:w:S:j:"
#define ET_COMMON_LONGOPTS						\
	{ "pid", required_argument, NULL, 'p' },			\
	{ "comm", required_argument, NULL, 'c' },			\
	{ "syscall", required_argument, NULL, 's' },			\
	{ "cpu", required_argument, NULL, 'C' },			\
	{ "time-window", required_argument, NULL, 'w' },		\
	{ "stage", required_argument, NULL, 'S' },			\
	{ "jobs", required_argument, NULL, 'j' },			\
	{ "mode", required_argument, NULL, ET_OPT_MODE },			\
	{ "exclusive", no_argument, NULL, ET_OPT_EXCLUSIVE },		\
	{ "no-overhead", no_argument, NULL, ET_OPT_NO_OVERHEAD },		\
	{ "raw-stamps", no_argument, NULL, ET_OPT_RAW_STAMPS },		\
	{ "result", required_argument, NULL, ET_OPT_RESULT }
#define ET_COMMON_USAGE							\
	"  -p, --pid=PID[,PID]    only these tasks\n"			\
	"  -c, --comm=COMM[,..]   only tasks of these names (name at syscall entry)\n" \
	"  -s, --syscall=S[,..]   only these syscalls, by name (the trace's own\n" \
	"                         architecture) or number\n"		\
	"  -C, --cpu=CPU[,..]     only syscalls that entered or returned on these CPUs\n" \
	"  -w, --time-window=A,B  only syscalls entered between A and B seconds on the\n" \
	"                         trace clock (as trace-cmd report prints); +A,+B are\n" \
	"                         offsets from the first event\n"	\
	"      --result=R[,..]    only syscalls with these results: ok (>= 0), error\n" \
	"                         (-4095..-1), or an errno by name (ENOENT) or number\n" \
	"  -S, --stage=NAME[,..]  only show these stages (see 'entrytrace report --stages')\n" \
	"  -j, --jobs=N           threads per file: N-1 read and decode its CPUs while\n" \
	"                         the calling thread builds the timeline (default:\n" \
	"                         chosen from the trace's size and CPUs and the\n" \
	"                         machine's: one for a small trace); the result does\n" \
	"                         not depend on N\n"	\
	"      --mode=MODE        use a coarser mode than detected (summary, stock)\n" \
	"      --exclusive        take the time of interrupts, softirqs and of being\n" \
	"                         switched out that fell inside a stage off that stage\n" \
	"      --no-overhead      take the tracer's own cost off: each entry_stage\n" \
	"                         event emitted inside a stage costs the per-event\n" \
	"                         time measured in the trace itself\n"	\
	"      --raw-stamps       entrytrace kernel: leave the stamps' own cost in the\n" \
	"                         stage times (by default the kernel's calibration of\n" \
	"                         one stamp is subtracted, per stamp a stage holds)\n"

struct et_common {
	const char *who;	/* "entrytrace report", for messages */
	struct et_filter filter;
	char **syscalls;
	int nr_syscalls;
	struct et_load_opts load;
};

void et_common_init(struct et_common *c);
/* 1: consumed, 0: not a common option, -1: bad argument. */
int et_common_option(struct et_common *c, int opt, const char *arg);
void et_common_free(struct et_common *c);
/* Progress of long reads on stderr, when it is a terminal. */
void et_common_progress(struct et_common *c);
int et_exit_for(enum et_err e);
/*
 * The output format options of the commands that print tables (report,
 * diff): -f/--format=text|json|csv, --json, --csv.  et_format_option():
 * 1 consumed (into *fmt), 0 not one of them, -1 bad argument (said).
 */
#define ET_FORMAT_SHORTOPTS "f:"
#define ET_FORMAT_LONGOPTS						\
	{ "format", required_argument, NULL, 'f' },			\
	{ "json", no_argument, NULL, ET_OPT_JSON },			\
	{ "csv", no_argument, NULL, ET_OPT_CSV }
#define ET_FORMAT_USAGE							\
	"  -f, --format=FMT       text (default), json or csv\n"		\
	"      --json, --csv      same as --format=json / csv\n"
int et_format_option(const char *who, int opt, const char *arg, enum et_format *fmt);
/* --format=text|json|csv into *fmt; -1 (said) on anything else */
int et_parse_format(const char *who, const char *arg, enum et_format *fmt);
/*
 * One command line of a command that reads traces (report, diff, list,
 * export): the options they share are taken here, the command's own are
 * handed back one at a time, so that every such command parses its
 * arguments the same way.
 *
 *	struct et_cmdline cl = { .own = "+", .longopts = opts, .fmt = &fmt,
 *				 .output = &output };
 *	while ((c = et_next_option(&com, &cl, argc, argv)) != ET_OPT_END)
 *		switch (c) { case ET_OPT_HELP: ...; case ET_OPT_BAD: goto bad; ... }
 *
 * Taken here: the filters and load options (ET_COMMON_SHORTOPTS), -o into
 * *output, and -f/--json/--csv into *fmt when fmt is set (export's -f is
 * its own: fmt NULL).  own: the command's own short options; a leading "+"
 * stops at the first operand (diff's "--" between the sides).  longopts is
 * the command's whole table.  The first call starts at argv[1]; the
 * operands are argv[optind..] after ET_OPT_END.
 *
 * Or, instead of own's letters and longopts, defs: the command's own
 * options as a table (struct et_optdef, below), from which getopt's table
 * is made; the typed ones are taken here, into their values, checked,
 * and only the ET_OPTK_CALL ones come back.  With own_only (top, which
 * reads no trace) the filters and load options are not taken: com may
 * be NULL, and -h and the table are all there is.
 */
struct et_optdef;
struct et_cmdline {
	const char *own;
	const struct option *longopts;
	enum et_format *fmt;
	const char **output;
	const struct et_optdef *defs;
	bool own_only;
	const char *who;	/* with own_only: for messages */
	char shortopts[64];	/* built at the first call */
	struct option longopts_buf[64];	/* with defs: built at the first call */
};

/*
 * A command's own option: its names, its value's type, range and home,
 * and its --help text (lines split by \n), in one entry; a table ends with
 * an entry without a name.  optable.c makes getopt's table and the option
 * lines of --help from it and takes the typed values:
 *
 *	{ .key = OPT_TOP, .name = "top", .arg = "N", .kind = ET_OPTK_INT,
 *	  .value = &top, .lo = 0, .hi = INT_MAX,
 *	  .expect = "expected a number of rows (0: all)",
 *	  .help = "at most N rows in the text table" },
 */
enum et_optkind {
	ET_OPTK_CALL,	/* handed back to the command: a choice, a list, an action */
	ET_OPTK_FLAG,	/* bool *: set */
	ET_OPTK_INT,	/* int *: decimal, lo..hi */
	ET_OPTK_LL,	/* long long *: decimal, lo..hi */
	ET_OPTK_U64,	/* uint64_t *: decimal or 0x, any 64-bit value */
	ET_OPTK_REAL,	/* double *: rlo..rhi, an end left out where open says */
	ET_OPTK_STR,	/* const char **: the text as given */
};
struct et_optdef {
	int key;		/* getopt's value: the short letter, or 256 and up */
	const char *name;	/* --NAME */
	const char *arg;	/* the value's name in --help ("N"); NULL: it takes none */
	bool optional;		/* --NAME[=ARG] */
	enum et_optkind kind;
	void *value;
	long long lo, hi;	/* INT, LL */
	double rlo, rhi;	/* REAL */
	unsigned int open;	/* REAL: ET_OPT_OPEN_LO, ET_OPT_OPEN_HI */
	const char *expect;	/* a bad value's message: "expected ..." */
	const char *help;
};
/* getopt's tables for cl->defs and the common options, into cl (et_next_option) */
void et_optdefs_build(struct et_cmdline *cl, char *shortopts, size_t size);
const struct et_optdef *et_optdef_of(const struct et_optdef *defs, int key);
/* 1 taken into d->value, 0 an ET_OPTK_CALL option, -1 a bad value (said) */
int et_optdef_take(const char *who, const struct et_optdef *d, const char *arg);
/* The table's lines of --help, as the hand-written ones are laid out. */
void et_optdefs_usage(FILE *f, const struct et_optdef *defs);
/* ... of its first n entries only (a block of its own, as top's "What is traced:") */
void et_optdefs_usage_n(FILE *f, const struct et_optdef *defs, size_t n);
#define ET_OPT_END	(-1)	/* no option left */
#define ET_OPT_BAD	(-2)	/* a bad option or value, already said */
#define ET_OPT_HELP	(-3)	/* -h, --help: the command prints its usage */
int et_next_option(struct et_common *com, struct et_cmdline *cl, int argc, char **argv);
/* "WHO: see 'WHO --help'": after a usage error, instead of the whole text. */
void et_usage_hint(const char *who);
/* The window asked for and the trace's own span, when a window matched nothing. */
void et_window_hint(const char *who, const struct et_filter *f, uint64_t first,
		    uint64_t last);

/* An output file written under a temporary name, renamed when complete. */
struct et_output {
	FILE *f;
	const char *who;
	const char *path;	/* NULL: standard output */
	char *tmp;		/* the temporary name, NULL when written directly */
};

/* NULL or "-" is stdout; NULL on failure, said on stderr. */
FILE *et_output_open(struct et_output *o, const char *path, const char *who);
/* --plot: @p's panels as one SVG at @path, headed "WHO: HEADING"; 0 or -1 (said) */
int et_plot_write(const struct et_plot *p, const char *path, const char *who,
		  const char *heading, const char *unit);
/*
 * Flush and close; with keep, rename the file into place (a write error
 * is said on stderr and the file removed); without, remove it.  -1 on a
 * write error.
 */
int et_output_close(struct et_output *o, bool keep);

extern const char *et_version;

#endif
