/*
 * probe.h: what every probe of the differential suite (tests/diff) shares.
 *
 * A probe is built twice from the same source, against PVM 3.4.6's
 * pvm3.h and libpvm3 and against ours, and run on a private pvmd of the
 * same system.  It prints one record per line for what a program can
 * observe: a call's return value (an error by its name), out-parameters,
 * and the messages that arrive or do not within a bounded wait.  Tids
 * are printed by the names the probe gave them (dp_name) or by their
 * class, never as numbers, so that the records of the two systems can be
 * compared line by line (t-diff.sh).
 *
 * Only the public API of pvm3.h is used here: the same file compiles
 * against either header.
 */
#ifndef PROBE_H
#define PROBE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "pvm3.h"

#define DP_MAX_NAMES 64

static int dp_tids[DP_MAX_NAMES];
static const char *dp_names[DP_MAX_NAMES];
static int dp_ntids;

/* From now on tid prints as name. */
static __attribute__((unused)) void
dp_name(int tid, const char *name)
{
	if (dp_ntids < DP_MAX_NAMES) {
		dp_tids[dp_ntids] = tid;
		dp_names[dp_ntids++] = name;
	}
}

/* A return code: >= 0 as a number, < 0 as the Pvm* name. */
static __attribute__((unused)) const char *
dp_code(int rc)
{
	static const char *names[] = {"PvmOk", "?-1", "PvmBadParam",
	    "PvmMismatch", "PvmOverflow", "PvmNoData", "PvmNoHost", "PvmNoFile",
	    "PvmDenied", "?-9", "PvmNoMem", "?-11", "PvmBadMsg", "?-13",
	    "PvmSysErr", "PvmNoBuf", "PvmNoSuchBuf", "PvmNullGroup",
	    "PvmDupGroup", "PvmNoGroup", "PvmNotInGroup", "PvmNoInst",
	    "PvmHostFail", "PvmNoParent", "PvmNotImpl", "PvmDSysErr",
	    "PvmBadVersion", "PvmOutOfRes", "PvmDupHost", "PvmCantStart",
	    "PvmAlready", "PvmNoTask", "PvmNotFound", "PvmExists",
	    "PvmHostrNMstr", "PvmParentNotSet", "PvmIPLoopback"};
	static char buf[4][32];
	static int k;
	char *b = buf[k++ % 4];

	if (rc <= 0 && -rc < (int)(sizeof(names) / sizeof(names[0])))
		return names[-rc];
	snprintf(b, 32, "%d", rc);
	return b;
}

/* A tid: its name, else its class (never its number). */
static __attribute__((unused)) const char *
dp_tid(int tid)
{
	unsigned t = (unsigned)tid;
	int i;

	for (i = 0; i < dp_ntids; i++)
		if (dp_tids[i] == tid)
			return dp_names[i];
	if (tid == 0)
		return "0";
	if (tid < 0 && tid > -64)
		return dp_code(tid);
	if (t == 0x80000000u)
		return "TIDPVMD";
	if ((t & 0x80000000u) && (t & 0x3ffffu) == 0)
		return "pvmd-addr";
	if ((t & 0xc0000000u) == 0 && (t & 0x3ffffu) == 0)
		return "host-tid";
	if (t & 0x40000000u)
		return "mcast-addr";
	return "task-tid";
}

/* A value that may be a tid or a plain number (an option, a count). */
static __attribute__((unused)) const char *
dp_val(int v)
{
	static char buf[4][32];
	static int k;
	char *b;

	if (v > -64 && v < 0x40000 && v != 0) {
		if (v < 0)
			return dp_code(v);
		b = buf[k++ % 4];
		snprintf(b, 32, "%d", v);
		return b;
	}
	return dp_tid(v);
}

/* One record: "CASE: text". */
static __attribute__((unused)) void __attribute__((format(printf, 2, 3)))
dp_rec(const char *c, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", c);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* A call's result. */
static __attribute__((unused)) void
dp_rc(const char *c, const char *call, int rc)
{
	dp_rec(c, "%s = %s", call, dp_code(rc));
}

/* Wait for a message tagged tag from src (-1: any) within ms; its bufid,
 * or 0 if none came. */
static __attribute__((unused)) int
dp_wait(int src, int tag, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int b = pvm_trecv(src, tag, &tv);

	return b > 0 ? b : 0;
}

/* The next message (any source and tag) within ms, as a record. */
static __attribute__((unused)) void
dp_recv(const char *c, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int bufid, len = -1, tag = -1, src = -1, v = 0;

	bufid = pvm_trecv(-1, -1, &tv);
	if (bufid == 0) {
		dp_rec(c, "nothing within %d ms", ms);
		return;
	}
	if (bufid < 0) {
		dp_rec(c, "trecv = %s", dp_code(bufid));
		return;
	}
	pvm_bufinfo(bufid, &len, &tag, &src);
	if (len >= 4 && pvm_upkint(&v, 1, 1) == 0)
		dp_rec(c, "message tag %d from %s, %d bytes, int %s", tag,
		    dp_tid(src), len, dp_tid(v));
	else
		dp_rec(c, "message tag %d from %s, %d bytes", tag, dp_tid(src),
		    len);
}

/* Drop whatever arrives within ms (between cases). */
static __attribute__((unused)) void
dp_drain(int ms)
{
	struct timeval tv = {0, ms * 1000};

	while (pvm_trecv(-1, -1, &tv) > 0)
		;
}

/* Enrol with AutoErr off, name our tid "me" and record it; the tid. */
static __attribute__((unused)) int
dp_enrol(void)
{
	int me;

	pvm_setopt(PvmAutoErr, 0);
	me = pvm_mytid();
	dp_name(me, "me");
	dp_rec("mytid", "me is %s", me > 0 ? "a task tid" : dp_code(me));
	return me;
}

/* The name of the host of tid as pvm_config gives it, or "?". */
static __attribute__((unused)) const char *
dp_host_of(int tid)
{
	static char name[64];
	struct pvmhostinfo *hi;
	int n, na, i, h = pvm_tidtohost(tid);

	if (pvm_config(&n, &na, &hi) < 0)
		return "?";
	for (i = 0; i < n; i++)
		if (hi[i].hi_tid == h) {
			snprintf(name, sizeof(name), "%s", hi[i].hi_name);
			return name;
		}
	return "?";
}

/* The path of this program (to spawn copies of itself), in buf. */
static __attribute__((unused)) void
dp_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
}

/* Spawn one copy of the program at self with the one argument role
 * (flag and where as pvm_spawn's); its tid, or 0 with the failure
 * recorded as case c. */
static __attribute__((unused)) int
dp_start(
    const char *c, const char *self, const char *role, int flag, char *where)
{
	char *args[] = {(char *)role, NULL};
	int tid = 0, rc = pvm_spawn((char *)self, args, flag, where, 1, &tid);

	if (rc != 1) {
		dp_rec(c, "spawn = %s", dp_code(rc < 0 ? rc : tid));
		return 0;
	}
	return tid;
}

/* Wait up to secs for a message tagged tag from tid that carries one int,
 * the return code of call, and record it as case c ("hangs" if none
 * came); 1 if it came. */
static __attribute__((unused)) int
dp_ready(const char *c, int tid, int tag, int secs, const char *call)
{
	struct timeval tv = {secs, 0};
	int rc = 0;

	if (pvm_trecv(tid, tag, &tv) <= 0) {
		dp_rec(c, "hangs");
		return 0;
	}
	pvm_upkint(&rc, 1, 1);
	dp_rec(c, "%s = %s", call, dp_code(rc));
	return 1;
}

/* The next message tagged tag from tid within ms that carries a string
 * (up to 1023 bytes), recorded as case c ("hangs" if none came). */
static __attribute__((unused)) void
dp_answer(const char *c, int tid, int tag, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	char text[1024];

	if (pvm_trecv(tid, tag, &tv) > 0 && pvm_upkstr(text) >= 0)
		dp_rec(c, "%s", text);
	else
		dp_rec(c, "hangs (no answer within %d ms)", ms);
}

#endif /* PROBE_H */
