/*
 * legacy.c: PVM 3.4 library internals that its own example programs call
 * although pvm3.h does not declare them (bwtest, mbox, starter, trsg use
 * pvmsleep and pvmgetclock; task0, task1, task_end, rme and the mhf
 * programs report errors with lpvmerr; ptest sets pvmdebmask).  Binaries
 * built against PVM 3.4 reference these names, so libpvm3.so.3 must
 * export them.  pvmdisplaymhfinfo is in mhf.c, next to the handler table.
 */
#include "pvm3.h"
#include "lpvm.h"

#include <errno.h>
#include <sys/time.h>
#include <time.h>

/* PVM's debugging mask; nothing reads it here, but programs may set it. */
int pvmdebmask = 0;

int pvmsleep(int);
int pvmgetclock(struct timeval *);
int lpvmerr(const char *, int);

/* Sleep for secs seconds (restarted after a signal); returns 0. */
int
pvmsleep(int secs)
{
	struct timespec ts;

	if (secs <= 0)
		return 0;
	ts.tv_sec = secs;
	ts.tv_nsec = 0;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		continue;
	return 0;
}

/* The time of day, as gettimeofday; 0, or PvmSysErr without tm. */
int
pvmgetclock(struct timeval *tm)
{
	if (tm == NULL || gettimeofday(tm, NULL) == -1)
		return PvmSysErr;
	return 0;
}

/*
 * Report error code n of the caller f the way the library reports its
 * own errors (pvm_errno, PvmAutoErr), and return n.  A code that is not
 * negative is returned unchanged.
 */
int
lpvmerr(const char *f, int n)
{
	if (n >= 0)
		return n;
	return lpvm_err(f != NULL ? f : "lpvmerr", n);
}
