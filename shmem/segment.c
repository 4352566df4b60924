/*
 * segment.c: the symmetric regions of this PE.
 *
 * OpenSHMEM makes a program's global and static variables symmetric
 * (Fortran COMMON blocks too), so other PEs must reach them while this
 * one computes.  At start-up, while the program is single-threaded, the
 * writable segment of the main program is copied to a memfd and the
 * memfd mapped over it at the same address: the variables keep their
 * addresses and values, and now live in memory that the other PEs of the
 * host can map (through /proc/PID/fd/N, which the kernel allows a process
 * of the same user).  The symmetric heap is a second memfd.  Both are
 * sparse: untouched pages cost nothing.
 *
 * The RELRO part at the start of the segment stays read-only, except for
 * the one page it may share with writable data.
 */
#define _GNU_SOURCE
#include "shm.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The segment is copied page by page, redzones included: under
 * AddressSanitizer those reads are not bugs, so the scan is not
 * instrumented and the write bypasses ASan's pwrite interceptor. */
#if defined(__SANITIZE_ADDRESS__)
#define SEG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEG_ASAN 1
#endif
#endif
#ifdef SEG_ASAN
#define SEG_RAW __attribute__((no_sanitize("address")))
#define seg_pwrite(fd, buf, n, off) syscall(SYS_pwrite64, fd, buf, n, off)
#else
#define SEG_RAW
#define seg_pwrite(fd, buf, n, off) pwrite(fd, buf, n, off)
#endif

struct seg_find {
	uintptr_t lo, hi;
	int found;
};

/* The main program's writable PT_LOAD, minus whole pages of RELRO. */
static int
seg_find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct seg_find *f = arg;
	uintptr_t relro_end = 0, page = (uintptr_t)sysconf(_SC_PAGESIZE);
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_GNU_RELRO)
			relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo, hi;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		lo = info->dlpi_addr + ph->p_vaddr;
		hi = lo + ph->p_memsz;
		if (relro_end > lo && relro_end <= hi)
			lo = relro_end;
		f->lo = lo & ~(page - 1);
		f->hi = (hi + page - 1) & ~(page - 1);
		f->found = f->hi > f->lo;
	}
	return 1; /* the first object is the main program: stop there */
}

/* Whether a page holds only zeros (reading an untouched page of .bss
 * maps the shared zero page: no memory is used). */
SEG_RAW static int
seg_page_zero(const unsigned char *p, size_t page)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t i;

	for (i = 0; i < page / sizeof(*w); i++)
		if (w[i] != 0)
			return 0;
	return 1;
}

/* Copy the pages of [lo, lo+len) that are not all zero into fd: the
 * memfd reads as zeros elsewhere, so a large .bss costs no memory. */
static int
seg_copy(int fd, uintptr_t lo, size_t len, size_t page)
{
	size_t off;

	for (off = 0; off < len; off += page) {
		size_t done = 0;

		if (seg_page_zero((const unsigned char *)lo + off, page))
			continue;
		while (done < page) {
			ssize_t n = seg_pwrite(fd, (char *)lo + off + done,
			    page - done, (off_t)(off + done));

			if (n <= 0) {
				if (n == -1 && errno == EINTR)
					continue;
				return -1;
			}
			done += (size_t)n;
		}
	}
	return 0;
}

/* Move [lo, hi) onto a fresh memfd at the same address. */
static int
seg_remap(uintptr_t lo, uintptr_t hi)
{
	size_t len = hi - lo, page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = memfd_create("pvmshmem-data", MFD_CLOEXEC);

	if (fd == -1)
		return -1;
	if (ftruncate(fd, (off_t)len) == -1 ||
	    seg_copy(fd, lo, len, page) == -1)
		goto fail;
	if (mmap((void *)lo, len, PROT_READ | PROT_WRITE,
	        MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		goto fail;
	shm.data_fd = fd;
	return 0;
fail:
	close(fd);
	return -1;
}

static int
seg_heap(size_t len)
{
	int fd = memfd_create("pvmshmem-heap", MFD_CLOEXEC);
	void *p;

	if (fd == -1)
		return -1;
	if (ftruncate(fd, (off_t)len) == -1 ||
	    (p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
	        MAP_FAILED) {
		close(fd);
		return -1;
	}
	shm.heap = p;
	shm.heap_len = len;
	shm.heap_fd = fd;
	return 0;
}

int
shm_segment_setup(size_t heap_len)
{
	struct seg_find f = {0, 0, 0};

	dl_iterate_phdr(seg_find_cb, &f);
	if (!f.found) {
		errno = ENOEXEC;
		return -1;
	}
	if (seg_remap(f.lo, f.hi) == -1)
		return -1;
	shm.data_lo = f.lo;
	shm.data_hi = f.hi;
	return seg_heap(heap_len);
}
