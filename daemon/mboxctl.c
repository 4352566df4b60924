/*
 * mboxctl.c: the TM_MB_* requests on top of the pure mailbox (mbox.c),
 * including parked PvmMboxWaitForInfo gets.
 */
#include "pvmd.h"

#include <stdlib.h>
#include <string.h>

/* Answer a get: index (or error), then enc, src and the stored bytes. */
static void
mboxctl_get_reply(struct conn *c, int dst, int wid, int rc,
    const struct mbox_msg *m)
{
	struct xdr_writer w;

	xdr_writer_init(&w);
	xdr_put_int(&w, rc);
	if (rc >= 0 && m != NULL) {
		xdr_put_int(&w, m->enc);
		xdr_put_int(&w, m->src);
		xdr_put_bytes(&w, m->data, m->len);
	}
	if (w.failed) {
		log_warn("out of memory answering a mailbox get");
	} else if (c != NULL) {
		conn_send(c, pvmd.mytid, dst, TM_MB_GET, SYSCTX_TM, wid,
		    WIRE_ENC_XDR, w.data, w.len);
	} else {
		pvmd_send_raw(dst, TM_MB_GET, SYSCTX_TM, wid, WIRE_ENC_XDR,
		    w.data, w.len);
	}
	xdr_writer_free(&w);
}

/* A put to `name` happened: answer the parked gets it satisfies. */
static void
mboxctl_wake(const char *name)
{
	struct mbox_waiter *w, *w2;
	struct mbox_msg *m;
	int rc;

	TAILQ_FOREACH_SAFE(w, &pvmd.mbox.waiters, entry, w2) {
		if (strcmp(w->name, name) != 0)
			continue;
		rc = mbox_get(&pvmd.mbox, w->tid, w->name, w->index,
		    w->flags, &m);
		if (rc == PvmNotFound)
			continue;
		TAILQ_REMOVE(&pvmd.mbox.waiters, w, entry);
		mboxctl_get_reply(NULL, w->tid, w->wid, rc, m);
		mbox_msg_unref(m);
		mbox_waiter_free(w);
	}
}

/* TM_MB_PUT: str name, int index, int flags, int enc, bytes. */
void
ctl_TM_MB_PUT(struct ctlreq *q)
{
	const char *name = xdr_get_str(&q->r);
	int32_t index, flags, enc;
	const uint8_t *p;
	struct mbox_msg *m;
	size_t n;
	int rc;

	xdr_get_int(&q->r, &index);
	xdr_get_int(&q->r, &flags);
	if (name == NULL || xdr_get_int(&q->r, &enc) != 0) {
		ctl_bad(q);
		return;
	}
	p = xdr_rest(&q->r, &n);
	if ((long long)(mbox_bytes() + n) > pvmd.mbox_max) {
		log_warn("t%x: mailbox entry \"%s\" of %zu bytes refused: the "
		         "mailbox holds %zu of $PVMD_MBOX_MAX %lld bytes",
		    (unsigned)q->src, name, n, mbox_bytes(), pvmd.mbox_max);
		ctl_reply_int(q, PvmOutOfRes);
		return;
	}
	if ((m = mbox_msg_new(p, n, enc)) == NULL) {
		ctl_reply_int(q, PvmNoMem);
		return;
	}
	m->src = q->src;
	rc = mbox_put(&pvmd.mbox, q->src, name, index, flags, m);
	mbox_msg_unref(m);
	log_debug("t%x: mbox put \"%s\" -> %d", (unsigned)q->src, name, rc);
	ctl_reply_int(q, rc);
	if (rc >= 0)
		mboxctl_wake(name);
	if (rc >= 0 && strcmp(name, MBOX_CLASS_PVMGS) == 0)
		place_update(); /* the group server does not count */
}

/* TM_MB_GET: str name, int index, int flags. */
void
ctl_TM_MB_GET(struct ctlreq *q)
{
	const char *name = xdr_get_str(&q->r);
	int32_t index, flags;
	struct mbox_msg *m;
	int rc;

	xdr_get_int(&q->r, &index);
	if (name == NULL || xdr_get_int(&q->r, &flags) != 0) {
		ctl_bad(q);
		return;
	}
	rc = mbox_get(&pvmd.mbox, q->src, name, index, flags, &m);
	if (rc == PvmNotFound && (flags & PvmMboxWaitForInfo)) {
		if (mbox_wait_add(&pvmd.mbox, q->src, q->wid, name, index,
		    flags) != 0)
			ctl_reply_int(q, PvmNoMem);
		return;
	}
	mboxctl_get_reply(q->c, q->src, q->wid, rc, m);
	mbox_msg_unref(m);
}

/* TM_MB_DEL: str name, int index, int flags. */
void
ctl_TM_MB_DEL(struct ctlreq *q)
{
	const char *name = xdr_get_str(&q->r);
	int32_t index, flags;

	xdr_get_int(&q->r, &index);
	if (name == NULL || xdr_get_int(&q->r, &flags) != 0) {
		ctl_bad(q);
		return;
	}
	ctl_reply_int(q, mbox_del(&pvmd.mbox, q->src, name, index));
}

/*
 * Does a class name match a pvm_getmboxinfo pattern?  PVM 3.4.6's rule,
 * observed with its pvmd: '*' stands for any run of characters, every
 * other character for itself (no '?', '.', '[' or anchors), and the
 * pattern may match anywhere in the name: "rats" matches "xratsx",
 * "ra*ts" matches "ra123ts", "*" matches everything.  A mismatch goes
 * back to the last '*' (at first, an implicit one before the pattern)
 * and tries one character further along the name.
 */
static int
mboxctl_match(const char *pattern, const char *name)
{
	const char *p = pattern, *s = name;
	const char *rp = pattern, *rs = name;

	for (;;) {
		if (*p == '\0')
			return 1;
		if (*p == '*') {
			rp = ++p;
			rs = s;
			continue;
		}
		if (*s != '\0' && *s == *p) {
			p++;
			s++;
			continue;
		}
		if (*rs == '\0')
			return 0;
		p = rp;
		s = ++rs;
	}
}

/* TM_MB_LIST: str pattern. */
void
ctl_TM_MB_LIST(struct ctlreq *q)
{
	const char *pattern = xdr_get_str(&q->r);
	struct mbox_class *mc;
	struct mbox_entry *e;
	struct xdr_writer w;
	int n = 0;

	if (pattern == NULL) {
		ctl_bad(q);
		return;
	}
	TAILQ_FOREACH(mc, &pvmd.mbox.classes, entry) {
		if (mboxctl_match(pattern, mc->name))
			n++;
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, n);
	TAILQ_FOREACH(mc, &pvmd.mbox.classes, entry) {
		if (!mboxctl_match(pattern, mc->name))
			continue;
		xdr_put_str(&w, mc->name);
		n = 0;
		TAILQ_FOREACH(e, &mc->entries, entry)
			n++;
		xdr_put_int(&w, n);
		TAILQ_FOREACH(e, &mc->entries, entry) {
			xdr_put_int(&w, e->index);
			xdr_put_int(&w, e->owner);
			xdr_put_int(&w, e->flags);
		}
	}
	ctl_reply(q, &w);
	xdr_writer_free(&w);
}
