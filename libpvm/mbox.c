/*
 * mbox.c: the message mailbox (pvm_putinfo, pvm_recvinfo, pvm_delinfo,
 * pvm_getmboxinfo), the PVM 3.3 database calls built on it (pvm_insert,
 * pvm_lookup, pvm_delete), pvm_getnoresets, and pvm_getmwid/setmwid.
 *
 * The mailbox lives in the master pvmd (host TID_MASTER_HOST), one for the
 * whole machine; an entry is a stored message body plus its wire
 * encoding.  As in PVM, the "normal" negative answers
 * (PvmNotFound, PvmDenied, PvmExists) set pvm_errno but are not printed.
 */
#define PVM33COMPAT /* declares pvm_getmwid/pvm_setmwid */
#include "ctl.h"

#include <stdlib.h>
#include <string.h>

/* Smallest encoded mailbox name entry: name, nent. */
#define MB_MIN_BYTES 12

static struct pvmmboxinfo *mb_list; /* pvm_getmboxinfo's array */
static int mb_n;
static int *nr_tids; /* pvm_getnoresets' array */

/* Report an error unless it is one PVM leaves silent for this call. */
static int
mb_err(const char *call, int cc, int quiet1, int quiet2)
{
	if (cc == quiet1 || cc == quiet2) {
		return lpvm_err_quiet(cc);
	}
	return lpvm_err(call, cc);
}

/* Append the body of message m to w. */
static int
mb_put_body(struct xdr_writer *w, const struct lpvm_msg *m)
{
	struct lpvm_seg few[16], *segs = few;
	size_t n, i;

	n = lpvm_msg_pieces(m, few, 16);
	if (n > 16) {
		if ((segs = calloc(n, sizeof(*segs))) == NULL) {
			return PvmNoMem;
		}
		n = lpvm_msg_pieces(m, segs, n);
	}
	for (i = 0; i < n; i++) {
		xdr_put_bytes(w, segs[i].ptr, segs[i].len);
	}
	if (segs != few) {
		free(segs);
	}
	return w->failed ? PvmNoMem : 0;
}

/* Store message m under name; index -1 lets the pvmd choose per flags. */
static int
mb_put(const char *name, int index, int flags, const struct lpvm_msg *m)
{
	struct xdr_writer w;
	int cc;

	xdr_writer_init(&w);
	xdr_put_str(&w, name);
	xdr_put_int(&w, index);
	xdr_put_int(&w, flags);
	xdr_put_int(&w, lpvm_msg_wire_enc(m));
	if ((cc = mb_put_body(&w, m)) < 0) {
		xdr_writer_free(&w);
		return cc;
	}
	return ctl_status(TID_MASTER_HOST, TM_MB_PUT, &w);
}

/* Store a copy of buffer bufid in the mailbox under name; the index. */
int
pvm_putinfo(char *name, int bufid, int flags)
{
	struct lpvm_msg *m;
	int cc;

	if (name == NULL || *name == '\0' || bufid <= 0) {
		return lpvm_err("pvm_putinfo", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_putinfo", cc);
	}
	if ((m = lpvm_msg_get(bufid)) == NULL) {
		return lpvm_err("pvm_putinfo", PvmNoSuchBuf);
	}
	/* -1: the pvmd takes a direct index from the flags, as in PVM. */
	cc = mb_put(name, -1, flags, m);
	return cc < 0 ? mb_err("pvm_putinfo", cc, PvmDenied, PvmExists) : cc;
}

/*
 * TM_MB_GET: on success *mp is the stored message (not in the buffer
 * table), its src the task that put it, and the entry's index is
 * returned.
 */
static int
mb_get(const char *name, int index, int flags, struct lpvm_msg **mp)
{
	struct xdr_writer w;
	struct xdr_reader r;
	uint8_t *rep, *body;
	const uint8_t *p;
	int32_t got, enc = 0, src = 0;
	size_t n;
	int cc;

	xdr_writer_init(&w);
	xdr_put_str(&w, name);
	xdr_put_int(&w, index);
	xdr_put_int(&w, flags);
	if ((cc = ctl_rpc(TID_MASTER_HOST, TM_MB_GET, &w, &r, &rep)) < 0) {
		return cc;
	}
	if (xdr_get_int(&r, &got) != 0) {
		got = PvmBadMsg;
	} else if (got < 0) {
		got = ctl_code(got);
	} else if (got >= 0 && (xdr_get_int(&r, &enc) != 0 ||
	    lpvm_enc_wire(enc) == NULL ||
	    xdr_get_int(&r, &src) != 0)) {
		got = PvmBadMsg;
	}
	if (got >= 0) {
		p = xdr_rest(&r, &n);
		if ((body = malloc(n + 1)) == NULL ||
		    (*mp = lpvm_msg_wrap(body, n, enc)) == NULL) {
			free(body);
			got = PvmNoMem;
		} else {
			memcpy(body, p, n);
			(*mp)->src = src;
		}
	}
	free(rep);
	return got;
}

/* Fetch an entry as a new active receive buffer; its buffer id. */
int
pvm_recvinfo(char *name, int index, int flags)
{
	struct lpvm_msg *m = NULL;
	int cc;

	if (name == NULL || *name == '\0' || index < 0) {
		return lpvm_err("pvm_recvinfo", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_recvinfo", cc);
	}
	cc = mb_get(name, index, flags, &m);
	if (cc >= 0) {
		m->dst = lpvm.mytid;
		if ((cc = lpvm_msg_register(m)) < 0) {
			lpvm_msg_free(m);
		}
	}
	/*
	 * Once the pvmd has answered, the old active receive buffer goes,
	 * found or not, as in PVM 3.4.6; the new buffer was registered
	 * first, so its id is never the old one's.
	 */
	if (lpvm_rbuf > 0) {
		lpvm_msg_free(lpvm_msg_get(lpvm_rbuf));
		lpvm_rbuf = 0;
	}
	if (cc < 0) {
		return mb_err("pvm_recvinfo", cc, PvmNotFound, PvmNotFound);
	}
	lpvm_rbuf = cc;
	return cc;
}

/* Remove an entry; the pvmd's answer (the index in PVM 3.4's code). */
int
pvm_delinfo(char *name, int index, int flags)
{
	struct xdr_writer w;
	int cc;

	if (name == NULL || *name == '\0' || index < 0) {
		return lpvm_err("pvm_delinfo", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_delinfo", cc);
	}
	xdr_writer_init(&w);
	xdr_put_str(&w, name);
	xdr_put_int(&w, index);
	xdr_put_int(&w, flags);
	cc = ctl_status(TID_MASTER_HOST, TM_MB_DEL, &w);
	return cc < 0 ? mb_err("pvm_delinfo", cc, PvmDenied, PvmNotFound) : cc;
}

/* Free a mailbox listing. */
static void
mb_list_free(struct pvmmboxinfo *l, int n)
{
	int i;

	for (i = 0; l != NULL && i < n; i++) {
		free(l[i].mi_name);
		free(l[i].mi_indices);
		free(l[i].mi_owners);
		free(l[i].mi_flags);
	}
	free(l);
}

/* Decode one name of a TM_MB_LIST reply into e; 0 or an error. */
static int
mb_list_entry(struct xdr_reader *r, struct pvmmboxinfo *e)
{
	const char *s;
	int32_t nent, v[3];
	int j;

	s = xdr_get_str(r);
	if (s == NULL || xdr_get_int(r, &nent) != 0 || nent < 0 ||
	    (size_t)nent > xdr_left(r) / 12) {
		return PvmBadMsg;
	}
	e->mi_name = strdup(s);
	e->mi_indices = calloc((size_t)nent + 1, sizeof(int));
	e->mi_owners = calloc((size_t)nent + 1, sizeof(int));
	e->mi_flags = calloc((size_t)nent + 1, sizeof(int));
	if (e->mi_name == NULL || e->mi_indices == NULL ||
	    e->mi_owners == NULL || e->mi_flags == NULL) {
		return PvmNoMem;
	}
	for (j = 0; j < nent; j++) {
		xdr_get_int(r, &v[0]);
		xdr_get_int(r, &v[1]);
		xdr_get_int(r, &v[2]);
		e->mi_indices[j] = v[0];
		e->mi_owners[j] = v[1];
		e->mi_flags[j] = v[2];
	}
	e->mi_nentries = nent;
	return r->failed ? PvmBadMsg : 0;
}

/* TM_MB_LIST for pattern into a new array; the count or an error. */
static int
mb_list_fetch(const char *pattern, struct pvmmboxinfo **out)
{
	struct xdr_writer w;
	struct xdr_reader r;
	struct pvmmboxinfo *l = NULL;
	uint8_t *rep;
	int32_t n;
	int i = 0, cc;

	xdr_writer_init(&w);
	xdr_put_str(&w, pattern);
	if ((cc = ctl_rpc(TID_MASTER_HOST, TM_MB_LIST, &w, &r, &rep)) < 0) {
		return cc;
	}
	if (xdr_get_int(&r, &n) != 0) {
		cc = PvmBadMsg;
	} else if (n < 0) {
		cc = ctl_code(n);
	} else if ((size_t)n > xdr_left(&r) / MB_MIN_BYTES) {
		cc = PvmBadMsg;
	} else if ((l = calloc((size_t)n + 1, sizeof(*l))) == NULL) {
		cc = PvmNoMem;
	} else {
		for (i = 0; i < n && cc == 0; i++) {
			cc = mb_list_entry(&r, &l[i]);
		}
	}
	free(rep);
	if (cc < 0) {
		mb_list_free(l, i);
		return cc;
	}
	*out = l;
	return n;
}

/* The mailbox names matching pattern, with their entries. */
int
pvm_getmboxinfo(char *pattern, int *np, struct pvmmboxinfo **infop)
{
	int cc;

	mb_list_free(mb_list, mb_n);
	mb_list = NULL;
	mb_n = 0;
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_getmboxinfo", cc);
	}
	if ((cc = mb_list_fetch(pattern != NULL ? pattern : "", &mb_list)) <
	    0) {
		return lpvm_err("pvm_getmboxinfo", cc);
	}
	mb_n = cc;
	if (np != NULL) {
		*np = mb_n;
	}
	if (infop != NULL) {
		*infop = mb_list;
	}
	return 0;
}

/* The tids registered with PvmNoReset (owners of that mailbox class). */
int
pvm_getnoresets(int **tidsp, int *np)
{
	struct pvmmboxinfo *l = NULL;
	int i, j, n, cnt = 0, cc;

	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_getnoresets", cc);
	}
	if ((n = mb_list_fetch(PVMNORESETCLASS, &l)) < 0) {
		return lpvm_err("pvm_getnoresets", n);
	}
	free(nr_tids);
	nr_tids = NULL;
	for (i = 0; i < n; i++) {
		if (strcmp(l[i].mi_name, PVMNORESETCLASS) == 0) {
			cnt += l[i].mi_nentries;
		}
	}
	if ((nr_tids = calloc((size_t)cnt + 1, sizeof(int))) == NULL) {
		mb_list_free(l, n);
		return lpvm_err("pvm_getnoresets", PvmNoMem);
	}
	cnt = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; strcmp(l[i].mi_name, PVMNORESETCLASS) == 0 &&
		    j < l[i].mi_nentries; j++) {
			if (l[i].mi_owners[j] != 0) {
				nr_tids[cnt++] = l[i].mi_owners[j];
			}
		}
	}
	mb_list_free(l, n);
	if (tidsp != NULL) {
		*tidsp = nr_tids;
	}
	if (np != NULL) {
		*np = cnt;
	}
	return 0;
}

/* PVM 3.3: store an int under (name, req); req -1 = any index. */
int
pvm_insert(char *name, int req, int data)
{
	struct xdr_writer d;
	struct lpvm_msg *m;
	int cc;

	if (name == NULL || *name == '\0' || req < -1) {
		return lpvm_err("pvm_insert", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_insert", cc);
	}
	/* The value travels as a one-int PvmDataDefault message. */
	xdr_writer_init(&d);
	if (xdr_put_int(&d, data) != 0 ||
	    (m = lpvm_msg_wrap(d.data, d.len, WIRE_ENC_XDR)) == NULL) {
		xdr_writer_free(&d);
		return lpvm_err("pvm_insert", PvmNoMem);
	}
	cc = mb_put(name, req, PvmMboxMultiInstance | PvmMboxPersistent, m);
	lpvm_msg_free(m);
	return cc < 0 ? mb_err("pvm_insert", cc, PvmDupEntry, PvmDupEntry) :
	    cc;
}

/* The int stored by pvm_insert in a message body of either encoding. */
static int
lookup_value(const struct lpvm_msg *m, int *datap)
{
	struct xdr_reader r;
	int32_t v;

	if (m->len < 4) {
		return PvmNoData;
	}
	if (m->enc->xdr) {
		xdr_reader_init(&r, m->data, m->len);
		xdr_get_int(&r, &v);
	} else {
		memcpy(&v, m->data, sizeof(v));
	}
	*datap = v;
	return 0;
}

/* PVM 3.3: find an int stored by pvm_insert; returns its index. */
int
pvm_lookup(char *name, int req, int *datap)
{
	struct lpvm_msg *m = NULL;
	int flags = PvmMboxDefault, cc, vc;

	if (name == NULL || *name == '\0' || req < -1) {
		return lpvm_err("pvm_lookup", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_lookup", cc);
	}
	if (req < 0) {
		flags |= PvmMboxFirstAvail;
		req = 0;
	}
	if ((cc = mb_get(name, req, flags, &m)) < 0) {
		return mb_err("pvm_lookup", cc, PvmNoEntry, PvmNoEntry);
	}
	if (datap != NULL && (vc = lookup_value(m, datap)) < 0) {
		cc = vc;
	}
	lpvm_msg_free(m);
	return cc < 0 ? lpvm_err("pvm_lookup", cc) : cc;
}

/* PVM 3.3: remove the entry (name, req). */
int
pvm_delete(char *name, int req)
{
	struct xdr_writer w;
	int cc;

	if (name == NULL || *name == '\0' || req < 0) {
		return lpvm_err("pvm_delete", PvmBadParam);
	}
	if ((cc = lpvm_enrol()) < 0) {
		return lpvm_err("pvm_delete", cc);
	}
	xdr_writer_init(&w);
	xdr_put_str(&w, name);
	xdr_put_int(&w, req);
	xdr_put_int(&w, PvmMboxDefault);
	cc = ctl_status(TID_MASTER_HOST, TM_MB_DEL, &w);
	return cc < 0 ? mb_err("pvm_delete", cc, PvmNoEntry, PvmNoEntry) : cc;
}

/* The wait id of a buffer (PVM 3.3). */
int
pvm_getmwid(int bufid)
{
	struct lpvm_msg *m;

	if (bufid <= 0) {
		return lpvm_err("pvm_getmwid", PvmBadParam);
	}
	if ((m = lpvm_msg_get(bufid)) == NULL) {
		return lpvm_err("pvm_getmwid", PvmNoSuchBuf);
	}
	return m->wid;
}

/* Set the wait id of a buffer (PVM 3.3). */
int
pvm_setmwid(int bufid, int wid)
{
	struct lpvm_msg *m;

	if (bufid <= 0) {
		return lpvm_err("pvm_setmwid", PvmBadParam);
	}
	if ((m = lpvm_msg_get(bufid)) == NULL) {
		return lpvm_err("pvm_setmwid", PvmNoSuchBuf);
	}
	m->wid = wid;
	return 0;
}
