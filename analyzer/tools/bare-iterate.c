// SPDX-License-Identifier: GPL-2.0
/*
 * The baseline for scripts/host/bench-analyzer: open a trace.dat with
 * libtracecmd and iterate every record in time order, doing nothing else.
 * Whatever entrytrace spends beyond this is the analyzer's own cost.
 *
 *   bare-iterate FILE
 */
#include <stdio.h>

#include <trace-cmd.h>

static int count(struct tracecmd_input *handle, struct tep_record *rec,
		 int cpu, void *data)
{
	(void)handle;
	(void)rec;
	(void)cpu;
	++*(unsigned long long *)data;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	unsigned long long n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: bare-iterate FILE\n");
		return 2;
	}
	handle = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "bare-iterate: cannot open %s\n", argv[1]);
		return 3;
	}
	tracecmd_iterate_events(handle, NULL, 0, count, &n);
	printf("%llu records\n", n);
	tracecmd_close(handle);
	return 0;
}
