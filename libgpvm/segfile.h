/*
 * segfile.h: the files behind the groups' shared-memory segments (the
 * barrier segment, gseg.c, and the data segment, gdata.c): created
 * private to the user, mapped whole, refused when they are not ours or
 * not the size we expect.  What lies inside is the caller's business.
 */
#ifndef PVM_SEGFILE_H
#define PVM_SEGFILE_H

#include <stddef.h>

/* Map the LEN-byte file PATH read-write: NULL if it is missing, another
 * user's, or of another size. */
void *segfile_map(const char *path, size_t len);

/* Make PATH afresh (mode 0600, sparse, LEN bytes) and map it: NULL and
 * no file left on failure. */
void *segfile_create(const char *path, size_t len);

#endif
