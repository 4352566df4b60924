/*
 * futex.h: the shared futex calls of the group segments (gseg.c's
 * barrier word, gdata.c's slot words).  Both sides keep a count of
 * sleepers beside the word, raised before the wait, so a writer makes
 * the wake-up system call only when someone sleeps.
 */
#ifndef GPVM_FUTEX_H
#define GPVM_FUTEX_H

#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * w is the address of a 32-bit word, plain or _Atomic: the kernel only
 * needs the address.
 */

/* Wake every waiter on w. */
static inline void
gpvm_futex_wake_all(void *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* Sleep while the word at w is seen, at most timeout_ms; returns at once
 * if it is no longer seen. */
static inline void
gpvm_futex_wait(void *w, uint32_t seen, int timeout_ms)
{
	struct timespec ts;

	ts.tv_sec = timeout_ms / 1000;
	ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
	syscall(SYS_futex, w, FUTEX_WAIT, seen, &ts, NULL, 0);
}

#endif /* GPVM_FUTEX_H */
