/*
 * fatal.c: how a job ends early.
 *
 * SHMEM's convention for a broken rule is to stop the whole job, not to
 * return an error: each PE could otherwise wait forever for the others.
 * The PE prints one line naming the call, tells oshrun (SHM_TAG_ABORT),
 * which stops the other PEs, and leaves at once, without the atexit
 * finalize that would wait for them.
 */
#include "shm.h"

#include "launch.h"
#include "pvm3.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void
shm_global_exit(int status)
{
	shm.aborting = 1;
	fflush(stdout);
	fflush(stderr);
	if (shm.launcher > 0 && pvm_initsend(PvmDataDefault) >= 0 &&
	    pvm_pkint(&status, 1, 1) >= 0)
		pvm_send(shm.launcher, SHM_TAG_ABORT);
	_exit(status);
}

void
shm_fatal(const char *call, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (shm.inited)
		fprintf(stderr, "libpvmshmem: PE %d: %s: ", shm.mype, call);
	else
		fprintf(stderr, "libpvmshmem: %s: ", call);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	shm_global_exit(1);
}
