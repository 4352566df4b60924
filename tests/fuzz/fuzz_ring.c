/*
 * fuzz_ring.c: the shared-memory ring codec (common/ring.c) against a
 * hostile peer.
 *
 * Input: one choice byte.  Choice 0: the rest is a segment header as an
 * acceptor maps it (with a mapping length from the input); whatever
 * ring_seg_check accepts must be a ring size we make, and a mapping of
 * exactly two rings.  Otherwise: a ring of 4 KiB (data in a block of
 * exactly that size, so a copy past its end is seen), then operations:
 * the peer publishes any 64-bit index it likes, or a byte count is read
 * or written as libpvm/shm.c does (ring_readable / ring_writable, then
 * ring_get / ring_put).  An accepted count never exceeds what was asked
 * or the ring, and while the peer behaves, every byte written comes out
 * in order.
 */
#include "fuzz.h"
#include "ring.h"

#define FZ_RING 4096

static void
fz_seg(struct fz *f)
{
	struct ring_seg seg;
	size_t got, size, maplen = fz_u32(f);
	const uint8_t *p = fz_take(f, sizeof(seg), &got);

	memset(&seg, 0, sizeof(seg));
	memcpy(&seg, p, got);
	size = ring_seg_check(&seg, maplen);
	if (size != 0)
		FZ_CHECK(ring_size_ok(size) && maplen == ring_seg_len(size));
}

/* A 64-bit index from the input. */
static uint64_t
fz_u64(struct fz *f)
{
	uint64_t hi = fz_u32(f);

	return (hi << 32) | fz_u32(f);
}

static void
fz_stream(struct fz *f)
{
	uint8_t *data = malloc(FZ_RING), buf[FZ_RING + 64];
	uint64_t head = 0, tail = 0, wrote = 0, read = 0;
	int honest = 1;
	long long k;
	size_t want, i;

	if (data == NULL)
		return;
	memset(data, 0, FZ_RING);
	while (f->n > 0) {
		switch (fz_byte(f) % 4) {
		case 0: /* the peer lies about the producer index */
			tail = fz_u64(f);
			honest = 0;
			break;
		case 1: /* ... or the consumer index */
			head = fz_u64(f);
			honest = 0;
			break;
		case 2:
			want = fz_u32(f) % sizeof(buf);
			k = ring_writable(head, tail, FZ_RING, want);
			if (k < 0)
				break;
			FZ_CHECK((size_t)k <= want && k <= FZ_RING);
			for (i = 0; i < (size_t)k; i++)
				buf[i] = (uint8_t)(wrote + i);
			ring_put(data, FZ_RING, tail, buf, (size_t)k);
			tail += (uint64_t)k;
			wrote += (uint64_t)k;
			break;
		default:
			want = fz_u32(f) % sizeof(buf);
			k = ring_readable(head, tail, FZ_RING, want);
			if (k < 0)
				break;
			FZ_CHECK((size_t)k <= want && k <= FZ_RING);
			ring_get(data, FZ_RING, head, buf, (size_t)k);
			for (i = 0; honest && i < (size_t)k; i++)
				FZ_CHECK(buf[i] == (uint8_t)(read + i));
			head += (uint64_t)k;
			read += (uint64_t)k;
			break;
		}
	}
	free(data);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;

	fz_init(&f, data, size);
	if (fz_byte(&f) == 0)
		fz_seg(&f);
	else
		fz_stream(&f);
	return 0;
}
