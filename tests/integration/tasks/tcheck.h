/*
 * tcheck.h: checks and small helpers shared by the integration test task
 * programs.  Header-only, so each task program stays one .c file.
 *
 * A check prints one line on stdout, "PASS: what" or "FAIL: what (got,
 * want)"; lib.sh's run_checks counts these lines and adds them to the
 * test's totals.  Spawned children print nothing the test counts (their
 * stdout goes to the pvmd): they send results to their parent, and the
 * parent checks them.
 */
#ifndef TCHECK_H
#define TCHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "pvm3.h"

#define TC_UNUSED __attribute__((unused))

static int tc_npass;
static int tc_nfail;
static const char *tc_name = "task";

/* Name the program in the summary; make stdout line buffered. */
static TC_UNUSED void
tc_init(const char *name)
{
	tc_name = name;
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* One check: a PASS line if cond holds, else a FAIL line.  Returns cond. */
static TC_UNUSED __attribute__((format(printf, 2, 3))) int
tc_check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", cond ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (cond) {
		tc_npass++;
	} else {
		tc_nfail++;
	}
	return cond;
}

/* Integer equality: names both values when they differ. */
static TC_UNUSED __attribute__((format(printf, 3, 4))) int
tc_eq(long got, long want, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (got == want) {
		return tc_check(1, "%s = %ld", what, want);
	}
	return tc_check(0, "%s: got %ld (0x%lx), want %ld (0x%lx)", what, got,
	    (unsigned long)got, want, (unsigned long)want);
}

/* Information that is not a check (timings, sizes). */
static TC_UNUSED __attribute__((format(printf, 1, 2))) void
tc_info(const char *fmt, ...)
{
	va_list ap;

	printf("INFO: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Leave the virtual machine, print the summary, give the exit status. */
static TC_UNUSED int
tc_done(void)
{
	pvm_exit();
	printf(
	    "(%s: %d checks passed, %d failed)\n", tc_name, tc_npass, tc_nfail);
	fflush(stdout);
	return tc_nfail == 0 && tc_npass > 0 ? 0 : 1;
}

/* A check that cannot go on: FAIL line, leave, exit 1. */
static TC_UNUSED __attribute__((format(printf, 1, 2), noreturn)) void
tc_fatal(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (cannot continue)\n");
	tc_nfail++;
	tc_done();
	exit(1);
}

/* Monotonic time in seconds. */
static TC_UNUSED double
tc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep for a fraction of a second, outside any PVM call. */
static TC_UNUSED void
tc_sleep(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0) {
		continue;
	}
}

/* Absolute path of this program, for spawning copies of ourselves. */
static TC_UNUSED char *
tc_self(void)
{
	static char path[4096];
	ssize_t n;

	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0) {
		return NULL;
	}
	path[n] = '\0';
	return path;
}

/* Spawn n copies of this program with the given argument vector. */
static TC_UNUSED int
tc_spawn_self(char **args, int n, int *tids)
{
	return pvm_spawn(tc_self(), args, PvmTaskDefault, NULL, n, tids);
}

/* Wait up to secs for a message; the bufid, or 0 on time-out / error. */
static TC_UNUSED int
tc_trecv(int tid, int tag, double secs)
{
	struct timeval tv;
	int bufid;

	tv.tv_sec = (long)secs;
	tv.tv_usec = (long)((secs - (double)tv.tv_sec) * 1e6);
	bufid = pvm_trecv(tid, tag, &tv);
	return bufid > 0 ? bufid : 0;
}

/* Send n ints (PvmDataDefault) to tid with tag; 0 or a Pvm* code. */
static TC_UNUSED int
tc_send_ints(int tid, int tag, const int *v, int n)
{
	int cc;

	if ((cc = pvm_initsend(PvmDataDefault)) < 0) {
		return cc;
	}
	if ((cc = pvm_pkint((int *)v, n, 1)) < 0) {
		return cc;
	}
	return pvm_send(tid, tag);
}

/*
 * Receive a message of n ints within secs from a task; its tid (> 0), or
 * 0 on time-out, or the negative code of a failed unpack.  (Messages from
 * a pvmd have a negative source: use tc_trecv for those.)
 */
static TC_UNUSED int
tc_recv_ints(int tid, int tag, int *v, int n, double secs)
{
	int bufid, src = 0, cc;

	if ((bufid = tc_trecv(tid, tag, secs)) == 0) {
		return 0;
	}
	if ((cc = pvm_upkint(v, n, 1)) < 0) {
		return cc;
	}
	pvm_bufinfo(bufid, NULL, NULL, &src);
	return src;
}

/*
 * Start-up handshake.  A parent that wants to test something other than
 * "a message sent right after pvm_spawn is delivered" waits for each
 * child's hello before sending to it.
 */
#define TC_TAG_HELLO 4242

/* Child: tell the parent we are enrolled. */
static TC_UNUSED void
tc_hello(void)
{
	int me = pvm_mytid();

	if (pvm_parent() > 0) {
		tc_send_ints(pvm_parent(), TC_TAG_HELLO, &me, 1);
	}
}

/* Parent: wait up to 30 s for child tid's hello; 1 if it came. */
static TC_UNUSED int
tc_wait_hello(int tid)
{
	int v = 0, ok;

	ok = tc_recv_ints(tid, TC_TAG_HELLO, &v, 1, 30) == tid && v == tid;
	if (!ok) {
		tc_check(0, "hello from child t%x within 30 s", tid);
	}
	return ok;
}

/* Position of tid in tids[0..n), or -1. */
static TC_UNUSED int
tc_index(const int *tids, int n, int tid)
{
	int i;

	for (i = 0; i < n; i++) {
		if (tids[i] == tid) {
			return i;
		}
	}
	return -1;
}

/* Deterministic pseudo-random bytes: the bytes at offsets start.. of the
 * stream named seed, eight bytes per mixed 64-bit word. */
static TC_UNUSED void
tc_fill(unsigned char *p, size_t len, uint64_t seed, size_t start)
{
	uint64_t x = 0;
	size_t i, k;

	for (i = 0; i < len; i++) {
		k = start + i;
		if (i == 0 || k % 8 == 0) {
			x = (uint64_t)(k / 8) * 0x9e3779b97f4a7c15ull ^ seed;
			x ^= x >> 29;
			x *= 0xbf58476d1ce4e5b9ull;
			x ^= x >> 32;
		}
		p[i] = (unsigned char)(x >> (8 * (k % 8)));
	}
}

/* 64-bit FNV-1a over len bytes, continuing from h (start: 0). */
static TC_UNUSED uint64_t
tc_fnv(uint64_t h, const unsigned char *p, size_t len)
{
	size_t i;

	if (h == 0) {
		h = 0xcbf29ce484222325ull;
	}
	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#endif /* TCHECK_H */
