/*
 * t_msg.c: point-to-point messages between two tasks.
 *
 *   t_msg pingpong   payloads of 0 .. 4 MiB echoed byte for byte
 *   t_msg fifo N     N sequence-numbered messages arrive in order
 *   t_msg wild       wildcard source and tag matching, queue order
 *   t_msg trecv      pvm_trecv time-outs
 *   t_msg probe      pvm_nrecv / pvm_probe semantics
 *   t_msg enc        every type in PvmDataDefault, Raw and InPlace
 *
 * Children are copies of this program started with a "c-..." argument;
 * the parent waits for each child's hello before sending to it.
 */
#include <float.h>
#include <limits.h>
#include <math.h>

#include "tcheck.h"

#define TAG_PING 1
#define TAG_PONG 2
#define TAG_STOP 3
#define TAG_SEQ 5
#define TAG_RESULT 6

/* Spawn one child of this program in role `role`; its tid or 0. */
static int
spawn_child(char *role)
{
	char *args[] = {role, NULL};
	int tid = 0, cc;

	cc = tc_spawn_self(args, 1, &tid);
	if (cc != 1) {
		tc_check(0, "spawn of child %s (cc %d, tid %d)", role, cc, tid);
		return 0;
	}
	return tc_wait_hello(tid) ? tid : 0;
}

/* ---- pingpong ---- */

/* Child: echo every TAG_PING message back until TAG_STOP. */
static int
c_echo(void)
{
	int parent = pvm_parent(), bufid, tag, len;
	char *buf;

	for (;;) {
		if ((bufid = tc_trecv(parent, -1, 60)) == 0) {
			break;
		}
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		if (tag != TAG_PING) {
			break;
		}
		pvm_upkint(&len, 1, 1);
		buf = malloc(len > 0 ? (size_t)len : 1);
		pvm_upkbyte(buf, len, 1);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&len, 1, 1);
		pvm_pkbyte(buf, len, 1);
		pvm_send(parent, TAG_PONG);
		free(buf);
	}
	pvm_exit();
	return 0;
}

static void
pingpong(void)
{
	static const int sizes[] = {
	    0, 1, 3, 4096, 65537, 262144, 1048576 + 5, 4 * 1048576};
	int kid = spawn_child("c-echo"), i, len, bufid, src, tag;
	unsigned char *out, *in;

	if (kid == 0) {
		return;
	}
	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		len = sizes[i];
		out = malloc((size_t)len + 1);
		in = malloc((size_t)len + 1);
		tc_fill(out, (size_t)len, 1000 + (uint64_t)i, 0);
		memset(in, 0xee, (size_t)len + 1);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&len, 1, 1);
		pvm_pkbyte((char *)out, len, 1);
		tc_eq(pvm_send(kid, TAG_PING), 0, "send %d bytes", len);
		bufid = tc_trecv(kid, TAG_PONG, 30);
		src = tag = 0;
		if (bufid > 0) {
			int got = -1;

			pvm_bufinfo(bufid, NULL, &tag, &src);
			pvm_upkint(&got, 1, 1);
			pvm_upkbyte((char *)in, got > 0 ? got : 0, 1);
			tc_check(got == len && src == kid && tag == TAG_PONG &&
			             memcmp(in, out, (size_t)len) == 0 &&
			             in[len] == 0xee,
			    "echo of %d bytes identical (len %d, src t%x, "
			    "tag %d)",
			    len, got, src, tag);
		} else {
			tc_check(
			    0, "echo of %d bytes arrived within 30 s", len);
		}
		free(out);
		free(in);
	}
	pvm_initsend(PvmDataDefault);
	pvm_send(kid, TAG_STOP);
}

/* ---- fifo ---- */

/* Child: receive n messages from the parent, count those out of order. */
static int
c_fifo(void)
{
	int parent = pvm_parent(), res[4] = {0, 0, -1, 0}, hdr[2], i, n = 0;
	int extra[8];

	if (tc_recv_ints(parent, TAG_SEQ, &n, 1, 60) <= 0) {
		n = 0;
	}
	for (i = 0; i < n; i++) {
		if (tc_trecv(parent, TAG_SEQ, 60) == 0) {
			break;
		}
		if (pvm_upkint(hdr, 2, 1) < 0) {
			res[1]++;
			continue;
		}
		res[0]++;
		if (hdr[0] != i) {
			if (res[2] < 0) {
				res[2] = i;
			}
			res[1]++;
		}
		/* hdr[1] extra ints, each = seq + k */
		if (hdr[1] > 0 && hdr[1] <= 8 &&
		    pvm_upkint(extra, hdr[1], 1) >= 0) {
			int k;

			for (k = 0; k < hdr[1]; k++) {
				if (extra[k] != hdr[0] + k) {
					res[3]++;
				}
			}
		}
	}
	tc_send_ints(parent, TAG_RESULT, res, 4);
	pvm_exit();
	return 0;
}

static void
fifo(int n)
{
	int kid = spawn_child("c-fifo"), i, k, hdr[2], extra[8], res[4];
	int bad = 0;
	double t0 = tc_now();

	if (kid == 0) {
		return;
	}
	tc_send_ints(kid, TAG_SEQ, &n, 1);
	for (i = 0; i < n; i++) {
		hdr[0] = i;
		hdr[1] = i % 7;
		for (k = 0; k < hdr[1]; k++) {
			extra[k] = i + k;
		}
		pvm_initsend(PvmDataDefault);
		pvm_pkint(hdr, 2, 1);
		pvm_pkint(extra, hdr[1], 1);
		if (pvm_send(kid, TAG_SEQ) < 0) {
			bad++;
		}
	}
	tc_eq(bad, 0, "failed sends among %d", n);
	if (tc_recv_ints(kid, TAG_RESULT, res, 4, 120) <= 0) {
		tc_check(0, "fifo result from the receiver within 120 s");
		return;
	}
	tc_eq(res[0], n, "messages received");
	tc_eq(res[1], 0, "messages out of order");
	tc_eq(res[2], -1, "first out-of-order position");
	tc_eq(res[3], 0, "payload ints wrong");
	tc_info("%d messages in %.2f s", n, tc_now() - t0);
}

/* ---- wild ---- */

/* Child A sends tags 1,2,3 (values 101..103); B sends 2,4 (202, 204). */
static int
c_wild(int which)
{
	int parent = pvm_parent(), v;

	if (which == 'A') {
		for (v = 1; v <= 3; v++) {
			int x = 100 + v;

			tc_send_ints(parent, v, &x, 1);
		}
	} else {
		int x = 202;

		tc_send_ints(parent, 2, &x, 1);
		x = 204;
		tc_send_ints(parent, 4, &x, 1);
	}
	pvm_exit();
	return 0;
}

/* Receive with (tid, tag) and check source, tag and value. */
static void
expect(int tid, int tag, int want_src, int want_tag, int want_val,
    const char *what)
{
	int bufid = tc_trecv(tid, tag, 10), src = 0, gtag = 0, v = -1;

	if (bufid > 0) {
		pvm_bufinfo(bufid, NULL, &gtag, &src);
		pvm_upkint(&v, 1, 1);
	}
	tc_check(
	    bufid > 0 && src == want_src && gtag == want_tag && v == want_val,
	    "%s: src t%x tag %d value %d (want t%x, %d, %d)", what, src, gtag,
	    v, want_src, want_tag, want_val);
}

static void
wild(void)
{
	int a = spawn_child("c-wildA"), b = spawn_child("c-wildB");
	double end = tc_now() + 20;

	if (a == 0 || b == 0) {
		return;
	}
	/* Wait until all five messages are queued. */
	while (
	    tc_now() < end && !(pvm_probe(a, 3) > 0 && pvm_probe(b, 4) > 0)) {
		tc_trecv(-1, 9999, 0.05);
	}
	tc_check(pvm_probe(a, 3) > 0 && pvm_probe(b, 4) > 0,
	    "all messages of A and B queued");
	expect(-1, 4, b, 4, 204, "recv(-1, 4)");
	expect(a, -1, a, 1, 101, "recv(A, -1) gives A's first");
	expect(-1, 3, a, 3, 103, "recv(-1, 3)");
	expect(b, -1, b, 2, 202, "recv(B, -1)");
	expect(-1, -1, a, 2, 102, "recv(-1, -1) gives the last one");
	tc_eq(pvm_nrecv(-1, -1), 0, "nrecv(-1, -1) on an empty queue");
}

/* ---- trecv ---- */

/* Child: send one int to the parent after half a second. */
static int
c_late(void)
{
	int parent = pvm_parent(), v = 779;

	tc_sleep(0.5);
	tc_send_ints(parent, 779, &v, 1);
	pvm_exit();
	return 0;
}

static void
trecv(void)
{
	struct timeval tv;
	double t0, dt;
	int cc, me = pvm_mytid(), v = 778, got = 0, kid;

	tv.tv_sec = 1;
	tv.tv_usec = 500000;
	t0 = tc_now();
	cc = pvm_trecv(-1, 777, &tv);
	dt = tc_now() - t0;
	tc_eq(cc, 0, "trecv of 1.5 s with no message");
	tc_check(dt >= 1.49 && dt < 10,
	    "trecv of 1.5 s took %.3f s (>= 1.5, < 10)", dt);
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	t0 = tc_now();
	cc = pvm_trecv(-1, 777, &tv);
	dt = tc_now() - t0;
	tc_eq(cc, 0, "trecv of 0 s with no message");
	tc_check(dt < 1, "trecv of 0 s returned at once (%.3f s)", dt);

	tc_send_ints(me, 778, &v, 1);
	tv.tv_sec = 5;
	cc = pvm_trecv(me, 778, &tv);
	if (cc > 0) {
		pvm_upkint(&got, 1, 1);
	}
	tc_check(cc > 0 && got == 778,
	    "trecv finds a message sent to self "
	    "(cc %d, value %d)",
	    cc, got);

	if ((kid = spawn_child("c-late")) == 0) {
		return;
	}
	tv.tv_sec = 8;
	tv.tv_usec = 0;
	t0 = tc_now();
	cc = pvm_trecv(kid, 779, &tv);
	dt = tc_now() - t0;
	got = 0;
	if (cc > 0) {
		pvm_upkint(&got, 1, 1);
	}
	tc_check(cc > 0 && got == 779 && dt < 7,
	    "trecv of 8 s returns when a message arrives (cc %d, %.2f s)", cc,
	    dt);
}

/* ---- probe / nrecv ---- */

static void
probe(void)
{
	int me = pvm_mytid(), v = 31, bufid, b2, bytes = -1, tag = -1;
	int src = -1, got = 0;
	double end = tc_now() + 10;

	tc_eq(pvm_nrecv(-1, 31), 0, "nrecv with nothing queued");
	tc_eq(pvm_probe(-1, 31), 0, "probe with nothing queued");
	tc_send_ints(me, 31, &v, 1);
	while ((bufid = pvm_probe(-1, 31)) == 0 && tc_now() < end) {
		tc_trecv(-1, 9999, 0.02);
	}
	tc_check(bufid > 0, "probe finds the message (bufid %d)", bufid);
	if (bufid <= 0) {
		return;
	}
	pvm_bufinfo(bufid, &bytes, &tag, &src);
	tc_check(bytes >= 4 && tag == 31 && src == me,
	    "bufinfo of the probed message: %d bytes, tag %d, src t%x", bytes,
	    tag, src);
	b2 = pvm_probe(-1, 31);
	tc_check(b2 > 0, "probe again still finds it (probe does not take it)");
	tc_eq(pvm_nrecv(-1, 32), 0, "nrecv of another tag");
	bufid = pvm_nrecv(me, 31);
	tc_check(bufid > 0, "nrecv takes the message (bufid %d)", bufid);
	if (bufid > 0) {
		pvm_upkint(&got, 1, 1);
	}
	tc_eq(got, 31, "value of the nrecv'd message");
	tc_eq(pvm_getrbuf(), bufid, "nrecv made it the active receive buffer");
	tc_eq(pvm_probe(-1, 31), 0, "probe after the message was taken");
	tc_eq(pvm_nrecv(-1, 31), 0, "nrecv after the message was taken");
	tc_eq(pvm_bufinfo(bufid, NULL, NULL, NULL), PvmNoSuchBuf,
	    "an empty nrecv freed the old receive buffer");
}

/* ---- encodings ---- */

/*
 * One payload: every type, a strided pack (InPlace: item by item), and
 * (not InPlace) a string.
 * The receiver unpacks the same sequence and counts mismatches.
 */
struct payload {
	int ints[5];
	char bytes[7];
	short shorts[3];
	unsigned short ushorts[2];
	unsigned int uints[2];
	long longs[3];
	unsigned long ulongs[2];
	float floats[3];
	double doubles[3];
	float cplx[4];
	double dcplx[2];
	int strided[6]; /* packed with stride 2: 10, 12, 14 */
	int four[4];    /* unpacked with stride 2 */
	int late[3];    /* InPlace: changed after packing */
};

static void
payload_init(struct payload *p)
{
	static const struct payload init = {
	    {0, 1, -1, INT_MAX, INT_MIN},
	    {0, 1, 127, -128, -1, 'a', 0x55},
	    {0, SHRT_MAX, SHRT_MIN},
	    {0, USHRT_MAX},
	    {0, UINT_MAX},
	    {0, LONG_MIN, 0x123456789abcdefL},
	    {0, ULONG_MAX},
	    {0.0f, 1.5f, -3.25e10f},
	    {0.0, M_PI, -1e300},
	    {1.5f, -2.5f, 3.0f, 4.0f},
	    {1e-300, -7.0},
	    {10, 11, 12, 13, 14, 15},
	    {1, 2, 3, 4},
	    {1, 2, 3},
	};

	*p = init;
}

/* Pack the payload into a fresh buffer of encoding enc; 0 or error. */
static int
payload_pack(struct payload *p, int enc)
{
	int cc = 0;

	if ((cc = pvm_initsend(enc)) < 0) {
		return cc;
	}
	cc |= pvm_pkint(p->ints, 5, 1);
	cc |= pvm_pkbyte(p->bytes, 7, 1);
	cc |= pvm_pkshort(p->shorts, 3, 1);
	cc |= pvm_pkushort(p->ushorts, 2, 1);
	cc |= pvm_pkuint(p->uints, 2, 1);
	cc |= pvm_pklong(p->longs, 3, 1);
	cc |= pvm_pkulong(p->ulongs, 2, 1);
	cc |= pvm_pkfloat(p->floats, 3, 1);
	cc |= pvm_pkdouble(p->doubles, 3, 1);
	cc |= pvm_pkcplx(p->cplx, 2, 1);
	cc |= pvm_pkdcplx(p->dcplx, 1, 1);
	if (enc == PvmDataInPlace) {
		/* InPlace takes stride 1 only (PvmNotImpl, as PVM 3.4.6):
		 * the same items one by one. */
		if (pvm_pkint(p->strided, 3, 2) != PvmNotImpl) {
			return PvmBadParam;
		}
		cc |= pvm_pkint(&p->strided[0], 1, 1);
		cc |= pvm_pkint(&p->strided[2], 1, 1);
		cc |= pvm_pkint(&p->strided[4], 1, 1);
	} else {
		cc |= pvm_pkint(p->strided, 3, 2);
	}
	cc |= pvm_pkint(p->four, 4, 1);
	cc |= pvm_pkint(p->late, 3, 1);
	if (enc != PvmDataInPlace) {
		cc |= pvm_pkstr("hello, pvm");
	}
	return cc < 0 ? PvmBadParam : 0;
}

#define CMP(field, n)                                                          \
	do {                                                                   \
		if (memcmp(g.field, w.field, sizeof(g.field[0]) * (n)) != 0) { \
			bad++;                                                 \
			snprintf(first, sizeof(first), "%s", #field);          \
		}                                                              \
	} while (0)

/* Child: unpack each encoding's payload, report mismatches. */
static int
c_enc(void)
{
	int parent = pvm_parent(), round, enc = -1, bad, cc, four[8];
	struct payload g, w;
	char str[64], first[64];

	for (round = 0; round < 3; round++) {
		/* Tag 40 names the encoding, tag 42 carries the payload. */
		if (tc_recv_ints(parent, 40, &enc, 1, 30) <= 0 ||
		    tc_trecv(parent, 42, 30) == 0) {
			break;
		}
		memset(&g, 0, sizeof(g));
		memset(four, 0, sizeof(four));
		payload_init(&w);
		if (enc == PvmDataInPlace) {
			w.late[0] = 42;
		}
		bad = 0;
		strcpy(first, "-");
		cc = 0;
		cc |= pvm_upkint(g.ints, 5, 1);
		cc |= pvm_upkbyte(g.bytes, 7, 1);
		cc |= pvm_upkshort(g.shorts, 3, 1);
		cc |= pvm_upkushort(g.ushorts, 2, 1);
		cc |= pvm_upkuint(g.uints, 2, 1);
		cc |= pvm_upklong(g.longs, 3, 1);
		cc |= pvm_upkulong(g.ulongs, 2, 1);
		cc |= pvm_upkfloat(g.floats, 3, 1);
		cc |= pvm_upkdouble(g.doubles, 3, 1);
		cc |= pvm_upkcplx(g.cplx, 2, 1);
		cc |= pvm_upkdcplx(g.dcplx, 1, 1);
		cc |= pvm_upkint(g.strided, 3, 1);
		cc |= pvm_upkint(four, 4, 2);
		cc |= pvm_upkint(g.late, 3, 1);
		CMP(ints, 5);
		CMP(bytes, 7);
		CMP(shorts, 3);
		CMP(ushorts, 2);
		CMP(uints, 2);
		CMP(longs, 3);
		CMP(ulongs, 2);
		CMP(floats, 3);
		CMP(doubles, 3);
		CMP(cplx, 4);
		CMP(dcplx, 2);
		CMP(late, 3);
		if (g.strided[0] != 10 || g.strided[1] != 12 ||
		    g.strided[2] != 14) {
			bad++;
			strcpy(first, "strided pack");
		}
		if (four[0] != 1 || four[1] != 0 || four[2] != 2 ||
		    four[3] != 0 || four[4] != 3 || four[6] != 4 ||
		    four[7] != 0) {
			bad++;
			strcpy(first, "strided unpack");
		}
		if (enc != PvmDataInPlace) {
			str[0] = '\0';
			cc |= pvm_upkstr(str);
			if (strcmp(str, "hello, pvm") != 0) {
				bad++;
				strcpy(first, "string");
			}
		}
		if (cc < 0) {
			bad++;
			strcpy(first, "an unpack call failed");
		}
		/* Nothing is left in the message. */
		if (pvm_upkint(four, 1, 1) != PvmNoData) {
			bad++;
			strcpy(first, "no PvmNoData at the end");
		}
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&enc, 1, 1);
		pvm_pkint(&bad, 1, 1);
		pvm_pkstr(first);
		pvm_send(parent, 41);
	}
	pvm_exit();
	return 0;
}

static void
enc_all(void)
{
	static const int encs[] = {PvmDataDefault, PvmDataRaw, PvmDataInPlace};
	static const char *names[] = {
	    "PvmDataDefault", "PvmDataRaw", "PvmDataInPlace"};
	int kid = spawn_child("c-enc"), i, genc, bad, cc;
	struct payload p;
	char first[64];

	if (kid == 0) {
		return;
	}
	for (i = 0; i < 3; i++) {
		tc_send_ints(kid, 40, &encs[i], 1);
		payload_init(&p);
		cc = payload_pack(&p, encs[i]);
		tc_eq(cc, 0, "packing every type in %s", names[i]);
		/* InPlace reads the user's memory at send time. */
		p.late[0] = 42;
		tc_eq(pvm_send(kid, 42), 0, "send in %s", names[i]);
		if (tc_trecv(kid, 41, 30) == 0) {
			tc_check(
			    0, "%s: child's verdict within 30 s", names[i]);
			break;
		}
		genc = bad = -1;
		first[0] = '\0';
		pvm_upkint(&genc, 1, 1);
		pvm_upkint(&bad, 1, 1);
		pvm_upkstr(first);
		tc_check(genc == encs[i] && bad == 0,
		    "%s across processes: %d mismatches (first: %s)", names[i],
		    bad, first);
	}
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	tc_init("t_msg");
	if (strncmp(mode, "c-", 2) == 0) {
		tc_hello();
	}
	if (strcmp(mode, "c-echo") == 0) {
		return c_echo();
	}
	if (strcmp(mode, "c-fifo") == 0) {
		return c_fifo();
	}
	if (strcmp(mode, "c-wildA") == 0 || strcmp(mode, "c-wildB") == 0) {
		return c_wild(mode[6]);
	}
	if (strcmp(mode, "c-late") == 0) {
		return c_late();
	}
	if (strcmp(mode, "c-enc") == 0) {
		return c_enc();
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	if (strcmp(mode, "pingpong") == 0) {
		pingpong();
	} else if (strcmp(mode, "fifo") == 0) {
		fifo(argc > 2 ? atoi(argv[2]) : 100000);
	} else if (strcmp(mode, "wild") == 0) {
		wild();
	} else if (strcmp(mode, "trecv") == 0) {
		trecv();
	} else if (strcmp(mode, "probe") == 0) {
		probe();
	} else if (strcmp(mode, "enc") == 0) {
		enc_all();
	} else {
		fprintf(stderr, "usage: t_msg pingpong|fifo N|wild|trecv|"
		                "probe|enc\n");
		return 2;
	}
	return tc_done();
}
