/*
 * p_mbox.c: probe of the message mailbox: pvm_putinfo, pvm_recvinfo,
 * pvm_delinfo and pvm_getmboxinfo with every flag, the indices they
 * give, the answers for duplicates and for absent names, odd names and
 * buffers, the owner against another task, what survives the owner's
 * exit, and PvmMboxWaitForInfo.
 *
 *   p_mbox            the probe
 *   p_mbox child      a spawned child: does what the parent's TAG_CMD
 *                     messages say and answers each with TAG_REP
 */
#include "probe.h"

#include <unistd.h>

#define TAG_CMD 70
#define TAG_REP 71
#define TAG_EXIT 72
#define NOREPLY (-1000) /* the child did not answer in time */

enum { OP_PUT, OP_GET, OP_DEL, OP_EXIT, OP_PUTBUF };

static int me, child;
static int cdo_secs = 5; /* how long cdo waits for the child's answer */
static char self[4096];

/* ---------------------------------------------------------------- */
/* The child.                                                        */

/* Perform one command; pack the answer into a new send buffer. */
static void
child_op(int op, char *name, int index, int flags, int value)
{
	int rc = 0, v = -1, len = -1, tag = -1, src = -1, b;

	switch (op) {
	case OP_PUT:
		b = pvm_mkbuf(PvmDataDefault);
		pvm_setsbuf(b);
		pvm_pkint(&value, 1, 1);
		rc = pvm_putinfo(name, b, flags);
		pvm_freebuf(pvm_setsbuf(0));
		break;
	case OP_GET:
		rc = pvm_recvinfo(name, index, flags);
		if (rc > 0) {
			pvm_bufinfo(rc, &len, &tag, &src);
			pvm_upkint(&v, 1, 1);
		}
		break;
	case OP_DEL:
		rc = pvm_delinfo(name, index, flags);
		break;
	case OP_PUTBUF: /* index is the bufid; -2: a freed one */
		if (index == -2) {
			index = pvm_mkbuf(PvmDataDefault);
			pvm_freebuf(index);
		}
		rc = pvm_putinfo(name, index, flags);
		break;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_pkint(&v, 1, 1);
	pvm_pkint(&len, 1, 1);
	pvm_pkint(&tag, 1, 1);
	pvm_pkint(&src, 1, 1);
}

static int
child_main(void)
{
	int parent = pvm_parent(), op, index, flags, value;
	char name[256];

	pvm_setopt(PvmAutoErr, 0);
	for (;;) {
		if (pvm_recv(parent, TAG_CMD) < 0)
			break;
		pvm_upkint(&op, 1, 1);
		pvm_upkint(&index, 1, 1);
		pvm_upkint(&flags, 1, 1);
		pvm_upkint(&value, 1, 1);
		pvm_upkstr(name);
		if (op == OP_EXIT)
			break;
		child_op(op, name, index, flags, value);
		pvm_send(parent, TAG_REP);
	}
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The parent's helpers.                                             */

/*
 * Ask the child to do op; rc, and for OP_GET in v[0..3] the value read,
 * the buffer's length, tag and source.
 */
static int
cdo(int op, const char *name, int index, int flags, int value, int *v)
{
	struct timeval tv = {cdo_secs, 0};
	int rc = NOREPLY, x[4];

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&op, 1, 1);
	pvm_pkint(&index, 1, 1);
	pvm_pkint(&flags, 1, 1);
	pvm_pkint(&value, 1, 1);
	pvm_pkstr((char *)name);
	pvm_send(child, TAG_CMD);
	if (op == OP_EXIT)
		return 0;
	if (pvm_trecv(child, TAG_REP, &tv) > 0) {
		pvm_upkint(&rc, 1, 1);
		pvm_upkint(x, 4, 1);
		if (v != NULL)
			memcpy(v, x, sizeof(x));
	}
	return rc;
}

static const char *
crc(int rc)
{
	return rc == NOREPLY ? "no reply" : dp_code(rc);
}

/* The child puts value under name with flags. */
static void
cput(const char *c, const char *name, int value, int flags)
{
	dp_rec(c, "child putinfo(%s, %d, flags %d) = %s", name, value, flags,
	    crc(cdo(OP_PUT, name, 0, flags, value, NULL)));
}

/* The child reads name/index. */
static void
cget(const char *c, const char *name, int index, int flags)
{
	int v[4] = {-1, -1, -1, -1};
	int rc = cdo(OP_GET, name, index, flags, 0, v);

	if (rc > 0)
		dp_rec(c,
		    "child recvinfo(%s, %d, flags %d) = a bufid, value %d, %d "
		    "bytes, tag %d, src %s",
		    name, index, flags, v[0], v[1], v[2], dp_tid(v[3]));
	else
		dp_rec(c, "child recvinfo(%s, %d, flags %d) = %s", name, index,
		    flags, crc(rc));
}

static void
cdel(const char *c, const char *name, int index, int flags)
{
	dp_rec(c, "child delinfo(%s, %d, flags %d) = %s", name, index, flags,
	    crc(cdo(OP_DEL, name, index, flags, 0, NULL)));
}

/* Our own put of one int; returns putinfo's answer. */
static int
put(const char *name, int value, int flags)
{
	int b = pvm_initsend(PvmDataDefault);

	pvm_pkint(&value, 1, 1);
	return pvm_putinfo((char *)name, b, flags);
}

static void
rput(const char *c, const char *name, int value, int flags)
{
	dp_rec(c, "putinfo(%.40s, %d, flags %d) = %s", name, value, flags,
	    dp_code(put(name, value, flags)));
}

/* Our own read, as a record: the value and what bufinfo says. */
static int
rget(const char *c, const char *name, int index, int flags)
{
	int b = pvm_recvinfo((char *)name, index, flags);
	int v = -1, len = -1, tag = -1, src = -1;

	if (b <= 0) {
		dp_rec(c, "recvinfo(%.40s, %d, flags %d) = %s", name, index,
		    flags, dp_code(b));
		return b;
	}
	pvm_bufinfo(b, &len, &tag, &src);
	pvm_upkint(&v, 1, 1);
	dp_rec(c,
	    "recvinfo(%.40s, %d, flags %d) = a bufid, value %d, %d bytes, tag "
	    "%d, src %s",
	    name, index, flags, v, len, tag, dp_tid(src));
	return b;
}

static void
rdel(const char *c, const char *name, int index, int flags)
{
	dp_rec(c, "delinfo(%s, %d, flags %d) = %s", name, index, flags,
	    dp_code(pvm_delinfo((char *)name, index, flags)));
}

static int
by_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* One class of a listing: its entries sorted by index. */
static void
info_class(const char *c, const struct pvmmboxinfo *ci)
{
	char line[2048];
	int ord[64], i, j, n = ci->mi_nentries, k = 0;

	for (i = 0; i < n && i < 64; i++)
		ord[i] = ci->mi_indices[i] * 64 + i;
	qsort(ord, (size_t)(n < 64 ? n : 64), sizeof(int), by_int);
	line[0] = '\0';
	for (i = 0; i < n && i < 64; i++) {
		j = ord[i] % 64;
		k += snprintf(line + k, sizeof(line) - (size_t)k, " [%d %s %d]",
		    ci->mi_indices[j], dp_tid(ci->mi_owners[j]),
		    ci->mi_flags[j]);
		if (k >= (int)sizeof(line) - 64)
			break;
	}
	dp_rec(c, "class %.40s (%zu chars): %d entries:%s", ci->mi_name,
	    strlen(ci->mi_name), n, line);
}

static int
by_name(const void *a, const void *b)
{
	const struct pvmmboxinfo *x = *(struct pvmmboxinfo *const *)a;
	const struct pvmmboxinfo *y = *(struct pvmmboxinfo *const *)b;

	return strcmp(x->mi_name, y->mi_name);
}

/* pvm_getmboxinfo(pattern): count, then each class sorted by name. */
static void
info(const char *c, const char *pat)
{
	struct pvmmboxinfo *cl = NULL, *ord[128];
	int n = -1, rc, i;

	rc = pvm_getmboxinfo((char *)pat, &n, &cl);
	dp_rec(c, "getmboxinfo(%s) = %s, %d classes", pat ? pat : "NULL",
	    dp_code(rc), n);
	if (rc < 0 || cl == NULL)
		return;
	for (i = 0; i < n && i < 128; i++)
		ord[i] = &cl[i];
	qsort(ord, (size_t)(n < 128 ? n : 128), sizeof(ord[0]), by_name);
	for (i = 0; i < n && i < 128; i++)
		info_class(c, ord[i]);
}

/* A new child named nm; a record of it unless quiet. */
static int
spawn_child(const char *nm, int quiet)
{
	char *args[] = {"child", NULL};
	int tid = 0;

	if (pvm_spawn(self, args, 0, "", 1, &tid) != 1)
		tid = 0;
	if (tid > 0)
		dp_name(tid, nm);
	if (!quiet)
		dp_rec(nm, "%s is %s", nm, tid > 0 ? "a task" : "missing");
	return tid;
}

/*
 * A bad bufid to putinfo, tried by the child: PVM 3.4.6 never returns
 * from that call, so a child that does not answer is killed and
 * replaced.
 */
static void
bad_buf(const char *c, const char *what, int bufid)
{
	int rc;

	cdo_secs = 2;
	rc = cdo(OP_PUTBUF, "b", bufid, 0, 0, NULL);
	cdo_secs = 5;
	dp_rec(c, "child putinfo(b, %s, 0) = %s", what, crc(rc));
	if (rc == NOREPLY) {
		pvm_kill(child);
		child = spawn_child("child", 1);
	}
}

static void
bad_bufs(void)
{
	bad_buf("buf-0", "0", 0);
	bad_buf("buf-neg", "-1", -1);
	bad_buf("buf-none", "9999", 9999);
	bad_buf("buf-freed", "a freed bufid", -2);
	info("buf-info", "b");
}

/* ---------------------------------------------------------------- */
/* The cases.                                                        */

/* One entry of one name, by its owner alone. */
static void
single(void)
{
	int b1, b2, len = -1;

	rput("put-default", "a", 1, PvmMboxDefault);
	rput("put-default-again", "a", 2, PvmMboxDefault);
	rget("get-a-0", "a", 0, PvmMboxDefault);
	b1 = rget("get-a-0-again", "a", 0, PvmMboxDefault);
	dp_rc("get-rbuf", "getrbuf() == recvinfo's", pvm_getrbuf() == b1);
	b2 = pvm_recvinfo("a", 0, PvmMboxDefault);
	dp_rc("get-new-bufid", "second recvinfo's bufid != first", b2 != b1);
	dp_rc("get-old-freed", "bufinfo(first)",
	    pvm_bufinfo(b1, &len, NULL, NULL));
	rget("get-a-1", "a", 1, PvmMboxDefault);
	rget("get-a-first-0", "a", 0, PvmMboxFirstAvail);
	rget("get-a-first-1", "a", 1, PvmMboxFirstAvail);
	rget("get-absent", "nosuch", 0, PvmMboxDefault);
	rget("get-absent-first", "nosuch", 0, PvmMboxFirstAvail);
	rget("get-neg-index", "a", -1, PvmMboxDefault);
	rget("get-neg-index-first", "a", -1, PvmMboxFirstAvail);
	b1 = pvm_recvinfo("a", 0, PvmMboxDefault);
	pvm_recvinfo("nosuch", 0, PvmMboxDefault);
	dp_rc("get-notfound-frees", "bufinfo(rbuf before a PvmNotFound)",
	    pvm_bufinfo(b1, &len, NULL, NULL));
	b1 = pvm_recvinfo("a", 0, PvmMboxDefault);
	pvm_recvinfo("a", -1, PvmMboxDefault);
	dp_rc("get-badparam-keeps", "bufinfo(rbuf before a PvmBadParam)",
	    pvm_bufinfo(b1, &len, NULL, NULL));
	dp_rc("get-badparam-rbuf", "getrbuf() after PvmBadParam == before",
	    pvm_getrbuf() == b1);
	pvm_recvinfo("", 0, PvmMboxDefault);
	dp_rc("get-empty-keeps", "bufinfo(rbuf before recvinfo(\"\"))",
	    pvm_bufinfo(b1, &len, NULL, NULL));
	rput("put-ow-by-owner", "a", 3, PvmMboxOverWritable);
	rget("get-a-after-ow", "a", 0, PvmMboxDefault);
	rput("put-multi-on-single", "a", 4, PvmMboxMultiInstance);
	info("info-a", "a");
	rdel("del-a-1", "a", 1, PvmMboxDefault);
	rdel("del-a-0", "a", 0, PvmMboxDefault);
	rdel("del-a-0-again", "a", 0, PvmMboxDefault);
	rget("get-a-after-del", "a", 0, PvmMboxDefault);
	rget("get-a-1-after-del", "a", 1, PvmMboxDefault);
	rdel("del-a-1-after", "a", 1, PvmMboxDefault);
	rdel("del-absent", "nosuch", 0, PvmMboxDefault);
	rdel("del-neg-index", "a", -1, PvmMboxDefault);
	info("info-a-gone", "a");
	rput("put-a-after-del", "a", 5, PvmMboxDefault);
	rdel("del-odd-flags", "a", 0, 99);
	rput("put-a-again", "a", 6, PvmMboxDefault);
	rget("get-a-rd", "a", 0, PvmMboxReadAndDelete);
	rget("get-a-after-rd", "a", 0, PvmMboxDefault);
}

/* Several instances of one name. */
static void
multi(void)
{
	rput("multi-put-1", "m", 10, PvmMboxMultiInstance);
	rput("multi-put-2", "m", 11, PvmMboxMultiInstance);
	rput("multi-put-3", "m", 12, PvmMboxMultiInstance);
	rput("multi-put-default", "m", 13, PvmMboxDefault);
	rget("multi-get-0", "m", 0, PvmMboxDefault);
	rget("multi-get-1", "m", 1, PvmMboxDefault);
	rget("multi-get-2", "m", 2, PvmMboxDefault);
	rget("multi-get-3", "m", 3, PvmMboxDefault);
	rput("multi-put-ow", "m", 14, PvmMboxOverWritable);
	rget("multi-get-0-after-ow", "m", 0, PvmMboxDefault);
	info("multi-info", "m");
	rdel("multi-del-1", "m", 1, PvmMboxDefault);
	rget("multi-first-1", "m", 1, PvmMboxFirstAvail);
	rput("multi-reput", "m", 15, PvmMboxMultiInstance);
	rput("multi-reput-2", "m", 16, PvmMboxMultiInstance);
	info("multi-info-reput", "m");
	rdel("multi-del-0", "m", 0, PvmMboxDefault);
	rput("multi-reput-0", "m", 17, PvmMboxMultiInstance);
	rget("multi-first-0", "m", 0, PvmMboxFirstAvail);
	rget("multi-first-9", "m", 9, PvmMboxFirstAvail);
	rget(
	    "multi-rd-first", "m", 1, PvmMboxReadAndDelete | PvmMboxFirstAvail);
	rget("multi-rd-first-again", "m", 1,
	    PvmMboxReadAndDelete | PvmMboxFirstAvail);
	info("multi-info-rd", "m");
	rget("multi-rd-absent", "m", 50, PvmMboxReadAndDelete);
	rput("multi-direct-7", "m", 18,
	    PvmMboxMultiInstance | PvmMboxDirectIndex(7));
	rput("multi-direct-7-again", "m", 19,
	    PvmMboxMultiInstance | PvmMboxDirectIndex(7));
	rput("multi-direct-7-ow", "m", 20,
	    PvmMboxMultiInstance | PvmMboxOverWritable | PvmMboxDirectIndex(7));
	rget("multi-get-7", "m", 7, PvmMboxDefault);
	rput("multi-after-direct", "m", 21, PvmMboxMultiInstance);
	info("multi-info-direct", "m");
	rput("direct-single-3", "d", 30, PvmMboxDirectIndex(3));
	rput("direct-single-0-ow", "d0", 31,
	    PvmMboxOverWritable | PvmMboxDirectIndex(0));
	rput("direct-single-0-ow-again", "d0", 32,
	    PvmMboxOverWritable | PvmMboxDirectIndex(0));
	rget("direct-get-d0", "d0", 0, PvmMboxDefault);
	rput("direct-ow-3", "d3", 33,
	    PvmMboxOverWritable | PvmMboxDirectIndex(3));
	info("direct-info", "d");
}

/* Flags as the listing shows them; odd flags and buffers. */
static void
flags_and_bufs(void)
{
	int b, old, len = -1, tag = -1, src = -1;

	rput("flag-persist", "f.p", 40, PvmMboxPersistent);
	rput("flag-ow", "f.o", 41, PvmMboxOverWritable);
	rput("flag-all", "f.all", 42,
	    PvmMboxPersistent | PvmMboxMultiInstance | PvmMboxOverWritable);
	rput("flag-get-bits", "f.g", 43,
	    PvmMboxFirstAvail | PvmMboxReadAndDelete);
	rput("flag-wait-bit", "f.w", 44, PvmMboxWaitForInfo);
	rput("flag-high", "f.h", 45, 256);
	rput("flag-neg", "f.n", 46, -1);
	info("flag-info", "f.");
	b = pvm_mkbuf(PvmDataDefault);
	dp_rc("buf-empty", "putinfo(be, empty buffer, 0)",
	    pvm_putinfo("be", b, 0));
	rget("buf-empty-get", "be", 0, PvmMboxDefault);
	pvm_freebuf(b);
	b = pvm_initsend(PvmDataDefault);
	len = 50;
	pvm_pkint(&len, 1, 1);
	pvm_putinfo("bc", b, 0);
	len = 51;
	pvm_pkint(&len, 1, 1);
	rget("buf-copy", "bc", 0, PvmMboxDefault);
	dp_rc(
	    "buf-sbuf-kept", "getsbuf() == the put buffer", pvm_getsbuf() == b);
	b = pvm_initsend(PvmDataRaw);
	len = 52;
	pvm_pkint(&len, 1, 1);
	dp_rc("buf-raw", "putinfo(br, raw buffer, 0)", pvm_putinfo("br", b, 0));
	rget("buf-raw-get", "br", 0, PvmMboxDefault);
	b = pvm_initsend(PvmDataInPlace);
	len = 53;
	pvm_pkint(&len, 1, 1);
	dp_rc("buf-inplace", "putinfo(bi, inplace buffer, 0)",
	    pvm_putinfo("bi", b, 0));
	len = 54;
	rget("buf-inplace-get", "bi", 0, PvmMboxDefault);
	b = pvm_recvinfo("bc", 0, PvmMboxDefault);
	dp_rc("buf-rbuf", "putinfo(brb, recvinfo's buffer, 0)",
	    pvm_putinfo("brb", b, 0));
	rget("buf-rbuf-get", "brb", 0, PvmMboxDefault);
	old = pvm_setsbuf(0);
	b = pvm_mkbuf(PvmDataDefault);
	len = 55;
	pvm_setsbuf(b);
	pvm_pkint(&len, 1, 1);
	pvm_setsbuf(old);
	dp_rc("buf-inactive", "putinfo(bn, not the active buffer, 0)",
	    pvm_putinfo("bn", b, 0));
	b = rget("buf-inactive-get", "bn", 0, PvmMboxDefault);
	pvm_bufinfo(b, &len, &tag, &src);
	dp_rec(
	    "buf-get-info", "tag %d, src %s, %d bytes", tag, dp_tid(src), len);
}

/* Odd names. */
static void
names(void)
{
	static char lng[6000];

	rput("name-empty", "", 60, PvmMboxDefault);
	rget("name-empty-get", "", 0, PvmMboxDefault);
	rdel("name-empty-del", "", 0, PvmMboxDefault);
	dp_rc("name-null-put", "putinfo(NULL)",
	    pvm_putinfo(NULL, pvm_initsend(PvmDataDefault), 0));
	dp_rc("name-null-get", "recvinfo(NULL)", pvm_recvinfo(NULL, 0, 0));
	dp_rc("name-null-del", "delinfo(NULL)", pvm_delinfo(NULL, 0, 0));
	rput("name-space", "with space", 61, PvmMboxDefault);
	rget("name-space-get", "with space", 0, PvmMboxDefault);
	rput("name-case", "With Space", 62, PvmMboxDefault);
	rget("name-case-get", "With Space", 0, PvmMboxDefault);
	rput("name-star", "st*r", 63, PvmMboxDefault);
	rget("name-star-get", "st*r", 0, PvmMboxDefault);
	memset(lng, 'L', 255);
	lng[255] = '\0';
	rput("name-255", lng, 64, PvmMboxDefault);
	rget("name-255-get", lng, 0, PvmMboxDefault);
	lng[255] = 'L';
	lng[4999] = '\0';
	memset(lng, 'L', 4999);
	dp_rc("name-4999", "putinfo(4999 Ls)", put(lng, 65, PvmMboxDefault));
	lng[4998] = '\0';
	dp_rc("name-4998-get", "recvinfo(4998 Ls) ",
	    pvm_recvinfo(lng, 0, PvmMboxDefault));
	lng[4998] = 'L';
	dp_rc("name-4999-get", "recvinfo(4999 Ls) > 0",
	    pvm_recvinfo(lng, 0, PvmMboxDefault) > 0);
	info("name-info-L", "LLLL");
	dp_rc("name-4999-del", "delinfo(4999 Ls)",
	    pvm_delinfo(lng, 0, PvmMboxDefault));
	info("name-info-L-gone", "LLLL");
}

/* Patterns of pvm_getmboxinfo. */
static void
patterns(void)
{
	struct pvmmboxinfo *cl = NULL;
	int n = -1;

	rput("pat-put-1", "alpha", 70, PvmMboxDefault);
	rput("pat-put-2", "alpine", 71, PvmMboxMultiInstance);
	rput("pat-put-3", "alpine", 72, PvmMboxMultiInstance);
	rput("pat-put-4", "xalphax", 73, PvmMboxDefault);
	info("pat-exact", "alpine");
	info("pat-sub", "alp");
	info("pat-star-mid", "al*a");
	info("pat-star-end", "alph*");
	info("pat-dot", "alph.");
	info("pat-caret", "^alpha");
	info("pat-dollar", "alpha$");
	info("pat-bracket", "alp[hi]");
	info("pat-question", "alph?");
	info("pat-absent", "zzz");
	info("pat-empty", "");
	info("pat-star", "*");
	info("pat-null", NULL);
	rput("pat-put-5", "zeta", 74, PvmMboxDefault);
	dp_rc("pat-null-n", "getmboxinfo(zeta, NULL, &classes)",
	    pvm_getmboxinfo("zeta", NULL, &cl));
	dp_rc("pat-null-classes", "getmboxinfo(zeta, &n, NULL)",
	    pvm_getmboxinfo("zeta", &n, NULL));
	dp_rec("pat-null-classes-n", "n = %s", dp_val(n));
}

/* The owner against another task. */
static void
others(void)
{
	cput("own-child-put", "o.def", 80, PvmMboxDefault);
	rput("own-parent-put", "o.def", 81, PvmMboxDefault);
	rput("own-parent-put-ow", "o.def", 82, PvmMboxOverWritable);
	rput("own-parent-put-multi", "o.def", 83, PvmMboxMultiInstance);
	rget("own-parent-get", "o.def", 0, PvmMboxDefault);
	rget("own-parent-rd", "o.def", 0, PvmMboxReadAndDelete);
	rdel("own-parent-del", "o.def", 0, PvmMboxDefault);
	cput("own-child-put-again", "o.def", 84, PvmMboxDefault);
	cget("own-child-get", "o.def", 0, PvmMboxDefault);
	cput("own-child-put-ow", "o.ow", 85, PvmMboxOverWritable);
	rput("own-parent-over-ow", "o.ow", 86, PvmMboxDefault);
	rget("own-parent-get-over-ow", "o.ow", 0, PvmMboxDefault);
	info("own-info-ow", "o.ow");
	cput("own-child-over-ow-back", "o.ow", 87, PvmMboxDefault);
	cget("own-child-get-ow", "o.ow", 0, PvmMboxDefault);
	cput("own-child-put-ow2", "o.ow2", 88, PvmMboxOverWritable);
	rdel("own-parent-del-ow", "o.ow2", 0, PvmMboxDefault);
	cput("own-child-put-ow3", "o.ow3", 89, PvmMboxOverWritable);
	rget("own-parent-rd-ow", "o.ow3", 0, PvmMboxReadAndDelete);
	cget("own-child-get-ow3", "o.ow3", 0, PvmMboxDefault);
	cput("own-child-multi", "o.m", 90, PvmMboxMultiInstance);
	rput("own-parent-multi", "o.m", 91, PvmMboxMultiInstance);
	cput("own-child-multi-2", "o.m", 92, PvmMboxMultiInstance);
	rdel("own-parent-del-child-inst", "o.m", 0, PvmMboxDefault);
	cdel("own-child-del-parent-inst", "o.m", 1, PvmMboxDefault);
	cget("own-child-rd-parent-inst", "o.m", 1, PvmMboxReadAndDelete);
	cget("own-child-first", "o.m", 1, PvmMboxFirstAvail);
	info("own-info-multi", "o.m");
	cdel("own-child-del-own", "o.m", 2, PvmMboxDefault);
	cget("own-child-absent", "o.nosuch", 0, PvmMboxDefault);
	cdel("own-child-del-absent", "o.nosuch", 0, PvmMboxDefault);
	rput("own-parent-put-pp", "o.pp", 93, PvmMboxDefault);
	cput("own-child-over-parent", "o.pp", 94, PvmMboxDefault);
	cput("own-child-over-parent-ow", "o.pp", 95, PvmMboxOverWritable);
	cput("own-child-over-parent-multi", "o.pp", 96, PvmMboxMultiInstance);
	cdel("own-child-del-parent", "o.pp", 0, PvmMboxDefault);
	cget("own-child-rd-parent", "o.pp", 0, PvmMboxReadAndDelete);
	cget("own-child-get-parent", "o.pp", 0, PvmMboxDefault);
}

/* The child's entries before and after it exits. */
static void
owner_exit(void)
{
	int t[1] = {child};

	cput("exit-put-def", "x.def", 100, PvmMboxDefault);
	cput("exit-put-pers", "x.pers", 101, PvmMboxPersistent);
	cput("exit-put-pers-ow", "x.persow", 102,
	    PvmMboxPersistent | PvmMboxOverWritable);
	cput("exit-put-multi-pers", "x.mp", 103,
	    PvmMboxPersistent | PvmMboxMultiInstance);
	cput("exit-put-multi-pers-2", "x.mp", 104,
	    PvmMboxPersistent | PvmMboxMultiInstance);
	cput("exit-put-multi", "x.mp", 105, PvmMboxMultiInstance);
	cput("exit-put-ow", "x.ow", 106, PvmMboxOverWritable);
	cput("exit-put-pers2", "x.pers2", 107, PvmMboxPersistent);
	cput("exit-put-pers3", "x.pers3", 108, PvmMboxPersistent);
	info("exit-info-before", "x.");
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, t);
	cdo(OP_EXIT, "", 0, 0, 0, NULL);
	dp_recv("exit-child-gone", 5000);
	dp_drain(200);
	info("exit-info-after", "x.");
	info("exit-info-o", "o.");
	rget("exit-get-pers", "x.pers", 0, PvmMboxDefault);
	rput("exit-put-over-pers", "x.pers", 110, PvmMboxDefault);
	rget("exit-get-pers-after", "x.pers", 0, PvmMboxDefault);
	rdel("exit-del-pers2", "x.pers2", 0, PvmMboxDefault);
	rget("exit-rd-pers3", "x.pers3", 0, PvmMboxReadAndDelete);
	rput("exit-put-multi-after", "x.mp", 111, PvmMboxMultiInstance);
	rdel("exit-del-persow", "x.persow", 0, PvmMboxDefault);
	info("exit-info-end", "x.");
}

/* Have the child start recvinfo(name, index, flags); no waiting here. */
static void
wsend(const char *name, int index, int flags)
{
	int op = OP_GET, zero = 0;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&op, 1, 1);
	pvm_pkint(&index, 1, 1);
	pvm_pkint(&flags, 1, 1);
	pvm_pkint(&zero, 1, 1);
	pvm_pkstr((char *)name);
	pvm_send(child, TAG_CMD);
}

/* The child's answer to wsend within ms, as a record; 1 if it came. */
static int
wcheck(const char *c, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
	int rc = NOREPLY, v[4] = {-1, -1, -1, -1};

	if (pvm_trecv(child, TAG_REP, &tv) <= 0) {
		dp_rec(c, "the child's recvinfo still waits after %d ms", ms);
		return 0;
	}
	pvm_upkint(&rc, 1, 1);
	pvm_upkint(v, 4, 1);
	if (rc > 0)
		dp_rec(c, "the child's recvinfo = a bufid, value %d, src %s",
		    v[0], dp_tid(v[3]));
	else
		dp_rec(c, "the child's recvinfo = %s", dp_code(rc));
	return 1;
}

/* A waiting child that nothing woke is replaced. */
static void
wunstick(int answered)
{
	if (!answered) {
		pvm_kill(child);
		child = spawn_child("child2", 1);
	}
}

/* PvmMboxWaitForInfo with an exact index or FirstAvail. */
static void
wait_index(void)
{
	wsend("w.idx", 1, PvmMboxWaitForInfo);
	wcheck("wait-idx-none", 300);
	rput("wait-idx-put-0", "w.idx", 130, PvmMboxMultiInstance);
	if (!wcheck("wait-idx-after-0", 500)) {
		rput("wait-idx-put-1", "w.idx", 131, PvmMboxMultiInstance);
		wunstick(wcheck("wait-idx-after-1", 3000));
	}
	wsend("w.first", 1, PvmMboxWaitForInfo | PvmMboxFirstAvail);
	wcheck("wait-first-none", 300);
	rput("wait-first-put-0", "w.first", 132, PvmMboxMultiInstance);
	if (!wcheck("wait-first-after-0", 500)) {
		rput("wait-first-put-1", "w.first", 133, PvmMboxMultiInstance);
		wunstick(wcheck("wait-first-after-1", 3000));
	}
	wsend("w.o1", 0, PvmMboxWaitForInfo);
	rput("wait-other-put", "w.o2", 134, PvmMboxDefault);
	if (!wcheck("wait-other-name", 500)) {
		rput("wait-other-put-own", "w.o1", 135, PvmMboxDefault);
		wunstick(wcheck("wait-other-own", 3000));
	}
}

/* PvmMboxWaitForInfo with ReadAndDelete; a waiter killed. */
static void
wait_rd(void)
{
	wsend("w.rd", 0, PvmMboxWaitForInfo | PvmMboxReadAndDelete);
	wcheck("wait-rd-none", 300);
	rput("wait-rd-put-ow", "w.rd", 140, PvmMboxOverWritable);
	wunstick(wcheck("wait-rd-after", 3000));
	info("wait-rd-info", "w.rd");
	wsend("w.rdd", 0, PvmMboxWaitForInfo | PvmMboxReadAndDelete);
	rput("wait-rdd-put", "w.rdd", 141, PvmMboxDefault);
	if (!wcheck("wait-rdd-after", 1000)) {
		rdel("wait-rdd-del", "w.rdd", 0, PvmMboxDefault);
		rput("wait-rdd-put-ow", "w.rdd", 142, PvmMboxOverWritable);
		wunstick(wcheck("wait-rdd-after-ow", 3000));
	}
	info("wait-rdd-info", "w.rdd");
	wsend("w.k", 0, PvmMboxWaitForInfo);
	wcheck("wait-kill-none", 300);
	pvm_kill(child);
	dp_drain(300);
	rput("wait-kill-put", "w.k", 143, PvmMboxDefault);
	rget("wait-kill-get", "w.k", 0, PvmMboxDefault);
	info("wait-kill-info", "w.k");
}

/* PvmMboxWaitForInfo, with a fresh child that blocks in recvinfo. */
static void
wait_for_info(void)
{
	rput("wait-put-present", "w.here", 120, PvmMboxDefault);
	rget("wait-get-present", "w.here", 0, PvmMboxWaitForInfo);
	rget("wait-get-present-rd", "w.here", 0,
	    PvmMboxWaitForInfo | PvmMboxReadAndDelete);
	child = spawn_child("child2", 0);
	if (child <= 0)
		return;
	wsend("w.later", 0, PvmMboxWaitForInfo);
	if (!wcheck("wait-absent", 500)) {
		rput("wait-put-later", "w.later", 121, PvmMboxDefault);
		wunstick(wcheck("wait-woken", 3000));
	}
	cget("wait-child-after", "w.later", 0, PvmMboxDefault);
	cget("wait-child-rd", "w.later", 0,
	    PvmMboxWaitForInfo | PvmMboxReadAndDelete);
	wait_index();
	wait_rd();
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	if ((me = dp_enrol()) <= 0)
		return 1;
	dp_self(self, sizeof(self));
	info("start-empty", "*");
	single();
	multi();
	flags_and_bufs();
	names();
	patterns();
	child = spawn_child("child", 0);
	if (child > 0) {
		bad_bufs();
		others();
		owner_exit();
	}
	wait_for_info();
	info("end-all", "*");
	pvm_exit();
	return 0;
}
