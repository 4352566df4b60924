/*
 * p_msg.c: probe of messages, buffers and packing: buffer ids and their
 * errors, every pk/upk type under every encoding (lengths, strides,
 * mismatched unpacks, running past the end), pvm_packf formats, sends and
 * receives of every kind to good and bad targets, pvm_precv, pvm_recvf,
 * pvm_pkmesg, round trips through a child under each encoding, and
 * PvmDataTrace buffers (their header and items, read back as XDR) sent,
 * forwarded and multicast.
 *
 *   p_msg            the probe
 *   p_msg child      a spawned child: answers the probe's requests
 *
 * Data is compared by checksum, never printed raw.  Cases that might
 * crash a library (a stride below 1, a NULL format) run in a forked
 * process that only packs, so a crash is a record, not the end.
 */
#include "probe.h"

#include <arpa/inet.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOTASK 0x4fff0 /* a task tid of host 1 nobody has */

#define TAG_QUIT 1
#define TAG_ECHO 10 /* + encoding: unpack the payload, send it back */
#define TAG_ECHO_R 19
#define TAG_FWD 20 /* send the received buffer back as it is */
#define TAG_FWD_R 21
#define TAG_MC 30 /* acknowledge with TAG_MC_R */
#define TAG_MC_R 31
#define TAG_BURST 40 /* send back one message per tag listed */
#define TAG_BURST_END 49
#define TAG_PSEND 50 /* answer with pvm_psend of ints and doubles */
#define TAG_PS_INT 51
#define TAG_PS_DBL 52
#define TAG_INFO 60 /* answer the length, enc and first two ints seen */
#define TAG_INFO_R 61

static int me, child;
static const char *sect = ""; /* prefix of case names (route section) */

/* The case name c in the current section. */
static const char *
cn(const char *c)
{
	static char buf[4][64];
	static int k;
	char *b = buf[k++ % 4];

	snprintf(b, 64, "%s%s", sect, c);
	return b;
}

/* ---- helpers ---- */

/* FNV-1a over n bytes, continuing h. */
static unsigned
cks(unsigned h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n-- > 0)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/* Length of buffer id per pvm_bufinfo, or the error. */
static const char *
blen(int id)
{
	static char buf[4][32];
	static int k;
	char *b = buf[k++ % 4];
	int len = -1, rc;

	rc = pvm_bufinfo(id, &len, NULL, NULL);
	if (rc < 0)
		return dp_code(rc);
	snprintf(b, 32, "%d", len);
	return b;
}

/* Run f in a forked process: a crash there becomes a record. */
static void
guarded(const char *c, void (*f)(const char *))
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	if ((pid = fork()) == 0) {
		f(c);
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		dp_rec(c, "fork failed");
	else if (WIFSIGNALED(st))
		dp_rec(c, "crashed (signal %d)", WTERMSIG(st));
}

/* Receive anything within ms; the bufid, 0 or an error. */
static int
wait_msg(int tid, int tag, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	return pvm_trecv(tid, tag, &tv);
}

/* A received message as "tag T from S, N bytes" (or why none). */
static void
rec_msg(const char *c, int bufid)
{
	int len = -1, tag = -1, src = -1;

	if (bufid <= 0) {
		dp_rec(
		    c, "received %s", bufid == 0 ? "nothing" : dp_code(bufid));
		return;
	}
	pvm_bufinfo(bufid, &len, &tag, &src);
	dp_rec(c, "tag %d from %s, %d bytes", tag, dp_tid(src), len);
}

/* ---- the payload: one of every type ---- */

struct payload {
	char b[5];
	short s[3];
	int i[3];
	float f[2];
	double d[2];
	float c[4];
	double z[2];
	unsigned u[2];
	unsigned short us[2];
	char str[16];
};

static struct payload pl_src = {{'a', -1, 0, 127, -128}, {-2, 0, 32767},
    {-3, 0, 2147483647}, {1.5f, -0.0f}, {3.25, -1e300}, {1, 2, 3, 4},
    {5.5, -6.5}, {4000000000u, 7}, {65535, 8}, "hello"};

/* Pack the payload; returns the codes of the steps ("0 0 ... ").  Longs
 * are not in it: long_cases has them. */
static const char *
pl_pack(const struct payload *p)
{
	static char out[128];
	int rc[10], k = 0;

	rc[k++] = pvm_pkbyte((char *)p->b, 5, 1);
	rc[k++] = pvm_pkshort((short *)p->s, 3, 1);
	rc[k++] = pvm_pkint((int *)p->i, 3, 1);
	rc[k++] = pvm_pkfloat((float *)p->f, 2, 1);
	rc[k++] = pvm_pkdouble((double *)p->d, 2, 1);
	rc[k++] = pvm_pkcplx((float *)p->c, 2, 1);
	rc[k++] = pvm_pkdcplx((double *)p->z, 1, 1);
	rc[k++] = pvm_pkuint((unsigned *)p->u, 2, 1);
	rc[k++] = pvm_pkushort((unsigned short *)p->us, 2, 1);
	rc[k++] = pvm_pkstr((char *)p->str);
	out[0] = '\0';
	for (k = 0; k < 10; k++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
		    k ? " " : "", dp_code(rc[k]));
	return out;
}

/* Unpack the payload; the first error (or 0) and a checksum of it. */
static int
pl_unpack(struct payload *p, unsigned *h)
{
	int rc = 0;

	memset(p, 0, sizeof(*p));
	rc = rc ? rc : pvm_upkbyte(p->b, 5, 1);
	rc = rc ? rc : pvm_upkshort(p->s, 3, 1);
	rc = rc ? rc : pvm_upkint(p->i, 3, 1);
	rc = rc ? rc : pvm_upkfloat(p->f, 2, 1);
	rc = rc ? rc : pvm_upkdouble(p->d, 2, 1);
	rc = rc ? rc : pvm_upkcplx(p->c, 2, 1);
	rc = rc ? rc : pvm_upkdcplx(p->z, 1, 1);
	rc = rc ? rc : pvm_upkuint(p->u, 2, 1);
	rc = rc ? rc : pvm_upkushort(p->us, 2, 1);
	rc = rc ? rc : pvm_upkstr(p->str);
	*h = cks(2166136261u, p, sizeof(*p));
	return rc;
}

/* ---- the child ---- */

/* Unpack the payload, answer checksum, result and the payload again. */
static void
child_echo(int enc)
{
	struct payload p;
	unsigned h;
	int rc;

	rc = pl_unpack(&p, &h);
	pvm_initsend(enc);
	pvm_pkint((int *)&h, 1, 1);
	pvm_pkint(&rc, 1, 1);
	if (rc == 0)
		pl_pack(&p);
	pvm_send(pvm_parent(), TAG_ECHO_R);
}

/* Send one message per tag in the request, each carrying its index. */
static void
child_burst(void)
{
	int n = 0, tags[16], i;

	pvm_upkint(&n, 1, 1);
	if (n < 0 || n > 16)
		return;
	pvm_upkint(tags, n, 1);
	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(pvm_parent(), tags[i]);
	}
	pvm_initsend(PvmDataDefault);
	pvm_send(pvm_parent(), TAG_BURST_END);
}

static void
child_psend(void)
{
	int iv[4] = {1, 2, 3, 4};
	double dv[4] = {0.5, 1.5, 2.5, 3.5};

	pvm_psend(pvm_parent(), TAG_PS_INT, iv, 4, PVM_INT);
	pvm_psend(pvm_parent(), TAG_PS_DBL, dv, 4, PVM_DOUBLE);
}

/* What the child sees of a message: length, getminfo's enc, two ints. */
static void
child_info(int bufid)
{
	struct pvmminfo mi;
	int v[4] = {0};

	pvm_bufinfo(bufid, &v[0], NULL, NULL);
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(bufid, &mi);
	v[1] = mi.enc;
	pvm_upkint(v + 2, 2, 1);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 4, 1);
	pvm_send(pvm_parent(), TAG_INFO_R);
}

/* Serve requests until told to quit (or 30 s of silence). */
static int
child_main(void)
{
	int parent = pvm_parent(), bufid, tag, one = 1;

	while ((bufid = wait_msg(parent, -1, 30000)) > 0) {
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		if (tag == TAG_QUIT)
			break;
		if (tag >= TAG_ECHO && tag < TAG_ECHO + 5)
			child_echo(tag - TAG_ECHO);
		else if (tag == TAG_FWD) {
			pvm_setsbuf(pvm_getrbuf());
			pvm_send(parent, TAG_FWD_R);
		} else if (tag == TAG_MC) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&one, 1, 1);
			pvm_send(parent, TAG_MC_R);
		} else if (tag == TAG_BURST)
			child_burst();
		else if (tag == TAG_PSEND)
			child_psend();
		else if (tag == TAG_INFO)
			child_info(bufid);
	}
	pvm_exit();
	return 0;
}

/* ---- buffers ---- */

static const char *enc_names[] = {"default", "raw", "inplace"};
static int minfo_enc[3]; /* pvm_getminfo's enc of a new buffer */

static void
bufs_mkbuf(void)
{
	static const struct {
		const char *c;
		int enc;
	} e[] = {{"mkbuf-default", PvmDataDefault}, {"mkbuf-raw", PvmDataRaw},
	    {"mkbuf-inplace", PvmDataInPlace}, {"mkbuf-trace", PvmDataTrace},
	    {"mkbuf-3", 3}, {"mkbuf-neg", -1}, {"mkbuf-99", 99}};
	size_t i;
	int id;

	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		id = pvm_mkbuf(e[i].enc);
		dp_rec(e[i].c, "pvm_mkbuf(%d) %s, len %s", e[i].enc,
		    id > 0 ? "> 0" : dp_code(id), id > 0 ? blen(id) : "-");
		if (id > 0)
			pvm_freebuf(id);
	}
}

static void
bufs_free(void)
{
	int a, b, s;

	a = pvm_mkbuf(PvmDataDefault);
	dp_rc("freebuf-valid", "pvm_freebuf(new)", pvm_freebuf(a));
	dp_rc("freebuf-twice", "pvm_freebuf(freed)", pvm_freebuf(a));
	dp_rc("freebuf-0", "pvm_freebuf(0)", pvm_freebuf(0));
	dp_rc("freebuf-neg", "pvm_freebuf(-1)", pvm_freebuf(-1));
	dp_rc("freebuf-huge", "pvm_freebuf(99999)", pvm_freebuf(99999));
	a = pvm_mkbuf(PvmDataDefault);
	pvm_freebuf(a);
	b = pvm_mkbuf(PvmDataDefault);
	dp_rec("mkbuf-reuse", "id after free is the freed one: %d", a == b);
	pvm_freebuf(b);
	s = pvm_initsend(PvmDataDefault);
	dp_rc("freebuf-sbuf", "pvm_freebuf(active send)", pvm_freebuf(s));
	dp_rec("freebuf-sbuf-after", "getsbuf %s",
	    pvm_getsbuf() == s ? "same id" : dp_code(pvm_getsbuf()));
	dp_rc("freebuf-sbuf-pack", "pvm_pkint after", pvm_pkint(&a, 1, 1));
	s = pvm_initsend(PvmDataDefault);
	pvm_setrbuf(s);
	dp_rc("freebuf-rbuf", "pvm_freebuf(active recv)", pvm_freebuf(s));
	dp_rec("freebuf-rbuf-after", "getrbuf %s",
	    pvm_getrbuf() == s ? "same id" : dp_code(pvm_getrbuf()));
}

/* Which id a get/set call returned, by name. */
static const char *
which(int v, int a, int b)
{
	if (v == a)
		return "A";
	if (v == b)
		return "B";
	return dp_code(v);
}

static void
bufs_active(void)
{
	int a, b, r;

	pvm_setsbuf(0);
	pvm_setrbuf(0);
	a = pvm_mkbuf(PvmDataDefault);
	b = pvm_mkbuf(PvmDataRaw);
	dp_rec("getsbuf-none", "= %s", dp_code(pvm_getsbuf()));
	dp_rec("getrbuf-none", "= %s", dp_code(pvm_getrbuf()));
	r = pvm_setsbuf(a);
	dp_rec("setsbuf-first", "old %s, now %s", which(r, a, b),
	    which(pvm_getsbuf(), a, b));
	r = pvm_setsbuf(b);
	dp_rec("setsbuf-second", "old %s, now %s", which(r, a, b),
	    which(pvm_getsbuf(), a, b));
	r = pvm_setsbuf(99999);
	dp_rec("setsbuf-bad", "setsbuf(99999) = %s, now %s", dp_code(r),
	    which(pvm_getsbuf(), a, b));
	r = pvm_setsbuf(-1);
	dp_rec("setsbuf-neg", "setsbuf(-1) = %s, now %s", dp_code(r),
	    which(pvm_getsbuf(), a, b));
	r = pvm_setrbuf(a);
	dp_rec("setrbuf-first", "old %s, now %s", which(r, a, b),
	    which(pvm_getrbuf(), a, b));
	r = pvm_setrbuf(99999);
	dp_rec("setrbuf-bad", "setrbuf(99999) = %s, now %s", dp_code(r),
	    which(pvm_getrbuf(), a, b));
	dp_rec("setrbuf-neg", "setrbuf(-1) = %s", dp_code(pvm_setrbuf(-1)));
	r = pvm_setrbuf(b);
	dp_rec("setrbuf-sbuf", "setrbuf(sbuf) old %s; sbuf %s rbuf %s",
	    which(r, a, b), which(pvm_getsbuf(), a, b),
	    which(pvm_getrbuf(), a, b));
	r = pvm_setsbuf(b);
	dp_rec("setsbuf-rbuf", "setsbuf(rbuf) old %s; sbuf %s rbuf %s",
	    which(r, a, b), which(pvm_getsbuf(), a, b),
	    which(pvm_getrbuf(), a, b));
	r = pvm_setsbuf(0);
	dp_rec("setsbuf-0", "old %s, now %s, a alive %s", which(r, a, b),
	    dp_code(pvm_getsbuf()), blen(b));
	r = pvm_setrbuf(0);
	dp_rec("setrbuf-0", "old %s, now %s", which(r, a, b),
	    dp_code(pvm_getrbuf()));
	pvm_freebuf(a);
	pvm_freebuf(b);
}

static void
bufs_initsend(void)
{
	static const struct {
		const char *c;
		int enc;
	} e[] = {{"initsend-default", PvmDataDefault},
	    {"initsend-raw", PvmDataRaw}, {"initsend-inplace", PvmDataInPlace},
	    {"initsend-trace", PvmDataTrace}, {"initsend-3", 3},
	    {"initsend-neg", -1}};
	size_t i;
	int old, id;

	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		old = pvm_initsend(PvmDataDefault);
		id = pvm_initsend(e[i].enc);
		dp_rec(e[i].c, "= %s, sbuf %s, old %s",
		    id > 0 ? "> 0" : dp_code(id),
		    pvm_getsbuf() == id    ? "new"
		    : pvm_getsbuf() == old ? "old"
		                           : dp_code(pvm_getsbuf()),
		    id > 0 ? blen(old) : "kept");
	}
}

static void
bufs_info(void)
{
	int id = pvm_initsend(PvmDataDefault), len = -7, tag = -7, src = -7;
	int rc;

	dp_rc("bufinfo-0", "pvm_bufinfo(0)", pvm_bufinfo(0, &len, &tag, &src));
	dp_rc("bufinfo-neg", "pvm_bufinfo(-1)",
	    pvm_bufinfo(-1, &len, &tag, &src));
	dp_rc("bufinfo-nosuch", "pvm_bufinfo(99999)",
	    pvm_bufinfo(99999, &len, &tag, &src));
	dp_rec("bufinfo-nulls", "pvm_bufinfo(sbuf, NULLs) = %s",
	    dp_code(pvm_bufinfo(id, NULL, NULL, NULL)));
	rc = pvm_bufinfo(id, &len, &tag, &src);
	dp_rec("bufinfo-fresh", "= %s, len %d tag %d src %s", dp_code(rc), len,
	    tag, dp_tid(src));
}

static void setminfo_cases(int);

static void
bufs_minfo(void)
{
	struct pvmminfo mi;
	int id, rc, enc;
	char c[64];

	for (enc = 0; enc < 3; enc++) {
		id = pvm_initsend(enc);
		memset(&mi, 0x55, sizeof(mi));
		pvm_getminfo(id, &mi);
		minfo_enc[enc] = mi.enc;
		snprintf(c, sizeof(c), "getminfo-enc-%s", enc_names[enc]);
		dp_rec(c, "enc %#x", (unsigned)mi.enc);
	}
	id = pvm_initsend(PvmDataRaw);
	memset(&mi, 0x55, sizeof(mi));
	rc = pvm_getminfo(id, &mi);
	dp_rec("getminfo-fresh", "= %s len %d tag %d src %s dst %s",
	    dp_code(rc), mi.len, mi.tag, dp_tid(mi.src), dp_tid(mi.dst));
	dp_rec(
	    "getminfo-ctx-wid", "ctx %d wid %d crc %d", mi.ctx, mi.wid, mi.crc);
	dp_rc("getminfo-bad", "pvm_getminfo(99999)", pvm_getminfo(99999, &mi));
	dp_rc("getminfo-0", "pvm_getminfo(0)", pvm_getminfo(0, &mi));
	setminfo_cases(id);
}

/* pvm_setminfo: which fields it sets. */
static void
setminfo_cases(int id)
{
	struct pvmminfo mi;
	int rc;

	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(id, &mi);
	mi.tag = 4242;
	mi.src = me;
	mi.dst = child;
	mi.len = 12345;
	rc = pvm_setminfo(id, &mi);
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(id, &mi);
	dp_rec("setminfo", "= %s; then len %d tag %d src %s dst %s",
	    dp_code(rc), mi.len, mi.tag, dp_tid(mi.src), dp_tid(mi.dst));
	dp_rc("setminfo-bad", "pvm_setminfo(99999)", pvm_setminfo(99999, &mi));
	{
		int len = -1, tag = -1, src = -1;

		pvm_bufinfo(id, &len, &tag, &src);
		dp_rec("setminfo-bufinfo", "len %d tag %d src %s", len, tag,
		    dp_tid(src));
	}
}

/* ---- packing: lengths and round trips per type and encoding ---- */

/* Values for the type tests: 8 items of every type. */
static char v_b[8] = {1, -2, 3, -4, 5, -6, 7, -8};
static short v_s[8] = {1, -2, 300, -400, 5, -6, 32767, -32768};
static int v_i[8] = {1, -2, 70000, -70000, 5, -6, 2147483647, -7};
/* Longs that fit 32 bits and are not negative: PVM 3.4.6 sends 4 bytes
 * and does not sign-extend them (long_cases shows it). */
static long v_l[8] = {1, 2, 70000, 4, 5, 6, 2147483647L, 7};
static float v_f[8] = {1.5f, -2.5f, 3e30f, -4e-30f, 5, -6, 7, -8};
static double v_d[8] = {1.5, -2.5, 3e300, -4e-300, 5, -6, 7, -8};
static unsigned v_u[8] = {1, 2, 4000000000u, 4, 5, 6, 7, 8};
static unsigned short v_us[8] = {1, 2, 65535, 4, 5, 6, 7, 8};
static unsigned long v_ul[8] = {1, 2, 4000000000ul, 4, 5, 6, 7, 8};

struct ptype {
	const char *name;
	void *vals;
	size_t size;
	int (*pk)(void *, int, int);
	int (*upk)(void *, int, int);
};

/* Casts of the pk/upk calls to one signature (the pointer type only). */
#define PT(name, v, ctype)                                                     \
	{                                                                      \
#name, v, sizeof(ctype),                                       \
		    (int (*)(void *, int, int))pvm_pk##name,                   \
		    (int (*)(void *, int, int))pvm_upk##name                   \
	}

static const struct ptype ptypes[] = {PT(byte, v_b, char),
    PT(short, v_s, short), PT(int, v_i, int), PT(long, v_l, long),
    PT(float, v_f, float), PT(double, v_d, double), PT(cplx, v_f, float[2]),
    PT(dcplx, v_d, double[2]), PT(uint, v_u, unsigned),
    PT(ushort, v_us, unsigned short), PT(ulong, v_ul, unsigned long)};
#define NPTYPES (sizeof(ptypes) / sizeof(ptypes[0]))

/*
 * Pack 0, 1, 3 and 3 with stride 2 of a type, recording the length after
 * each, send to self and unpack the same way, checking the values.
 */
static void
pack_type(int enc, const struct ptype *t)
{
	char c[64], out[160], got[12 * 16];
	int rc[4], u[4], bufid, i;
	unsigned h = 2166136261u, hw = 2166136261u;

	pvm_initsend(enc);
	rc[0] = t->pk(t->vals, 0, 1);
	snprintf(out, sizeof(out), "pk0 %s len %s", dp_code(rc[0]),
	    blen(pvm_getsbuf()));
	rc[1] = t->pk(t->vals, 1, 1);
	snprintf(out + strlen(out), sizeof(out) - strlen(out),
	    "; pk1 %s len %s", dp_code(rc[1]), blen(pvm_getsbuf()));
	rc[2] = t->pk(t->vals, 3, 1);
	snprintf(out + strlen(out), sizeof(out) - strlen(out),
	    "; pk3 %s len %s", dp_code(rc[2]), blen(pvm_getsbuf()));
	rc[3] = t->pk(t->vals, 3, 2);
	snprintf(out + strlen(out), sizeof(out) - strlen(out),
	    "; pk3/2 %s len %s", dp_code(rc[3]), blen(pvm_getsbuf()));
	snprintf(c, sizeof(c), "pack-%s-%s", enc_names[enc], t->name);
	dp_rec(c, "%s", out);

	pvm_send(me, 60);
	bufid = wait_msg(me, 60, 3000);
	snprintf(c, sizeof(c), "unpack-%s-%s", enc_names[enc], t->name);
	if (bufid <= 0) {
		rec_msg(c, bufid);
		return;
	}
	memset(got, 0, sizeof(got));
	u[0] = t->upk(got, 0, 1);
	u[1] = rc[1] == 0 ? t->upk(got, 1, 1) : 0;
	u[2] = rc[2] == 0 ? t->upk(got + t->size, 3, 1) : 0;
	u[3] = rc[3] == 0 ? t->upk(got + 4 * t->size, 3, 2) : 0;
	/* What was packed: item 0; items 0-2; items 0, 2, 4 (stride 2). */
	if (rc[1] == 0) {
		hw = cks(hw, t->vals, t->size);
		h = cks(h, got, t->size);
	}
	if (rc[2] == 0) {
		hw = cks(hw, t->vals, 3 * t->size);
		h = cks(h, got + t->size, 3 * t->size);
	}
	for (i = 0; i < 3 && rc[3] == 0; i++) {
		hw = cks(hw, (char *)t->vals + 2 * i * t->size, t->size);
		h = cks(h, got + (4 + 2 * i) * t->size, t->size);
	}
	dp_rec(c, "len %s; upk %s %s %s %s; values %s", blen(bufid),
	    dp_code(u[0]), dp_code(u[1]), dp_code(u[2]), dp_code(u[3]),
	    h == hw ? "as packed" : "differ");
}

/* Strings: empty, ordinary, and the length each adds. */
static void
pack_strs(int enc)
{
	char c[64], s1[32] = "x", s2[32] = "x";
	int r1, r2, bufid;

	pvm_initsend(enc);
	r1 = pvm_pkstr("");
	snprintf(c, sizeof(c), "pkstr-empty-%s", enc_names[enc]);
	dp_rec(c, "= %s, len %s", dp_code(r1), blen(pvm_getsbuf()));
	r2 = pvm_pkstr("hello");
	snprintf(c, sizeof(c), "pkstr-hello-%s", enc_names[enc]);
	dp_rec(c, "= %s, len %s", dp_code(r2), blen(pvm_getsbuf()));
	pvm_send(me, 61);
	bufid = wait_msg(me, 61, 3000);
	snprintf(c, sizeof(c), "upkstr-%s", enc_names[enc]);
	if (bufid <= 0) {
		rec_msg(c, bufid);
		return;
	}
	r1 = r1 == 0 ? pvm_upkstr(s1) : 0;
	r2 = r2 == 0 ? pvm_upkstr(s2) : 0;
	dp_rec(c, "%s [%s] %s [%s]", dp_code(r1), s1, dp_code(r2), s2);
	snprintf(c, sizeof(c), "upkstr-end-%s", enc_names[enc]);
	strcpy(s1, "unchanged");
	r1 = pvm_upkstr(s1);
	dp_rec(c, "upkstr at end = %s [%s]", dp_code(r1), s1);
}

static void
pack_all(void)
{
	size_t i;
	int enc;

	for (enc = 0; enc < 3; enc++) {
		for (i = 0; i < NPTYPES; i++)
			pack_type(enc, &ptypes[i]);
		pack_strs(enc);
	}
}

/* ---- longs: 4 bytes in PVM 3.4.6's XDR, 8 in ours ---- */

/* Pack n longs, send them to self, unpack: "rc len: values". */
static void
long_trip(const char *c, int enc, long *v, int n)
{
	long got[4] = {0, 0, 0, 0};
	int rc, r2 = 0;

	pvm_initsend(enc);
	rc = pvm_pklong(v, n, 1);
	pvm_send(me, 66);
	wait_msg(me, 66, 3000);
	if (rc == 0)
		r2 = pvm_upklong(got, n, 1);
	dp_rec(c, "pklong = %s, upklong = %s: %ld %ld", dp_code(rc),
	    dp_code(r2), got[0], got[1]);
}

static void
long_cases(void)
{
	long neg[2] = {-2, -70000}, pos[2] = {5, 2147483647L};
	long big[2] = {1L << 40, -(1L << 40)};
	unsigned long ubig = 1UL << 40;
	char c[64];
	int enc, id, rc;

	for (enc = 0; enc < 3; enc++) {
		snprintf(c, sizeof(c), "long-positive-%s", enc_names[enc]);
		long_trip(c, enc, pos, 2);
		snprintf(c, sizeof(c), "long-negative-%s", enc_names[enc]);
		long_trip(c, enc, neg, 2);
		snprintf(c, sizeof(c), "long-64bit-%s", enc_names[enc]);
		long_trip(c, enc, big, 2);
	}
	id = pvm_initsend(PvmDataDefault);
	rc = pvm_pkulong(&ubig, 1, 1);
	dp_rec("ulong-64bit-default", "pkulong(2^40) = %s, len %s", dp_code(rc),
	    blen(id));
}

/* ---- packing: odd strides, in a forked process ---- */

static void
stride_case(const char *c, int enc, int stride)
{
	int v[5] = {10, 20, 30, 40, 50}, got[5] = {0}, rc, id, r2 = 99;
	int *p = stride < 0 ? &v[4] : &v[0];

	id = pvm_initsend(enc);
	rc = pvm_pkint(p, 3, stride);
	dp_rec(c, "pkint(3, stride %d) = %s, len %s", stride, dp_code(rc),
	    blen(id));
	if (rc == 0 && enc != PvmDataInPlace) {
		pvm_setrbuf(id);
		r2 = pvm_upkint(got, 3, 1);
		dp_rec(c, "upk = %s: %d %d %d", dp_code(r2), got[0], got[1],
		    got[2]);
	}
}

static void
stride0_default(const char *c)
{
	stride_case(c, PvmDataDefault, 0);
}

static void
strideneg_default(const char *c)
{
	stride_case(c, PvmDataDefault, -1);
}

static void
stride0_raw(const char *c)
{
	stride_case(c, PvmDataRaw, 0);
}

static void
strideneg_raw(const char *c)
{
	stride_case(c, PvmDataRaw, -1);
}

static void
stride2_inplace(const char *c)
{
	stride_case(c, PvmDataInPlace, 2);
}

static void
stride2_count1_inplace(const char *c)
{
	int v[2] = {5, 6}, rc;

	pvm_initsend(PvmDataInPlace);
	rc = pvm_pkint(v, 1, 2);
	dp_rec(c, "pkint(1, stride 2) = %s", dp_code(rc));
}

static void
pack_count_neg(const char *c)
{
	int v[2] = {1, 2}, id = pvm_initsend(PvmDataDefault);
	int rc = pvm_pkint(v, -1, 1);

	dp_rec(c, "pkint(-1) = %s, len %s", dp_code(rc), blen(id));
}

static void
upk_stride0(const char *c)
{
	int v[3] = {1, 2, 3}, got[3] = {0}, id, rc;

	id = pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 3, 1);
	pvm_setrbuf(id);
	rc = pvm_upkint(got, 3, 0);
	dp_rec(c, "upkint(3, stride 0) = %s: %d %d %d", dp_code(rc), got[0],
	    got[1], got[2]);
}

static void
pack_strides(void)
{
	guarded("stride0-default", stride0_default);
	guarded("strideneg-default", strideneg_default);
	guarded("stride0-raw", stride0_raw);
	guarded("strideneg-raw", strideneg_raw);
	guarded("stride2-inplace", stride2_inplace);
	guarded("stride2-count1-inplace", stride2_count1_inplace);
	guarded("pack-count-neg", pack_count_neg);
	guarded("upk-stride0", upk_stride0);
}

/* ---- unpacking the wrong way ---- */

/* A message with 2 ints (7, -9), received back from self. */
static int
two_ints(int enc)
{
	int v[2] = {7, -9};

	pvm_initsend(enc);
	pvm_pkint(v, 2, 1);
	pvm_send(me, 62);
	return wait_msg(me, 62, 3000);
}

static void
mismatch(int enc)
{
	char c[64];
	short s[4] = {0};
	char b[8] = {0};
	double d = 0;
	long l[2] = {0};
	float f = 0;
	int rc;

	snprintf(c, sizeof(c), "mismatch-short-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upkshort(s, 2, 1);
	dp_rec(c, "upkshort(2) = %s: %d %d", dp_code(rc), s[0], s[1]);
	snprintf(c, sizeof(c), "mismatch-byte-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upkbyte(b, 4, 1);
	dp_rec(c, "upkbyte(4) = %s: %d %d %d %d", dp_code(rc), b[0], b[1], b[2],
	    b[3]);
	snprintf(c, sizeof(c), "mismatch-double-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upkdouble(&d, 1, 1);
	dp_rec(c, "upkdouble(1) = %s: %a", dp_code(rc), d);
	snprintf(c, sizeof(c), "mismatch-long-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upklong(l, 2, 1);
	dp_rec(c, "upklong(2) = %s: %ld %ld", dp_code(rc), l[0], l[1]);
	snprintf(c, sizeof(c), "mismatch-float-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upkfloat(&f, 1, 1);
	dp_rec(c, "upkfloat(1) = %s: %a", dp_code(rc), (double)f);
}

/* Unpacking more than there is, and after the end. */
static void
past_end(int enc)
{
	char c[64], str[16] = "unchanged";
	int v[4] = {0, 0, 0, 0}, rc, r2, r3;
	double d = 0;

	snprintf(c, sizeof(c), "pastend-int-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upkint(v, 3, 1);
	dp_rec(
	    c, "upkint(3 of 2) = %s: %d %d %d", dp_code(rc), v[0], v[1], v[2]);
	rc = pvm_upkint(v, 1, 1);
	dp_rec(c, "then upkint(1) = %s", dp_code(rc));
	snprintf(c, sizeof(c), "pastend-after-%s", enc_names[enc]);
	two_ints(enc);
	pvm_upkint(v, 2, 1);
	rc = pvm_upkint(v, 1, 1);
	r2 = pvm_upkdouble(&d, 1, 1);
	r3 = pvm_upkstr(str);
	dp_rec(c, "upkint at end = %s; upkdouble %s; upkstr %s [%s]",
	    dp_code(rc), dp_code(r2), dp_code(r3), str);
	snprintf(c, sizeof(c), "pastend-zero-%s", enc_names[enc]);
	dp_rc(c, "upkint(0) at end", pvm_upkint(v, 0, 1));
}

/* Longs where 3 ints are: one long and half of another. */
static void
partial_long(int enc)
{
	int v[3] = {7, -9, 11}, rc;
	long l[2] = {0, 0};
	char c[64];

	pvm_initsend(enc);
	pvm_pkint(v, 3, 1);
	pvm_send(me, 62);
	wait_msg(me, 62, 3000);
	rc = pvm_upklong(l, 2, 1);
	snprintf(c, sizeof(c), "partial-long-%s", enc_names[enc]);
	dp_rec(c, "upklong(2) = %s: %#lx %#lx", dp_code(rc),
	    (unsigned long)l[0], (unsigned long)l[1]);
}

/* A string where ints are, and ints where a string is. */
static void
str_mismatch(int enc)
{
	char c[64], s[64] = "unchanged";
	int v[3] = {0}, bufid, rc;

	if (enc == PvmDataInPlace)
		return;
	snprintf(c, sizeof(c), "mismatch-str-as-int-%s", enc_names[enc]);
	pvm_initsend(enc);
	pvm_pkstr("abcdefg");
	pvm_send(me, 63);
	bufid = wait_msg(me, 63, 3000);
	rc = pvm_upkint(v, 3, 1);
	dp_rec(c, "len %s; upkint(3) = %s: %d %d", blen(bufid), dp_code(rc),
	    v[0], v[1]);
	snprintf(c, sizeof(c), "mismatch-int-as-str-%s", enc_names[enc]);
	two_ints(enc);
	rc = pvm_upkstr(s);
	/* Bytes as hex: what lands in s need not be text. */
	dp_rec(c, "upkstr = %s; s starts %02x %02x %02x %02x", dp_code(rc),
	    (unsigned char)s[0], (unsigned char)s[1], (unsigned char)s[2],
	    (unsigned char)s[3]);
}

static void
unpack_wrong(void)
{
	int enc, v = 5;

	for (enc = 0; enc < 3; enc++) {
		mismatch(enc);
		partial_long(enc);
		past_end(enc);
		str_mismatch(enc);
	}
	pvm_setsbuf(0);
	dp_rc(
	    "pack-nobuf", "pvm_pkint with no send buffer", pvm_pkint(&v, 1, 1));
	dp_rc("pkstr-nobuf", "pvm_pkstr with no send buffer", pvm_pkstr("x"));
	pvm_setrbuf(0);
	dp_rc("unpack-nobuf", "pvm_upkint with no receive buffer",
	    pvm_upkint(&v, 1, 1));
	dp_rc("send-nobuf", "pvm_send with no send buffer", pvm_send(me, 64));
	dp_recv("send-nobuf", 300);
}

/* A buffer packed, then made the receive buffer and unpacked directly. */
static void
unpack_own(void)
{
	int v[2] = {11, 22}, got[2] = {0}, id, enc, rc;
	char c[64];

	for (enc = 0; enc < 3; enc++) {
		snprintf(c, sizeof(c), "unpack-own-%s", enc_names[enc]);
		id = pvm_initsend(enc);
		pvm_pkint(v, 2, 1);
		pvm_setrbuf(id);
		got[0] = got[1] = 0;
		rc = pvm_upkint(got, 2, 1);
		dp_rec(c, "upkint = %s: %d %d; sbuf %s", dp_code(rc), got[0],
		    got[1], pvm_getsbuf() == id ? "same" : "cleared");
	}
}

/* ---- packf ---- */

static void
packf_len(const char *c, const char *what, int rc)
{
	dp_rec(c, "%s = %s, len %s", what, dp_code(rc), blen(pvm_getsbuf()));
}

/* Each case on a new buffer, so that its length is its own. */
#define PF(c, what, call)                                                      \
	(pvm_initsend(PvmDataDefault), packf_len(c, what, call))

static void
packf_cases(void)
{
	int iv[3] = {1, 2, 3};
	double dv[2] = {1.5, 2.5};

	PF("packf-int", "%d", pvm_packf("%d", 5));
	PF("packf-count", "%3d", pvm_packf("%3d", iv));
	PF("packf-stride", "%2.2d", pvm_packf("%2.2d", iv));
	PF("packf-star", "%*d", pvm_packf("%*d", 2, iv));
	PF("packf-short", "%hd", pvm_packf("%hd", 7));
	PF("packf-long", "%ld", pvm_packf("%ld", 8L));
	PF("packf-byte", "%c", pvm_packf("%c", 'z'));
	PF("packf-float", "%f", pvm_packf("%f", 1.5));
	PF("packf-double", "%lf", pvm_packf("%lf", 2.5));
	PF("packf-dbl-arr", "%2lf", pvm_packf("%2lf", dv));
	PF("packf-str", "%s", pvm_packf("%s", "abc"));
	PF("packf-text", "text only", pvm_packf("no conversions"));
	PF("packf-bad", "%q", pvm_packf("%q", 1));
	PF("packf-bad-mid", "%d %q %d", pvm_packf("%d %q %d", 1, 2, 3));
	PF("packf-plus", "%+ %d", pvm_packf("%+ %d", PvmDataRaw, 9));
	PF("packf-plus-bad", "%+ bad enc", pvm_packf("%+ %d", 77, 9));
}

static void
unpackf_cases(void)
{
	int bufid, i = 0, iv[3] = {0}, rc;
	short h = 0;
	double d = 0;
	char s[16] = "-";

	pvm_packf("%+ %d %3d %hd %lf %s", PvmDataDefault, 42, (int[]){4, 5, 6},
	    -3, 6.25, "str");
	pvm_send(me, 65);
	bufid = wait_msg(me, 65, 3000);
	rc = pvm_unpackf("%d %3d %hd %lf %s", &i, iv, &h, &d, s);
	dp_rec("unpackf", "len %s; = %s: %d %d %d %d %d %g %s", blen(bufid),
	    dp_code(rc), i, iv[0], iv[1], iv[2], h, d, s);
	rc = pvm_unpackf("%d", &i);
	dp_rc("unpackf-past-end", "%d at end", rc);
	pvm_packf("%+ %d %d", PvmDataDefault, 1, 2);
	pvm_send(me, 65);
	wait_msg(me, 65, 3000);
	rc = pvm_unpackf("%q", &i);
	dp_rc("unpackf-bad", "%q", rc);
	rc = pvm_unpackf("%d", &i);
	dp_rec("unpackf-after-bad", "%%d = %s: %d", dp_code(rc), i);
}

/* ---- sending ---- */

static void
send_targets(void)
{
	int v = 1;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	dp_rc("send-self", "pvm_send(me, 70)", pvm_send(me, 70));
	rec_msg("send-self", wait_msg(-1, -1, 3000));
	dp_rc("send-notask", "pvm_send(notask)", pvm_send(NOTASK, 71));
	dp_recv("send-notask", 300);
	dp_rc("send-0", "pvm_send(0)", pvm_send(0, 72));
	dp_recv("send-0", 300);
	dp_rc("send-neg", "pvm_send(-1)", pvm_send(-1, 73));
	dp_rc("send-tag-1", "pvm_send(me, -1)", pvm_send(me, -1));
	dp_recv("send-tag-1", 300);
	dp_rc("send-tag-neg", "pvm_send(me, -5)", pvm_send(me, -5));
	dp_recv("send-tag-neg", 300);
	dp_rc("send-tag-huge", "pvm_send(me, 0x7fffffff)",
	    pvm_send(me, 0x7fffffff));
	rec_msg("send-tag-huge", wait_msg(-1, -1, 3000));
	dp_rc("send-tag-0", "pvm_send(me, 0)", pvm_send(me, 0));
	rec_msg("send-tag-0", wait_msg(-1, -1, 3000));
	dp_rc("send-pvmd", "pvm_send(pvmd)",
	    pvm_send((int)(0x80000000u | (unsigned)pvm_tidtohost(me)), 74));
	dp_recv("send-pvmd", 300);
	dp_rc("send-twice", "send the same buffer twice",
	    pvm_send(me, 75) == 0 && pvm_send(me, 75) == 0 ? 1 : -1);
	rec_msg("send-twice", wait_msg(me, 75, 3000));
	rec_msg("send-twice-2", wait_msg(me, 75, 3000));
	dp_drain(100);
}

/* Acks from the child (TAG_MC_R) and copies to self within ms. */
static void
mcast_count(const char *c, int rc, int ms)
{
	int nchild = 0, nself = 0, bufid, tag;

	while ((bufid = wait_msg(-1, -1, ms)) > 0) {
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		if (tag == TAG_MC_R)
			nchild++;
		else if (tag == TAG_MC)
			nself++;
	}
	dp_rec(
	    c, "= %s; child got %d, self got %d", dp_code(rc), nchild, nself);
}

static void
mcasts(void)
{
	int t[4], rc;

	pvm_initsend(PvmDataDefault);
	t[0] = child;
	rc = pvm_mcast(t, 1, TAG_MC);
	mcast_count(cn("mcast-one"), rc, 500);
	t[0] = t[1] = t[2] = child;
	pvm_initsend(PvmDataDefault);
	rc = pvm_mcast(t, 3, TAG_MC);
	mcast_count(cn("mcast-dups"), rc, 500);
	t[0] = child;
	t[1] = me;
	pvm_initsend(PvmDataDefault);
	rc = pvm_mcast(t, 2, TAG_MC);
	mcast_count(cn("mcast-self"), rc, 500);
	pvm_initsend(PvmDataDefault);
	rc = pvm_mcast(t, 0, TAG_MC);
	mcast_count(cn("mcast-count0"), rc, 300);
	rc = pvm_mcast(t, -1, TAG_MC);
	mcast_count(cn("mcast-count-neg"), rc, 300);
	t[0] = NOTASK;
	t[1] = child;
	rc = pvm_mcast(t, 2, TAG_MC);
	mcast_count(cn("mcast-notask"), rc, 500);
	t[0] = 0;
	rc = pvm_mcast(t, 2, TAG_MC);
	mcast_count(cn("mcast-tid0"), rc, 300);
	t[0] = child;
	rc = pvm_mcast(t, 1, -3);
	mcast_count(cn("mcast-tag-neg"), rc, 300);
	pvm_setsbuf(0);
	rc = pvm_mcast(t, 1, TAG_MC);
	mcast_count(cn("mcast-nobuf"), rc, 300);
}

/* ---- receiving ---- */

/* Ask the child for messages with tags tags[0..n), in that order. */
static void
burst(const int *tags, int n)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&n, 1, 1);
	pvm_pkint((int *)tags, n, 1);
	pvm_send(child, TAG_BURST);
}

/* Wait until the child's burst is all queued: its end marker (sent
 * last, so behind the rest) is taken by tag, the others are left. */
static void
settle(void)
{
	int b = wait_msg(child, TAG_BURST_END, 5000);

	if (b <= 0)
		dp_rec(cn("burst"), "no end marker: %s", dp_code(b));
}

/* Which message (by index) a receive got, or why none. */
static const char *
got_index(int bufid)
{
	static char buf[8][32];
	static int k;
	char *b = buf[k++ % 8];
	int tag = -1, v = -1;

	if (bufid <= 0)
		return bufid == 0 ? "none" : dp_code(bufid);
	pvm_bufinfo(bufid, NULL, &tag, NULL);
	pvm_upkint(&v, 1, 1);
	snprintf(b, 32, "#%d(tag %d)", v, tag);
	return b;
}

static void
recv_order(void)
{
	int tags[5] = {81, 82, 81, 83, 82};
	const char *a, *b, *c, *d, *e;

	burst(tags, 5);
	settle();
	a = got_index(pvm_nrecv(child, 82));
	b = got_index(pvm_nrecv(-1, 81));
	c = got_index(pvm_nrecv(child, -1));
	d = got_index(pvm_nrecv(-1, -1));
	e = got_index(pvm_nrecv(-1, -1));
	dp_rec(cn("recv-order"), "82:%s 81:%s any:%s any:%s any:%s", a, b, c, d,
	    e);
	dp_rec(
	    cn("recv-order-empty"), "nrecv = %s", got_index(pvm_nrecv(-1, -1)));
	burst(tags, 2);
	settle();
	dp_rec(cn("probe-first"), "probe(-1,-1) %s",
	    pvm_probe(-1, -1) > 0 ? "> 0" : dp_code(pvm_probe(-1, -1)));
	{
		int p = pvm_probe(-1, 82), r = pvm_getrbuf();

		dp_rec(cn("probe-takes-nothing"),
		    "probe(82) %s; rbuf changed %d", p > 0 ? "> 0" : dp_code(p),
		    r != pvm_getrbuf());
		r = pvm_recv(-1, 82);
		dp_rec(cn("probe-then-recv"),
		    "recv(82) same id as probe: %d; %s", r == p, got_index(r));
	}
	dp_rec(cn("probe-none"), "probe(99) = %s", dp_code(pvm_probe(-1, 99)));
	dp_rec(cn("recv-last"), "%s", got_index(pvm_recv(child, 81)));
}

static void
recv_args(void)
{
	struct timeval zero = {0, 0}, neg = {-1, 0};
	int v = 3;

	dp_rc("nrecv-empty", "pvm_nrecv(-1,-1)", pvm_nrecv(-1, -1));
	dp_rc("nrecv-tag-neg", "pvm_nrecv(-1,-5)", pvm_nrecv(-1, -5));
	dp_rc("nrecv-tid-0", "pvm_nrecv(0,-1)", pvm_nrecv(0, -1));
	dp_rc(
	    "nrecv-tid-notask", "pvm_nrecv(notask,-1)", pvm_nrecv(NOTASK, -1));
	dp_rc("nrecv-tid-neg", "pvm_nrecv(-7,-1)", pvm_nrecv(-7, -1));
	dp_rc("probe-tag-neg", "pvm_probe(-1,-5)", pvm_probe(-1, -5));
	dp_rc(
	    "trecv-zero", "pvm_trecv({0,0}) nothing", pvm_trecv(-1, -1, &zero));
	dp_rc("trecv-neg", "pvm_trecv({-1,0})", pvm_trecv(-1, 99, &neg));
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(me, 90);
	dp_rec("trecv-zero-msg", "pvm_trecv({0,0}) after send to self %s",
	    got_index(wait_msg(-1, 90, 3000)));
	pvm_send(me, 91);
	dp_rec("trecv-null", "pvm_trecv(NULL) %s",
	    got_index(pvm_trecv(-1, 91, NULL)));
	{
		int old = pvm_getrbuf(), id = pvm_nrecv(-1, -1);

		dp_rec("nrecv-none-rbuf",
		    "nrecv = %s; old rbuf still valid: %s", dp_code(id),
		    blen(old));
	}
}

/* Two messages with tag 92 and a marker, all in before returning. */
static void
two_in(void)
{
	int v = 1;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(me, 92);
	pvm_send(me, 92);
	pvm_send(me, 93);
	wait_msg(me, 93, 3000);
}

/* What became of the previous receive buffer when the next came in. */
static void
frees_one(const char *c, int second, int first)
{
	dp_rec(c, "second %s; first %s", second > 0 ? "> 0" : dp_code(second),
	    second == first ? "same id" : blen(first));
}

/* Wait (without receiving) until a message with tag is queued. */
static void
queued(int tag)
{
	struct timeval tv = {0, 10000};
	int i;

	for (i = 0; i < 300 && pvm_probe(me, tag) <= 0; i++)
		select(0, NULL, NULL, NULL, &tv);
}

/* A received buffer is freed by the next receive, whichever call. */
static void
recv_frees(void)
{
	struct timeval tv = {1, 0};
	int first, second;

	two_in();
	first = pvm_recv(me, 92);
	frees_one("recv-frees-old", pvm_recv(me, 92), first);
	two_in();
	first = pvm_nrecv(me, 92);
	frees_one("nrecv-frees-old", pvm_nrecv(me, 92), first);
	two_in();
	first = pvm_trecv(me, 92, &tv);
	frees_one("trecv-frees-old", pvm_trecv(me, 92, &tv), first);
	two_in();
	first = pvm_recv(me, 92);
	pvm_setrbuf(0);
	second = pvm_recv(me, 92);
	dp_rec("recv-after-setrbuf0", "old buffer %s; rbuf is new %d",
	    blen(first), pvm_getrbuf() == second);
	pvm_send(me, 93);
	queued(93);
	first = pvm_getrbuf();
	pvm_setrbuf(0);
	pvm_setrbuf(first);
	second = wait_msg(me, 93, 3000);
	dp_rec("setrbuf-then-recv", "the buffer set %s",
	    first == second ? "reused" : blen(first));
}

/* pvm_setrbuf of a half-read buffer: where reading goes on. */
static void
setrbuf_pos(void)
{
	int v[3] = {1, 2, 3}, got = 0, a, b;

	pvm_initsend(PvmDataDefault);
	pvm_pkint(v, 3, 1);
	pvm_send(me, 94);
	a = wait_msg(me, 94, 3000);
	pvm_upkint(&got, 1, 1);
	b = pvm_mkbuf(PvmDataDefault);
	pvm_setrbuf(b);
	pvm_setrbuf(a);
	pvm_upkint(&got, 1, 1);
	dp_rec("setrbuf-position", "after setrbuf away and back: %d", got);
	pvm_freebuf(b);
}

/* ---- bufinfo of received messages ---- */

static void
recv_info(void)
{
	int len = -1, tag = -1, src = -1, bufid, v[3] = {1, 2, 3};
	char c[64];
	int enc, rc;

	for (enc = 0; enc < 3; enc++) {
		pvm_initsend(enc);
		pvm_pkint(v, 3, 1);
		pvm_pkstr("ab");
		pvm_send(me, 94);
		bufid = wait_msg(me, 94, 3000);
		pvm_bufinfo(bufid, &len, &tag, &src);
		snprintf(c, sizeof(c), "recv-bufinfo-%s", enc_names[enc]);
		dp_rec(c, "len %d tag %d src %s", len, tag, dp_tid(src));
		{
			struct pvmminfo mi;

			memset(&mi, 0, sizeof(mi));
			snprintf(c, sizeof(c), "recv-minfo-%s", enc_names[enc]);
			rc = pvm_getminfo(bufid, &mi);
			dp_rec(c, "= %s len %d tag %d src %s dst %s enc %s",
			    dp_code(rc), mi.len, mi.tag, dp_tid(mi.src),
			    dp_tid(mi.dst),
			    mi.enc == minfo_enc[enc] ? "as sent" : "other");
		}
	}
}

/* ---- psend / precv ---- */

static void
precv_cases(void)
{
	int iv[8] = {0}, rtid = -1, rtag = -1, rlen = -1, rc;
	double dv[2] = {0};
	short sv[8] = {0};

	pvm_initsend(PvmDataDefault);
	pvm_send(child, TAG_PSEND);
	rc = pvm_precv(child, TAG_PS_INT, iv, 2, PVM_INT, &rtid, &rtag, &rlen);
	dp_rec("precv-small", "= %s rtid %s rtag %d rlen %d: %d %d %d",
	    dp_code(rc), dp_tid(rtid), rtag, rlen, iv[0], iv[1], iv[2]);
	rc = pvm_precv(-1, TAG_PS_DBL, sv, 8, PVM_SHORT, &rtid, &rtag, &rlen);
	dp_rec("precv-type-mismatch", "= %s rtag %d rlen %d: %s", dp_code(rc),
	    rtag, rlen,
	    memcmp(sv, (double[]){0.5, 1.5}, 16) == 0 ? "the double bytes"
	                                              : "other");
	pvm_initsend(PvmDataDefault);
	pvm_send(child, TAG_PSEND);
	rc = pvm_precv(-1, -1, iv, 8, PVM_INT, NULL, NULL, NULL);
	dp_rec("precv-nulls", "= %s: %d %d %d %d %d", dp_code(rc), iv[0], iv[1],
	    iv[2], iv[3], iv[4]);
	rc = pvm_precv(-1, -1, dv, 2, PVM_DOUBLE, &rtid, &rtag, &rlen);
	dp_rec("precv-exact-half", "= %s rtag %d rlen %d: %g %g", dp_code(rc),
	    rtag, rlen, dv[0], dv[1]);
	rc = pvm_psend(me, 95, iv, 3, PVM_INT);
	dp_rc("psend-self", "pvm_psend(me)", rc);
	rc = pvm_precv(me, 95, iv, 3, PVM_INT, &rtid, &rtag, &rlen);
	dp_rec("psend-self", "precv = %s rtid %s rtag %d rlen %d", dp_code(rc),
	    dp_tid(rtid), rtag, rlen);
	dp_rc("psend-str", "pvm_psend(PVM_STR)",
	    pvm_psend(me, 95, "ab", 3, PVM_STR));
	dp_rc("psend-badtype", "pvm_psend(type 99)",
	    pvm_psend(me, 95, iv, 1, 99));
	dp_rc("psend-len0", "pvm_psend(len 0)",
	    pvm_psend(me, 96, iv, 0, PVM_INT));
	rec_msg("psend-len0", wait_msg(me, 96, 3000));
	dp_rc("psend-notask", "pvm_psend(notask)",
	    pvm_psend(NOTASK, 96, iv, 1, PVM_INT));
	dp_rc("psend-0", "pvm_psend(0)", pvm_psend(0, 96, iv, 1, PVM_INT));
	dp_rc("psend-tag-neg", "pvm_psend(me, -2)",
	    pvm_psend(me, -2, iv, 1, PVM_INT));
	dp_drain(200);
}

/* precv from a pvm_send message, and pvm_recv of a pvm_psend one. */
static void
precv_mixed(void)
{
	int iv[4] = {0}, v[2] = {5, 6}, rlen = -1, rc, bufid;
	double d[2] = {7.5, 8.5}, dd = 0;
	int enc;
	char c[64];

	for (enc = 0; enc < 3; enc++) {
		pvm_initsend(enc);
		pvm_pkint(v, 2, 1);
		pvm_send(me, 97);
		iv[0] = iv[1] = 0;
		rc = pvm_precv(me, 97, iv, 4, PVM_INT, NULL, NULL, &rlen);
		snprintf(c, sizeof(c), "precv-of-send-%s", enc_names[enc]);
		dp_rec(
		    c, "= %s rlen %d: %d %d", dp_code(rc), rlen, iv[0], iv[1]);
	}
	pvm_psend(me, 98, d, 2, PVM_DOUBLE);
	bufid = wait_msg(me, 98, 3000);
	rc = pvm_upkdouble(&dd, 1, 1);
	dp_rec("recv-of-psend", "len %s; upkdouble = %s: %g", blen(bufid),
	    dp_code(rc), dd);
	rc = pvm_upkint(iv, 2, 1);
	dp_rec("recv-of-psend-int", "upkint(2) = %s", dp_code(rc));
}

/* ---- recvf ---- */

static int match_calls;

/* Accept only messages whose tag is even (any source). */
static int
match_even(int bufid, int tid, int tag)
{
	int mtag = -1;

	(void)tid;
	(void)tag;
	match_calls++;
	pvm_bufinfo(bufid, NULL, &mtag, NULL);
	return mtag % 2 == 0;
}

/* Rank messages by tag: higher tag is better (> 1 means "maybe"). */
static int
match_rank(int bufid, int tid, int tag)
{
	int mtag = -1;

	(void)tid;
	(void)tag;
	pvm_bufinfo(bufid, NULL, &mtag, NULL);
	return mtag - 100 + 2;
}

static int
match_err(int bufid, int tid, int tag)
{
	(void)bufid;
	(void)tid;
	(void)tag;
	return -2;
}

/* pvm_recvf, its odd declared return type made a matcher again. */
static int (*set_matcher(int (*f)(int, int, int)))(int, int, int)
{
	return (int (*)(int, int, int))(void (*)(void))pvm_recvf(f);
}

/* Send to self one message per tag, carrying base + its index, then a
 * marker; return once the marker (and so all before it) is in. */
static void
send_tags(const int *tags, int n, int base)
{
	int i, v;

	for (i = 0; i < n; i++) {
		v = base + i;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(me, tags[i]);
	}
	pvm_initsend(PvmDataDefault);
	pvm_send(me, 109);
	wait_msg(me, 109, 3000);
}

static void
recvf_cases(void)
{
	int tags[4] = {101, 103, 102, 104};
	int (*old)(int, int, int);

	send_tags(tags, 4, 0);
	wait_msg(me, 104, 3000);
	send_tags(tags, 3, 10);
	old = set_matcher(match_even);
	dp_rec("recvf-old", "previous matcher %s", old ? "non-NULL" : "NULL");
	dp_rec(
	    "recvf-even", "recv(-1, 101) -> %s", got_index(pvm_recv(-1, 101)));
	dp_rec("recvf-calls", "matcher called: %d", match_calls > 0);
	dp_rec("recvf-nrecv", "nrecv -> %s", got_index(pvm_nrecv(-1, -1)));
	dp_rec("recvf-nrecv-2", "nrecv -> %s", got_index(pvm_nrecv(-1, -1)));
	dp_rec("recvf-probe", "probe -> %s", dp_code(pvm_probe(-1, -1)));
	pvm_recvf(match_rank);
	dp_rec("recvf-rank", "recv -> %s", got_index(pvm_nrecv(-1, -1)));
	dp_rec("recvf-rank-2", "recv -> %s", got_index(pvm_nrecv(-1, -1)));
	dp_rec("recvf-rank-3", "recv -> %s", got_index(pvm_nrecv(-1, -1)));
	pvm_recvf(match_err);
	dp_rec("recvf-err", "nrecv -> %s", got_index(pvm_nrecv(-1, -1)));
	old = set_matcher(NULL);
	dp_rec("recvf-restore", "previous was ours %d", old == match_err);
	old = set_matcher(NULL);
	dp_rec(
	    "recvf-default", "previous of NULL %s", old ? "non-NULL" : "NULL");
	dp_rec("recvf-left", "left: %s", got_index(pvm_nrecv(-1, -1)));
	dp_rec("recvf-left-2", "left: %s", got_index(pvm_nrecv(-1, -1)));
	dp_drain(100);
}

/* ---- round trips through the child ---- */

static void
roundtrip(const char *prefix, int enc)
{
	static struct payload p; /* InPlace reads it at send time */
	struct payload back;
	unsigned want, got = 0, h;
	int bufid, rc = 1, rc2, len = -1;
	char c[64];
	const char *steps;

	p = pl_src;
	want = cks(2166136261u, &p, sizeof(p));
	pvm_initsend(enc);
	steps = pl_pack(&p);
	len = atoi(blen(pvm_getsbuf()));
	snprintf(c, sizeof(c), "%s-%s-pack", prefix, enc_names[enc]);
	dp_rec(c, "steps %s; len %d", steps, len);
	pvm_send(child, TAG_ECHO + enc);
	bufid = wait_msg(child, TAG_ECHO_R, 5000);
	snprintf(c, sizeof(c), "%s-%s", prefix, enc_names[enc]);
	if (bufid <= 0) {
		rec_msg(c, bufid);
		return;
	}
	pvm_upkint((int *)&got, 1, 1);
	pvm_upkint(&rc, 1, 1);
	rc2 = rc == 0 ? pl_unpack(&back, &h) : 0;
	dp_rec(c, "child upk %s, data %s; back len %s upk %s, data %s",
	    dp_code(rc), got == want ? "same" : "differs", blen(bufid),
	    dp_code(rc2), rc == 0 && h == want ? "same" : "differs");
}

/* InPlace reads the user's memory when sending, not when packing. */
static void
inplace_late(void)
{
	static int v[2] = {1, 2};
	int got[2] = {0}, id;

	id = pvm_initsend(PvmDataInPlace);
	pvm_pkint(v, 2, 1);
	v[0] = 100;
	pvm_send(me, 99);
	v[0] = 200;
	wait_msg(me, 99, 3000);
	pvm_upkint(got, 2, 1);
	dp_rec("inplace-late-write", "got %d %d", got[0], got[1]);
	pvm_setsbuf(id);
	v[0] = 300;
	pvm_send(me, 99);
	wait_msg(me, 99, 3000);
	pvm_upkint(got, 2, 1);
	dp_rec("inplace-resend", "got %d %d", got[0], got[1]);
	id = pvm_initsend(PvmDataInPlace);
	pvm_pkint(v, 2, 1);
	pvm_pkint(v, 2, 1);
	dp_rec("inplace-len", "len after two pkint(2): %s", blen(id));
}

/* A received buffer sent back by the child as it is. */
static void
forward(void)
{
	int v[2] = {31, 32}, got[2] = {0}, bufid, enc, rc;
	char c[64];

	for (enc = 0; enc < 3; enc++) {
		pvm_initsend(enc);
		pvm_pkint(v, 2, 1);
		pvm_send(child, TAG_FWD);
		bufid = wait_msg(child, TAG_FWD_R, 5000);
		snprintf(c, sizeof(c), "%sforward-%s", sect, enc_names[enc]);
		got[0] = got[1] = 0;
		rc = bufid > 0 ? pvm_upkint(got, 2, 1) : bufid;
		dp_rec(c, "len %s upk %s: %d %d", blen(bufid), dp_code(rc),
		    got[0], got[1]);
	}
}

/* ---- pkmesg / upkmesg ---- */

static void
pkmesg_cases(void)
{
	int inner, outer, bufid, got[2] = {0}, v[2] = {41, 42}, len, tag, src;
	int rc, newid;

	inner = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(inner);
	pvm_pkint(v, 2, 1);
	outer = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(outer);
	rc = pvm_pkmesg(inner);
	dp_rec("pkmesg", "= %s; outer len %s (inner %s)", dp_code(rc),
	    blen(outer), blen(inner));
	dp_rc("pkmesg-self", "pvm_pkmesg(outer)", pvm_pkmesg(outer));
	dp_rc("pkmesg-bad", "pvm_pkmesg(99999)", pvm_pkmesg(99999));
	dp_rc("pkmesg-0", "pvm_pkmesg(0)", pvm_pkmesg(0));
	pvm_send(me, 100);
	bufid = wait_msg(me, 100, 3000);
	newid = pvm_upkmesg();
	len = tag = src = -1;
	if (newid > 0)
		pvm_bufinfo(newid, &len, &tag, &src);
	dp_rec("upkmesg", "= %s; len %d tag %d src %s",
	    newid > 0 ? "> 0" : dp_code(newid), len, tag, dp_tid(src));
	rc = newid > 0 ? pvm_setrbuf(newid) : 0;
	rc = pvm_upkint(got, 2, 1);
	dp_rec(
	    "upkmesg-body", "upkint = %s: %d %d", dp_code(rc), got[0], got[1]);
	pvm_setrbuf(bufid);
	dp_rc("upkmesg-again", "pvm_upkmesg at end", pvm_upkmesg());
	pvm_setrbuf(0);
	dp_rc("upkmesg-nobuf", "pvm_upkmesg with no rbuf", pvm_upkmesg());
	pvm_setsbuf(0);
	dp_rc("pkmesg-nobuf", "pvm_pkmesg with no sbuf", pvm_pkmesg(inner));
	pvm_freebuf(inner);
	pvm_freebuf(outer);
}

/* pvm_pkmesgbody, and a Raw message carried inside an XDR one. */
static void
pkmesg_more(void)
{
	int v[2] = {51, 52}, got[2] = {0}, inner, outer, rc, id;

	inner = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(inner);
	pvm_pkint(v, 2, 1);
	outer = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(outer);
	rc = pvm_pkmesgbody(inner);
	dp_rec("pkmesgbody", "= %s; outer len %s", dp_code(rc), blen(outer));
	pvm_send(me, 101);
	wait_msg(me, 101, 3000);
	rc = pvm_upkint(got, 2, 1);
	dp_rec("pkmesgbody-upk", "upkint = %s: %d %d", dp_code(rc), got[0],
	    got[1]);
	pvm_freebuf(inner);
	pvm_freebuf(outer);
	inner = pvm_mkbuf(PvmDataRaw);
	pvm_setsbuf(inner);
	pvm_pkint(v, 2, 1);
	outer = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(outer);
	rc = pvm_pkmesgbody(inner);
	dp_rec("pkmesgbody-raw-in-xdr", "= %s; outer len %s", dp_code(rc),
	    blen(outer));
	pvm_freebuf(outer);
	outer = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(outer);
	rc = pvm_pkmesg(inner);
	dp_rec("pkmesg-raw-in-xdr", "= %s; outer len %s", dp_code(rc),
	    blen(outer));
	pvm_send(me, 102);
	wait_msg(me, 102, 3000);
	id = pvm_upkmesg();
	got[0] = got[1] = 0;
	rc = id > 0 ? pvm_setrbuf(id) : id;
	rc = rc >= 0 ? pvm_upkint(got, 2, 1) : rc;
	dp_rec("upkmesg-raw-in-xdr", "upkint = %s: %d %d", dp_code(rc), got[0],
	    got[1]);
	pvm_freebuf(inner);
}

/* What pvm_send leaves in the buffer's header. */
static void
sent_minfo(void)
{
	struct pvmminfo mi;
	int v = 1, id, len = -1, tag = -1, src = -1;

	id = pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(me, 103);
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(id, &mi);
	dp_rec("sent-minfo", "len %d tag %d src %s dst %s", mi.len, mi.tag,
	    dp_tid(mi.src), dp_tid(mi.dst));
	pvm_bufinfo(id, &len, &tag, &src);
	dp_rec("sent-bufinfo", "len %d tag %d src %s", len, tag, dp_tid(src));
	wait_msg(me, 103, 3000);
	id = pvm_initsend(PvmDataDefault);
	pvm_mcast(&child, 1, TAG_MC);
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(id, &mi);
	dp_rec("mcast-minfo", "len %d tag %d src %s dst %s", mi.len, mi.tag,
	    dp_tid(mi.src), dp_tid(mi.dst));
	wait_msg(child, TAG_MC_R, 3000);
	id = pvm_initsend(PvmDataDefault);
	pvm_send(me, 104);
	id = wait_msg(me, 104, 3000);
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(id, &mi);
	dp_rec(
	    "recv-minfo-wid", "ctx %d wid %d crc %d", mi.ctx, mi.wid, mi.crc);
}

/* ---- PvmDataTrace ---- */

/*
 * A trace buffer starts with a 36-byte header: int, int, string, and the
 * time it was made (int seconds, int microseconds).  Read it from the
 * active receive buffer; the time is told as made in [t0, t1] or not.
 */
static void
trace_head(const char *c, const struct timeval *t0, const struct timeval *t1)
{
	int h[4] = {0}, rc;
	char name[64] = "";
	long long at, lo, hi;

	rc = pvm_upkint(h, 2, 1);
	rc = rc ? rc : pvm_upkstr(name);
	rc = rc ? rc : pvm_upkint(h + 2, 2, 1);
	at = (long long)h[2] * 1000000 + h[3];
	lo = (long long)(int)t0->tv_sec * 1000000 + t0->tv_usec;
	hi = (long long)(int)t1->tv_sec * 1000000 + t1->tv_usec;
	dp_rec(c, "head %s: %d %d \"%s\", time %s", dp_code(rc), h[0], h[1],
	    name,
	    at >= lo && at <= hi && h[3] >= 0 && h[3] < 1000000 ? "when made"
	                                                        : "other");
}

/* The item types trace_pack packs: byte, cplx, dcplx, double, float, int
 * (and uint), short (and ushort). */
#define TRACE_TYPES "\1\2\3\4\5\6\12"

/* Unpack count values of a trace item's type (type without 0x80) and
 * print them at out; the unpack's code. */
static int
trace_vals(int type, int count, char *out, size_t size)
{
	int iv[16], rc, i, n = count;
	float fv[32];
	double dv[32];
	char bv[17] = "";

	if (type == 2 || type == 3)
		n = 2 * count; /* complex: two values each */
	if (type == 1)
		rc = pvm_upkbyte(bv, count, 1);
	else if (type == 6 || type == 10)
		rc = pvm_upkint(iv, n, 1);
	else if (type == 2 || type == 5)
		rc = pvm_upkfloat(fv, n, 1);
	else
		rc = pvm_upkdouble(dv, n, 1);
	if (type == 1)
		snprintf(out, size, " \"%s\"", bv);
	for (i = 0; type != 1 && i < n && strlen(out) + 16 < size; i++) {
		if (type == 6 || type == 10)
			snprintf(out + strlen(out), 16, " %d", iv[i]);
		else
			snprintf(out + strlen(out), 16, " %g",
			    type == 2 || type == 5 ? fv[i] : dv[i]);
	}
	return rc;
}

/* The items that follow a trace header in the active receive buffer, as
 * "type[count] values; ..." up to where the unpack stops. */
static void
trace_items(const char *c)
{
	char out[512] = "", *w;
	int type, count, rc;

	while ((rc = pvm_upkint(&type, 1, 1)) == 0 && strlen(out) < 400) {
		count = 1;
		if ((type & 0x80) && (rc = pvm_upkint(&count, 1, 1)) < 0)
			break;
		w = out + strlen(out);
		snprintf(
		    w, 32, "%s%d[%d]", *out ? "; " : "", type & 0x7f, count);
		if (count < 1 || count > 16 || (type & 0x7f) == 0 ||
		    !strchr(TRACE_TYPES, type & 0x7f)) {
			strcat(out, " ?");
			break;
		}
		w = out + strlen(out);
		if ((rc = trace_vals(
		         type & 0x7f, count, w, sizeof(out) - strlen(out))) < 0)
			break;
	}
	dp_rec(c, "%s; then %s", out, dp_code(rc));
}

/* Pack one of each kind of item into the active send buffer; the pack
 * calls' codes. */
static const char *
trace_pack(void)
{
	static char out[128];
	int one = 1, v[4] = {1, 2, 3, 4}, rc[13], k = 0, i;
	short sv[2] = {-2, 3};
	unsigned short us = 65535;
	unsigned u = 4000000000u;
	float fv[2] = {1.5f, -2};
	double d = 3.25, z[2] = {5.5, -6.5};

	rc[k++] = pvm_pkint(&one, 1, 1);
	rc[k++] = pvm_pkint(v, 2, 2);
	rc[k++] = pvm_pkshort(sv, 2, 1);
	rc[k++] = pvm_pkushort(&us, 1, 1);
	rc[k++] = pvm_pkuint(&u, 1, 1);
	rc[k++] = pvm_pkfloat(fv, 2, 1);
	rc[k++] = pvm_pkdouble(&d, 1, 1);
	rc[k++] = pvm_pkcplx(fv, 1, 1);
	rc[k++] = pvm_pkdcplx(z, 1, 1);
	rc[k++] = pvm_pkbyte("abcde", 5, 1);
	rc[k++] = pvm_pkstr("hello");
	rc[k++] = pvm_pkstr("a");
	rc[k++] = pvm_pkstr("");
	out[0] = '\0';
	for (i = 0; i < k; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
		    i ? " " : "", dp_code(rc[i]));
	return out;
}

/* A new trace send buffer with the items of trace_pack, made in [t0, t1]. */
static int
trace_new(struct timeval *t0, struct timeval *t1)
{
	int id;

	gettimeofday(t0, NULL);
	id = pvm_initsend(PvmDataTrace);
	gettimeofday(t1, NULL);
	trace_pack();
	return id;
}

/* A received trace message: length, enc as getminfo says, header, items. */
static void
trace_got(const char *c, int bufid, const struct timeval *t0,
    const struct timeval *t1)
{
	struct pvmminfo mi;
	char cc[64];

	rec_msg(c, bufid);
	if (bufid <= 0)
		return;
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(bufid, &mi);
	snprintf(cc, sizeof(cc), "%s-minfo", c);
	dp_rec(cc, "len %d enc %#x", mi.len, (unsigned)mi.enc);
	snprintf(cc, sizeof(cc), "%s-head", c);
	trace_head(cc, t0, t1);
	snprintf(cc, sizeof(cc), "%s-items", c);
	trace_items(cc);
}

/* A trace buffer of one's own: what it holds, read back. */
static void
trace_own(void)
{
	struct timeval t0, t1;
	struct pvmminfo mi;
	int id, v = 1, len = -1, tag = -1, src = -1;
	const char *steps;

	gettimeofday(&t0, NULL);
	id = pvm_initsend(PvmDataTrace);
	gettimeofday(&t1, NULL);
	pvm_bufinfo(id, &len, &tag, &src);
	dp_rec("trace-fresh", "len %d tag %d src %s", len, tag, dp_tid(src));
	memset(&mi, 0, sizeof(mi));
	pvm_getminfo(id, &mi);
	dp_rec("trace-fresh-minfo", "len %d enc %#x", mi.len, (unsigned)mi.enc);
	steps = trace_pack();
	dp_rec("trace-pack", "steps %s; len %s", steps, blen(id));
	dp_rc("trace-pack-neg", "pvm_pkint(count -1)", pvm_pkint(&v, -1, 1));
	dp_rec("trace-pack-neg", "len after %s", blen(id));
	pvm_setrbuf(id);
	trace_head("trace-own-head", &t0, &t1);
	trace_items("trace-own-items");
	pvm_setrbuf(0);
	pvm_initsend(PvmDataDefault);
}

/* Sent to oneself, to the child (sent back as it came), multicast. */
static void
trace_sends(void)
{
	struct timeval t0, t1;
	int rc, bufid, v[4] = {0};

	trace_new(&t0, &t1);
	dp_rc(cn("trace-send-self"), "pvm_send(me)", pvm_send(me, 105));
	trace_got(cn("trace-recv-self"), wait_msg(me, 105, 3000), &t0, &t1);
	trace_new(&t0, &t1);
	rc = pvm_send(child, TAG_FWD);
	dp_rc(cn("trace-send-child"), "pvm_send(child)", rc);
	trace_got(
	    cn("trace-forward"), wait_msg(child, TAG_FWD_R, 5000), &t0, &t1);
	trace_new(&t0, &t1);
	dp_rc(cn("trace-mcast"), "pvm_mcast(child)",
	    pvm_mcast(&child, 1, TAG_INFO));
	bufid = wait_msg(child, TAG_INFO_R, 5000);
	rc = bufid > 0 ? pvm_upkint(v, 4, 1) : bufid;
	dp_rec(cn("trace-child-sees"), "%s: len %d enc %#x ints %d %d",
	    dp_code(rc), v[0], (unsigned)v[1], v[2], v[3]);
}

/* pvm_packf into a trace buffer, pvm_pkmesgbody, pvm_precv of one. */
static void
trace_more(void)
{
	int in, out, iv[4] = {0}, v[2] = {1, 2}, rlen = -1, rc;

	rc = pvm_packf("%+ %d %s", PvmDataTrace, 7, "xy");
	dp_rec("trace-packf", "= %s; len %s", dp_code(rc), blen(pvm_getsbuf()));
	pvm_setrbuf(pvm_getsbuf());
	pvm_upkbyte((char *)iv, 36, 1); /* the header */
	trace_items("trace-packf-items");
	in = pvm_mkbuf(PvmDataTrace);
	pvm_setsbuf(in);
	pvm_pkint(v, 2, 1);
	out = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(out);
	dp_rc("trace-pkmesgbody-in-default", "pvm_pkmesgbody(trace)",
	    pvm_pkmesgbody(in));
	pvm_freebuf(out);
	out = pvm_mkbuf(PvmDataTrace);
	pvm_setsbuf(out);
	rc = pvm_pkmesgbody(in);
	dp_rec("trace-pkmesgbody-in-trace", "= %s; len %s (inner %s)",
	    dp_code(rc), blen(out), blen(in));
	pvm_freebuf(in);
	in = pvm_mkbuf(PvmDataDefault);
	pvm_setsbuf(in);
	pvm_pkint(v, 2, 1);
	pvm_setsbuf(out);
	dp_rc("trace-pkmesgbody-default", "pvm_pkmesgbody(default) into trace",
	    pvm_pkmesgbody(in));
	pvm_freebuf(in);
	pvm_freebuf(out);
	pvm_initsend(PvmDataTrace);
	pvm_pkint(v, 2, 1);
	pvm_send(me, 106);
	rc = pvm_precv(me, 106, iv, 4, PVM_INT, NULL, NULL, &rlen);
	dp_rec("trace-precv", "= %s rlen %d: first ints %s", dp_code(rc), rlen,
	    iv[0] == (int)htonl(0xfffffff7u) && iv[1] == (int)htonl(108)
	        ? "the header's XDR bytes"
	        : "other");
}

static void
trace_cases(void)
{
	trace_own();
	trace_sends();
	trace_more();
}

/* ---- the route option: same results either way ---- */

static void
route_cases(void)
{
	int enc;

	dp_rec("route-set", "setopt(Route, Direct) old %s",
	    dp_val(pvm_setopt(PvmRoute, PvmRouteDirect)));
	for (enc = 0; enc < 3; enc++)
		roundtrip("direct", enc);
	sect = "direct-";
	recv_order();
	mcasts();
	forward();
	trace_sends();
	sect = "";
	dp_rec("route-reset", "setopt(Route, Default) old %s",
	    dp_code(pvm_setopt(PvmRoute, PvmDontRoute)));
}

static int
spawn_child(void)
{
	char *args[] = {"child", NULL}, self[4096];
	int tids[1];

	dp_self(self, sizeof(self));
	if (pvm_spawn(self, args, 0, "", 1, tids) == 1)
		return tids[0];
	return 0;
}

int
main(int argc, char **argv)
{
	int enc;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	if ((me = dp_enrol()) <= 0)
		return 1;
	dp_name(NOTASK, "notask");
	child = spawn_child();
	dp_name(child, "child");
	dp_rec("spawn-child", "child is %s", child > 0 ? "a task" : "missing");
	bufs_mkbuf();
	bufs_free();
	bufs_active();
	bufs_initsend();
	bufs_info();
	bufs_minfo();
	pack_all();
	pack_strides();
	long_cases();
	unpack_wrong();
	unpack_own();
	packf_cases();
	unpackf_cases();
	send_targets();
	mcasts();
	recv_order();
	recv_args();
	recv_frees();
	setrbuf_pos();
	recv_info();
	precv_cases();
	precv_mixed();
	recvf_cases();
	for (enc = 0; enc < 3; enc++)
		roundtrip("roundtrip", enc);
	inplace_late();
	forward();
	pkmesg_cases();
	pkmesg_more();
	sent_minfo();
	trace_cases();
	route_cases();
	pvm_initsend(PvmDataDefault);
	pvm_send(child, TAG_QUIT);
	pvm_exit();
	return 0;
}
