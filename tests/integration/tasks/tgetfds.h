/*
 * tgetfds.h: counts the calls of pvm_getfds, for the group programs.
 * libgpvm must never call it: from then on every message written into
 * one of the task's rings costs its writer a write(2) to the ring's
 * socket (libpvm/shm.c).  A program that includes this defines its own
 * pvm_getfds, which comes before libpvm3's for libgpvm3's calls, counts
 * them and passes them on.  Include it in one file of a program.
 */
#ifndef TGETFDS_H
#define TGETFDS_H

#include <dlfcn.h>

#include "pvm3.h"

static int getfds_calls;

int
pvm_getfds(int **fds)
{
	static int (*real)(int **);

	getfds_calls++;
	if (real == NULL) {
		*(void **)&real = dlsym(RTLD_NEXT, "pvm_getfds");
	}
	return real != NULL ? real(fds) : PvmSysErr;
}

#endif /* TGETFDS_H */
