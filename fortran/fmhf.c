/*
 * fmhf.c: message handlers written in Fortran (pvmfaddmhf, pvmfdelmhf).
 *
 * libpvm calls a handler as f(bufid) with bufid by value, but a Fortran
 * INTEGER FUNCTION f(bufid) expects an address.  (PVM 3.4 handed the
 * Fortran function to pvm_addmhf as it was, so the handler read its
 * argument from a bogus address.)  Here each Fortran handler gets one
 * of FMHF_MAX slots, and every slot has its own small C trampoline that
 * calls the Fortran function with &bufid.  The handler runs while the
 * program is inside a libpvm call, never asynchronously, so the table
 * needs no locking.
 *
 * Argument order is PVM 3.4's: pvmfaddmhf(src, tag, ctx, mhid, func,
 * info).  info receives the handler id (>= 0) or the error, as in PVM
 * 3.4; mhid is not used (PVM 3.4 ignored it too) and is never written,
 * so a constant may be passed there.
 */
#include "fpvm.h"

#include <stddef.h>

#define FMHF_MAX 32

static struct {
	fmhf_fn fn; /* NULL: slot free */
	int id;     /* libpvm's handler id */
} fmhf_slot[FMHF_MAX];

/* clang-format off */
#define FMHF_TRAMP(i)                                                     \
	static int                                                        \
	fmhf_tramp##i(int bufid)                                          \
	{                                                                 \
		return fmhf_slot[i].fn != NULL ? fmhf_slot[i].fn(&bufid) : 0; \
	}
FMHF_TRAMP(0)  FMHF_TRAMP(1)  FMHF_TRAMP(2)  FMHF_TRAMP(3)
FMHF_TRAMP(4)  FMHF_TRAMP(5)  FMHF_TRAMP(6)  FMHF_TRAMP(7)
FMHF_TRAMP(8)  FMHF_TRAMP(9)  FMHF_TRAMP(10) FMHF_TRAMP(11)
FMHF_TRAMP(12) FMHF_TRAMP(13) FMHF_TRAMP(14) FMHF_TRAMP(15)
FMHF_TRAMP(16) FMHF_TRAMP(17) FMHF_TRAMP(18) FMHF_TRAMP(19)
FMHF_TRAMP(20) FMHF_TRAMP(21) FMHF_TRAMP(22) FMHF_TRAMP(23)
FMHF_TRAMP(24) FMHF_TRAMP(25) FMHF_TRAMP(26) FMHF_TRAMP(27)
FMHF_TRAMP(28) FMHF_TRAMP(29) FMHF_TRAMP(30) FMHF_TRAMP(31)

static int (*const fmhf_tramp[FMHF_MAX])(int) = {
	fmhf_tramp0,  fmhf_tramp1,  fmhf_tramp2,  fmhf_tramp3,
	fmhf_tramp4,  fmhf_tramp5,  fmhf_tramp6,  fmhf_tramp7,
	fmhf_tramp8,  fmhf_tramp9,  fmhf_tramp10, fmhf_tramp11,
	fmhf_tramp12, fmhf_tramp13, fmhf_tramp14, fmhf_tramp15,
	fmhf_tramp16, fmhf_tramp17, fmhf_tramp18, fmhf_tramp19,
	fmhf_tramp20, fmhf_tramp21, fmhf_tramp22, fmhf_tramp23,
	fmhf_tramp24, fmhf_tramp25, fmhf_tramp26, fmhf_tramp27,
	fmhf_tramp28, fmhf_tramp29, fmhf_tramp30, fmhf_tramp31,
};
/* clang-format on */

/* pvm_addmhf with a Fortran handler. */
void
FPVM(pvmfaddmhf, PVMFADDMHF)(
    int *src, int *tag, int *ctx, int *mhid, fmhf_fn func, int *info)
{
	int i, cc;

	(void)mhid;
	if (func == NULL) {
		*info = PvmBadParam;
		return;
	}
	for (i = 0; i < FMHF_MAX && fmhf_slot[i].fn != NULL; i++) {
		continue;
	}
	if (i == FMHF_MAX) {
		*info = PvmOutOfRes;
		return;
	}
	/* Fill the slot first: the handler may run inside pvm_addmhf. */
	fmhf_slot[i].fn = func;
	fmhf_slot[i].id = -1;
	if ((cc = pvm_addmhf(*src, *tag, *ctx, fmhf_tramp[i])) < 0) {
		fmhf_slot[i].fn = NULL;
	} else {
		fmhf_slot[i].id = cc;
	}
	*info = cc;
}

/* pvm_delmhf; frees the handler's slot. */
void
FPVM(pvmfdelmhf, PVMFDELMHF)(int *mhid, int *info)
{
	int i;

	if ((*info = pvm_delmhf(*mhid)) < 0) {
		return;
	}
	for (i = 0; i < FMHF_MAX; i++) {
		if (fmhf_slot[i].fn != NULL && fmhf_slot[i].id == *mhid) {
			fmhf_slot[i].fn = NULL;
			break;
		}
	}
}
