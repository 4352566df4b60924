/*
 * t_to_all.c: the to_all reductions of libpvmshmem, checked against a
 * serial fold that every member computes for itself.
 *
 *   t_to_all example   the documentation's C example 2 at 8 PEs: one
 *                      3-element sum equals three 1-element sums made
 *                      back to back on alternating pWrk/pSync pairs
 *   t_to_all matrix    every to_all function of shmem.h (from the
 *                      header's type lists) x nreduce 1, 3, 1000 x the
 *                      active sets of set_list() for this job's size
 *   t_to_all big       nreduce 1,048,576 and 10,007 for double sum, int
 *                      xor, long max and complexd prod (the large-array
 *                      algorithm, reduce_rsag.c, and its chunk edges)
 *
 * Each case makes four calls back to back, with no barrier between
 * them, alternating two pWrk/pSync pairs: heap source -> heap target,
 * global array in place, global source -> global target, heap array in
 * place.  Big mode makes only the two heap calls: 16 MiB arrays in the
 * data segment would cost every PE that memory at start-up, in every
 * mode.  Every
 * member checks every element and the guard element after the last one,
 * then compares its four targets' bits with the first member's.  Inputs
 * are small integers, so every sum and product is exact in every type
 * and the serial fold is the exact answer in any order.
 */
#include <complex.h>
#include <float.h>
#include <stdint.h>

#include "pecheck.h"

#define MATRIX_MAXN 1000
#define BIG_N 1048576
#define ODD_N 10007 /* above the large-array threshold for 4-byte ints */
#define MAX_ESIZE 16
#define N_CALLS                                                                \
	4 /* per case: heap sep, global in place, global sep, heap in place */

enum op_code { OP_AND, OP_OR, OP_XOR, OP_MAX, OP_MIN, OP_SUM, OP_PROD };

/* One case: an active set and a length. */
struct tcase {
	int start, logstride, size;
	int n;
};

/* One to_all function, seen through its element type. */
struct tfunc {
	const char *name;
	size_t esize, vsize; /* element size, bytes that carry the value */
	void (*fill)(void *buf, int pe, size_t n, int salt);
	size_t (*check)(const void *got, const struct tcase *c, int salt);
	void (*call)(
	    void *dest, const void *src, const struct tcase *c, int pair);
};

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
static void *pwrk[2];

/* The global (data segment) arrays: source, target, in place. */
static _Alignas(64) char g_src[(MATRIX_MAXN + 1) * MAX_ESIZE];
static _Alignas(64) char g_dst[(MATRIX_MAXN + 1) * MAX_ESIZE];
static _Alignas(64) char g_inp[(MATRIX_MAXN + 1) * MAX_ESIZE];

/* ---- inputs: small integers, exact in every type ---- */

static int
gen_re(enum op_code op, int pe, long i, int salt)
{
	static const int prod_re[4] = {1, 2, -1, 1};

	switch (op) {
	case OP_AND:
		return 0x7fff & ~(1 << ((i + pe + salt) % 15));
	case OP_OR:
		return 1 << ((i * 3 + pe + salt) % 15);
	case OP_XOR:
		return (int)((i * 31 + pe * 17 + salt * 5) & 0x7fff);
	case OP_MAX:
	case OP_MIN:
		return (int)((i * 7 + pe * 13 + salt * 3) % 61) - 30;
	case OP_SUM:
		return (int)((i * 5 + pe * 3 + salt) % 21) - 10;
	case OP_PROD:
		return prod_re[(i + pe + salt) % 4];
	}
	return 0;
}

/* The imaginary part, for the complex types (products stay small). */
static int
gen_im(enum op_code op, int pe, long i, int salt)
{
	static const int prod_im[4] = {0, 1, 0, -1};

	if (op == OP_PROD)
		return prod_im[(i * 3 + pe + salt) % 4];
	return (int)((i * 3 + pe * 7 + salt) % 11) - 5;
}

static float _Complex mk_cf(int re, int im)
{
	return CMPLXF((float)re, (float)im);
}

static double _Complex mk_cd(int re, int im)
{
	return CMPLX((double)re, (double)im);
}

/* A value of type T from its parts: the imaginary part only if complex. */
#define MK(T, re, im)                                                          \
	_Generic((T)0, float _Complex                                          \
	         : mk_cf(re, im), double _Complex                              \
	         : mk_cd(re, im), default                                      \
	         : (T)(re))

/* Bytes of a T that carry its value (x87 long double: 10 of 16). */
#if LDBL_MANT_DIG == 64
#define VSIZE(T) _Generic((T)0, long double : 10, default : sizeof(T))
#else
#define VSIZE(T) sizeof(T)
#endif

#define COMB_and(a, b) ((a) & (b))
#define COMB_or(a, b) ((a) | (b))
#define COMB_xor(a, b) ((a) ^ (b))
#define COMB_max(a, b) ((a) > (b) ? (a) : (b))
#define COMB_min(a, b) ((a) < (b) ? (a) : (b))
#define COMB_sum(a, b) ((a) + (b))
#define COMB_prod(a, b) ((a) * (b))

static int
set_pe(const struct tcase *c, int r)
{
	return c->start + r * (1 << c->logstride);
}

/*
 * The typed pieces of one function: fill a source, check a target
 * against the serial fold (returns the first bad index, or n), call.
 */
#define DEF_FUNC(OP, CODE, NAME, T)                                            \
	static void OP##_##NAME##_fill(void *buf, int pe, size_t n, int salt)  \
	{                                                                      \
		T *p = buf;                                                    \
		for (size_t i = 0; i < n; i++)                                 \
			p[i] = MK(T, gen_re(CODE, pe, (long)i, salt),          \
			    gen_im(CODE, pe, (long)i, salt));                  \
	}                                                                      \
	static size_t OP##_##NAME##_check(                                     \
	    const void *got, const struct tcase *c, int salt)                  \
	{                                                                      \
		const T *g = got;                                              \
		for (long i = 0; i < c->n; i++) {                              \
			T acc = MK(T, gen_re(CODE, set_pe(c, 0), i, salt),     \
			    gen_im(CODE, set_pe(c, 0), i, salt));              \
			for (int r = 1; r < c->size; r++)                      \
				acc = COMB_##OP(acc,                           \
				    MK(T, gen_re(CODE, set_pe(c, r), i, salt), \
				        gen_im(CODE, set_pe(c, r), i, salt))); \
			if (!(g[i] == acc))                                    \
				return (size_t)i;                              \
		}                                                              \
		return (size_t)c->n;                                           \
	}                                                                      \
	static void OP##_##NAME##_call(                                        \
	    void *dest, const void *src, const struct tcase *c, int pair)      \
	{                                                                      \
		shmem_##NAME##_##OP##_to_all(dest, src, c->n, c->start,        \
		    c->logstride, c->size, pwrk[pair], psync[pair]);           \
	}

#define FUNC_ENTRY(OP, NAME, T)                                                \
	{"shmem_" #NAME "_" #OP "_to_all", sizeof(T), VSIZE(T),                \
	    OP##_##NAME##_fill, OP##_##NAME##_check, OP##_##NAME##_call},

/* The op x type lists of shmem.h, once for the code, once for the table. */
#define FOR_ALL_FUNCS(F)                                                       \
	_PVMSHM_BIT_TYPES(F##_AND)                                             \
	_PVMSHM_BIT_TYPES(F##_OR)                                              \
	_PVMSHM_BIT_TYPES(F##_XOR)                                             \
	_PVMSHM_CMP_TYPES(F##_MAX)                                             \
	_PVMSHM_CMP_TYPES(F##_MIN)                                             \
	_PVMSHM_ARITH_TYPES(F##_SUM)                                           \
	_PVMSHM_ARITH_TYPES(F##_PROD)

#define DEF_AND(NAME, T) DEF_FUNC(and, OP_AND, NAME, T)
#define DEF_OR(NAME, T) DEF_FUNC(or, OP_OR, NAME, T)
#define DEF_XOR(NAME, T) DEF_FUNC(xor, OP_XOR, NAME, T)
#define DEF_MAX(NAME, T) DEF_FUNC(max, OP_MAX, NAME, T)
#define DEF_MIN(NAME, T) DEF_FUNC(min, OP_MIN, NAME, T)
#define DEF_SUM(NAME, T) DEF_FUNC(sum, OP_SUM, NAME, T)
#define DEF_PROD(NAME, T) DEF_FUNC(prod, OP_PROD, NAME, T)
FOR_ALL_FUNCS(DEF)

#define ENT_AND(NAME, T) FUNC_ENTRY(and, NAME, T)
#define ENT_OR(NAME, T) FUNC_ENTRY(or, NAME, T)
#define ENT_XOR(NAME, T) FUNC_ENTRY(xor, NAME, T)
#define ENT_MAX(NAME, T) FUNC_ENTRY(max, NAME, T)
#define ENT_MIN(NAME, T) FUNC_ENTRY(min, NAME, T)
#define ENT_SUM(NAME, T) FUNC_ENTRY(sum, NAME, T)
#define ENT_PROD(NAME, T) FUNC_ENTRY(prod, NAME, T)
static const struct tfunc funcs[] = {FOR_ALL_FUNCS(ENT)};
#define N_FUNCS (sizeof(funcs) / sizeof(funcs[0]))

/* The four (source, target) pairs of a case; in place when equal. */
struct tarrays {
	int ncalls;
	char *src[N_CALLS], *dst[N_CALLS];
};

static const unsigned char GUARD = 0x5a, UNSET = 0xa5;

static int
in_set(const struct tcase *c, int pe)
{
	int d = pe - c->start, stride = 1 << c->logstride;

	return d >= 0 && d % stride == 0 && d / stride < c->size;
}

/* Fill the sources, poison the targets, guard the element after n. */
static void
case_prepare(const struct tfunc *f, const struct tcase *c,
    const struct tarrays *a, int me)
{
	size_t bytes = (size_t)c->n * f->esize;

	for (int k = 0; k < a->ncalls; k++) {
		if (a->dst[k] != a->src[k])
			memset(a->dst[k], UNSET, bytes + f->esize);
		f->fill(a->src[k], me, (size_t)c->n, k);
		memset(a->dst[k] + bytes, GUARD, f->esize);
	}
}

static int
guard_intact(const char *p, size_t esize)
{
	for (size_t i = 0; i < esize; i++)
		if ((unsigned char)p[i] != GUARD)
			return 0;
	return 1;
}

/* Compare our targets' value bytes with the first member's. */
static void
case_same_bits(const struct tfunc *f, const struct tcase *c,
    const struct tarrays *a, char *tmp)
{
	size_t bytes = (size_t)c->n * f->esize;

	for (int k = 0; k < a->ncalls; k++) {
		shmem_getmem(tmp, a->dst[k], bytes, c->start);
		for (int i = 0; i < c->n; i++) {
			size_t o = (size_t)i * f->esize;

			if (memcmp(tmp + o, a->dst[k] + o, f->vsize) != 0) {
				pc_fail("%s n=%d set(%d,%d,%d) call %d: "
				        "element %d differs from PE %d's",
				    f->name, c->n, c->start, c->logstride,
				    c->size, k, i, c->start);
				break;
			}
		}
	}
}

/* One case: four calls back to back, then the checks. */
static void
run_case(const struct tfunc *f, const struct tcase *c, const struct tarrays *a,
    char *tmp)
{
	int me = shmem_my_pe(), member = in_set(c, me);
	size_t bytes = (size_t)c->n * f->esize, bad;

	case_prepare(f, c, a, me);
	if (member)
		for (int k = 0; k < a->ncalls; k++)
			f->call(a->dst[k], a->src[k], c, k % 2);
	for (int k = 0; member && k < a->ncalls; k++) {
		if ((bad = f->check(a->dst[k], c, k)) != (size_t)c->n)
			pc_fail("%s n=%d set(%d,%d,%d) call %d: element %zu "
			        "wrong",
			    f->name, c->n, c->start, c->logstride, c->size, k,
			    bad);
		PC_EXPECT(guard_intact(a->dst[k] + bytes, f->esize),
		    "%s n=%d set(%d,%d,%d) call %d: element n overwritten",
		    f->name, c->n, c->start, c->logstride, c->size, k);
	}
	shmem_barrier_all(); /* every target final */
	if (member && c->start != me)
		case_same_bits(f, c, a, tmp);
	shmem_barrier_all(); /* nobody reads our targets any more */
}

/* The active sets for a job of npes PEs (see the file's top comment). */
static int
set_list(int npes, struct tcase *sets)
{
	int k = 0;

	sets[k++] = (struct tcase){0, 0, npes, 0}; /* all */
	if (npes >= 2)
		sets[k++] = (struct tcase){0, 1, (npes + 1) / 2, 0}; /* even */
	if (npes >= 6)
		sets[k++] = (struct tcase){1, 2, (npes + 2) / 4, 0}; /* 1, 5 */
	sets[k++] = (struct tcase){npes - 1, 0, 1, 0}; /* one PE */
	if (npes >= 6)
		sets[k++] = (struct tcase){1, 1, 3, 0}; /* 1, 3, 5 */
	return k;
}

static void
setup_work(size_t maxn)
{
	size_t w = maxn / 2 + 1;

	if (w < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
		w = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
			psync[k][i] = SHMEM_SYNC_VALUE;
		pwrk[k] = shmem_malloc(w * MAX_ESIZE);
	}
	shmem_barrier_all(); /* every pSync initialised before first use */
}

static char *
heap_array(size_t maxn)
{
	char *p = shmem_malloc((maxn + 1) * MAX_ESIZE);

	if (p == NULL) {
		printf("FAIL: PE %d: shmem_malloc of %zu elements\n",
		    shmem_my_pe(), maxn + 1);
		shmem_global_exit(1);
	}
	return p;
}

static void
mode_matrix(void)
{
	static const int lens[] = {1, 3, MATRIX_MAXN};
	struct tcase sets[8];
	struct tarrays a;
	int nsets = set_list(shmem_n_pes(), sets);
	char *tmp = malloc((MATRIX_MAXN + 1) * MAX_ESIZE);
	double t0 = pc_now();

	setup_work(MATRIX_MAXN);
	a.ncalls = N_CALLS;
	a.src[0] = heap_array(MATRIX_MAXN);
	a.dst[0] = heap_array(MATRIX_MAXN);
	a.src[1] = a.dst[1] = g_inp;
	a.src[2] = g_src;
	a.dst[2] = g_dst;
	a.src[3] = a.dst[3] = heap_array(MATRIX_MAXN);
	for (size_t f = 0; f < N_FUNCS; f++) {
		for (int s = 0; s < nsets; s++)
			for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]);
			     l++) {
				struct tcase c = sets[s];

				c.n = lens[l];
				run_case(&funcs[f], &c, &a, tmp);
			}
		pc_group("%s: n 1, 3, %d x %d active sets of %d PEs, 4 calls "
		         "each",
		    funcs[f].name, MATRIX_MAXN, nsets, shmem_n_pes());
	}
	if (shmem_my_pe() == 0)
		printf("INFO: matrix took %.2f s\n", pc_now() - t0);
	free(tmp);
}

static const struct tfunc *
func_named(const char *name)
{
	for (size_t f = 0; f < N_FUNCS; f++)
		if (strcmp(funcs[f].name, name) == 0)
			return &funcs[f];
	return NULL;
}

static void
mode_big(void)
{
	static const char *const names[] = {"shmem_double_sum_to_all",
	    "shmem_int_xor_to_all", "shmem_long_max_to_all",
	    "shmem_complexd_prod_to_all"};
	static const int lens[] = {BIG_N, ODD_N};
	int npes = shmem_n_pes();
	struct tcase sets[] = {{0, 0, npes, 0}, {1, 1, 3, 0}};
	struct tarrays a;
	char *tmp = malloc((BIG_N + 1) * MAX_ESIZE);
	double t0 = pc_now();

	setup_work(BIG_N);
	a.ncalls = 2;
	a.src[0] = heap_array(BIG_N);
	a.dst[0] = heap_array(BIG_N);
	a.src[1] = a.dst[1] = heap_array(BIG_N);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct tfunc *f = func_named(names[i]);

		for (int s = 0; s < (npes >= 6 ? 2 : 1); s++)
			for (int l = 0; l < 2; l++) {
				struct tcase c = sets[s];

				c.n = lens[l];
				run_case(f, &c, &a, tmp);
			}
		pc_group("%s: n %d and %d, all PEs and PEs 1, 3, 5", names[i],
		    BIG_N, ODD_N);
	}
	if (shmem_my_pe() == 0)
		printf("INFO: big took %.2f s\n", pc_now() - t0);
	free(tmp);
}

/* The documentation's example 2, at any number of PEs. */
static int ex_source[3], ex_target[3], ex_single[3];
static int ex_pwrk[2][SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long ex_psync[2][SHMEM_REDUCE_SYNC_SIZE];

static void
mode_example(void)
{
	int me = shmem_my_pe(), npes = shmem_n_pes();

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
			ex_psync[k][i] = SHMEM_SYNC_VALUE;
	for (int i = 0; i < 3; i++)
		ex_source[i] = me * 10 + i + 1;
	shmem_barrier_all();
	shmem_int_sum_to_all(
	    ex_target, ex_source, 3, 0, 0, npes, ex_pwrk[0], ex_psync[0]);
	for (int i = 0; i < 3; i++)
		shmem_int_sum_to_all(&ex_single[i], &ex_source[i], 1, 0, 0,
		    npes, ex_pwrk[(i + 1) % 2], ex_psync[(i + 1) % 2]);
	for (int i = 0; i < 3; i++) {
		pc_eq(ex_target[i], 10 * npes * (npes - 1) / 2 + npes * (i + 1),
		    "3-element sum, element %d", i);
		pc_eq(ex_single[i], ex_target[i],
		    "1-element sum %d against the 3-element one", i);
	}
	pc_group("example 2: shmem_int_sum_to_all of 3 elements at %d PEs "
	         "equals 3 single-element calls on alternating pWrk/pSync",
	    npes);
}

int
main(int argc, char **argv)
{
	pc_init();
	if (argc == 2 && strcmp(argv[1], "example") == 0)
		mode_example();
	else if (argc == 2 && strcmp(argv[1], "matrix") == 0)
		mode_matrix();
	else if (argc == 2 && strcmp(argv[1], "big") == 0)
		mode_big();
	else {
		fprintf(stderr, "usage: t_to_all example|matrix|big\n");
		shmem_global_exit(2);
	}
	return pc_done();
}
