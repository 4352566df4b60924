/*
 * segfile.c: create and map the files behind the groups' shared-memory
 * segments (segfile.h).
 */
#include "segfile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
	return p == MAP_FAILED ? NULL : p;
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
	return p;
}
