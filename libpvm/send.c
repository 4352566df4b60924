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

/* qsort order for tids. */
static int
send_tidcmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * Tell the pvmd the list, then send the message once to our multicast
 * address; the pvmd makes the copies.
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
	rc = lpvm_send_xdr(lpvm.pvmdtid, TM_MCAST, SYSCTX_TM, &w);
	xdr_writer_free(&w);
	if (rc < 0)
		return rc;
	return lpvm_send_msg(
	    (int)(TID_MCAST_BIT | (uint32_t)lpvm.mytid), tag, lpvm.ctx, m);
}

/* An open outgoing direct route to tid, or NULL. */
static struct lpvm_conn *
send_open_route(int tid)
{
	struct lpvm_conn *c;

	for (c = lpvm_conns; c != NULL; c = c->next) {
		if (c->peer == tid && c->fd >= 0 &&
		    (c->state == CONN_OUT_OPEN ||
		        (c->state == CONN_IN_OPEN && c->twoway)))
			return c;
	}
	return NULL;
}

/*
 * Send the active send buffer to every tid in tids[0..n).  Duplicates and
 * the caller itself are dropped, as in PVM.  Tasks with an open direct
 * route get their copy over it (keeping per-pair order); the rest go
 * through the pvmd in one multicast.
 */
int
pvm_mcast(int *tids, int n, int tag)
{
	struct lpvm_msg *m;
	int *v, i, k, rc;

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
	if ((v = malloc((size_t)n * sizeof(*v))) == NULL)
		return lpvm_err("pvm_mcast", PvmNoMem);
	memcpy(v, tids, (size_t)n * sizeof(*v));
	qsort(v, (size_t)n, sizeof(*v), send_tidcmp);
	for (i = 0, k = 0; i < n && rc >= 0; i++) {
		if ((i > 0 && v[i] == v[i - 1]) || v[i] == lpvm.mytid)
			continue;
		if (send_open_route(v[i]) != NULL)
			rc = lpvm_send_msg(v[i], tag, lpvm.ctx, m);
		else
			v[k++] = v[i];
	}
	if (rc >= 0 && k > 0)
		rc = send_mcast_pvmd(v, k, tag, m);
	free(v);
	if (rc < 0)
		return lpvm_err("pvm_mcast", rc);
	/* As PVM: the buffer's header names our multicast address. */
	m->tag = tag;
	m->dst = (int)(TID_MCAST_BIT | (uint32_t)lpvm.mytid);
	return 0;
}
