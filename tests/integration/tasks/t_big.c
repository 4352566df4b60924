/*
 * t_big.c: one very large message arrives intact.
 *
 *   t_big daemon MIB   through the pvmd, PvmDataDefault
 *   t_big direct MIB   PvmRouteDirect on both sides, PvmDataRaw
 *   t_big gone         16 MiB to a child that dies without reading it:
 *                      pvm_send returns 0 within 10 s (a bulk offer's
 *                      sender must not wait forever, libpvm/bulk.c)
 *   t_big lend         a helper sends three 4 MiB messages to a receiver
 *                      that sleeps after the first: the second and third
 *                      are lent (libpvm/bulk.c), so pvm_send returns at
 *                      once though nobody reads, the helper reuses and
 *                      frees its buffers, exits with pvm_exit at once,
 *                      and still every byte arrives
 *   t_big gone2        the child takes one 16 MiB message and dies; the
 *                      second was lent: pvm_exit still returns in < 10 s
 *   t_big early        16 MiB sent to a child the moment it is spawned,
 *                      before it enrols: the offer reaches it together
 *                      with its enrolment's answer, and its answer to the
 *                      offer must wait for its tid (once, a bulk answer
 *                      sent with source 0 made the pvmd drop the child)
 *   t_big bogus        hand-made bad bulk offers (short, wrong ticket,
 *                      bad addresses, pieces that do not add up) to a
 *                      child: it survives, delivers none of them, and the
 *                      next ordinary message arrives intact
 *
 * The sender fills MIB MiB with a position-dependent pattern; the child
 * compares every byte with the regenerated pattern and returns a checksum
 * over all bytes, which the sender compares with its own.
 */
#include <signal.h>
#include <unistd.h>

#include "tcheck.h"
#include "tid.h"  /* SYSCTX_TC */
#include "wire.h" /* TC_BULK and its encoder */

#define TAG_BIG 50
#define TAG_SUM 51
#define SEED 0x5eed5eedull

/* Child: receive, compare, report {bytes, first bad offset, fnv hi, lo}. */
static int
child(int direct)
{
	int parent = pvm_parent(), bufid, bytes = -1, res[4] = {-1, -1, 0, 0};
	unsigned char *buf, chunk[65536];
	size_t off, n;
	uint64_t h = 0;

	if (direct) {
		pvm_setopt(PvmRoute, PvmRouteDirect);
	}
	tc_hello();
	if ((bufid = tc_trecv(parent, TAG_BIG, 300)) > 0) {
		pvm_bufinfo(bufid, &bytes, NULL, NULL);
		res[0] = bytes;
		buf = malloc(bytes > 0 ? (size_t)bytes : 1);
		if (buf != NULL && pvm_upkbyte((char *)buf, bytes, 1) >= 0) {
			for (off = 0; off < (size_t)bytes; off += n) {
				n = (size_t)bytes - off;
				if (n > sizeof(chunk)) {
					n = sizeof(chunk);
				}
				tc_fill(chunk, n, SEED, off);
				if (res[1] < 0 && memcmp(chunk, buf + off, n)) {
					size_t k = 0;

					while (chunk[k] == buf[off + k]) {
						k++;
					}
					res[1] = (int)(off + k);
				}
			}
			h = tc_fnv(0, buf, (size_t)bytes);
		}
		free(buf);
	}
	res[2] = (int)(uint32_t)(h >> 32);
	res[3] = (int)(uint32_t)h;
	tc_send_ints(parent, TAG_SUM, res, 4);
	pvm_exit();
	return 0;
}

/* A buffer of len pattern bytes (exits on no memory); *h: their FNV-1a. */
static unsigned char *
pattern(size_t len, uint64_t *h)
{
	unsigned char *buf = malloc(len);

	if (buf == NULL) {
		tc_fatal("malloc %zu bytes", len);
	}
	tc_fill(buf, len, SEED, 0);
	*h = tc_fnv(0, buf, len);
	return buf;
}

/* Check a child's report {bytes, first bad offset, fnv hi, lo}. */
static void
check_report(const int res[4], size_t len, uint64_t h)
{
	tc_eq(res[0], (long)len, "bytes received");
	tc_eq(res[1], -1, "offset of the first wrong byte");
	tc_check((uint32_t)res[2] == (uint32_t)(h >> 32) &&
	             (uint32_t)res[3] == (uint32_t)h,
	    "FNV-1a over all %zu bytes: %08x%08x (want %016llx)", len,
	    (uint32_t)res[2], (uint32_t)res[3], (unsigned long long)h);
}

static void
sender(int direct, int mib)
{
	char *args[] = {direct ? "c-direct" : "c-daemon", NULL};
	size_t len = (size_t)mib << 20;
	int kid = 0, cc, res[4], *fds = NULL, nfds;
	unsigned char *buf;
	uint64_t h;
	double t0;

	if (direct) {
		tc_eq(pvm_setopt(PvmRoute, PvmRouteDirect) >= 0, 1,
		    "setopt PvmRoute PvmRouteDirect accepted");
	}
	cc = tc_spawn_self(args, 1, &kid);
	tc_eq(cc, 1, "spawn the receiver");
	if (cc != 1 || !tc_wait_hello(kid)) {
		return;
	}
	buf = pattern(len, &h);
	t0 = tc_now();
	pvm_initsend(direct ? PvmDataRaw : PvmDataDefault);
	tc_eq(pvm_pkbyte((char *)buf, (int)len, 1), 0, "pack %d MiB", mib);
	free(buf);
	tc_eq(pvm_send(kid, TAG_BIG), 0, "send %d MiB", mib);
	if (direct) {
		/* Now, while the child lives: once it has sent its report and
		 * left, its route may already be closed and reaped. */
		nfds = pvm_getfds(&fds);
		tc_check(nfds >= 2, "pvm_getfds shows a direct route (%d sockets)",
		    nfds);
	}
	pvm_initsend(PvmDataDefault);
	if (tc_recv_ints(kid, TAG_SUM, res, 4, 300) <= 0) {
		tc_check(0, "checksum from the receiver within 300 s");
		return;
	}
	tc_info("%d MiB %s round took %.2f s", mib,
	    direct ? "direct" : "daemon-routed", tc_now() - t0);
	check_report(res, len, h);
}

/* "early": the message goes out before the child enrols (it sleeps
 * first), so the pvmd holds it and hands it over with the child's
 * enrolment answer. */
static void
sender_early(void)
{
	char *args[] = {"c-early", NULL};
	size_t len = (size_t)16 << 20;
	int kid = 0, res[4] = {0, 0, 0, 0};
	unsigned char *buf;
	uint64_t h;

	buf = pattern(len, &h);
	tc_eq(tc_spawn_self(args, 1, &kid), 1, "spawn the late receiver");
	pvm_initsend(PvmDataInPlace);
	pvm_pkbyte((char *)buf, (int)len, 1);
	tc_eq(pvm_send(kid, TAG_BIG), 0, "send 16 MiB before it enrols");
	tc_check(tc_recv_ints(kid, TAG_SUM, res, 4, 20) == kid,
	    "checksum from the receiver, under the tid it was spawned with");
	check_report(res, len, h);
	free(buf);
}

/* Child of "gone": say hello, never receive, die. */
static int
child_gone(void)
{
	tc_hello();
	tc_sleep(1.0);
	raise(SIGKILL);
	return 0;
}

/* Child of "gone2": take one message, then die. */
static int
child_gone2(void)
{
	tc_hello();
	tc_trecv(pvm_parent(), TAG_BIG, 60);
	tc_sleep(1.0);
	raise(SIGKILL);
	return 0;
}

/* Spawn a child in `role` that will die, and pack 16 MiB of zeros as
 * the active send buffer.  The child's tid, or 0 (reported). */
static int
spawn_victim(char *role)
{
	char *args[] = {role, NULL};
	size_t len = (size_t)16 << 20;
	unsigned char *buf;
	int kid = 0;

	if (tc_spawn_self(args, 1, &kid) != 1 || !tc_wait_hello(kid)) {
		tc_check(0, "spawn the child that dies");
		return 0;
	}
	if ((buf = calloc(1, len)) == NULL) {
		tc_fatal("malloc 16 MiB");
	}
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte((char *)buf, (int)len, 1);
	free(buf);
	return kid;
}

static void
sender_gone2(void)
{
	int kid, k;
	double t0;

	if ((kid = spawn_victim("c-gone2")) == 0) {
		return;
	}
	for (k = 0; k < 2; k++) {
		tc_eq(pvm_send(kid, TAG_BIG), 0, "send 16 MiB #%d", k + 1);
	}
	t0 = tc_now();
	pvm_exit();
	tc_check(tc_now() - t0 < 10,
	    "pvm_exit with a lent message to a task that died: %.2f s (< 10 s)",
	    tc_now() - t0);
}

static void
sender_gone(void)
{
	int kid;
	double t0;

	if ((kid = spawn_victim("c-gone")) == 0) {
		return;
	}
	t0 = tc_now();
	tc_eq(pvm_send(kid, TAG_BIG), 0, "send 16 MiB to a task that dies");
	tc_check(tc_now() - t0 < 10, "... returned after %.2f s (< 10 s)",
	    tc_now() - t0);
}

#define LEND_MIB 4

/* Receive one LEND_MIB message from src and compare it with seed. */
static int
lend_check(int src, uint64_t seed)
{
	size_t len = (size_t)LEND_MIB << 20;
	unsigned char *got, *want;
	int b, bytes = -1, ok = 0;

	got = malloc(len);
	want = malloc(len);
	if (got != NULL && want != NULL && (b = tc_trecv(src, TAG_BIG, 60)) > 0 &&
	    pvm_bufinfo(b, &bytes, NULL, NULL) == 0 && bytes == (int)len &&
	    pvm_upkbyte((char *)got, (int)len, 1) == 0) {
		tc_fill(want, len, seed, 0);
		ok = memcmp(got, want, len) == 0;
	}
	free(got);
	free(want);
	return ok;
}

/* Receiver of "lend": take one, be busy for 2 s, take two; report. */
static int
child_lendrecv(void)
{
	int res[3], src = 0, b;

	tc_hello();
	/* The helper says hello first; its tid is the source. */
	if ((b = tc_trecv(-1, TAG_SUM + 1, 60)) > 0) {
		pvm_bufinfo(b, NULL, NULL, &src);
	}
	res[0] = lend_check(src, SEED + 1);
	tc_sleep(2.0);
	res[1] = lend_check(src, SEED + 2);
	res[2] = lend_check(src, SEED + 3);
	tc_send_ints(pvm_parent(), TAG_SUM, res, 3);
	pvm_exit();
	return 0;
}

/* Sender of "lend": three messages to argv's tid, then leave at once. */
static int
child_lendsend(int to)
{
	size_t len = (size_t)LEND_MIB << 20;
	unsigned char *buf = malloc(len);
	int ms[2], k, v = 0;
	double t0;

	if (buf == NULL) {
		return 1;
	}
	tc_send_ints(to, TAG_SUM + 1, &v, 1);
	for (k = 1; k <= 3; k++) {
		tc_fill(buf, len, SEED + (uint64_t)k, 0);
		pvm_initsend(PvmDataRaw); /* frees the last one: lent data */
		pvm_pkbyte((char *)buf, (int)len, 1);
		t0 = tc_now();
		pvm_send(to, TAG_BIG);
		if (k > 1) {
			ms[k - 2] = (int)((tc_now() - t0) * 1000);
		}
		/* Packing more into a lent buffer must not disturb it. */
		pvm_pkbyte((char *)buf, 1000, 1);
	}
	free(buf);
	tc_send_ints(pvm_parent(), TAG_SUM + 2, ms, 2);
	pvm_initsend(PvmDataDefault);
	pvm_exit();
	return 0;
}

static void
sender_lend(void)
{
	char *rargs[] = {"c-lendrecv", NULL}, tid[32], *sargs[] = {"c-lendsend",
		tid, NULL};
	int r = 0, s = 0, res[3] = {0, 0, 0}, ms[2] = {-1, -1};

	if (tc_spawn_self(rargs, 1, &r) != 1 || !tc_wait_hello(r)) {
		tc_check(0, "spawn the receiver");
		return;
	}
	snprintf(tid, sizeof(tid), "%d", r);
	tc_eq(tc_spawn_self(sargs, 1, &s), 1, "spawn the sender");
	tc_check(tc_recv_ints(s, TAG_SUM + 2, ms, 2, 60) > 0, "sender's times");
	tc_check(ms[0] >= 0 && ms[0] < 1000 && ms[1] >= 0 && ms[1] < 1000,
	    "sends to a busy receiver returned at once (%d ms, %d ms)", ms[0],
	    ms[1]);
	tc_check(tc_recv_ints(r, TAG_SUM, res, 3, 60) > 0, "receiver's report");
	tc_eq(res[0], 1, "first message intact");
	tc_eq(res[1], 1, "second (lent, buffer freed after) intact");
	tc_eq(res[2], 1, "third (lent, sender left at once) intact");
}

/* Child of "bogus": the first message must be the ordinary one. */
static int
child_bogus(void)
{
	int parent = pvm_parent(), tag = -1, v = 0, b;

	tc_hello();
	if ((b = tc_trecv(-1, -1, 60)) > 0) {
		pvm_bufinfo(b, NULL, &tag, NULL);
		pvm_upkint(&v, 1, 1);
	}
	v = tag == TAG_SUM ? v : -tag;
	/* Nothing else may have been delivered. */
	if (pvm_nrecv(-1, -1) > 0) {
		v = -1;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, TAG_SUM);
	pvm_exit();
	return 0;
}

/* Send body (n bytes) to tid as a TC_BULK offer, the way libpvm would. */
static void
send_offer(int tid, const uint8_t *body, size_t n)
{
	int resv = pvm_setopt(PvmResvTids, 1), ctx = pvm_setcontext(SYSCTX_TC);

	pvm_initsend(PvmDataRaw);
	pvm_pkbyte((char *)body, (int)n, 1);
	tc_eq(pvm_send(tid, TC_BULK), 0, "send a bad offer of %zu bytes", n);
	pvm_setcontext(ctx);
	pvm_setopt(PvmResvTids, resv);
}

static void
sender_bogus(void)
{
	static uint8_t data[100];
	static uint64_t ticket = 42;
	char *args[] = {"c-bogus", NULL};
	uint8_t body[WIRE_BULK_FIXED + WIRE_BULK_SEGLEN];
	struct wire_bulk b;
	uint64_t addr, len = sizeof(data);
	int kid = 0, v = 777;

	if (tc_spawn_self(args, 1, &kid) != 1 || !tc_wait_hello(kid)) {
		tc_check(0, "spawn the child");
		return;
	}
	memset(&b, 0, sizeof(b));
	b.tag = 5;
	b.pid = (uint32_t)getpid();
	b.cookie = 43; /* the ticket holds 42 */
	b.ticket = (uint64_t)(uintptr_t)&ticket;
	b.total = sizeof(data);
	b.nseg = 1;
	addr = (uint64_t)(uintptr_t)data;
	send_offer(kid, body, 10); /* too short to read */
	wire_bulk_encode(&b, &addr, &len, body);
	send_offer(kid, body, sizeof(body)); /* wrong ticket */
	b.cookie = 42;
	b.ticket = 8;
	wire_bulk_encode(&b, &addr, &len, body);
	send_offer(kid, body, sizeof(body)); /* no ticket there */
	b.ticket = (uint64_t)(uintptr_t)&ticket;
	addr = 8;
	wire_bulk_encode(&b, &addr, &len, body);
	send_offer(kid, body, sizeof(body)); /* no data there */
	b.total = 2 * sizeof(data);
	wire_bulk_encode(&b, &addr, &len, body);
	send_offer(kid, body, sizeof(body)); /* pieces do not add up */
	tc_send_ints(kid, TAG_SUM, &v, 1);
	tc_check(tc_recv_ints(kid, TAG_SUM, &v, 1, 60) > 0, "child's report");
	tc_eq(v, 777, "child got the ordinary message first and nothing else");
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	tc_init("t_big");
	if (strcmp(mode, "c-daemon") == 0 || strcmp(mode, "c-direct") == 0) {
		return child(mode[2] == 'd' && mode[3] == 'i');
	}
	if (strcmp(mode, "c-early") == 0) {
		tc_sleep(0.5); /* the parent's message is sent meanwhile */
		return child(0);
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	if (strcmp(mode, "c-gone") == 0) {
		return child_gone();
	}
	if (strcmp(mode, "c-gone2") == 0) {
		return child_gone2();
	}
	if (strcmp(mode, "c-bogus") == 0) {
		return child_bogus();
	}
	if (strcmp(mode, "c-lendrecv") == 0) {
		return child_lendrecv();
	}
	if (strcmp(mode, "c-lendsend") == 0 && argc > 2) {
		return child_lendsend(atoi(argv[2]));
	}
	if (strcmp(mode, "daemon") == 0 || strcmp(mode, "direct") == 0) {
		sender(mode[1] == 'i', argc > 2 ? atoi(argv[2]) : 256);
	} else if (strcmp(mode, "gone") == 0) {
		sender_gone();
	} else if (strcmp(mode, "gone2") == 0) {
		sender_gone2();
	} else if (strcmp(mode, "early") == 0) {
		sender_early();
	} else if (strcmp(mode, "bogus") == 0) {
		sender_bogus();
	} else if (strcmp(mode, "lend") == 0) {
		sender_lend();
	} else {
		fprintf(stderr, "usage: t_big daemon|direct [MIB] | gone | "
				"gone2 | early | bogus | lend\n");
		return 2;
	}
	return tc_done();
}
