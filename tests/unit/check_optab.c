/*
 * check_optab.c: the operation x type table (common/optab.c).
 *
 * The expected slots are written out here as a matrix, independently of
 * optab's kind macros: every (op, type) slot is non-NULL exactly when the
 * matrix says so, and every non-NULL kernel agrees with a plain serial
 * reference (integer arithmetic done in uint64_t and truncated, MAX/MIN as
 * explicit ifs) on small arrays of exact values, NaNs included for
 * MAX/MIN.  Hand-picked cases pin the edges: long long wraparound and
 * bitwise ops, long double and __float128 results that a narrower type
 * would round away, the NaN rule.  Last, the public PvmSum, PvmProduct,
 * PvmMax and PvmMin (libgpvm/ops.c) refuse optab's internal codes.
 */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"
#include "optab.h"

#include "unit_main.h"

#define REQUIRE(cond, ...)                                                     \
	do {                                                                   \
		if (!(cond)) {                                                 \
			ck_abort_msg(__VA_ARGS__);                             \
		}                                                              \
	} while (0)

#define B(op) (1u << (op))
#define ARITH (B(OPTAB_SUM) | B(OPTAB_PROD) | B(OPTAB_MAX) | B(OPTAB_MIN))
#define BITS (B(OPTAB_AND) | B(OPTAB_OR) | B(OPTAB_XOR))

static const char *const op_names[OPTAB_NOPS] = {
    "SUM", "PROD", "MAX", "MIN", "AND", "OR", "XOR"};

/* The expected table: one row per type. */
static const struct row {
	const char *name;
	int code;
	size_t size;  /* bytes of one element */
	unsigned ops; /* B(op) for each non-NULL slot */
} rows[] = {
    {"STR", PVM_STR, 0, 0},
    {"BYTE", PVM_BYTE, 1, B(OPTAB_MAX) | B(OPTAB_MIN)},
    {"SHORT", PVM_SHORT, sizeof(short), ARITH | BITS},
    {"INT", PVM_INT, sizeof(int), ARITH | BITS},
    {"FLOAT", PVM_FLOAT, sizeof(float), ARITH},
    {"CPLX", PVM_CPLX, 2 * sizeof(float), ARITH},
    {"DOUBLE", PVM_DOUBLE, sizeof(double), ARITH},
    {"DCPLX", PVM_DCPLX, 2 * sizeof(double), ARITH},
    {"LONG", PVM_LONG, sizeof(long), ARITH | BITS},
    {"USHORT", PVM_USHORT, sizeof(unsigned short), 0},
    {"UINT", PVM_UINT, sizeof(unsigned int), 0},
    {"ULONG", PVM_ULONG, sizeof(unsigned long), 0},
    {"LONGLONG", OPTAB_LONGLONG, sizeof(long long), ARITH | BITS},
    {"LONGDOUBLE", OPTAB_LONGDOUBLE, sizeof(long double), ARITH},
#ifdef OPTAB_HAVE_FLOAT128
    {"FLOAT128", OPTAB_FLOAT128, sizeof(__float128), ARITH},
#else
    {"FLOAT128", OPTAB_FLOAT128, 0, 0},
#endif
};
#define NROWS (int)(sizeof(rows) / sizeof(rows[0]))

/* ---- inputs ---- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return rng_state ^ (rng_state >> 29);
}

/* Integer inputs: the extremes and small values often, else random bits. */
static uint64_t
int_input(size_t i)
{
	static const uint64_t edges[] = {0, 1, UINT64_MAX, 2,
	    0x8000000000000000ull, 0x7fffffffffffffffull, 0x80, 0x7f, 0x8000,
	    0x7fff, 0x80000000ull, 0x7fffffffull};

	if (i % 3 == 0) {
		return edges[(i / 3 + rng()) %
		             (sizeof(edges) / sizeof(edges[0]))];
	}
	return rng();
}

/* Real inputs: multiples of 1/8 in [-125, 125], so every sum and product
 * is exact in every real type; NaNs only where `nans` asks. */
static double
real_input(size_t i, int nans, size_t nan_at)
{
	if (nans && i % 5 == nan_at) {
		return NAN;
	}
	if (i % 7 == 3) {
		return 1.5; /* ties between x and y */
	}
	return ((double)(rng() % 2001) - 1000.0) / 8.0;
}

/* ---- references: x = x op y, element by element ---- */

/* Integers: arithmetic in uint64_t, truncated to the type's width. */
#define REF_INT(fname, T, UT)                                                  \
	static void fname(int op, void *xv, const void *yv, size_t n)          \
	{                                                                      \
		T *x = xv;                                                     \
		const T *y = yv;                                               \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++) {                                      \
			uint64_t a = (uint64_t)(int64_t)x[i];                  \
			uint64_t b = (uint64_t)(int64_t)y[i];                  \
                                                                               \
			if (op == OPTAB_SUM) {                                 \
				x[i] = (T)(UT)(a + b);                         \
			} else if (op == OPTAB_PROD) {                         \
				x[i] = (T)(UT)(a * b);                         \
			} else if (op == OPTAB_MAX) {                          \
				if (y[i] > x[i]) {                             \
					x[i] = y[i];                           \
				}                                              \
			} else if (op == OPTAB_MIN) {                          \
				if (y[i] < x[i]) {                             \
					x[i] = y[i];                           \
				}                                              \
			} else if (op == OPTAB_AND) {                          \
				x[i] = (T)(UT)(a & b);                         \
			} else if (op == OPTAB_OR) {                           \
				x[i] = (T)(UT)(a | b);                         \
			} else {                                               \
				x[i] = (T)(UT)(a ^ b);                         \
			}                                                      \
		}                                                              \
	}
REF_INT(ref_byte, signed char, unsigned char)
REF_INT(ref_short, short, unsigned short)
REF_INT(ref_int, int, unsigned int)
REF_INT(ref_long, long, unsigned long)
REF_INT(ref_longlong, long long, unsigned long long)

/* Reals: MAX/MIN replace x only when y compares greater/less. */
#define REF_REAL(fname, T)                                                     \
	static void fname(int op, void *xv, const void *yv, size_t n)          \
	{                                                                      \
		T *x = xv;                                                     \
		const T *y = yv;                                               \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++) {                                      \
			if (op == OPTAB_SUM) {                                 \
				x[i] = x[i] + y[i];                            \
			} else if (op == OPTAB_PROD) {                         \
				x[i] = x[i] * y[i];                            \
			} else if (op == OPTAB_MAX) {                          \
				if (y[i] > x[i]) {                             \
					x[i] = y[i];                           \
				}                                              \
			} else if (y[i] < x[i]) {                              \
				x[i] = y[i];                                   \
			}                                                      \
		}                                                              \
	}
REF_REAL(ref_float, float)
REF_REAL(ref_double, double)
REF_REAL(ref_longdouble, long double)
#ifdef OPTAB_HAVE_FLOAT128
REF_REAL(ref_float128, __float128)
#endif

/* Complex pairs (re, im): product by definition, MAX/MIN by |z|^2. */
#define REF_CPLX(fname, T)                                                     \
	static void fname(int op, void *xv, const void *yv, size_t n)          \
	{                                                                      \
		T *x = xv;                                                     \
		const T *y = yv;                                               \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < 2 * n; i += 2) {                               \
			T re = x[i], im = x[i + 1];                            \
			T mx = re * re + im * im;                              \
			T my = y[i] * y[i] + y[i + 1] * y[i + 1];              \
                                                                               \
			if (op == OPTAB_SUM) {                                 \
				x[i] = re + y[i];                              \
				x[i + 1] = im + y[i + 1];                      \
			} else if (op == OPTAB_PROD) {                         \
				x[i] = re * y[i] - im * y[i + 1];              \
				x[i + 1] = re * y[i + 1] + im * y[i];          \
			} else if ((op == OPTAB_MAX && my > mx) ||             \
			           (op == OPTAB_MIN && my < mx)) {             \
				x[i] = y[i];                                   \
				x[i + 1] = y[i + 1];                           \
			}                                                      \
		}                                                              \
	}
REF_CPLX(ref_cplx, float)
REF_CPLX(ref_dcplx, double)

/* ---- fill and compare, per scalar type ---- */

#define INT_IO(fill_name, eq_name, T)                                          \
	static void fill_name(void *p, size_t n, int nans, size_t nan_at)      \
	{                                                                      \
		size_t i;                                                      \
                                                                               \
		(void)nans;                                                    \
		(void)nan_at;                                                  \
		for (i = 0; i < n; i++) {                                      \
			((T *)p)[i] = (T)int_input(i);                         \
		}                                                              \
	}                                                                      \
	static int eq_name(const void *p, const void *q, size_t i)             \
	{                                                                      \
		return ((const T *)p)[i] == ((const T *)q)[i];                 \
	}
INT_IO(fill_byte, eq_byte, signed char)
INT_IO(fill_short, eq_short, short)
INT_IO(fill_int, eq_int, int)
INT_IO(fill_long, eq_long, long)
INT_IO(fill_longlong, eq_longlong, long long)

/* Reals compare by value (long double has padding bytes); NaN == NaN. */
#define REAL_IO(fill_name, eq_name, T)                                         \
	static void fill_name(void *p, size_t n, int nans, size_t nan_at)      \
	{                                                                      \
		size_t i;                                                      \
                                                                               \
		for (i = 0; i < n; i++) {                                      \
			((T *)p)[i] = (T)real_input(i, nans, nan_at);          \
		}                                                              \
	}                                                                      \
	static int eq_name(const void *p, const void *q, size_t i)             \
	{                                                                      \
		T a = ((const T *)p)[i], b = ((const T *)q)[i];                \
                                                                               \
		return a == b || (a != a && b != b);                           \
	}
REAL_IO(fill_float, eq_float, float)
REAL_IO(fill_double, eq_double, double)
REAL_IO(fill_longdouble, eq_longdouble, long double)
#ifdef OPTAB_HAVE_FLOAT128
REAL_IO(fill_float128, eq_float128, __float128)
#endif

/* How to exercise one type's kernels: scalars per element (2 for
 * complex), the reference, a filler and an equality on scalars. */
static const struct exer {
	int code;
	size_t nscalars;
	void (*ref)(int op, void *x, const void *y, size_t n);
	void (*fill)(void *p, size_t n, int nans, size_t nan_at);
	int (*eq)(const void *p, const void *q, size_t i);
} exers[] = {
    {PVM_BYTE, 1, ref_byte, fill_byte, eq_byte},
    {PVM_SHORT, 1, ref_short, fill_short, eq_short},
    {PVM_INT, 1, ref_int, fill_int, eq_int},
    {PVM_FLOAT, 1, ref_float, fill_float, eq_float},
    {PVM_CPLX, 2, ref_cplx, fill_float, eq_float},
    {PVM_DOUBLE, 1, ref_double, fill_double, eq_double},
    {PVM_DCPLX, 2, ref_dcplx, fill_double, eq_double},
    {PVM_LONG, 1, ref_long, fill_long, eq_long},
    {OPTAB_LONGLONG, 1, ref_longlong, fill_longlong, eq_longlong},
    {OPTAB_LONGDOUBLE, 1, ref_longdouble, fill_longdouble, eq_longdouble},
#ifdef OPTAB_HAVE_FLOAT128
    {OPTAB_FLOAT128, 1, ref_float128, fill_float128, eq_float128},
#endif
};
#define NEXERS (int)(sizeof(exers) / sizeof(exers[0]))

static const struct row *
row_of(int code)
{
	int i;

	for (i = 0; i < NROWS; i++) {
		if (rows[i].code == code) {
			return &rows[i];
		}
	}
	return NULL;
}

/* ---- tests ---- */

/* Every slot is NULL exactly where the matrix says; sizes match. */
START_TEST(test_slots)
{
	int i, op;

	for (i = 0; i < NROWS; i++) {
		const struct row *r = &rows[i];

		REQUIRE(optab_size(r->code) == r->size, "%s: size %zu", r->name,
		    optab_size(r->code));
		for (op = 0; op < OPTAB_NOPS; op++) {
			int want = (r->ops & B(op)) != 0;
			int have =
			    optab_lookup((enum optab_op)op, r->code) != NULL;

			REQUIRE(have == want, "%s %s: slot %s", op_names[op],
			    r->name, have ? "filled" : "empty");
		}
	}
	ck_assert_int_eq(OPTAB_NTYPES, PVM_ULONG + 4);
	/* Unknown types and ops. */
	ck_assert_uint_eq(optab_size(-1), 0);
	ck_assert_uint_eq(optab_size(OPTAB_NTYPES), 0);
	ck_assert_uint_eq(optab_size(1000), 0);
	for (op = 0; op < OPTAB_NOPS; op++) {
		ck_assert(optab_lookup((enum optab_op)op, -1) == NULL);
		ck_assert(
		    optab_lookup((enum optab_op)op, OPTAB_NTYPES) == NULL);
	}
	ck_assert(optab_lookup(OPTAB_NOPS, PVM_INT) == NULL);
	ck_assert(optab_lookup((enum optab_op) - 1, PVM_INT) == NULL);
}
END_TEST

/* One (type, op) pair: the kernel against the reference, several n. */
static void
exercise(const struct exer *e, int op)
{
	static const size_t lens[] = {0, 1, 2, 5, 17, 64};
	const struct row *r = row_of(e->code);
	optab_kernel k = optab_lookup((enum optab_op)op, e->code);
	int nans = op == OPTAB_MAX || op == OPTAB_MIN;
	size_t li, n, ns, i, bytes;
	unsigned char *x, *y, *want, *y0;

	if ((r->ops & B(op)) == 0) {
		return;
	}
	ck_assert(k != NULL);
	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		n = lens[li];
		ns = n * e->nscalars;
		bytes = n * r->size + 1;
		x = calloc(1, bytes);
		y = calloc(1, bytes);
		want = calloc(1, bytes);
		y0 = calloc(1, bytes);
		ck_assert(x && y && want && y0);
		rng_state = (uint64_t)(e->code * 1000 + op * 10) + li;
		e->fill(x, ns, nans, 2);
		e->fill(y, ns, nans, 4);
		memcpy(want, x, bytes);
		memcpy(y0, y, bytes);
		e->ref(op, want, y, n);
		k(x, y, n);
		for (i = 0; i < ns; i++) {
			REQUIRE(e->eq(x, want, i), "%s %s n=%zu: scalar %zu",
			    op_names[op], r->name, n, i);
		}
		REQUIRE(memcmp(y, y0, bytes) == 0, "%s %s: y changed",
		    op_names[op], r->name);
		free(x);
		free(y);
		free(want);
		free(y0);
	}
}

START_TEST(test_against_reference)
{
	exercise(&exers[_i / OPTAB_NOPS], _i % OPTAB_NOPS);
}
END_TEST

/* long long: wraparound, signed compare, bitwise ops, exact values. */
START_TEST(test_longlong)
{
	long long x[4] = {LLONG_MAX, LLONG_MIN, 0x100000001ll, -1};
	long long y[4] = {1, -1, 0x100000001ll, 5};

	optab_lookup(OPTAB_SUM, OPTAB_LONGLONG)(x, y, 4);
	ck_assert(x[0] == LLONG_MIN && x[1] == LLONG_MAX);
	ck_assert(x[2] == 0x200000002ll && x[3] == 4);
	x[0] = LLONG_MIN;
	x[1] = 0x100000001ll;
	x[2] = LLONG_MAX;
	x[3] = -3;
	y[0] = -1;
	y[1] = 0x100000001ll;
	y[2] = 2;
	y[3] = 7;
	optab_lookup(OPTAB_PROD, OPTAB_LONGLONG)(x, y, 4);
	ck_assert(x[0] == LLONG_MIN);     /* -LLONG_MIN wraps to itself */
	ck_assert(x[1] == 0x200000001ll); /* 2^64 is dropped */
	ck_assert(x[2] == -2);            /* (2^63 - 1) * 2 mod 2^64 */
	ck_assert(x[3] == -21);
	x[0] = -1;
	x[1] = LLONG_MIN;
	y[0] = 0;
	y[1] = LLONG_MAX;
	optab_lookup(OPTAB_MAX, OPTAB_LONGLONG)(x, y, 2);
	ck_assert(x[0] == 0 && x[1] == LLONG_MAX);
	y[0] = -5; /* signed compare: -5 < 0 */
	y[1] = LLONG_MIN;
	optab_lookup(OPTAB_MIN, OPTAB_LONGLONG)(x, y, 2);
	ck_assert(x[0] == -5 && x[1] == LLONG_MIN);
	x[0] = 0x0ff0f00f12345678ll;
	x[1] = -1;
	x[2] = LLONG_MIN;
	y[0] = 0x00ffff0000000000ll;
	y[1] = 0x5555555555555555ll;
	y[2] = 1;
	optab_lookup(OPTAB_AND, OPTAB_LONGLONG)(x, y, 3);
	ck_assert(x[0] == 0x00f0f00000000000ll);
	ck_assert(x[1] == 0x5555555555555555ll && x[2] == 0);
	optab_lookup(OPTAB_OR, OPTAB_LONGLONG)(x, y, 3);
	ck_assert(x[0] == 0x00ffff0000000000ll);
	ck_assert(x[2] == 1);
	optab_lookup(OPTAB_XOR, OPTAB_LONGLONG)(x, y, 3);
	ck_assert(x[0] == 0 && x[1] == 0 && x[2] == 0);
}
END_TEST

/* Bitwise ops on SHORT, INT and LONG, negative values included. */
START_TEST(test_bitwise_narrow)
{
	short sx[2] = {-1, 0x0f0f}, sy[2] = {0x1234, (short)0xf00f};
	int ix[2] = {-2, 0x7fff0000}, iy[2] = {3, 0x00ffff00};
	long lx[1] = {-1L}, ly[1] = {LONG_MIN};

	optab_lookup(OPTAB_AND, PVM_SHORT)(sx, sy, 2);
	ck_assert(sx[0] == 0x1234 && sx[1] == 0x000f);
	optab_lookup(OPTAB_XOR, PVM_SHORT)(sx, sy, 2);
	ck_assert(sx[0] == 0 && sx[1] == (short)0xf000);
	optab_lookup(OPTAB_OR, PVM_INT)(ix, iy, 2);
	ck_assert(ix[0] == -1 && ix[1] == 0x7fffff00);
	optab_lookup(OPTAB_XOR, PVM_INT)(ix, iy, 2);
	ck_assert(ix[0] == -4 && ix[1] == 0x7f000000);
	optab_lookup(OPTAB_XOR, PVM_LONG)(lx, ly, 1);
	ck_assert(lx[0] == LONG_MAX);
}
END_TEST

/* long double keeps what double would round away. */
START_TEST(test_longdouble)
{
	long double x[3] = {1, 1 + 0x1p-30L, 3},
	            y[3] = {0x1p-60L, 1 + 0x1p-30L, NAN};

	optab_lookup(OPTAB_SUM, OPTAB_LONGDOUBLE)(x, y, 1);
	ck_assert(x[0] - 1 == 0x1p-60L);
	optab_lookup(OPTAB_PROD, OPTAB_LONGDOUBLE)(x + 1, y + 1, 1);
	ck_assert(x[1] - 1 - 0x1p-29L == 0x1p-60L);
	optab_lookup(OPTAB_MAX, OPTAB_LONGDOUBLE)(x + 2, y + 2, 1);
	ck_assert(x[2] == 3);
	optab_lookup(OPTAB_MIN, OPTAB_LONGDOUBLE)(x + 2, y + 2, 1);
	ck_assert(x[2] == 3);
	y[2] = 4; /* a NaN in x stays: the comparison is false */
	x[2] = NAN;
	optab_lookup(OPTAB_MAX, OPTAB_LONGDOUBLE)(x + 2, y + 2, 1);
	ck_assert(isnan(x[2]));
}
END_TEST

#ifdef OPTAB_HAVE_FLOAT128
/* __float128 keeps what long double would round away. */
START_TEST(test_float128)
{
	__float128 one = 1, tiny = 1, eps = 1;
	__float128 x[3], y[3];
	int i;

	for (i = 0; i < 100; i++) {
		tiny /= 2; /* 2^-100 */
	}
	for (i = 0; i < 50; i++) {
		eps /= 2; /* 2^-50 */
	}
	x[0] = one;
	y[0] = tiny;
	x[1] = one + eps;
	y[1] = one + eps;
	x[2] = -7;
	y[2] = (__float128)NAN;
	optab_lookup(OPTAB_SUM, OPTAB_FLOAT128)(x, y, 1);
	ck_assert(x[0] - one == tiny);
	ck_assert((long double)tiny + 1 == 1); /* long double loses it */
	optab_lookup(OPTAB_PROD, OPTAB_FLOAT128)(x + 1, y + 1, 1);
	ck_assert(x[1] - one - 2 * eps == tiny);
	optab_lookup(OPTAB_MAX, OPTAB_FLOAT128)(x + 2, y + 2, 1);
	ck_assert(x[2] == -7);
	optab_lookup(OPTAB_MIN, OPTAB_FLOAT128)(x + 2, y + 2, 1);
	ck_assert(x[2] == -7);
	y[2] = -8;
	optab_lookup(OPTAB_MIN, OPTAB_FLOAT128)(x + 2, y + 2, 1);
	ck_assert(x[2] == -8);
}
END_TEST
#endif

/* The NaN rule on every real type: a NaN in y never replaces x. */
START_TEST(test_nan_rule)
{
	float f[2] = {1, -2}, fy[2] = {NAN, NAN};
	double d[2] = {1, -2}, dy[2] = {NAN, NAN};

	optab_lookup(OPTAB_MAX, PVM_FLOAT)(f, fy, 2);
	optab_lookup(OPTAB_MIN, PVM_FLOAT)(f, fy, 2);
	ck_assert(f[0] == 1 && f[1] == -2);
	optab_lookup(OPTAB_MAX, PVM_DOUBLE)(d, dy, 2);
	optab_lookup(OPTAB_MIN, PVM_DOUBLE)(d, dy, 2);
	ck_assert(d[0] == 1 && d[1] == -2);
}
END_TEST

/* PvmSum and friends refuse optab's internal codes: PVM has none. */
START_TEST(test_public_refuses_internal)
{
	static const gpvm_reduce_fn fns[] = {
	    PvmSum, PvmProduct, PvmMax, PvmMin};
	static const int codes[] = {
	    OPTAB_LONGLONG, OPTAB_LONGDOUBLE, OPTAB_FLOAT128, OPTAB_NTYPES};
	unsigned char x[64], x0[64], y[64];
	int f, c, dt, n, info;

	memset(y, 1, sizeof(y));
	memset(x, 3, sizeof(x));
	memcpy(x0, x, sizeof(x));
	for (c = 0; c < (int)(sizeof(codes) / sizeof(codes[0])); c++) {
		ck_assert_uint_eq(gpvm_type_size(codes[c]), 0);
		for (f = 0; f < 4; f++) {
			dt = codes[c];
			n = 2;
			info = 0;
			fns[f](&dt, x, y, &n, &info);
			REQUIRE(info == PvmBadParam, "fn %d type %d: info %d",
			    f, codes[c], info);
			REQUIRE(memcmp(x, x0, sizeof(x)) == 0,
			    "fn %d type %d: x changed", f, codes[c]);
			REQUIRE(!gpvm_op_supports(fns[f], codes[c]),
			    "fn %d type %d claimed", f, codes[c]);
		}
	}
	/* PVM's own codes: the same sizes through either door. */
	for (c = 0; c < GPVM_NTYPES; c++) {
		ck_assert_uint_eq(gpvm_type_size(c), optab_size(c));
	}
}
END_TEST

static Suite *
optab_suite(void)
{
	Suite *s = suite_create("optab");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_slots);
	tcase_add_loop_test(tc, test_against_reference, 0, NEXERS * OPTAB_NOPS);
	tcase_add_test(tc, test_longlong);
	tcase_add_test(tc, test_bitwise_narrow);
	tcase_add_test(tc, test_longdouble);
#ifdef OPTAB_HAVE_FLOAT128
	tcase_add_test(tc, test_float128);
#endif
	tcase_add_test(tc, test_nan_rule);
	tcase_add_test(tc, test_public_refuses_internal);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(optab_suite());
}
