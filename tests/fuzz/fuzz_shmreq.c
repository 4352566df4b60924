/*
 * fuzz_shmreq.c: the SHMEM agent's request decoder (shmem/req.c) against
 * a hostile PE of another host.
 *
 * Input: the job (PE count 1..64, which PEs are on the agent's host,
 * the lengths of the data and heap regions), then a struct shm_req as
 * raw bytes and a payload length.  Whatever shm_req_check accepts must
 * be safe for the agent to perform: a PE that exists and is on its host,
 * a known region, every byte the request touches -- the first and the
 * last element of a strided one, with the stride checked in 128-bit
 * arithmetic -- inside that region, an atomic aligned to its width, and
 * a payload of exactly the bytes a put carries.  And shm_req_name, which
 * words the agent's refusal of any request, must stay inside its buffer
 * and end it with a NUL.
 */
#include "fuzz.h"
#include "req.h"

static void
fz_accepted(const struct shm_req *r, size_t payload,
    const struct shm_req_limits *lim)
{
	uint64_t len, span = shm_req_span(r);

	if (r->op == SHM_OP_FLUSH) {
		FZ_CHECK(payload == 0);
		return;
	}
	FZ_CHECK(r->pe >= 0 && r->pe < lim->npes && lim->local[r->pe]);
	FZ_CHECK(r->region == SHM_REGION_DATA || r->region == SHM_REGION_HEAP);
	len = r->region == SHM_REGION_DATA ? lim->data_len : lim->heap_len;
	FZ_CHECK(r->off <= len && span <= len - r->off);
	if (r->op == SHM_OP_PUT)
		FZ_CHECK(payload == r->count && payload <= SHM_REQ_CHUNK);
	if (r->op == SHM_OP_AMO) {
		FZ_CHECK(r->width == 4 || r->width == 8);
		FZ_CHECK(r->off % r->width == 0 && payload == 0);
	}
	if ((r->op == SHM_OP_IPUT || r->op == SHM_OP_IGET) && r->count > 0) {
		unsigned __int128 last = (unsigned __int128)(r->count - 1) *
		    (unsigned __int128)r->stride * r->width;

		FZ_CHECK(r->stride >= 1 && r->width >= 1 && r->width <= 16);
		FZ_CHECK(last + r->width + r->off <= len);
		if (r->op == SHM_OP_IPUT)
			FZ_CHECK(payload == r->count * r->width);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	struct shm_req r;
	struct shm_req_limits lim;
	unsigned char local[64];
	const uint8_t *p;
	size_t got, payload;
	int i;

	fz_init(&f, data, size);
	lim.npes = 1 + fz_byte(&f) % 64;
	for (i = 0; i < lim.npes; i++)
		local[i] = fz_byte(&f) & 1;
	lim.local = local;
	lim.data_len = fz_u32(&f);
	lim.heap_len = (uint64_t)fz_u32(&f) << (fz_byte(&f) % 16);
	payload = fz_u32(&f) % (2 * SHM_REQ_CHUNK + 2);
	memset(&r, 0, sizeof(r));
	p = fz_take(&f, sizeof(r), &got);
	memcpy(&r, p, got);
	if (shm_req_check(&r, payload, &lim) == NULL)
		fz_accepted(&r, payload, &lim);
	{
		char name[SHM_REFUSED_MAX / 2 + 1];

		name[sizeof(name) - 1] = 'x';
		shm_req_name(&r, name, sizeof(name) - 1);
		FZ_CHECK(memchr(name, '\0', sizeof(name) - 1) != NULL);
		FZ_CHECK(name[sizeof(name) - 1] == 'x');
	}
	return 0;
}
