/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Functions libtracecmd.so.1 exports (KernelShark relies on some of them)
 * but that Debian's <trace-cmd.h> does not declare: they live in
 * trace-cmd's private header, which is not shipped.  Declared here with the
 * signatures of trace-cmd 3.1, the version this project builds against.
 */
#ifndef _ET_TRACECMD_COMPAT_H
#define _ET_TRACECMD_COMPAT_H

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

#endif /* _ET_TRACECMD_COMPAT_H */
