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
#include <string.h>
#include <unistd.h>

int
shm_ctx_base(void)
{
	int ctx = pvm_getcontext();

	if (ctx != 0)
		pvm_setcontext(0);
	return ctx;
}

void
shm_global_exit(int status)
{
	shm.aborting = 1;
	fflush(stdout);
	fflush(stderr);
	if (shm.launcher > 0 && pvm_initsend(PvmDataDefault) >= 0 &&
	    pvm_pkint(&status, 1, 1) >= 0) {
		(void)shm_ctx_base();
		pvm_send(shm.launcher, SHM_TAG_ABORT);
	}
	_exit(status);
}

/*
 * The line is built first and written with one write(2): several PEs
 * often fail at once, and stderr is unbuffered, so pieces written
 * separately interleave into lines that name the wrong PE.
 */
void
shm_fatal(const char *call, const char *fmt, ...)
{
	char line[1024] = "";
	va_list ap;
	int n;

	fflush(stdout);
	if (shm.inited)
		n = snprintf(line, sizeof(line),
		    "libpvmshmem: PE %d: %s: ", shm.mype, call);
	else
		n = snprintf(line, sizeof(line), "libpvmshmem: %s: ", call);
	if (n >= 0 && (size_t)n < sizeof(line)) {
		va_start(ap, fmt);
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	n = (int)strlen(line);
	if ((size_t)n == sizeof(line) - 1)
		n--; /* cut: keep room for the newline */
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, (size_t)n) < 0) {
		/* Nowhere left to say it: the exit status tells. */
	}
	shm_global_exit(1);
}
