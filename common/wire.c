/*
 * wire.c: frame header codec.  Pure functions: no I/O, no allocation, so
 * the unit tests and a fuzzer can call them on any bytes.
 */
#include "wire.h"
#include "be.h"

#include <string.h>



/* Write the header into out[WIRE_HDR_LEN]. */
void
wire_hdr_encode(const struct wire_hdr *h, uint8_t *out)
{
	put32(out, WIRE_MAGIC);
	put32(out + 4, ((uint32_t)h->version << 16) | h->flags);
	put32(out + 8, (uint32_t)(h->len >> 32));
	put32(out + 12, (uint32_t)h->len);
	put32(out + 16, (uint32_t)h->dst);
	put32(out + 20, (uint32_t)h->src);
	put32(out + 24, (uint32_t)h->tag);
	put32(out + 28, (uint32_t)h->ctx);
	put32(out + 32, (uint32_t)h->enc);
	put32(out + 36, (uint32_t)h->wid);
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint64_t
get64(const uint8_t *p)
{
	return ((uint64_t)get32(p) << 32) | get32(p + 4);
}

void
wire_total_encode(uint64_t total, uint8_t *out)
{
	put64(out, total);
}

uint64_t
wire_total_decode(const uint8_t *p)
{
	return get64(p);
}

size_t
wire_bulk_len(uint32_t nseg)
{
	return WIRE_BULK_FIXED + (size_t)nseg * WIRE_BULK_SEGLEN;
}

void
wire_bulk_encode(const struct wire_bulk *b, const uint64_t *addr,
    const uint64_t *len, uint8_t *out)
{
	uint32_t i;

	put32(out, (uint32_t)b->tag);
	put32(out + 4, (uint32_t)b->ctx);
	put32(out + 8, (uint32_t)b->enc);
	put32(out + 12, (uint32_t)b->wid);
	put32(out + 16, b->pid);
	put64(out + 20, b->cookie);
	put64(out + 28, b->ticket);
	put64(out + 36, b->total);
	put32(out + 44, b->nseg);
	for (i = 0; i < b->nseg; i++) {
		put64(out + WIRE_BULK_FIXED + i * WIRE_BULK_SEGLEN, addr[i]);
		put64(out + WIRE_BULK_FIXED + i * WIRE_BULK_SEGLEN + 8, len[i]);
	}
}

void
wire_bulk_seg(const struct wire_bulk *b, uint32_t i, uint64_t *addr,
    uint64_t *len)
{
	*addr = get64(b->segs + (size_t)i * WIRE_BULK_SEGLEN);
	*len = get64(b->segs + (size_t)i * WIRE_BULK_SEGLEN + 8);
}

int
wire_bulk_decode(const uint8_t *p, size_t n, uint64_t max,
    struct wire_bulk *b)
{
	uint64_t sum = 0, addr, len;
	uint32_t i;

	if (n < WIRE_BULK_FIXED)
		return -1;
	b->tag = (int32_t)get32(p);
	b->ctx = (int32_t)get32(p + 4);
	b->enc = (int32_t)get32(p + 8);
	b->wid = (int32_t)get32(p + 12);
	b->pid = get32(p + 16);
	b->cookie = get64(p + 20);
	b->ticket = get64(p + 28);
	b->total = get64(p + 36);
	b->nseg = get32(p + 44);
	b->segs = p + WIRE_BULK_FIXED;
	if (b->nseg > WIRE_BULK_MAXSEG || n != wire_bulk_len(b->nseg) ||
	    b->total > max)
		return -1;
	for (i = 0; i < b->nseg; i++) {
		wire_bulk_seg(b, i, &addr, &len);
		if (len > max - sum)
			return -1;
		sum += len;
	}
	return sum == b->total ? 0 : -1;
}

void
wire_bulkack_encode(uint64_t cookie, int32_t status, uint8_t *out)
{
	put64(out, cookie);
	put32(out + 8, (uint32_t)status);
}

int
wire_bulkack_decode(const uint8_t *p, size_t n, uint64_t *cookie,
    int32_t *status)
{
	if (n != WIRE_BULKACK_LEN)
		return -1;
	*cookie = get64(p);
	*status = (int32_t)get32(p + 8);
	return 0;
}

void
wire_routereq_encode(int32_t marker, uint8_t *out)
{
	put32(out, (uint32_t)marker);
}

int
wire_routereq_decode(const uint8_t *p, size_t n, int32_t *marker)
{
	if (n != WIRE_ROUTEREQ_LEN)
		return -1;
	*marker = (int32_t)get32(p);
	return *marker > 0 ? 0 : -1;
}

/* Bytes of an XDR string of len bytes: length word, bytes, NUL, padding. */
static size_t
route_strsize(size_t len)
{
	return 4 + ((len + 1 + 3) & ~(size_t)3);
}

size_t
wire_routeaddr_encode(const struct wire_routeaddr *a, uint8_t *out)
{
	size_t hl = strnlen(a->host, sizeof(a->host)), off;

	if (hl > WIRE_ROUTE_HOSTMAX || a->marker <= 0 || a->port < 0 ||
	    a->port > 65535)
		return 0;
	put32(out, (uint32_t)a->marker);
	put32(out + 4, (uint32_t)(hl + 1));
	off = 4 + route_strsize(hl);
	memset(out + 8, 0, off - 8); /* NUL and padding */
	memcpy(out + 8, a->host, hl);
	put32(out + off, (uint32_t)a->port);
	memcpy(out + off + 4, a->cookie, WIRE_ROUTE_COOKIE);
	return off + 4 + WIRE_ROUTE_COOKIE;
}

/* The host string of a TC_ROUTEADDR at p (n bytes) into a->host; its
 * encoded size, or 0 if malformed. */
static size_t
routeaddr_host(const uint8_t *p, size_t n, struct wire_routeaddr *a)
{
	uint32_t slen;
	size_t sz, i;

	if (n < 4)
		return 0;
	slen = get32(p);
	if (slen < 1 || slen > WIRE_ROUTE_HOSTMAX + 1)
		return 0;
	sz = route_strsize(slen - 1);
	if (sz > n)
		return 0;
	for (i = 0; i < slen - 1; i++) {
		if (p[4 + i] == 0)
			return 0;
	}
	for (i = slen - 1; i < sz - 4; i++) {
		if (p[4 + i] != 0)
			return 0; /* the NUL and the padding */
	}
	memcpy(a->host, p + 4, slen - 1);
	a->host[slen - 1] = '\0';
	return sz;
}

int
wire_routeaddr_decode(const uint8_t *p, size_t n, struct wire_routeaddr *a)
{
	size_t off;

	if (n < 4)
		return -1;
	a->marker = (int32_t)get32(p);
	if (a->marker <= 0 || (off = routeaddr_host(p + 4, n - 4, a)) == 0)
		return -1;
	off += 4;
	if (n != off + 4 + WIRE_ROUTE_COOKIE)
		return -1;
	a->port = (int32_t)get32(p + off);
	memcpy(a->cookie, p + off + 4, WIRE_ROUTE_COOKIE);
	if (a->port < 0 || a->port > 65535 ||
	    (a->port > 0 && a->host[0] == '\0'))
		return -1;
	return 0;
}

void
wire_routehello_encode(int32_t marker, const uint8_t *cookie, uint8_t *out)
{
	put32(out, (uint32_t)marker);
	memcpy(out + 4, cookie, WIRE_ROUTE_COOKIE);
}

int
wire_routehello_decode(const uint8_t *p, size_t n, int32_t *marker,
    uint8_t *cookie)
{
	if (n != WIRE_ROUTEHELLO_LEN)
		return -1;
	*marker = (int32_t)get32(p);
	memcpy(cookie, p + 4, WIRE_ROUTE_COOKIE);
	return *marker > 0 ? 0 : -1;
}

/* Decode and validate the header in the first n bytes at p. */
enum wire_status
wire_hdr_decode(const uint8_t *p, size_t n, struct wire_hdr *h)
{
	uint32_t vf;

	if (n < WIRE_HDR_LEN)
		return WIRE_SHORT;
	if (get32(p) != WIRE_MAGIC)
		return WIRE_BADMAGIC;
	vf = get32(p + 4);
	h->version = (uint16_t)(vf >> 16);
	h->flags = (uint16_t)vf;
	if (h->version != WIRE_VERSION)
		return WIRE_BADVERSION;
	if ((h->flags & ~WIRE_F_KNOWN) != 0)
		return WIRE_BADFLAGS;
	h->len = ((uint64_t)get32(p + 8) << 32) | get32(p + 12);
	if (h->len > WIRE_FRAME_MAX)
		return WIRE_TOOBIG;
	h->dst = (int32_t)get32(p + 16);
	h->src = (int32_t)get32(p + 20);
	h->tag = (int32_t)get32(p + 24);
	h->ctx = (int32_t)get32(p + 28);
	h->enc = (int32_t)get32(p + 32);
	h->wid = (int32_t)get32(p + 36);
	return WIRE_OK;
}

/* A short text for a wire_status, for logs. */
const char *
wire_status_str(enum wire_status st)
{
	switch (st) {
	case WIRE_OK:
		return "ok";
	case WIRE_SHORT:
		return "short header";
	case WIRE_BADMAGIC:
		return "bad magic";
	case WIRE_BADVERSION:
		return "protocol version mismatch";
	case WIRE_BADFLAGS:
		return "unknown frame flags";
	case WIRE_TOOBIG:
		return "frame length over limit";
	}
	return "unknown";
}

/* Index 1..count of a tag in the list starting at base, or 0. */
static int
wire_list_index(int32_t tag, uint32_t base, uint32_t count)
{
	uint32_t t = (uint32_t)tag;

	if ((t & 0xffff0000u) != base)
		return 0;
	t &= 0xffffu;
	return (t >= 1 && t <= count) ? (int)t : 0;
}

/* Index 1..WIRE_TM_COUNT of a TM tag, or 0. */
int
wire_tm_index(int32_t tag)
{
	return wire_list_index(tag, WIRE_TM_BASE, WIRE_TM_COUNT);
}

/* Index of a daemon-to-daemon tag, or 0. */
int
wire_dm_index(int32_t tag)
{
	return wire_list_index(tag, WIRE_DM_BASE, WIRE_DM_COUNT);
}

/* Name of a system tag, or NULL. */
const char *
wire_tag_name(int32_t tag)
{
	switch (tag) {
#define WIRE_NAME_CASE(name, num, text)                                       \
	case name:                                                            \
		return text;
		WIRE_TM_LIST(WIRE_NAME_CASE)
		WIRE_TC_LIST(WIRE_NAME_CASE)
		WIRE_DM_LIST(WIRE_NAME_CASE)
#undef WIRE_NAME_CASE
	}
	return NULL;
}
