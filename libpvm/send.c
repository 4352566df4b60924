/*
 * send.c: pvm_send and pvm_mcast.
 *
 * A send is asynchronous: it returns once the message is in the socket
 * (to the pvmd or over a direct route).  Nothing checks that the
 * destination exists; the pvmd drops messages for unknown tasks.
 */
#include "pvm3.h"
#include "conn.h"

#include <stdlib.h>
#include <string.h>

/* May a message go to tid?  Tasks always; others with PvmResvTids. */
static int
send_tid_ok(int tid)
{
	if (tid_is_task(tid))
		return 1;
	return lpvm.resvtids && tid != 0;
}

/* Send the active send buffer to tid with tag, in the current context. */
int
pvm_send(int tid, int tag)
{
	struct lpvm_msg *m;
	int rc;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_send", rc);
	if ((tag < 0 && !lpvm.resvtids) || !send_tid_ok(tid))
		return lpvm_err("pvm_send", PvmBadParam);
	if (lpvm_sbuf == 0 || (m = lpvm_msg_get(lpvm_sbuf)) == NULL)
		return lpvm_err("pvm_send", PvmNoBuf);
	if ((rc = lpvm_send_msg(tid, tag, lpvm.ctx, m)) < 0)
		return lpvm_err("pvm_send", rc);
	/* The buffer keeps where it went (pvm_getminfo), as in PVM. */
	m->tag = tag;
	m->dst = tid;
	/* PVM 3.4.6 also runs the handlers of messages already waiting. */
	if (lpvm_mhf_any())
		(void)lpvm_pump(0);
	return 0;
}

/* Lists of up to this many tids are sorted on the stack: pvm_bcast to a
 * small group calls pvm_mcast every time, and a malloc, a free and a
 * qsort of one were a good part of a 1-member bcast's instructions. */
#define SEND_MCAST_LOCAL 64

/* qsort order for tids. */
static int
send_tidcmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Tell the pvmd the list, then send the message once to our multicast
 * address; the pvmd makes the copies.  Nothing may go out between the
 * two (lpvm_tx_owed at the end of the first write would send answers we
 * owe, and an answer may open a route to a listed task: see pvm_mcast),
 * so both count as one write.
 */
static int
send_mcast_pvmd(const int *tids, int n, int tag, struct lpvm_msg *m)
{
	struct xdr_writer w;
	int i, rc;

	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	for (i = 0; i < n; i++)
		xdr_put_int(&w, tids[i]);
	lpvm_tx_depth++;
	rc = lpvm_send_xdr(lpvm.pvmdtid, TM_MCAST, SYSCTX_TM, &w);
	xdr_writer_free(&w);
	if (rc >= 0)
		rc = lpvm_send_msg((int)(TID_MCAST_BIT | (uint32_t)lpvm.mytid),
		    tag, lpvm.ctx, m);
	lpvm_tx_depth--;
	if (rc >= 0)
		lpvm_tx_owed();
	return rc;
}

/*
 * Send the active send buffer to every tid in tids[0..n).  Duplicates and
 * the caller itself are dropped, as in PVM.  Tasks with a usable direct
 * route get their copy over it (keeping per-pair order); the rest go
 * through the pvmd in one multicast.  Routes are found, or asked for,
 * as pvm_send does (lpvm_route_get: with PvmRouteDirect a route to each
 * task; one still opening takes this copy through the pvmd), all before
 * anything of the multicast is sent.
 *
 * The multicast through the pvmd goes first.  Sending a copy over a
 * route may wait (a bulk offer for its answer, a full ring or socket for
 * room), and a wait reads input and answers offers; an answer to a task
 * of the pvmd's list opens a route to it if one was acknowledged (or
 * uses its route to us backwards), and the marker of that route goes
 * through the pvmd.  A copy sent through the pvmd after that marker came
 * after it, and the task, reading the route from the marker on, could
 * take our next message, sent over the route, before the copy (the
 * soak's "lost 1, duplicated 1"; t_shm mcastroute).
 */
int
pvm_mcast(int *tids, int n, int tag)
{
	int local[2 * SEND_MCAST_LOCAL], *v = local, *r;
	struct lpvm_msg *m;
	int i, k, nr, rc;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_mcast", rc);
	if (n < 0 || (n > 0 && tids == NULL) || (tag < 0 && !lpvm.resvtids))
		return lpvm_err("pvm_mcast", PvmBadParam);
	for (i = 0; i < n; i++) {
		if (!send_tid_ok(tids[i]))
			return lpvm_err("pvm_mcast", PvmBadParam);
	}
	if (lpvm_sbuf == 0 || (m = lpvm_msg_get(lpvm_sbuf)) == NULL)
		return lpvm_err("pvm_mcast", PvmNoBuf);
	if (n == 0)
		return 0;
	if (n > SEND_MCAST_LOCAL &&
	    (v = malloc(2 * (size_t)n * sizeof(*v))) == NULL)
		return lpvm_err("pvm_mcast", PvmNoMem);
	r = v + n;
	memcpy(v, tids, (size_t)n * sizeof(*v));
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), send_tidcmp);
	/* Which copies go over routes is decided before anything is sent. */
	for (i = 0, k = 0, nr = 0; i < n; i++) {
		if ((i > 0 && v[i] == v[i - 1]) || v[i] == lpvm.mytid)
			continue;
		if (tid_is_task(v[i]) && lpvm_route_get(v[i]) != NULL)
			r[nr++] = v[i];
		else
			v[k++] = v[i];
	}
	for (i = 0; i < k; i++)
		lpvm_route_trace(
		    "mcast to t%x: through the pvmd", (unsigned)v[i]);
	if (k > 0)
		rc = send_mcast_pvmd(v, k, tag, m);
	for (i = 0; i < nr && rc >= 0; i++) {
		lpvm_route_trace(
		    "mcast to t%x: over its route", (unsigned)r[i]);
		rc = lpvm_send_msg(r[i], tag, lpvm.ctx, m);
	}
	if (v != local)
		free(v);
	if (rc < 0)
		return lpvm_err("pvm_mcast", rc);
	/* As PVM: the buffer's header names our multicast address. */
	m->tag = tag;
	m->dst = (int)(TID_MCAST_BIT | (uint32_t)lpvm.mytid);
	return 0;
}
