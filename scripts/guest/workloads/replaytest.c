// SPDX-License-Identifier: GPL-2.0
/*
 * replaytest: is a signal that an interrupt replayed at syscall exit raised
 * delivered on that exit, or only at the task's next kernel entry?
 *
 * Needs a kernel with arch/powerpc/fixes/debug/0001-DEBUG-*.patch: the first
 * exit to user mode of a task named "et-replay" sends it SIGUSR1 and makes
 * an interrupt pending, so that the exit path replays it and retries.  Here
 * that exit is the one of prctl(PR_SET_NAME, "et-replay").  The handler
 * counts; the count is read right after prctl() returns, with no syscall
 * in between, and again after one getppid().
 *
 *   replaytest [ROUNDS]       (default 20; the name is set back each round)
 *
 * Prints "replaytest: ROUNDS on-exit N next-entry M missed K": a signal
 * seen right after the prctl() returned was delivered on its exit, one seen
 * only after getppid() waited for the next kernel entry, and K were never
 * seen (the hook did not fire: not the debug kernel).  Exit status 0 when
 * every round's signal came on the exit it was raised in, 1 otherwise.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20, on_exit = 0, next = 0, missed = 0;
	struct sigaction sa = { .sa_handler = on_usr1 };

	if (rounds < 1) {
		fprintf(stderr, "replaytest: ROUNDS must be a positive number\n");
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL)) {
		perror("replaytest: sigaction");
		return 2;
	}
	for (int i = 0; i < rounds; i++) {
		int before = got, seen;

		prctl(PR_SET_NAME, "et-replay", 0, 0, 0);
		seen = got;		/* no syscall since the prctl() returned */
		getppid();
		if (seen != before)
			on_exit++;
		else if (got != before)
			next++;
		else
			missed++;
	}
	printf("replaytest: %d on-exit %d next-entry %d missed %d\n", rounds, on_exit, next, missed);
	return on_exit == rounds ? 0 : 1;
}
