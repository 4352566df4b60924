/*
 * segfile.c: create and map the files behind the groups' shared-memory
 * segments (segfile.h).
 */
#include "segfile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A fault in a file mapping reads ahead; in a sparse file on a disk file
 * system (PVM_TMP on /tmp, often not tmpfs) that means zeroing and
 * accounting page-cache pages around every slot header touched, and
 * freeing them again when the file goes: pvm_lvgroup of the last two
 * members took 100 to 170 ms here, nearly all in readahead and page-cache
 * deletion (perf of pvmgs).  The segments are read at scattered places,
 * never in sequence.
 */
static void
segfile_no_readahead(void *p, size_t len)
{
	(void)madvise(p, len, MADV_RANDOM);
}

void *
segfile_map(const char *path, size_t len)
{
	struct stat st;
	void *p;
	int fd;

	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
		return NULL;
	}
	if (fstat(fd, &st) != 0 || st.st_size != (off_t)len ||
	    st.st_uid != geteuid()) {
		close(fd);
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		return NULL;
	}
	segfile_no_readahead(p, len);
	return p;
}

void *
segfile_create(const char *path, size_t len)
{
	void *p;
	int fd;

	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		return NULL;
	}
	/* Sparse: only the pages in use get memory. */
	if (ftruncate(fd, (off_t)len) != 0) {
		close(fd);
		unlink(path);
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		unlink(path);
		return NULL;
	}
	segfile_no_readahead(p, len);
	return p;
}
