/*
 * fuzz_wire.c: every decoder of common/wire.c and common/sdpro.c (the
 * resource manager's and tracer's bodies) on hostile bytes.
 *
 * Input: one choice byte, then the bytes the decoder gets (copied into a
 * block of exactly that size, so a read past the end is seen).  Besides
 * not crashing, whatever a decoder accepts must encode back to the same
 * bytes: a decoder that accepts more than its encoder can write lets two
 * ends disagree on what a frame meant.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sdpro.h"
#include "wire.h"

static void
fz_hdr(const uint8_t *p, size_t n)
{
	struct wire_hdr h;
	uint8_t out[WIRE_HDR_LEN];
	enum wire_status st = wire_hdr_decode(p, n, &h);

	FZ_CHECK(wire_status_str(st) != NULL);
	if (st != WIRE_OK)
		return;
	FZ_CHECK(n >= WIRE_HDR_LEN && h.len <= WIRE_FRAME_MAX);
	FZ_CHECK((h.flags & ~WIRE_F_KNOWN) == 0);
	wire_hdr_encode(&h, out);
	FZ_CHECK(memcmp(out, p, WIRE_HDR_LEN) == 0);
}

static void
fz_total(const uint8_t *p, size_t n)
{
	uint8_t out[WIRE_TOTAL_LEN];

	/* Its callers check the length; it reads exactly 8 bytes. */
	if (n < WIRE_TOTAL_LEN)
		return;
	wire_total_encode(wire_total_decode(p), out);
	FZ_CHECK(memcmp(out, p, WIRE_TOTAL_LEN) == 0);
}

/* Re-encode an accepted offer and compare. */
static void
fz_bulk_again(const struct wire_bulk *b, const uint8_t *p, size_t n)
{
	uint64_t *addr, *len, sum = 0;
	uint8_t *out;
	uint32_t i;

	addr = calloc(b->nseg + 1, sizeof(*addr));
	len = calloc(b->nseg + 1, sizeof(*len));
	out = malloc(n);
	FZ_CHECK(addr != NULL && len != NULL && out != NULL);
	for (i = 0; i < b->nseg; i++) {
		wire_bulk_seg(b, i, &addr[i], &len[i]);
		sum += len[i];
	}
	FZ_CHECK(sum == b->total);
	wire_bulk_encode(b, addr, len, out);
	FZ_CHECK(memcmp(out, p, n) == 0);
	free(addr);
	free(len);
	free(out);
}

static void
fz_bulk(struct fz *f)
{
	static const uint64_t maxes[] = {0, 1, 1024 * 1024, UINT64_MAX};
	uint64_t max = maxes[fz_byte(f) % 4];
	struct wire_bulk b;
	uint8_t *p = fz_dup(f->p, f->n);
	size_t n = f->n;

	if (wire_bulk_decode(p, n, max, &b) == 0) {
		FZ_CHECK(n == wire_bulk_len(b.nseg) && b.total <= max);
		FZ_CHECK(b.nseg <= WIRE_BULK_MAXSEG);
		fz_bulk_again(&b, p, n);
	}
	free(p);
}

static void
fz_bulkack(const uint8_t *p, size_t n)
{
	uint8_t out[WIRE_BULKACK_LEN];
	uint64_t cookie;
	int32_t status;

	if (wire_bulkack_decode(p, n, &cookie, &status) != 0)
		return;
	wire_bulkack_encode(cookie, status, out);
	FZ_CHECK(n == WIRE_BULKACK_LEN && memcmp(out, p, n) == 0);
}

static void
fz_routereq(const uint8_t *p, size_t n)
{
	uint8_t out[WIRE_ROUTEREQ_LEN];
	int32_t marker;

	if (wire_routereq_decode(p, n, &marker) != 0)
		return;
	FZ_CHECK(marker > 0 && n == WIRE_ROUTEREQ_LEN);
	wire_routereq_encode(marker, out);
	FZ_CHECK(memcmp(out, p, n) == 0);
}

static void
fz_routeaddr(const uint8_t *p, size_t n)
{
	struct wire_routeaddr a;
	uint8_t out[WIRE_ROUTEADDR_MAX];

	if (wire_routeaddr_decode(p, n, &a) != 0)
		return;
	FZ_CHECK(a.marker > 0 && a.port >= 0 && a.port <= 65535);
	FZ_CHECK(strlen(a.host) <= WIRE_ROUTE_HOSTMAX);
	FZ_CHECK(wire_routeaddr_encode(&a, out) == n);
	FZ_CHECK(memcmp(out, p, n) == 0);
}

static void
fz_routehello(const uint8_t *p, size_t n)
{
	uint8_t cookie[WIRE_ROUTE_COOKIE], out[WIRE_ROUTEHELLO_LEN];
	int32_t marker;

	if (wire_routehello_decode(p, n, &marker, cookie) != 0)
		return;
	FZ_CHECK(marker > 0 && n == WIRE_ROUTEHELLO_LEN);
	wire_routehello_encode(marker, cookie, out);
	FZ_CHECK(memcmp(out, p, n) == 0);
}

/* SM_EXEC: an accepted body has sane counts and whole lists. */
static void
fz_sd_exec(const uint8_t *p, size_t n)
{
	struct sd_exec e;
	int i;

	if (sd_exec_decode(p, n, &e) != 0)
		return;
	FZ_CHECK(e.count >= 1 && e.count <= SD_COUNT_MAX);
	for (i = 0; i < e.nargs; i++)
		FZ_CHECK(e.args[i] != NULL);
	FZ_CHECK(e.args[e.nargs] == NULL && e.env[e.nenv] == NULL);
	sd_exec_free(&e);
}

/* SM_ADD: every name a string inside the body. */
static void
fz_sd_add(const uint8_t *p, size_t n)
{
	const char **names;
	int count, i;

	if (sd_add_decode(p, n, &names, &count) != 0)
		return;
	FZ_CHECK(count >= 1 && count <= SD_HOSTS_MAX);
	for (i = 0; i < count; i++)
		FZ_CHECK((const uint8_t *)names[i] >= p &&
		         (const uint8_t *)names[i] + strlen(names[i]) < p + n);
	free(names);
}

/* The answers a task reads from a resource manager, and TM_SCHED's. */
static void
fz_sd_answers(const uint8_t *p, size_t n)
{
	struct sd_sched s;
	struct sd_host *h;
	struct sd_task *t;
	int32_t slots[8];
	int nh, na, nt, k, rc;

	if (sd_sched_decode(p, n, &s) == 0)
		sd_host_free(&s.master);
	if (sd_config_decode(p, n, &h, &nh, &na) == 0) {
		FZ_CHECK(nh >= 0 && nh <= SD_HOSTS_MAX);
		sd_hosts_free(h, nh);
	}
	if (sd_tasks_decode(p, n, &t, &nt) == 0)
		sd_tasks_free(t, nt);
	for (k = 1; k <= 8; k++) {
		rc = sd_spawn_reply_decode(p, n, k, slots);
		FZ_CHECK(rc <= k);
		rc = sd_hostchange_decode(p, n, k % 2, k, slots);
		FZ_CHECK(rc <= k);
	}
}

/* TM_TRACER and DM_TRACER: the mask always ends inside its array. */
static void
fz_sd_tracer(const uint8_t *p, size_t n)
{
	struct sd_tracer t;
	struct xdr_reader r;
	int regme;

	if (sd_tracer_req_decode(p, n, &regme, &t) == 0)
		FZ_CHECK(memchr(t.tmask, 0, sizeof(t.tmask)) != NULL);
	xdr_reader_init(&r, p, n);
	if (sd_tracer_decode(&r, &t) == 0)
		FZ_CHECK(memchr(t.tmask, 0, sizeof(t.tmask)) != NULL);
}

/* The tag tables: every tag with an index has a name. */
static void
fz_tags(struct fz *f)
{
	int32_t tag = (int32_t)fz_u32(f);
	int tm = wire_tm_index(tag), dm = wire_dm_index(tag);

	FZ_CHECK(tm >= 0 && tm <= WIRE_TM_COUNT);
	FZ_CHECK(dm >= 0 && dm <= WIRE_DM_COUNT);
	if (tm != 0 || dm != 0)
		FZ_CHECK(wire_tag_name(tag) != NULL);
}

/* The decoders that take (bytes, length) alone. */
static fz_plain_fn *const plain[] = {
    fz_hdr,
    fz_total,
    fz_bulkack,
    fz_routereq,
    fz_routeaddr,
    fz_routehello,
    fz_sd_exec,
    fz_sd_add,
    fz_sd_answers,
    fz_sd_tracer,
};
#define NPLAIN (sizeof(plain) / sizeof(plain[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	unsigned which;

	fz_init(&f, data, size);
	which = fz_byte(&f) % (NPLAIN + 2);
	if (which == NPLAIN) {
		fz_bulk(&f);
	} else if (which == NPLAIN + 1) {
		fz_tags(&f);
	} else {
		fz_run_plain(&f, plain[which]);
	}
	return 0;
}
