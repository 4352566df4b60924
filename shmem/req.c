/*
 * req.c: the agent's decoder of one-sided requests (req.h).  Pure, so
 * that a unit test can feed it anything: a request the agent runs must
 * stay inside the target PE's region, whatever its numbers say.
 */
#include "req.h"

#include <inttypes.h>
#include <stdio.h>

/* Bytes from off to the end of the last element touched, or 0 with *bad
 * set when that does not fit in 64 bits. */
static uint64_t
req_strided_span(const struct shm_req *r, int *bad)
{
	uint64_t last;

	if (r->count == 0)
		return 0;
	if (r->stride < 1 || (uint64_t)r->stride > (UINT64_MAX >> 1)) {
		*bad = 1;
		return 0;
	}
	/* (count - 1) * stride + 1 elements of width bytes */
	if (r->count - 1 > (UINT64_MAX >> 2) / (uint64_t)r->stride) {
		*bad = 1;
		return 0;
	}
	last = (r->count - 1) * (uint64_t)r->stride + 1;
	if (last > (UINT64_MAX >> 2) / r->width) {
		*bad = 1;
		return 0;
	}
	return last * r->width;
}

uint64_t
shm_req_span(const struct shm_req *r)
{
	int bad = 0;

	switch (r->op) {
	case SHM_OP_PUT:
	case SHM_OP_GET:
		return r->count;
	case SHM_OP_IPUT:
	case SHM_OP_IGET:
		return req_strided_span(r, &bad);
	case SHM_OP_AMO:
		return r->width;
	case SHM_OP_SLOT:
		return 4;
	default:
		return 0;
	}
}

/* The width and payload rules of each operation. */
static const char *
req_check_op(const struct shm_req *r, size_t payload)
{
	switch (r->op) {
	case SHM_OP_PUT:
		if (r->count != payload)
			return "a put whose byte count is not its payload's";
		if (r->count > SHM_REQ_CHUNK)
			return "a put larger than a chunk";
		return 0;
	case SHM_OP_IPUT:
		if (r->width == 0 || r->width > 16)
			return "a strided put of an element size not 1 to 16";
		if (r->count > SHM_REQ_CHUNK || r->count * r->width != payload)
			return "a strided put whose payload is not count "
			       "elements";
		return 0;
	case SHM_OP_IGET:
		if (r->width == 0 || r->width > 16)
			return "a strided get of an element size not 1 to 16";
		/* fall through */
	case SHM_OP_GET:
	case SHM_OP_SLOT:
	case SHM_OP_FLUSH:
		return payload == 0 ? 0 : "a payload on a request that has none";
	case SHM_OP_AMO:
		if (r->width != 4 && r->width != 8)
			return "an atomic of a width not 4 or 8";
		if (r->amo < SHM_AMO_FETCH || r->amo > SHM_AMO_XOR)
			return "an unknown atomic operation";
		return payload == 0 ? 0 : "a payload on an atomic";
	default:
		return "an unknown operation";
	}
}

const char *
shm_req_check(
    const struct shm_req *r, size_t payload, const struct shm_req_limits *lim)
{
	const char *why;
	uint64_t len, span;
	int bad = 0;

	if ((why = req_check_op(r, payload)) != 0)
		return why;
	if (r->op == SHM_OP_FLUSH)
		return 0;
	if (r->pe < 0 || r->pe >= lim->npes)
		return "a PE that does not exist";
	if (!lim->local[r->pe])
		return "a PE that is not on this host";
	if (r->region == SHM_REGION_DATA)
		len = lim->data_len;
	else if (r->region == SHM_REGION_HEAP)
		len = lim->heap_len;
	else
		return "an unknown region";
	if (r->op == SHM_OP_IPUT || r->op == SHM_OP_IGET)
		span = req_strided_span(r, &bad);
	else
		span = shm_req_span(r);
	if (bad)
		return "a stride or count too large";
	if (r->off > len || span > len - r->off)
		return "bytes outside the region";
	if ((r->op == SHM_OP_AMO || r->op == SHM_OP_SLOT) &&
	    (r->off & (span - 1)) != 0)
		return "a misaligned atomic";
	return 0;
}

static const char *
req_op_name(unsigned op)
{
	static const char *const names[] = {"an unknown request", "a put",
	    "a get", "a strided put", "a strided get", "an atomic",
	    "a barrier slot add", "a flush"};

	return op < sizeof(names) / sizeof(names[0]) ? names[op] : names[0];
}

static const char *
req_region_name(unsigned region)
{
	if (region == SHM_REGION_DATA)
		return "data";
	return region == SHM_REGION_HEAP ? "heap" : "region?";
}

void
shm_req_name(const struct shm_req *r, char *buf, size_t n)
{
	const char *what = req_op_name(r->op);

	if (r->op == SHM_OP_FLUSH) {
		snprintf(buf, n, "%s", what);
		return;
	}
	snprintf(buf, n,
	    "%s (op %u, count %" PRIu64 ", width %" PRIu32 ") at %s+0x%" PRIx64
	    " of PE %" PRId32,
	    what, (unsigned)r->op, r->count, r->width,
	    req_region_name(r->region), r->off, r->pe);
}
