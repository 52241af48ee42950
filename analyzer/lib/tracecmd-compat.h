/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Functions libtracecmd.so.1 exports (KernelShark relies on some of them)
 * but that Debian's <trace-cmd.h> does not declare: they live in
 * trace-cmd's private header, which is not shipped.  Declared here with the
 * signatures of trace-cmd 3.1, the version this project builds against.
 */
#ifndef _ET_TRACECMD_COMPAT_H
#define _ET_TRACECMD_COMPAT_H

#include <stdbool.h>

#include <trace-cmd.h>

const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);
/* Bytes of ring-buffer pages of a CPU (uncompressed size), -1 if none. */
long long tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);

/*
 * The output side, for 'entrytrace record'.  The call order a flyrecord
 * trace.dat needs: create, set_* (trace dir, kallsyms, version,
 * compression, clock), write_headers, add_option..., write_cmdlines,
 * append_cpu_data (CPU count, options, then the per-CPU data), close.
 */
struct tracecmd_output;
struct tracecmd_option;

struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;		/* "system:event", globs allowed */
};

/* Option ids: numbers of the file format itself. */
enum {
	TRACECMD_OPTION_CPUSTAT = 2,
	TRACECMD_OPTION_TRACECLOCK = 4,
	TRACECMD_OPTION_UNAME = 5,
	TRACECMD_OPTION_VERSION = 9,
};

struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle,
				  const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle,
				 const char *kallsyms);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle,
				    const char *compression);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle,
					    unsigned short id, int size,
					    const void *data);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus,
			     char *const *cpu_data_files);
void tracecmd_output_close(struct tracecmd_output *handle);

#endif /* _ET_TRACECMD_COMPAT_H */
