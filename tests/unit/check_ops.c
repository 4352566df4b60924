/*
 * check_ops.c: the predefined reduce functions (libgpvm/ops.c).
 *
 * Every (operation, datatype) pair against a naive element-by-element
 * reference written here independently of ops.c's macros, for several
 * lengths (0, 1, 2, odd, larger); complex Max/Min by modulus including
 * ties; every unsupported pair (BYTE with Sum/Product, PVM_STR, unknown
 * codes, a negative count) gives PvmBadParam and leaves x untouched;
 * gpvm_type_size and gpvm_op_supports agree with the functions.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"

#include "unit_main.h"

#define REQUIRE(cond, ...)                                               \
	do {                                                             \
		if (!(cond)) {                                           \
			ck_abort_msg(__VA_ARGS__);                       \
		}                                                        \
	} while (0)

enum { K_SINT, K_UINT, K_REAL, K_CPLX };
enum { OP_SUM, OP_PRODUCT, OP_MAX, OP_MIN, NOPS };

static const struct op {
	const char *name;
	gpvm_reduce_fn fn;
} ops[NOPS] = {
	{ "PvmSum", PvmSum },
	{ "PvmProduct", PvmProduct },
	{ "PvmMax", PvmMax },
	{ "PvmMin", PvmMin },
};

/* The datatypes as the test sees them (sizes from the C types). */
static const struct ty {
	const char *name;
	int code;
	size_t scalar; /* bytes of one scalar */
	int kind;
} tys[] = {
	{ "BYTE", PVM_BYTE, 1, K_SINT },
	{ "SHORT", PVM_SHORT, sizeof(short), K_SINT },
	{ "INT", PVM_INT, sizeof(int), K_SINT },
	{ "FLOAT", PVM_FLOAT, sizeof(float), K_REAL },
	{ "CPLX", PVM_CPLX, sizeof(float), K_CPLX },
	{ "DOUBLE", PVM_DOUBLE, sizeof(double), K_REAL },
	{ "DCPLX", PVM_DCPLX, sizeof(double), K_CPLX },
	{ "LONG", PVM_LONG, sizeof(long), K_SINT },
	{ "USHORT", PVM_USHORT, sizeof(unsigned short), K_UINT },
	{ "UINT", PVM_UINT, sizeof(unsigned int), K_UINT },
	{ "ULONG", PVM_ULONG, sizeof(unsigned long), K_UINT },
};
#define NTYS (int)(sizeof(tys) / sizeof(tys[0]))

/* Whether the pair is supported: all but BYTE with Sum/Product and the
 * unsigned types (PVM 3.4.6 refuses them). */
static int
supported(int op, const struct ty *t)
{
	return t->kind != K_UINT &&
	    !(t->code == PVM_BYTE && (op == OP_SUM || op == OP_PRODUCT));
}

/* ---- scalar access by size ---- */

/* Integer scalar i of p (size bytes) as a signed or unsigned 64 bit. */
static uint64_t
get_u(const void *p, size_t size, size_t i)
{
	const unsigned char *b = (const unsigned char *)p + i * size;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, b, 1);
		return v8;
	case 2:
		memcpy(&v16, b, 2);
		return v16;
	case 4:
		memcpy(&v32, b, 4);
		return v32;
	default:
		memcpy(&v64, b, 8);
		return v64;
	}
}

static int64_t
get_s(const void *p, size_t size, size_t i)
{
	uint64_t u = get_u(p, size, i);
	int sh = 64 - 8 * (int)size;

	/* Sign-extend through an arithmetic shift of the top bits. */
	return (int64_t)(u << sh) >> sh;
}

/* Store the low size bytes of v as scalar i of p. */
static void
put_u(void *p, size_t size, size_t i, uint64_t v)
{
	unsigned char *b = (unsigned char *)p + i * size;
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(b, &v8, 1);
		break;
	case 2:
		memcpy(b, &v16, 2);
		break;
	case 4:
		memcpy(b, &v32, 4);
		break;
	default:
		memcpy(b, &v, 8);
		break;
	}
}

/* Real scalar i (float or double by size) as double, and back. */
static double
get_d(const void *p, size_t size, size_t i)
{
	if (size == sizeof(float)) {
		return ((const float *)p)[i];
	}
	return ((const double *)p)[i];
}

static void
put_d(void *p, size_t size, size_t i, double v)
{
	if (size == sizeof(float)) {
		((float *)p)[i] = (float)v;
	} else {
		((double *)p)[i] = v;
	}
}

/* ---- the reference: one element, x = x op y ---- */

static void
ref_int(int op, const struct ty *t, void *x, const void *y, size_t i)
{
	uint64_t a = get_u(x, t->scalar, i), b = get_u(y, t->scalar, i), r;
	int less;

	if (t->kind == K_SINT) {
		less = get_s(y, t->scalar, i) < get_s(x, t->scalar, i);
	} else {
		less = b < a;
	}
	switch (op) {
	case OP_SUM:
		r = a + b;
		break;
	case OP_PRODUCT:
		r = a * b;
		break;
	case OP_MAX:
		r = (!less && a != b) ? b : a;
		break;
	default:
		r = less ? b : a;
		break;
	}
	put_u(x, t->scalar, i, r);
}

/*
 * Reals: float results are computed in double and rounded once, which
 * is exact for one + or * of two floats (53 >= 2 * 24 + 2).
 */
static void
ref_real(int op, const struct ty *t, void *x, const void *y, size_t i)
{
	double a = get_d(x, t->scalar, i), b = get_d(y, t->scalar, i);

	switch (op) {
	case OP_SUM:
		put_d(x, t->scalar, i, a + b);
		break;
	case OP_PRODUCT:
		put_d(x, t->scalar, i, a * b);
		break;
	case OP_MAX:
		put_d(x, t->scalar, i, b > a ? b : a);
		break;
	default:
		put_d(x, t->scalar, i, b < a ? b : a);
		break;
	}
}

/* Complex element i (scalars 2i, 2i+1), in the element's own precision:
 * ref_cplx_f for PVM_CPLX, ref_cplx_d for PVM_DCPLX. */
#define REF_CPLX(name, T)                                                \
	static void name(int op, T *x, const T *y, size_t i)             \
	{                                                                \
		T a = x[2 * i], b = x[2 * i + 1];                        \
		T c = y[2 * i], d = y[2 * i + 1];                        \
		T ac = a * c, bd = b * d, ad = a * d, bc = b * c;        \
		T mx = a * a, my = c * c;                                \
                                                                         \
		mx += b * b;                                             \
		my += d * d;                                             \
		if (op == OP_SUM) {                                      \
			x[2 * i] = a + c;                                \
			x[2 * i + 1] = b + d;                            \
		} else if (op == OP_PRODUCT) {                           \
			x[2 * i] = ac - bd;                              \
			x[2 * i + 1] = ad + bc;                          \
		} else if ((op == OP_MAX && my > mx) ||                  \
		    (op == OP_MIN && my < mx)) {                         \
			x[2 * i] = c;                                    \
			x[2 * i + 1] = d;                                \
		}                                                        \
	}
REF_CPLX(ref_cplx_f, float)
REF_CPLX(ref_cplx_d, double)

static void
ref_fold(int op, const struct ty *t, void *x, const void *y, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (t->kind == K_SINT || t->kind == K_UINT) {
			ref_int(op, t, x, y, i);
		} else if (t->kind == K_REAL) {
			ref_real(op, t, x, y, i);
		} else if (t->scalar == sizeof(float)) {
			ref_cplx_f(op, x, y, i);
		} else {
			ref_cplx_d(op, x, y, i);
		}
	}
}

/* ---- inputs ---- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return rng_state >> 11;
}

/* n elements of t: random bits for integers, varied reals, some ties. */
static void
fill(const struct ty *t, void *p, size_t n)
{
	size_t ns = n * (t->kind == K_CPLX ? 2 : 1), i;

	for (i = 0; i < ns; i++) {
		if (t->kind == K_SINT || t->kind == K_UINT) {
			put_u(p, t->scalar, i, rng() * 0x9e3779b97f4a7c15ull);
		} else if (i % 7 == 3) {
			put_d(p, t->scalar, i, 1.5); /* ties across x and y */
		} else {
			put_d(p, t->scalar, i,
			    ((double)(rng() % 2000001) - 1000000.0) / 1024.0 *
				pow(10.0, (double)(rng() % 9) - 4.0));
		}
	}
}

/* Every supported pair, lengths 0, 1, 2, 7, 33 and 1000. */
START_TEST(test_against_reference)
{
	static const int lens[] = { 0, 1, 2, 7, 33, 1000 };
	const struct ty *t = &tys[_i / NOPS];
	int op = _i % NOPS, li, n, dt, info;
	size_t esize, bytes;
	unsigned char *x, *y, *want, *y0;

	if (!supported(op, t)) {
		return;
	}
	esize = t->scalar * (t->kind == K_CPLX ? 2 : 1);
	REQUIRE(gpvm_type_size(t->code) == esize, "%s size", t->name);
	for (li = 0; li < (int)(sizeof(lens) / sizeof(lens[0])); li++) {
		n = lens[li];
		bytes = (size_t)n * esize + 1;
		x = malloc(bytes);
		y = malloc(bytes);
		want = malloc(bytes);
		y0 = malloc(bytes);
		ck_assert(x && y && want && y0);
		rng_state = (uint64_t)(_i * 100 + li);
		fill(t, x, (size_t)n);
		fill(t, y, (size_t)n);
		memcpy(want, x, bytes);
		memcpy(y0, y, bytes);
		ref_fold(op, t, want, y, (size_t)n);
		dt = t->code;
		info = 12345;
		ops[op].fn(&dt, x, y, &n, &info);
		REQUIRE(info == PvmOk, "%s %s n=%d: info %d", ops[op].name,
		    t->name, n, info);
		REQUIRE(memcmp(x, want, bytes) == 0, "%s %s n=%d: result",
		    ops[op].name, t->name, n);
		REQUIRE(memcmp(y, y0, bytes) == 0, "%s %s n=%d: y changed",
		    ops[op].name, t->name, n);
		REQUIRE(dt == t->code && n == lens[li], "%s %s: args changed",
		    ops[op].name, t->name);
		free(x);
		free(y);
		free(want);
		free(y0);
	}
}
END_TEST

/* Unsupported pairs: PvmBadParam, x untouched. */
START_TEST(test_unsupported)
{
	static const int bad[] = { PVM_STR, -1, GPVM_NTYPES, 99 };
	unsigned char x[64], y[64], x0[64];
	int op, i, dt, n, info;

	memset(y, 0x11, sizeof(y));
	for (i = 0; i < (int)sizeof(x); i++) {
		x[i] = (unsigned char)(i * 7 + 1);
	}
	memcpy(x0, x, sizeof(x));
	for (op = 0; op < NOPS; op++) {
		for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
			dt = bad[i];
			n = 3;
			info = 0;
			ops[op].fn(&dt, x, y, &n, &info);
			REQUIRE(info == PvmBadParam, "%s type %d: info %d",
			    ops[op].name, dt, info);
			REQUIRE(memcmp(x, x0, sizeof(x)) == 0,
			    "%s type %d: x changed", ops[op].name, dt);
			REQUIRE(!gpvm_op_supports(ops[op].fn, bad[i]),
			    "%s type %d claimed", ops[op].name, bad[i]);
		}
		dt = PVM_BYTE;
		n = 16;
		info = 0;
		ops[op].fn(&dt, x, y, &n, &info);
		if (op == OP_SUM || op == OP_PRODUCT) {
			REQUIRE(info == PvmBadParam, "%s BYTE", ops[op].name);
			REQUIRE(memcmp(x, x0, sizeof(x)) == 0, "%s BYTE: x",
			    ops[op].name);
		} else {
			REQUIRE(info == PvmOk, "%s BYTE", ops[op].name);
			memcpy(x, x0, sizeof(x));
		}
		/* A negative count. */
		dt = PVM_INT;
		n = -1;
		info = 0;
		ops[op].fn(&dt, x, y, &n, &info);
		REQUIRE(info == PvmBadParam, "%s count -1", ops[op].name);
		REQUIRE(memcmp(x, x0, sizeof(x)) == 0, "%s count -1: x",
		    ops[op].name);
	}
}
END_TEST

/* A user function: does nothing. */
static void
user_fn(int *dt, void *x, void *y, int *n, int *info)
{
	(void)dt;
	(void)x;
	(void)y;
	(void)n;
	*info = 0;
}

/* gpvm_op_supports and gpvm_type_size agree with the table above. */
START_TEST(test_supports)
{
	int op, i;

	for (op = 0; op < NOPS; op++) {
		for (i = 0; i < NTYS; i++) {
			REQUIRE(gpvm_op_supports(ops[op].fn, tys[i].code) ==
				supported(op, &tys[i]),
			    "%s %s", ops[op].name, tys[i].name);
		}
	}
	ck_assert_uint_eq(gpvm_type_size(PVM_STR), 0);
	ck_assert_uint_eq(gpvm_type_size(-3), 0);
	ck_assert_uint_eq(gpvm_type_size(GPVM_NTYPES), 0);
	ck_assert_uint_eq(gpvm_type_size(PVM_BYTE), 1);
	ck_assert_uint_eq(gpvm_type_size(PVM_DCPLX), 16);
	/* A user function supports anything; pvm_reduce checks types. */
	ck_assert_int_eq(gpvm_op_supports(user_fn, PVM_BYTE),
	    1);
}
END_TEST

/* Complex Max/Min by modulus; ties keep x; NaN never replaces x. */
START_TEST(test_complex_modulus)
{
	float x[8] = { 3, 4, 1, 0, 0, 5, -2, 0 };
	float y[8] = { -5, 0, 0, -2, 4, 3, 0, 1 };
	double dx[4] = { 1, 1, -1, 0 }, dy[4] = { 0, -1.5, 1, -0.0 };
	int dt = PVM_CPLX, n = 4, info = -1;

	/* |3+4i| = |-5| (tie: keep x); |1| < |-2i|; |5i| = |4+3i|; 2 > 1. */
	PvmMax(&dt, x, y, &n, &info);
	ck_assert_int_eq(info, PvmOk);
	ck_assert(x[0] == 3 && x[1] == 4);
	ck_assert(x[2] == 0 && x[3] == -2);
	ck_assert(x[4] == 0 && x[5] == 5);
	ck_assert(x[6] == -2 && x[7] == 0);
	PvmMin(&dt, x, y, &n, &info);
	ck_assert_int_eq(info, PvmOk);
	ck_assert(x[0] == 3 && x[1] == 4); /* tie again */
	ck_assert(x[2] == 0 && x[3] == -2);
	ck_assert(x[6] == 0 && x[7] == 1);
	/* (1+i)(-1.5i) = 1.5 - 1.5i; |1-1.5i| vs ... product, then max. */
	dt = PVM_DCPLX;
	n = 2;
	PvmProduct(&dt, dx, dy, &n, &info);
	ck_assert_int_eq(info, PvmOk);
	ck_assert(dx[0] == 1.5 && dx[1] == -1.5);
	ck_assert(dx[2] == -1 && dx[3] == 0);
	PvmMax(&dt, dx, dy, &n, &info);
	ck_assert(dx[0] == 1.5 && dx[1] == -1.5);
	ck_assert(dx[2] == -1); /* tie |-1| = |1|: keep x */
}
END_TEST

/* A NaN in y never replaces x in Max/Min. */
START_TEST(test_nan)
{
	double x[2] = { 1, 2 }, y[2] = { NAN, NAN };
	int dt = PVM_DOUBLE, n = 2, info = -1;

	PvmMax(&dt, x, y, &n, &info);
	ck_assert(x[0] == 1 && x[1] == 2);
	PvmMin(&dt, x, y, &n, &info);
	ck_assert(x[0] == 1 && x[1] == 2);
	ck_assert_int_eq(info, PvmOk);
}
END_TEST

/* Signed bytes compare as signed; integers wrap. */
START_TEST(test_edges)
{
	signed char bx[2] = { -1, 5 }, by[2] = { 1, -128 };
	int ix[1] = { 0x7fffffff }, iy[1] = { 1 };
	unsigned int ux[1] = { 0xffffffffu }, uy[1] = { 2 };
	int dt = PVM_BYTE, n = 2, info = -1;

	PvmMax(&dt, bx, by, &n, &info);
	ck_assert(bx[0] == 1 && bx[1] == 5);
	PvmMin(&dt, bx, by, &n, &info);
	ck_assert(bx[0] == 1 && bx[1] == -128);
	dt = PVM_INT;
	n = 1;
	PvmSum(&dt, ix, iy, &n, &info);
	ck_assert_int_eq(ix[0], (int)0x80000000u);
	ck_assert_int_eq(info, PvmOk);
	/* Unsigned: refused (as PVM 3.4.6), x untouched. */
	dt = PVM_UINT;
	PvmSum(&dt, ux, uy, &n, &info);
	ck_assert_int_eq(info, PvmBadParam);
	PvmMax(&dt, ux, uy, &n, &info);
	ck_assert_int_eq(info, PvmBadParam);
	ck_assert_uint_eq(ux[0], 0xffffffffu);
}
END_TEST

static Suite *
ops_suite(void)
{
	Suite *s = suite_create("ops");
	TCase *tc = tcase_create("kernels");

	tcase_add_loop_test(tc, test_against_reference, 0, NTYS * NOPS);
	tcase_add_test(tc, test_unsupported);
	tcase_add_test(tc, test_supports);
	tcase_add_test(tc, test_complex_modulus);
	tcase_add_test(tc, test_nan);
	tcase_add_test(tc, test_edges);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(ops_suite());
}
