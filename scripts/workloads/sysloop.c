// SPDX-License-Identifier: GPL-2.0
/*
 * sysloop: a syscall workload that does a known number of known syscalls,
 * so traces of it can be checked against exact counts.  Static-linkable,
 * used both on the host and inside the QEMU guests.
 *
 *   sysloop [-t] [-n N] [-u NS] [-P NS] [-o FILE] MODE...
 *
 * Modes run in the order given, N iterations each (default 1000):
 *   getppid    getppid()
 *   kill0      kill(getpid(), 0): permission check only, no signal
 *   killsig    kill(getpid(), SIGUSR1) with a handler: delivery on exit,
 *              then rt_sigreturn from the handler
 *   seccomp    install a seccomp filter of 64 instructions (allow all),
 *              then getppid(); the filter stays for later modes
 *   ptrace     fork a child that does N getppid() under PTRACE_SYSCALL;
 *              the parent is the tracer
 *   migrate    sched_setaffinity() to the other CPU and back: the task
 *              returns from the syscall on another CPU than it entered on
 *   sleep=MS   one nanosleep of MS milliseconds
 *   reuse      fork a child (N getppid, exit), then fork children until one
 *              gets the same pid again (writes /proc/sys/kernel/ns_last_pid)
 *   exec=PATH  execve(PATH) with the remaining arguments: comm changes to
 *              PATH's last component; PATH runs the rest of the modes
 *   sud        getppid() with syscall user dispatch armed and its selector
 *              set to ALLOW: every syscall runs the dispatch check
 *   audit      enable audit and add an exit rule for getppid limited to
 *              uid 4242 (never matches: no records) through the audit
 *              netlink socket, then fork a child that does N getppid():
 *              its syscalls run the audit entry/exit work.  Afterwards the
 *              rule goes and a "never" task rule keeps tasks forked later
 *              unaudited (audit_ever_enabled cannot be undone); the next
 *              audit run lifts that rule first, so the mode repeats
 *
 * Each mode prints one line "sysloop: MODE SYSCALL COUNT pid=PID" per
 * syscall kind it does N times, before it starts, so a trace can be checked
 * against what really ran.  -o appends those lines to FILE instead of
 * stdout (opened once, before the first mode).  -t also prints
 * "sysloop-time: MODE NS" after each getppid-loop mode and kill0: the loop's
 * CLOCK_MONOTONIC time (with QEMU -icount shift=0: instructions).
 * -u NS busy-waits NS ns in user space (vDSO clock, no syscall) before each
 * syscall of the getppid, kill0 and killsig loops: a known delay that moves
 * exactly one stage, the user gap, for calibrating 'entrytrace diff'.
 * -P NS makes the ptrace mode's tracer busy-wait NS ns at each syscall-entry
 * stop: a known delay inside one kernel stage, enter_ptrace (and
 * entry_work, which holds it); it prints
 * "sysloop-inject: ptrace enter_ptrace STOPS stops MEAN ns", the time spun.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#endif
#ifndef SYSCALL_DISPATCH_FILTER_ALLOW
#define SYSCALL_DISPATCH_FILTER_ALLOW 0
#endif

static volatile sig_atomic_t delivered;
static int timed;

static void on_usr1(int sig)
{
	(void)sig;
	delivered++;
}

static void announce(const char *mode, const char *sc, long n, pid_t pid)
{
	printf("sysloop: %s %s %ld pid=%d\n", mode, sc, n, (int)pid);
	fflush(stdout);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long spin_ns;

static void spin(void)
{
	unsigned long long end;

	if (!spin_ns)
		return;
	end = now_ns() + spin_ns;
	while (now_ns() < end)
		;
}

static void loop_getppid_timed(const char *mode, long n)
{
	unsigned long long t0 = now_ns();

	for (long i = 0; i < n; i++) {
		spin();
		syscall(SYS_getppid);
	}
	if (timed)
		printf("sysloop-time: %s %llu\n", mode, now_ns() - t0);
}

static void loop_getppid(long n)
{
	loop_getppid_timed("getppid", n);
}

static int do_kill0(long n)
{
	pid_t me = getpid();
	unsigned long long t0;

	announce("kill0", "kill", n, me);
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		spin();
		if (syscall(SYS_kill, me, 0))
			return -1;
	}
	if (timed)
		printf("sysloop-time: kill0 %llu\n", now_ns() - t0);
	return 0;
}

static int do_killsig(long n)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pid_t me = getpid();

	if (sigaction(SIGUSR1, &sa, NULL))
		return -1;
	announce("killsig", "kill", n, me);
	announce("killsig", "rt_sigreturn", n, me);
	for (long i = 0; i < n; i++) {
		spin();
		if (syscall(SYS_kill, me, SIGUSR1))
			return -1;
	}
	if (delivered != n) {
		fprintf(stderr, "sysloop: %ld signals sent, %d delivered\n", n,
			(int)delivered);
		return -1;
	}
	return 0;
}

static int do_seccomp(long n)
{
	struct sock_filter insns[64];
	struct sock_fprog prog = { .len = 64, .filter = insns };

	/* 63 loads of the syscall number, then allow: a filter of known length */
	for (int i = 0; i < 63; i++)
		insns[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							offsetof(struct seccomp_data, nr));
	insns[63] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	announce("seccomp", "getppid", n, getpid());
	loop_getppid(n);
	return 0;
}

/*
 * -P: at each syscall-entry stop the tracer busy-waits before resuming the
 * tracee, so the tracee's enter_ptrace stage grows by that much and nothing
 * else does.  No syscall may tell entry from exit stops (it would run inside
 * the stage too): after the child's SIGSTOP they alternate, entry first,
 * as the child does nothing but getppid() and finally exit_group().  The
 * time really spun is summed.
 */
static unsigned long long tracer_spin_ns, tracer_spun, tracer_stops;

static void tracer_spin(void)
{
	unsigned long long t0 = now_ns();

	while (now_ns() - t0 < tracer_spin_ns)
		;
	tracer_spun += now_ns() - t0;
	tracer_stops++;
}

static int do_ptrace(long n)
{
	int status;
	pid_t child = fork();

	if (child < 0)
		return -1;
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		loop_getppid(n);
		_exit(0);
	}
	announce("ptrace", "getppid", n, child);
	if (waitpid(child, &status, 0) < 0)
		return -1;
	ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)PTRACE_O_TRACESYSGOOD);
	for (int entry = 1;;) {
		if (ptrace(PTRACE_SYSCALL, child, NULL, NULL) < 0)
			return -1;
		if (waitpid(child, &status, 0) < 0)
			return -1;
		if (WIFEXITED(status))
			break;
		if (WIFSTOPPED(status) && WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			if (entry && tracer_spin_ns)
				tracer_spin();
			entry = !entry;
		}
	}
	if (tracer_spin_ns)
		printf("sysloop-inject: ptrace enter_ptrace %llu stops %llu ns\n",
		       tracer_stops, tracer_stops ? tracer_spun / tracer_stops : 0);
	return WEXITSTATUS(status) ? -1 : 0;
}

static int do_sud(long n)
{
	static volatile char selector = SYSCALL_DISPATCH_FILTER_ALLOW;

	announce("sud", "getppid", n, getpid());
	if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0, &selector))
		return -1;
	loop_getppid_timed("sud", n);
	return prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0) ? -1 : 0;
}

/* One audit netlink request; returns 0 or -errno from the kernel's ack. */
static int audit_request(int fd, int type, const void *data, size_t len)
{
	struct {
		struct nlmsghdr nlh;
		char buf[sizeof(struct audit_rule_data) + 64];
	} req = { 0 };
	struct {
		struct nlmsghdr nlh;
		struct nlmsgerr err;
		char pad[256];
	} ack;
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };

	req.nlh.nlmsg_len = NLMSG_LENGTH(len);
	req.nlh.nlmsg_type = type;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	memcpy(NLMSG_DATA(&req.nlh), data, len);
	if (sendto(fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&addr,
		   sizeof(addr)) < 0 || recv(fd, &ack, sizeof(ack), 0) < 0)
		return -errno;
	return ack.nlh.nlmsg_type == NLMSG_ERROR ? ack.err.error : 0;
}

static int do_audit(long n)
{
	struct audit_status st = { .mask = AUDIT_STATUS_ENABLED, .enabled = 1 };
	struct audit_rule_data rule = {
		.flags = AUDIT_FILTER_EXIT,
		.action = AUDIT_ALWAYS,
		.field_count = 1,
		.fields = { AUDIT_UID },
		.fieldflags = { AUDIT_EQUAL },
		.values = { 4242 },
	};
	struct audit_rule_data never = {
		.flags = AUDIT_FILTER_TASK,
		.action = AUDIT_NEVER,
	};
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT), err, status;
	pid_t child;

	if (fd < 0)
		return -1;
	rule.mask[SYS_getppid / 32] |= 1U << (SYS_getppid % 32);
	/* an earlier run left "never audit new tasks" behind: lift it */
	audit_request(fd, AUDIT_DEL_RULE, &never, sizeof(never));
	err = audit_request(fd, AUDIT_SET, &st, sizeof(st));
	if (!err)
		err = audit_request(fd, AUDIT_ADD_RULE, &rule, sizeof(rule));
	close(fd);
	if (err && err != -EEXIST) {
		errno = -err;
		return -1;
	}
	/* audit contexts are set up at fork: only a new task is audited */
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		loop_getppid_timed("audit", n);
		_exit(0);
	}
	announce("audit", "getppid", n, child);
	if (waitpid(child, &status, 0) < 0)
		return -1;

	/* leave later tasks unaudited: drop the rule, never audit new tasks */
	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	if (fd < 0)
		return -1;
	err = audit_request(fd, AUDIT_DEL_RULE, &rule, sizeof(rule));
	if (!err)
		err = audit_request(fd, AUDIT_ADD_RULE, &never, sizeof(never));
	close(fd);
	if (err && err != -EEXIST) {
		errno = -err;
		return -1;
	}
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int do_migrate(long n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t a, b;

	if (ncpu < 2) {
		fprintf(stderr, "sysloop: migrate needs two CPUs\n");
		return -1;
	}
	CPU_ZERO(&a);
	CPU_SET(0, &a);
	CPU_ZERO(&b);
	CPU_SET(1, &b);
	announce("migrate", "sched_setaffinity", 2 * n, getpid());
	for (long i = 0; i < n; i++)
		if (sched_setaffinity(0, sizeof(b), &b) ||
		    sched_setaffinity(0, sizeof(a), &a))
			return -1;
	return 0;
}

static int do_sleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	announce("sleep", "nanosleep", 1, getpid());
	return syscall(SYS_nanosleep, &ts, NULL) ? -1 : 0;
}

static int set_last_pid(pid_t pid)
{
	char buf[32];
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
	int len = snprintf(buf, sizeof(buf), "%d", (int)pid - 1);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, buf, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

static int do_reuse(long n)
{
	pid_t first = 0, pid;
	int status;

	for (int round = 0; round < 2; round++) {
		for (int tries = 0; tries < 100; tries++) {
			if (round && set_last_pid(first))
				return -1;
			pid = fork();
			if (pid < 0)
				return -1;
			if (!pid) {
				loop_getppid(n);
				_exit(0);
			}
			if (waitpid(pid, &status, 0) < 0)
				return -1;
			if (!round || pid == first)
				break;
		}
		if (round && pid != first) {
			fprintf(stderr, "sysloop: could not reuse pid %d\n", (int)first);
			return -1;
		}
		if (!round)
			first = pid;
		announce("reuse", "getppid", n, pid);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = 1000;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-t")) {
			timed = 1;
			i++;
			continue;
		}
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "-n")) {
			n = strtol(argv[i + 1], NULL, 0);
		} else if (!strcmp(argv[i], "-u")) {
			spin_ns = strtoull(argv[i + 1], NULL, 0);
		} else if (!strcmp(argv[i], "-P")) {
			tracer_spin_ns = strtoull(argv[i + 1], NULL, 0);
		} else if (!strcmp(argv[i], "-o")) {
			if (!freopen(argv[i + 1], "a", stdout)) {
				perror(argv[i + 1]);
				return 2;
			}
		} else {
			break;
		}
		i += 2;
	}
	if (i >= argc || n <= 0) {
		fprintf(stderr, "usage: sysloop [-t] [-n N] [-u NS] [-P NS] [-o FILE] MODE...  (see the source header)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc; i++) {
		const char *m = argv[i];
		int ret = 0;

		if (!strcmp(m, "getppid")) {
			announce(m, "getppid", n, getpid());
			loop_getppid(n);
		} else if (!strcmp(m, "kill0")) {
			ret = do_kill0(n);
		} else if (!strcmp(m, "killsig")) {
			ret = do_killsig(n);
		} else if (!strcmp(m, "seccomp")) {
			ret = do_seccomp(n);
		} else if (!strcmp(m, "ptrace")) {
			ret = do_ptrace(n);
		} else if (!strcmp(m, "migrate")) {
			ret = do_migrate(n);
		} else if (!strncmp(m, "sleep=", 6)) {
			ret = do_sleep(strtol(m + 6, NULL, 0));
		} else if (!strcmp(m, "reuse")) {
			ret = do_reuse(n);
		} else if (!strcmp(m, "sud")) {
			ret = do_sud(n);
		} else if (!strcmp(m, "audit")) {
			ret = do_audit(n);
		} else if (!strncmp(m, "exec=", 5)) {
			/* the new image gets argv[i + 1...] as its own modes */
			argv[i] = (char *)m + 5;
			announce("exec", "execve", 1, getpid());
			execv(m + 5, argv + i);
			perror("sysloop: execve");
			return 1;
		} else {
			fprintf(stderr, "sysloop: unknown mode %s\n", m);
			return 2;
		}
		if (ret) {
			fprintf(stderr, "sysloop: mode %s failed: %s\n", m, strerror(errno));
			return 1;
		}
	}
	return 0;
}
