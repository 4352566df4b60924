/*
 * heap.c: the symmetric heap.
 *
 * Every PE makes the same calls with the same sizes in the same order
 * (the documentation requires it), so a deterministic allocator gives
 * every PE the same offsets, and an object's offset names it on all of
 * them.  The allocator keeps its blocks in private memory, sorted by
 * offset, first fit, merging free neighbours: never in the heap itself,
 * where a put from another PE could break it.  Blocks are 64-byte
 * aligned, a cache line, so two objects never share one.  Each call ends
 * with a barrier, as the documentation describes.
 */
#include "shm.h"

#include "shmem.h"

#include <stdlib.h>
#include <string.h>

struct heap_block {
	size_t off, len;
	int used;
};

static struct heap_block *heap_blocks;
static size_t heap_nblocks, heap_cap;

#define HEAP_ALIGN 64

static int
heap_start(void)
{
	if (heap_blocks != NULL)
		return 0;
	heap_cap = 64;
	if ((heap_blocks = calloc(heap_cap, sizeof(*heap_blocks))) == NULL)
		return -1;
	heap_blocks[0].off = SHM_HEAP_RESERVED;
	heap_blocks[0].len = shm.heap_len - SHM_HEAP_RESERVED;
	heap_nblocks = 1;
	return 0;
}

/* Make room for one more block after index i. */
static int
heap_insert(size_t i, size_t off, size_t len, int used)
{
	if (heap_nblocks == heap_cap) {
		struct heap_block *nb =
		    realloc(heap_blocks, 2 * heap_cap * sizeof(*nb));

		if (nb == NULL)
			return -1;
		heap_blocks = nb;
		heap_cap *= 2;
	}
	memmove(&heap_blocks[i + 2], &heap_blocks[i + 1],
	    (heap_nblocks - i - 1) * sizeof(*heap_blocks));
	heap_blocks[i + 1] = (struct heap_block){off, len, used};
	heap_nblocks++;
	return 0;
}

/* Carve size bytes aligned to align from the first free block that fits. */
static void *
heap_alloc(size_t align, size_t size)
{
	size_t i;

	if (size == 0 || heap_start() == -1 || size > shm.heap_len)
		return NULL;
	size = (size + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
	for (i = 0; i < heap_nblocks; i++) {
		struct heap_block *b = &heap_blocks[i];
		size_t pad = (align - b->off % align) % align;

		if (b->used || b->len < pad + size)
			continue;
		if (pad > 0) { /* keep the gap as a free block */
			if (heap_insert(i, b->off + pad, b->len - pad, 0) == -1)
				return NULL;
			heap_blocks[i].len = pad;
			b = &heap_blocks[++i];
		}
		if (b->len > size) {
			if (heap_insert(i, b->off + size, b->len - size, 0) ==
			    -1)
				return NULL;
			b = &heap_blocks[i];
			b->len = size;
		}
		b->used = 1;
		return shm.heap + b->off;
	}
	return NULL;
}

static size_t
heap_find(const char *call, void *p)
{
	size_t off = (size_t)((char *)p - shm.heap), i;

	for (i = 0; i < heap_nblocks; i++)
		if (heap_blocks[i].off == off && heap_blocks[i].used)
			return i;
	shm_fatal(
	    call, "%p was not returned by shmem_malloc (or was freed)", p);
}

static void
heap_release(size_t i)
{
	heap_blocks[i].used = 0;
	if (i + 1 < heap_nblocks && !heap_blocks[i + 1].used) {
		heap_blocks[i].len += heap_blocks[i + 1].len;
		memmove(&heap_blocks[i + 1], &heap_blocks[i + 2],
		    (heap_nblocks - i - 2) * sizeof(*heap_blocks));
		heap_nblocks--;
	}
	if (i > 0 && !heap_blocks[i - 1].used) {
		heap_blocks[i - 1].len += heap_blocks[i].len;
		memmove(&heap_blocks[i], &heap_blocks[i + 1],
		    (heap_nblocks - i - 1) * sizeof(*heap_blocks));
		heap_nblocks--;
	}
}

void *
shmem_align(size_t alignment, size_t size)
{
	void *p;

	shm_need_init("shmem_align");
	if (alignment == 0 || (alignment & (alignment - 1)) != 0)
		return NULL;
	p = heap_alloc(alignment < HEAP_ALIGN ? HEAP_ALIGN : alignment, size);
	shmem_barrier_all();
	return p;
}

void *
shmem_malloc(size_t size)
{
	return shmem_align(HEAP_ALIGN, size);
}

void *
shmem_calloc(size_t count, size_t size)
{
	void *p;

	if (size != 0 && count > (size_t)-1 / size)
		return NULL;
	p = shmem_align(HEAP_ALIGN, count * size);
	if (p != NULL) {
		memset(p, 0, count * size);
		shmem_barrier_all();
	}
	return p;
}

void
shmem_free(void *ptr)
{
	shm_need_init("shmem_free");
	shmem_barrier_all();
	if (ptr != NULL)
		heap_release(heap_find("shmem_free", ptr));
}

void *
shmem_realloc(void *ptr, size_t size)
{
	size_t i, old;
	void *p;

	shm_need_init("shmem_realloc");
	if (ptr == NULL)
		return shmem_malloc(size);
	i = heap_find("shmem_realloc", ptr);
	if (size == 0) {
		shmem_free(ptr);
		return NULL;
	}
	old = heap_blocks[i].len;
	shmem_barrier_all(); /* nobody may still be writing the old block */
	if ((p = heap_alloc(HEAP_ALIGN, size)) != NULL) {
		memcpy(p, ptr, old < size ? old : size);
		heap_release(heap_find("shmem_realloc", ptr));
	}
	shmem_barrier_all();
	return p;
}

void *
shmalloc(size_t size)
{
	return shmem_malloc(size);
}
void *
shmemalign(size_t a, size_t size)
{
	return shmem_align(a, size);
}
void *
shrealloc(void *ptr, size_t size)
{
	return shmem_realloc(ptr, size);
}
void
shfree(void *ptr)
{
	shmem_free(ptr);
}
