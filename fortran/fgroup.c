/*
 * fgroup.c: dynamic groups and collectives from Fortran (libgpvm3).
 *
 * pvmfreduce hands `func` to pvm_reduce as it is: a Fortran procedure
 * passed as an actual argument arrives as its address, and a Fortran
 * SUBROUTINE f(datatype, x, y, num, info) takes all five arguments by
 * reference, which is exactly C's reduce-function signature.  The
 * predefined functions a program names with EXTERNAL PvmSum etc. are
 * pvmsum_ ... pvmmin_ below, which call libgpvm3's C functions; given
 * to pvmfreduce, they are replaced by those C functions themselves.
 *
 * The group name's hidden length is the only one these routines expect.
 * gather/scatter buffers must therefore not be CHARACTER variables (a
 * CHARACTER buffer adds a hidden length in front of the group's); use
 * INTEGER*1 arrays with BYTE1 for bytes.
 */
#include "fpvm.h"

/* The body of a wrapper whose only string is the group (as g). */
#define FGROUP_CALL(out, call)                                                \
	FSTR_CALL(g, FSTR_GROUP, group, grouplen, out, call)

/* pvm_joingroup; inum = the instance number or an error. */
void
FPVM(pvmfjoingroup, PVMFJOINGROUP)(char *group, int *inum, fstrlen_t grouplen)
{
	FGROUP_CALL(*inum, pvm_joingroup(g));
}

/* pvm_lvgroup. */
void
FPVM(pvmflvgroup, PVMFLVGROUP)(char *group, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info, pvm_lvgroup(g));
}

/* pvm_getinst. */
void
FPVM(pvmfgetinst, PVMFGETINST)(
    char *group, int *tid, int *inum, fstrlen_t grouplen)
{
	FGROUP_CALL(*inum, pvm_getinst(g, *tid));
}

/* pvm_gettid. */
void
FPVM(pvmfgettid, PVMFGETTID)(
    char *group, int *inum, int *tid, fstrlen_t grouplen)
{
	FGROUP_CALL(*tid, pvm_gettid(g, *inum));
}

/* pvm_gsize. */
void
FPVM(pvmfgsize, PVMFGSIZE)(char *group, int *size, fstrlen_t grouplen)
{
	FGROUP_CALL(*size, pvm_gsize(g));
}

/* pvm_barrier. */
void
FPVM(pvmfbarrier, PVMFBARRIER)(
    char *group, int *count, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info, pvm_barrier(g, *count));
}

/* pvm_bcast. */
void
FPVM(pvmfbcast, PVMFBCAST)(char *group, int *tag, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info, pvm_bcast(g, *tag));
}

/* pvm_freezegroup. */
void
FPVM(pvmffreezegroup, PVMFFREEZEGROUP)(
    char *group, int *size, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info, pvm_freezegroup(g, *size));
}

/*
 * The C function for a Fortran reduce function: the predefined externals
 * become libgpvm3's own PvmSum etc., which it recognises (and so can
 * refuse an unsupported datatype on every member before data moves);
 * user functions stay as they are.
 */
static freduce_fn
fgroup_func(freduce_fn func)
{
	if (func == FPVM(pvmsum, PVMSUM)) {
		return PvmSum;
	}
	if (func == FPVM(pvmproduct, PVMPRODUCT)) {
		return PvmProduct;
	}
	if (func == FPVM(pvmmax, PVMMAX)) {
		return PvmMax;
	}
	if (func == FPVM(pvmmin, PVMMIN)) {
		return PvmMin;
	}
	return func;
}

/* pvm_reduce with a Fortran (or predefined) function. */
void
FPVM(pvmfreduce, PVMFREDUCE)(freduce_fn func, void *data, int *count, int *type,
    int *tag, char *group, int *root, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info,
	    pvm_reduce(fgroup_func(func), data, *count, *type, *tag, g, *root));
}

/* pvm_gather. */
void
FPVM(pvmfgather, PVMFGATHER)(void *result, void *data, int *count, int *type,
    int *tag, char *group, int *root, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info,
	    pvm_gather(result, data, *count, *type, *tag, g, *root));
}

/* pvm_scatter. */
void
FPVM(pvmfscatter, PVMFSCATTER)(void *result, void *data, int *count, int *type,
    int *tag, char *group, int *root, int *info, fstrlen_t grouplen)
{
	FGROUP_CALL(*info,
	    pvm_scatter(result, data, *count, *type, *tag, g, *root));
}

/* EXTERNAL PvmSum: x = x + y. */
void
FPVM(pvmsum, PVMSUM)(int *type, void *x, void *y, int *num, int *info)
{
	PvmSum(type, x, y, num, info);
}

/* EXTERNAL PvmProduct: x = x * y. */
void
FPVM(pvmproduct, PVMPRODUCT)(int *type, void *x, void *y, int *num, int *info)
{
	PvmProduct(type, x, y, num, info);
}

/* EXTERNAL PvmMax: x = max(x, y) (complex: by modulus). */
void
FPVM(pvmmax, PVMMAX)(int *type, void *x, void *y, int *num, int *info)
{
	PvmMax(type, x, y, num, info);
}

/* EXTERNAL PvmMin: x = min(x, y) (complex: by modulus). */
void
FPVM(pvmmin, PVMMIN)(int *type, void *x, void *y, int *num, int *info)
{
	PvmMin(type, x, y, num, info);
}
