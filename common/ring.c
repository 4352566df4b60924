/*
 * ring.c: the pure parts of the shared-memory rings (ring.h): checks of
 * what a peer wrote, and copies that wrap.  No atomics here: libpvm/shm.c
 * loads the indices and passes their values, so a fuzzer and the unit
 * tests can drive these with any values at all.
 */
#include "ring.h"

#include <string.h>

int
ring_size_ok(size_t size)
{
	return size >= RING_MIN && size <= RING_MAX && (size & (size - 1)) == 0;
}

size_t
ring_seg_check(const struct ring_seg *seg, size_t maplen)
{
	size_t size;

	if (seg == NULL || maplen < RING_DATA_OFF)
		return 0;
	if (seg->magic != RING_MAGIC || seg->version != RING_VERSION)
		return 0;
	size = seg->size;
	if (!ring_size_ok(size) || maplen != ring_seg_len(size))
		return 0;
	return size;
}

long long
ring_used(uint64_t head, uint64_t tail, size_t size)
{
	uint64_t used = tail - head; /* wraps to huge if tail < head */

	if (tail < head || used > (uint64_t)size)
		return -1;
	return (long long)used;
}

long long
ring_readable(uint64_t head, uint64_t tail, size_t size, size_t want)
{
	long long used = ring_used(head, tail, size);

	if (used < 0)
		return -1;
	return (unsigned long long)used < want ? used : (long long)want;
}

long long
ring_writable(uint64_t head, uint64_t tail, size_t size, size_t want)
{
	long long used = ring_used(head, tail, size);
	size_t room;

	if (used < 0)
		return -1;
	room = size - (size_t)used;
	return (long long)(room < want ? room : want);
}

void
ring_get(const uint8_t *data, size_t size, uint64_t at, void *dst, size_t n)
{
	size_t off = (size_t)(at & (uint64_t)(size - 1));
	size_t first = size - off;

	if (n > size)
		n = size; /* never past the data, whatever the caller says */
	if (first > n)
		first = n;
	memcpy(dst, data + off, first);
	if (n > first)
		memcpy((uint8_t *)dst + first, data, n - first);
}

void
ring_put(uint8_t *data, size_t size, uint64_t at, const void *src, size_t n)
{
	size_t off = (size_t)(at & (uint64_t)(size - 1));
	size_t first = size - off;

	if (n > size)
		n = size;
	if (first > n)
		first = n;
	memcpy(data + off, src, first);
	if (n > first)
		memcpy(data, (const uint8_t *)src + first, n - first);
}
