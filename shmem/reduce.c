/*
 * reduce.c: the to_all reductions' entry points and checks.
 *
 * Which kernels exist is common/optab.c's business alone; here each
 * SHMEM type name maps to an optab type code, and each documented rule
 * is checked before anything moves (docs/shmem.md).  The algorithm is
 * chosen by size: every member folds every source when the arrays are
 * small (one barrier fewer), reduce-scatter then allgather when they are
 * large (each member reads about twice its array, not N times).  Arrays
 * that fit in pWrk (up to SHMEM_REDUCE_MIN_WRKDATA_SIZE elements) are
 * copied there and folded from the copies, which needs one barrier, not
 * two: nobody reads our source after we leave, and the documented rule
 * that back-to-back calls alternate pWrk keeps our copy alive until
 * every member has read it.  All fold in rank order, so every member
 * gets the same bits, run after run.
 */
#include "shm.h"

#include "optab.h"
#include "pvm3.h"
#include "shmem.h"

#include <stdint.h>
#include <string.h>

/* Above this many bytes per source, reduce-scatter then allgather. */
#define REDUCE_RSAG_BYTES (32 * 1024)

#define SIG_TO_ALL 16

static int
reduce_overlap(const char *a, const char *b, size_t len)
{
	return a != b && a < b + len && b < a + len;
}

void
shm_to_all(const struct shm_reduce *r)
{
	struct shm_fold f;
	size_t wrk;

	f.coll.call = r->call;
	shm_aset_check(r->call, r->start, r->logstride, r->size, &f.coll.as);
	f.kernel = optab_lookup(r->op, r->type);
	f.esize = optab_size(r->type);
	if (f.kernel == NULL || f.esize == 0)
		shm_fatal(r->call, "no kernel for this operation and type");
	if (r->nreduce < 0)
		shm_fatal(r->call, "nreduce is %d", r->nreduce);
	f.n = (size_t)r->nreduce;
	f.coll.psync = shm_psync_check(r->call, r->psync, r->psync_bytes);
	shm_sym_check(r->call, "source", r->src, f.n * f.esize);
	shm_sym_check(r->call, "target", r->dest, f.n * f.esize);
	wrk = f.n / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE
	          ? f.n / 2 + 1
	          : SHMEM_REDUCE_MIN_WRKDATA_SIZE;
	shm_sym_check(r->call, "pWrk", r->pwrk, wrk * f.esize);
	if (reduce_overlap(r->dest, r->src, f.n * f.esize))
		shm_fatal(r->call,
		    "source and target overlap but are not the same array");
	f.dest = r->dest;
	f.src = r->src;
	f.wrk = r->pwrk;
	f.wrk_bytes = wrk * f.esize;
	f.coll.sig = shm_sig(
	    SIG_TO_ALL + (uint32_t)(r->op * 64 + r->type), f.n, 0, &f.coll.as);
	if (f.n * f.esize <= f.wrk_bytes) {
		/* Our pWrk is free: every member has left the call before
		 * last that used it (they all entered the last call). */
		memcpy(f.wrk, f.src, f.n * f.esize);
		shm_coll_begin_once(&f.coll);
		shm_reduce_wrk(&f);
		return;
	}
	shm_coll_begin(&f.coll);
	if (f.n * f.esize > REDUCE_RSAG_BYTES && f.coll.as.size > 2)
		shm_reduce_rsag(&f);
	else
		shm_reduce_fold(&f);
}

/* optab's type code of each SHMEM type name. */
#define RED_TYPE_short PVM_SHORT
#define RED_TYPE_int PVM_INT
#define RED_TYPE_long PVM_LONG
#define RED_TYPE_longlong OPTAB_LONGLONG
#define RED_TYPE_float PVM_FLOAT
#define RED_TYPE_double PVM_DOUBLE
#define RED_TYPE_longdouble OPTAB_LONGDOUBLE
#define RED_TYPE_complexf PVM_CPLX
#define RED_TYPE_complexd PVM_DCPLX

#define RED_DEF(OP, CODE, NAME, T)                                             \
	void shmem_##NAME##_##OP##_to_all(T *dest, const T *source,            \
	    int nreduce, int start, int logstride, int size, T *pwrk,          \
	    long *psync)                                                       \
	{                                                                      \
		struct shm_reduce r = {__func__, CODE, RED_TYPE_##NAME, dest,  \
		    source, nreduce, start, logstride, size, pwrk, psync,      \
		    SHMEM_REDUCE_SYNC_SIZE * sizeof(long)};                    \
		shm_to_all(&r);                                                \
	}
#define RED_AND(NAME, T) RED_DEF(and, OPTAB_AND, NAME, T)
#define RED_OR(NAME, T) RED_DEF(or, OPTAB_OR, NAME, T)
#define RED_XOR(NAME, T) RED_DEF(xor, OPTAB_XOR, NAME, T)
#define RED_MAX(NAME, T) RED_DEF(max, OPTAB_MAX, NAME, T)
#define RED_MIN(NAME, T) RED_DEF(min, OPTAB_MIN, NAME, T)
#define RED_SUM(NAME, T) RED_DEF(sum, OPTAB_SUM, NAME, T)
#define RED_PROD(NAME, T) RED_DEF(prod, OPTAB_PROD, NAME, T)
_PVMSHM_BIT_TYPES(RED_AND)
_PVMSHM_BIT_TYPES(RED_OR)
_PVMSHM_BIT_TYPES(RED_XOR)
_PVMSHM_CMP_TYPES(RED_MAX)
_PVMSHM_CMP_TYPES(RED_MIN)
_PVMSHM_ARITH_TYPES(RED_SUM)
_PVMSHM_ARITH_TYPES(RED_PROD)
