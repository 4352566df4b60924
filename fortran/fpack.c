/*
 * fpack.c: pvmfpack / pvmfunpack, one entry point for every type.
 *
 * `what` is one of fpvm3.h's type codes and selects the C routine:
 *   STRING    pk/upkbyte, nitem = number of characters (PVM 3.4 does the
 *             same: no length travels, so Fortran strings do not mix with
 *             C's pvm_pkstr/pvm_upkstr)
 *   BYTE1     pk/upkbyte       INTEGER2  pk/upkshort
 *   INTEGER4  pk/upkint        REAL4     pk/upkfloat
 *   COMPLEX8  pk/upkcplx       REAL8     pk/upkdouble
 *   COMPLEX16 pk/upkdcplx      INTEGER8  pk/upklong (LP64: 8 bytes)
 * Anything else is PvmBadParam.  A CHARACTER x adds a hidden length
 * after info; it is not needed (nitem says how much) and not declared.
 */
#include "fpvm.h"

#include <stddef.h>

/* Pack and unpack routines of one Fortran type code. */
struct fpack_type {
	int (*pk)(void *, int, int);
	int (*upk)(void *, int, int);
};

/* Adapters with a void * data argument (no function pointer casts). */
#define FPACK_ADAPT(name, ctype)                                               \
	static int fpack_pk##name(void *p, int n, int s)                       \
	{                                                                      \
		return pvm_pk##name((ctype *)p, n, s);                         \
	}                                                                      \
	static int fpack_upk##name(void *p, int n, int s)                      \
	{                                                                      \
		return pvm_upk##name((ctype *)p, n, s);                        \
	}
FPACK_ADAPT(byte, char)
FPACK_ADAPT(short, short)
FPACK_ADAPT(int, int)
FPACK_ADAPT(float, float)
FPACK_ADAPT(cplx, float)
FPACK_ADAPT(double, double)
FPACK_ADAPT(dcplx, double)
FPACK_ADAPT(long, long)

/* Indexed by the Fortran type code (STRING = 0 ... INTEGER8 = 8). */
static const struct fpack_type fpack_types[] = {
    {fpack_pkbyte, fpack_upkbyte},     /* STRING */
    {fpack_pkbyte, fpack_upkbyte},     /* BYTE1 */
    {fpack_pkshort, fpack_upkshort},   /* INTEGER2 */
    {fpack_pkint, fpack_upkint},       /* INTEGER4 */
    {fpack_pkfloat, fpack_upkfloat},   /* REAL4 */
    {fpack_pkcplx, fpack_upkcplx},     /* COMPLEX8 */
    {fpack_pkdouble, fpack_upkdouble}, /* REAL8 */
    {fpack_pkdcplx, fpack_upkdcplx},   /* COMPLEX16 */
    {fpack_pklong, fpack_upklong},     /* INTEGER8 */
};

#define FPACK_NTYPES ((int)(sizeof(fpack_types) / sizeof(fpack_types[0])))

/* Pack nitem items of type `what` from x, every stride-th item. */
void
FPVM(pvmfpack, PVMFPACK)(int *what, void *x, int *nitem, int *stride, int *info)
{
	if (*what < 0 || *what >= FPACK_NTYPES) {
		*info = PvmBadParam;
		return;
	}
	*info = fpack_types[*what].pk(x, *nitem, *stride);
}

/* Unpack nitem items of type `what` into x, every stride-th item. */
void
FPVM(pvmfunpack, PVMFUNPACK)(
    int *what, void *x, int *nitem, int *stride, int *info)
{
	if (*what < 0 || *what >= FPACK_NTYPES) {
		*info = PvmBadParam;
		return;
	}
	*info = fpack_types[*what].upk(x, *nitem, *stride);
}
