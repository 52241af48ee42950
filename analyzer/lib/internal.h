/* SPDX-License-Identifier: LGPL-2.1 */
/* libentrytrace internals shared between its files; not installed. */
#ifndef _ET_INTERNAL_H
#define _ET_INTERNAL_H

#include <stddef.h>

#include "entrytrace.h"

struct tep_handle;
struct tracecmd_input;

struct tep_handle *et_trace_tep(const struct et_trace *trace);
struct tracecmd_input *et_trace_handle(const struct et_trace *trace);
/* Stage events whose id field disagreed with their name. */
unsigned long long et_trace_abi_errors(const struct et_trace *trace);

#define ET_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Grow *arr (of *cap elements of size sz) to hold at least need. */
int et_grow(void **arr, size_t *cap, size_t need, size_t sz);

#endif /* _ET_INTERNAL_H */
