// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF anchor of Documentation/overhead.md (issue 50, item 6): a
 * syscall latency histogram kept the way a BPF user keeps one, beside which
 * entry_stage's aggregation is measured.  The form is bpftrace's
 *
 *   tracepoint:raw_syscalls:sys_enter { @start[tid] = nsecs; }
 *   tracepoint:raw_syscalls:sys_exit /@start[tid]/
 *	{ @ns = hist(nsecs - @start[tid]); delete(@start[tid]); }
 *
 * on the raw tracepoints (no argument copying): the entry time in a hash
 * keyed by pid_tgid, a log2 histogram per CPU.  The last bucket counts
 * exits with no entry time (the syscall began before the attach, or the
 * hash was full), so that nothing is dropped unseen.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SYSLAT_BUCKETS	64

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);		/* bpf_get_current_pid_tgid() */
	__type(value, __u64);		/* bpf_ktime_get_ns() at sys_enter */
} syslat_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SYSLAT_BUCKETS + 1);
	__type(key, __u32);		/* log2 of the ns, or SYSLAT_BUCKETS */
	__type(value, __u64);
} syslat_hist SEC(".maps");

SEC("raw_tracepoint/sys_enter")
int syslat_enter(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 t = bpf_ktime_get_ns();

	bpf_map_update_elem(&syslat_start, &id, &t, BPF_ANY);
	return 0;
}

static __always_inline __u32 syslat_log2(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

SEC("raw_tracepoint/sys_exit")
int syslat_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 *t = bpf_map_lookup_elem(&syslat_start, &id);
	__u32 b = SYSLAT_BUCKETS;
	__u64 *c;

	if (t) {
		b = syslat_log2(bpf_ktime_get_ns() - *t);
		bpf_map_delete_elem(&syslat_start, &id);
	}
	c = bpf_map_lookup_elem(&syslat_hist, &b);
	if (c)
		*c += 1;
	return 0;
}
