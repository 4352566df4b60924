/*
 * t_reduce.c: pvm_reduce end to end.
 *
 * The program the test script starts is the driver: it joins the group
 * first (instance 0), spawns copies of itself as the other members and
 * prints the checks.  Every member runs the same scenario and records
 * its own findings; at the end of a step each member reports them to the
 * driver by message (children's stdout is not the test's), and the driver
 * prints one PASS line per step, or a FAIL line per failing member.
 *
 *   t_reduce example        the pvm_reduce man page's worked example
 *   t_reduce errors         every argument error, on every member
 *   t_reduce badbyte        PvmSum/PvmProduct on PVM_BYTE: an error, no hang
 *   t_reduce user           user functions (and a non-commutative one)
 *   t_reduce userfail       a user function's *info < 0 reaches the root
 *   t_reduce interleave     user messages with the same tag, both ways
 *   t_reduce backtoback     many reduces in a row with one tag
 *   t_reduce recvfirst      the root receives from every member before
 *                           it reduces, each member reduces first
 *   t_reduce twogroups      two groups reducing at once with one tag
 *   t_reduce bitident       float sums bit-identical across calls/runs
 *   t_reduce kill leaf|mid  a member SIGKILLed: the root gets an error
 *   t_reduce leave          a member leaves while another waits for it
 *   t_reduce prop SIZE...   op x datatype x count x root, exact results
 *   t_reduce time N         per-call times (INFO lines only)
 *
 * Aimed at the shared-memory path (reduce_shm.c; on one host it takes
 * calls of up to SHM_CHUNK bytes a member in one deposit, with a flat
 * tree, and up to SHM_LONG in chunks in the long place, binomial above
 * SHM_FLAT; with GPVM_SHM_MAX raised, larger ones in chunks through the
 * ordinary places):
 *   t_reduce shmprop SIZE...  every op x datatype at 1, 3, 1000 elements
 *                             and at and just past SHM_CHUNK, SHM_FLAT
 *                             and SHM_LONG
 *   t_reduce rootcycle        300 calls in a row, one tag, every root
 *   t_reduce crowd N          N members (more than the CPUs), thousands
 *                             of calls, within a time limit
 *   t_reduce kill leaf COUNT, leave COUNT, bitident COUNT: the scenarios
 *                             above at another count
 *   t_reduce kill late COUNT  a leaf killed 1 s into the others' call
 *   t_reduce userfail root    the user function fails at the root only
 *   t_reduce userfail late    ...on an interior member, at chunk 1 of a
 *                             call in the long place
 *   t_reduce mismatch COUNT   instance 2 reduces COUNT doubles, the
 *                             others 1: errors, no hang, the group usable
 *   t_reduce gather SIZE...   pvm_gather (gather_shm.c on one host up to
 *                             SHM_CHUNK) and pvm_scatter, from 1 element
 *                             to past the limit, ints and doubles, roots
 *                             moving, back to back
 */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tcheck.h"
#include "tgroup.h"
#include "tgetfds.h"

#define TAG_USER 7
/* reduce_shm.c's RS_FLAT_BYTES. */
#define SHM_FLAT (2 * SHM_CHUNK)
/* gdata.h's GDATA_LONG: a reduce's limit on this path. */
#define SHM_LONG (512 * 1024)

/* ---- datatypes ---- */

static size_t
tsize(int dt)
{
	switch (dt) {
	case PVM_BYTE:
		return 1;
	case PVM_SHORT:
	case PVM_USHORT:
		return sizeof(short);
	case PVM_INT:
	case PVM_UINT:
	case PVM_FLOAT:
		return 4;
	case PVM_CPLX:
	case PVM_DOUBLE:
		return 8;
	case PVM_DCPLX:
		return 16;
	default:
		return sizeof(long);
	}
}

static int
is_float(int dt)
{
	return dt == PVM_FLOAT || dt == PVM_DOUBLE || dt == PVM_CPLX ||
	    dt == PVM_DCPLX;
}

static int
is_cplx(int dt)
{
	return dt == PVM_CPLX || dt == PVM_DCPLX;
}

/* Store scalar j of p (float types only) from a double. */
static void
put_f(void *p, int dt, size_t j, double v)
{
	if (dt == PVM_FLOAT || dt == PVM_CPLX) {
		((float *)p)[j] = (float)v;
	} else {
		((double *)p)[j] = v;
	}
}

static double
get_f(const void *p, int dt, size_t j)
{
	if (dt == PVM_FLOAT || dt == PVM_CPLX) {
		return ((const float *)p)[j];
	}
	return ((const double *)p)[j];
}

/* A 64-bit hash of (a, b, c). */
static uint64_t
mix(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t x = a * 0x9e3779b97f4a7c15ull ^ b * 0xbf58476d1ce4e5b9ull ^
	    c * 0x94d049bb133111ebull;

	x ^= x >> 31;
	x *= 0xd6e8feb86659fd93ull;
	return x ^ (x >> 32);
}

/*
 * Member inst's input for (op, dt, count, seed), chosen so that any
 * bracketing gives the same exact result: integers are anything (they
 * wrap, which is associative and commutative); float sums are small
 * integers; float products are +-1, 2 or 1/2 (complex: times 1 or i);
 * Max/Min of complex numbers have distinct moduli across members.
 */
static void
gen(void *p, int dt, int op, int inst, int count, uint64_t seed)
{
	size_t i, ns = (size_t)count * (is_cplx(dt) ? 2 : 1), es;
	uint64_t r;
	double v;

	if (!is_float(dt)) {
		es = tsize(dt);
		for (i = 0; i < (size_t)count; i++) {
			r = mix((uint64_t)inst, i, seed);
			memcpy((char *)p + i * es, &r, es);
		}
		return;
	}
	for (i = 0; i < ns; i++) {
		r = mix((uint64_t)inst, i, seed);
		if (op == 0) {
			v = (double)((int)(r % 101) - 50);
		} else if (op == 1) {
			static const double f[4] = { 1, -1, 2, 0.5 };

			/* Complex: real parts only; some rotated below. */
			v = is_cplx(dt) && i % 2 == 1 ? 0 : f[r % 4];
		} else if (is_cplx(dt)) {
			/* Distinct moduli: re grows with inst, im small. */
			v = i % 2 == 0 ? (double)(inst * 8 + (int)(r % 5) + 1) *
				((r >> 9) % 2 ? 1 : -1) :
					  (double)((int)((r >> 3) % 3) - 1);
		} else {
			v = (double)(int64_t)(r % 2000001) / 64.0 - 15000.0;
		}
		put_f(p, dt, i, v);
	}
	if (op == 1 && is_cplx(dt)) {
		/* Rotate some elements by i: (a, 0) -> (0, a). */
		for (i = 0; i < (size_t)count; i++) {
			if (mix((uint64_t)inst, i, seed + 1) % 2) {
				put_f(p, dt, 2 * i + 1, get_f(p, dt, 2 * i));
				put_f(p, dt, 2 * i, 0);
			}
		}
	}
}

/* Equal results: bits for integers, values for floats (+0 == -0). */
static int
same(const void *a, const void *b, int dt, int count, int *where)
{
	size_t i, ns = (size_t)count * (is_cplx(dt) ? 2 : 1);

	if (!is_float(dt)) {
		for (i = 0; i < (size_t)count; i++) {
			if (memcmp((const char *)a + i * tsize(dt),
			    (const char *)b + i * tsize(dt), tsize(dt)) != 0) {
				*where = (int)i;
				return 0;
			}
		}
		return 1;
	}
	for (i = 0; i < ns; i++) {
		if (get_f(a, dt, i) != get_f(b, dt, i)) {
			*where = (int)i;
			return 0;
		}
	}
	return 1;
}

static void (*const opfn[4])(int *, void *, void *, int *, int *) = {
	PvmSum, PvmProduct, PvmMax, PvmMin
};
static const char *const opname[4] = { "Sum", "Product", "Max", "Min" };
static const char *const dtname[12] = { "STR", "BYTE", "SHORT", "INT",
	"FLOAT", "CPLX", "DOUBLE", "DCPLX", "LONG", "USHORT", "UINT",
	"ULONG" };

/*
 * One property case on group g of n members: everyone reduces its gen()
 * input; the root compares with a serial fold over instances 0..n-1.
 */
static void
prop_case(const char *g, int n, int op, int dt, int count, int root,
    uint64_t seed, void *buf, void *want, void *tmp)
{
	int rc, c = count, info = 0, j, where = -1, inst;

	inst = pvm_getinst((char *)g, pvm_mytid());
	gen(buf, dt, op, inst, count, seed);
	rc = pvm_reduce(opfn[op], count > 0 ? buf : NULL, count, dt, 11,
	    (char *)g, root);
	/* A count of 0 is PvmBadParam (as PVM 3.4), at every member. */
	if (!expect(rc == (count == 0 ? PvmBadParam : 0),
		"%s %s count %d n %d root %d: rc %d", opname[op], dtname[dt],
		count, n, root, rc) ||
	    inst != root || count == 0) {
		return;
	}
	gen(want, dt, op, 0, count, seed);
	for (j = 1; j < n; j++) {
		gen(tmp, dt, op, j, count, seed);
		opfn[op](&dt, want, tmp, &c, &info);
	}
	expect(same(buf, want, dt, count, &where),
	    "%s %s count %d n %d root %d: wrong at element %d", opname[op],
	    dtname[dt], count, n, root, where);
}

/* Is (op, dt) a supported pair? */
static int
supported(int op, int dt)
{
	return dt != PVM_STR && dt < PVM_USHORT && !(dt == PVM_BYTE && op < 2);
}

/* prop SIZE...: every member of the largest size takes part. */
static void
mode_prop(int argc, char **argv, int idx)
{
	static const int small[] = { 0, 1, 2, 7, 1001 };
	int sizes[16], nsz, s, op, dt, k, ci, maxn, root;
	size_t maxbytes = (size_t)1048576 * 16;
	char g[96];
	void *buf, *want, *tmp;

	nsz = group_sizes(argc, argv, sizes, &maxn);
	buf = malloc(maxbytes);
	want = malloc(maxbytes);
	tmp = malloc(maxbytes);
	if (buf == NULL || want == NULL || tmp == NULL) {
		tc_fatal("no memory");
	}
	for (s = 0; s < nsz; s++) {
		snprintf(g, sizeof(g), "%s.%d", gname, sizes[s]);
		if (idx < sizes[s]) {
			join(g, sizes[s]);
			ci = 0;
			for (op = 0; op < 4; op++) {
				for (dt = 1; dt < 12; dt++) {
					if (!supported(op, dt)) {
						continue;
					}
					for (k = 0; k < 5; k++, ci++) {
						root = (ci * 7 + s) % sizes[s];
						prop_case(g, sizes[s], op, dt,
						    small[k], root,
						    (uint64_t)ci, buf, want,
						    tmp);
					}
					/* 65537 elements at 3, 8 and 16. */
					if (sizes[s] == 3 || sizes[s] == 8 ||
					    sizes[s] == 16) {
						root = (ci++ * 5) % sizes[s];
						prop_case(g, sizes[s], op, dt,
						    65537, root,
						    (uint64_t)ci, buf, want,
						    tmp);
					}
				}
			}
			/* 1048576 elements for a few pairs. */
			if (sizes[s] == 2 || sizes[s] == 8 || sizes[s] == 16) {
				prop_case(g, sizes[s], 0, PVM_DOUBLE, 1048576,
				    sizes[s] - 1, 101, buf, want, tmp);
				prop_case(g, sizes[s], 2, PVM_INT, 1048576,
				    0, 102, buf, want, tmp);
				prop_case(g, sizes[s], 1, PVM_DCPLX, 1048576,
				    sizes[s] / 2, 103, buf, want, tmp);
				prop_case(g, sizes[s], 3, PVM_LONG, 1048576,
				    1, 104, buf, want, tmp);
			}
		}
		step(g, maxn - 1);
	}
	free(buf);
	free(want);
	free(tmp);
}

/* shmprop SIZE...: the shared-memory path's counts, every pair. */
static void
mode_shmprop(int argc, char **argv, int idx)
{
	int sizes[16], nsz, s, op, dt, k, ci, maxn, counts[9];
	size_t maxbytes = (size_t)SHM_LONG + 64;
	char g[96];
	void *buf, *want, *tmp;

	nsz = group_sizes(argc, argv, sizes, &maxn);
	buf = malloc(maxbytes);
	want = malloc(maxbytes);
	tmp = malloc(maxbytes);
	if (buf == NULL || want == NULL || tmp == NULL) {
		tc_fatal("no memory");
	}
	for (s = 0; s < nsz; s++) {
		snprintf(g, sizeof(g), "%s.%d", gname, sizes[s]);
		if (idx < sizes[s]) {
			join(g, sizes[s]);
			ci = 0;
			for (op = 0; op < 4; op++) {
				for (dt = 1; dt < 12; dt++) {
					if (!supported(op, dt)) {
						continue;
					}
					counts[0] = 1;
					counts[1] = 3;
					counts[2] = 1000;
					counts[3] = (int)(SHM_CHUNK / tsize(dt));
					counts[4] = counts[3] + 1;
					counts[5] = (int)(SHM_FLAT / tsize(dt));
					counts[6] = counts[5] + 1;
					counts[7] = (int)(SHM_LONG / tsize(dt));
					counts[8] = counts[7] + 1;
					for (k = 0; k < 9; k++, ci++) {
						prop_case(g, sizes[s], op, dt,
						    counts[k],
						    (ci * 7 + s) % sizes[s],
						    (uint64_t)ci + 500, buf,
						    want, tmp);
					}
				}
			}
		}
		step(g, maxn - 1);
	}
	free(buf);
	free(want);
	free(tmp);
}

/* Element j of member i's part in case `seed` (exact in a double). */
static double
gs_val(int i, int j, int seed)
{
	return (double)(i * 100003 + j + seed * 7);
}

/* One gather and one scatter of count elements of dt (INT or DOUBLE). */
static void
gs_case(const char *g, int n, int inst, int count, int dt, int root,
    int seed, char *data, char *result)
{
	size_t es = dt == PVM_INT ? sizeof(int) : sizeof(double);
	int i, j, rc, bad = -1;

#define GS_PUT(p, k, v) (dt == PVM_INT ? (void)(((int *)(p))[k] = (int)(v)) \
    : (void)(((double *)(p))[k] = (v)))
#define GS_GET(p, k) (dt == PVM_INT ? (double)((int *)(p))[k] \
    : ((double *)(p))[k])
	for (j = 0; j < count; j++) {
		GS_PUT(data, j, gs_val(inst, j, seed));
	}
	rc = pvm_gather(result, data, count, dt, 21, (char *)g, root);
	expect(rc == 0, "gather n %d count %d root %d: rc %d", n, count, root,
	    rc);
	for (i = 0; inst == root && i < n && bad < 0; i++) {
		for (j = 0; j < count && bad < 0; j++) {
			if (GS_GET(result, (size_t)i * count + j) !=
			    gs_val(i, j, seed)) {
				bad = i;
			}
		}
	}
	expect(bad < 0, "gather n %d count %d root %d: member %d's part",
	    n, count, root, bad);
	for (i = 0; inst == root && i < n; i++) {
		for (j = 0; j < count; j++) {
			GS_PUT(data, (size_t)i * count + j,
			    gs_val(i, j, seed + 1));
		}
	}
	memset(result, 0, (size_t)count * es);
	rc = pvm_scatter(result, data, count, dt, 22, (char *)g, root);
	expect(rc == 0, "scatter n %d count %d root %d: rc %d", n, count,
	    root, rc);
	for (j = 0; j < count && bad < 0; j++) {
		if (GS_GET(result, j) != gs_val(inst, j, seed + 1)) {
			bad = j;
		}
	}
	expect(bad < 0, "scatter n %d count %d root %d: element %d", n,
	    count, root, bad);
#undef GS_PUT
#undef GS_GET
}

/* gather SIZE...: gathers and scatters at several counts and roots. */
static void
mode_gather(int argc, char **argv, int idx)
{
	int counts[5] = { 1, 1000, 0, 0, 50000 };
	int sizes[16], nsz, s, k, dt, ci, maxn, inst;
	char g[96], *data, *result;

	nsz = group_sizes(argc, argv, sizes, &maxn);
	data = malloc((size_t)maxn * 50000 * sizeof(double));
	result = malloc((size_t)maxn * 50000 * sizeof(double));
	if (data == NULL || result == NULL) {
		tc_fatal("no memory");
	}
	for (s = 0; s < nsz; s++) {
		snprintf(g, sizeof(g), "%s.%d", gname, sizes[s]);
		if (idx < sizes[s]) {
			join(g, sizes[s]);
			inst = pvm_getinst(g, pvm_mytid());
			ci = 0;
			for (dt = 0; dt < 2; dt++) {
				/* At and just past the limit. */
				counts[2] = SHM_CHUNK / (dt ? 8 : 4);
				counts[3] = counts[2] + 1;
				for (k = 0; k < 5; k++, ci++) {
					gs_case(g, sizes[s], inst, counts[k],
					    dt ? PVM_DOUBLE : PVM_INT,
					    (ci * 3 + s) % sizes[s], ci, data,
					    result);
				}
			}
		}
		step(g, maxn - 1);
	}
	free(data);
	free(result);
}

/* ---- the other scenarios ---- */

/* The man page: 1..5, 10..50, 100..500, PvmSum to instance 1. */
static void
mode_example(void)
{
	int data[5], i, rc;

	for (i = 0; i < 5; i++) {
		data[i] = (i + 1) * (myinst == 0 ? 1 : myinst == 1 ? 10 : 100);
	}
	rc = pvm_reduce(PvmSum, data, 5, PVM_INT, 1, gname, 1);
	expect(rc == 0, "rc %d", rc);
	if (myinst == 1) {
		for (i = 0; i < 5; i++) {
			expect(data[i] == 111 * (i + 1), "data[%d] = %d", i,
			    data[i]);
		}
	}
	step("man page example: root holds 111..555", nmem - 1);
}

/* A reduce that must work: Sum of ints to `root`. */
static void
good_reduce(const char *g, int n, int root, int count, int tag)
{
	int *d = malloc((size_t)count * sizeof(int)), i, rc, inst;

	inst = pvm_getinst((char *)g, pvm_mytid());
	for (i = 0; i < count; i++) {
		d[i] = inst * 1000 + i;
	}
	rc = pvm_reduce(PvmSum, d, count, PVM_INT, tag, (char *)g, root);
	expect(rc == 0, "good reduce rc %d", rc);
	if (inst == root) {
		for (i = 0; i < count; i++) {
			if (!expect(d[i] == 1000 * n * (n - 1) / 2 + n * i,
			    "good reduce: d[%d] = %d", i, d[i])) {
				break;
			}
		}
	}
	free(d);
}

/* Every argument error, on every member; then a reduce still works. */
static void
mode_errors(const char *solo)
{
	int d[4] = { 1, 2, 3, 4 }, rc;
	char sd[8] = { 0 };

#define EXPECT_RC(call, want)                                            \
	do {                                                             \
		rc = (call);                                             \
		expect(rc == (want), "%s: %d, want %d", #call, rc, (want)); \
	} while (0)
	pvm_setopt(PvmAutoErr, 0);
	EXPECT_RC(pvm_reduce(PvmSum, d, -1, PVM_INT, 1, gname, 0), PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, NULL, 4, PVM_INT, 1, gname, 0),
	    PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, sd, 4, PVM_STR, 1, gname, 0), PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmMax, sd, 4, PVM_STR, 1, gname, 0), PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, 12, 1, gname, 0), PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, -1, 1, gname, 0), PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, -1, gname, 0),
	    PvmBadParam);
	EXPECT_RC(pvm_reduce(NULL, d, 4, PVM_INT, 1, gname, 0), PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, sd, 4, PVM_BYTE, 1, gname, 0),
	    PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmProduct, sd, 4, PVM_BYTE, 1, gname, 0),
	    PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, NULL, 0), PvmNullGroup);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, "", 0), PvmNullGroup);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, "red.nosuchgroup", 0),
	    PvmNoGroup);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, gname, 17), PvmNoInst);
	EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, gname, -1), PvmNoInst);
	/* A count of 0 is refused, as PVM 3.4 does. */
	EXPECT_RC(pvm_reduce(PvmSum, NULL, 0, PVM_INT, 1, gname, 0),
	    PvmBadParam);
	EXPECT_RC(pvm_reduce(PvmSum, d, 0, PVM_DCPLX, 1, gname, 2),
	    PvmBadParam);
	if (is_driver) {
		/* A group of one: the data is the result. */
		EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, (char *)solo, 0),
		    0);
		expect(d[0] == 1 && d[3] == 4, "group of one changed data");
	} else {
		EXPECT_RC(pvm_reduce(PvmSum, d, 4, PVM_INT, 1, (char *)solo,
		    0), PvmNotInGroup);
	}
	expect(memcmp(d, (int[4]){ 1, 2, 3, 4 }, sizeof(d)) == 0,
	    "data changed by a refused call");
	pvm_setopt(PvmAutoErr, 1);
#undef EXPECT_RC
	good_reduce(gname, nmem, 2, 10, 1);
	good_reduce(gname, nmem, 0, 100000, 1);
	step("argument errors on every member, then a good reduce", nmem - 1);
}

/* PvmSum/PvmProduct on PVM_BYTE: PvmBadParam everywhere, promptly. */
static void
mode_badbyte(void)
{
	signed char b[10];
	double t0;
	int i, rc;

	for (i = 0; i < 10; i++) {
		b[i] = (signed char)(myinst * 10 - 20 + i);
	}
	t0 = tc_now();
	rc = pvm_reduce(PvmSum, b, 10, PVM_BYTE, 3, gname, 1);
	expect(rc == PvmBadParam, "Sum BYTE rc %d", rc);
	rc = pvm_reduce(PvmProduct, b, 10, PVM_BYTE, 3, gname, 0);
	expect(rc == PvmBadParam, "Product BYTE rc %d", rc);
	expect(tc_now() - t0 < 5, "refusal took %.1f s", tc_now() - t0);
	rc = pvm_reduce(PvmMax, b, 10, PVM_BYTE, 3, gname, 1);
	expect(rc == 0, "Max BYTE rc %d", rc);
	if (myinst == 1) {
		for (i = 0; i < 10; i++) {
			expect(b[i] == (signed char)((nmem - 1) * 10 - 20 + i),
			    "Max BYTE b[%d] = %d", i, b[i]);
		}
	}
	rc = pvm_reduce(PvmMin, b, 10, PVM_BYTE, 3, gname, 0);
	expect(rc == 0, "Min BYTE rc %d", rc);
	good_reduce(gname, nmem, 3, 5, 3);
	step("PvmSum/PvmProduct on PVM_BYTE refused on every member", nmem - 1);
}

static int ufail; /* the user function fails on this member */
static int *ufail_from; /* ...only on data from here on, if set */
static int ucalls;
static int ubadargs;

/* User function: bitwise xor of ints; checks its arguments. */
static void
u_xor(int *dt, void *x, void *y, int *num, int *info)
{
	int i, *a = x, *b = y;

	ucalls++;
	if (*dt != PVM_INT || *info != 0 || *num <= 0) {
		ubadargs++;
	}
	if (ufail && (ufail_from == NULL || a >= ufail_from)) {
		*info = -99;
		return;
	}
	for (i = 0; i < *num; i++) {
		a[i] ^= b[i];
	}
}

/* Non-commutative, non-associative: x = 3x + y (mod 2^32). */
static void
u_affine(int *dt, void *x, void *y, int *num, int *info)
{
	unsigned *a = x, *b = y;
	int i;

	(void)dt;
	(void)info;
	for (i = 0; i < *num; i++) {
		a[i] = 3 * a[i] + b[i];
	}
}

/* Doubles: x = x + 2y. */
static void
u_dbl(int *dt, void *x, void *y, int *num, int *info)
{
	double *a = x, *b = y;
	int i;

	*info = *dt == PVM_DOUBLE ? 0 : PvmBadParam;
	for (i = 0; i < *num; i++) {
		a[i] += 2 * b[i];
	}
}

static void
mode_user(void)
{
	unsigned first[300], d[300];
	int x[300], want, i, k, rc, ok = 1;
	double dd[3];

	for (i = 0; i < 300; i++) {
		x[i] = (myinst + 1) * 0x01010101 ^ i;
	}
	rc = pvm_reduce(u_xor, x, 300, PVM_INT, 9, gname, 2);
	expect(rc == 0, "xor rc %d", rc);
	expect(ubadargs == 0, "user function saw bad arguments");
	if (myinst == 2) {
		for (i = 0; i < 300; i++) {
			want = 0;
			for (k = 0; k < nmem; k++) {
				want ^= (k + 1) * 0x01010101 ^ i;
			}
			expect(x[i] == want, "xor x[%d] = %x want %x", i, x[i],
			    want);
		}
	}
	for (k = 0; k < 6; k++) {
		for (i = 0; i < 300; i++) {
			d[i] = (unsigned)(myinst * 77 + i);
		}
		rc = pvm_reduce(u_affine, d, 300, PVM_UINT, 9, gname, 0);
		expect(rc == 0, "affine rc %d", rc);
		if (myinst == 0 && k == 0) {
			memcpy(first, d, sizeof(d));
		} else if (myinst == 0 && memcmp(first, d, sizeof(d)) != 0) {
			ok = 0;
		}
	}
	expect(ok, "a non-commutative function gave different results");
	dd[0] = myinst;
	dd[1] = 1;
	dd[2] = -0.5;
	rc = pvm_reduce(u_dbl, dd, 3, PVM_DOUBLE, 9, gname, nmem - 1);
	expect(rc == 0, "double user fn rc %d", rc);
	if (myinst == nmem - 1) {
		/* Every non-root value is doubled once per tree level it
		 * climbs, so only check what the sum of ones implies: >= n. */
		expect(dd[1] >= nmem && dd[2] <= -0.5 * nmem,
		    "double user fn: %g %g", dd[1], dd[2]);
	}
	step("user functions", nmem - 1);
}

/* A user function that fails on one member: the root gets the error. */
static void
mode_userfail(int rootonly)
{
	static int big[100000];
	int x[8], rc, i, victim, root, want;

	for (victim = 0; victim < (rootonly ? 1 : nmem); victim += 2) {
		root = 0;
		for (i = 0; i < 8; i++) {
			x[i] = i;
		}
		/* Instances 0 and 2 have children (and so call the
		 * function) in the one-host tree rooted at 0; 4 is a leaf. */
		want = victim == 4 ? 0 : -99;
		/* root: the root is the victim; it folds in every tree. */
		ufail = myinst == victim;
		rc = pvm_reduce(u_xor, x, 8, PVM_INT, 4, gname, root);
		if (myinst == root) {
			expect(rc == want, "victim %d: root rc %d, want %d",
			    victim, rc, want);
		}
		/* Many segments: fail in the first, drain the rest. */
		for (i = 0; i < 100000; i++) {
			big[i] = i;
		}
		rc = pvm_reduce(u_xor, big, 100000, PVM_INT, 4, gname, root);
		if (myinst == root) {
			expect(rc == want, "victim %d, 100000: root rc %d",
			    victim, rc);
		}
		ufail = 0;
		/* Nothing of the failed calls is left over. */
		good_reduce(gname, nmem, 1, 3, 4);
		good_reduce(gname, nmem, 0, 100000, 4);
	}
	step("user function *info < 0 reaches the root; later calls fine",
	    nmem - 1);
}

/*
 * The user function fails on interior member 2 from the second chunk of
 * a call that goes through the long place (100,000 ints, 400 KB): its
 * chunk 0 is in the long place when the error goes up.  The root gets
 * the error; the member then waits, so that the root's next long calls
 * find that deposit still there, of a call already over: they must wait
 * for the member's new one (no PvmMismatch).
 */
static void
mode_userfail_late(void)
{
	static int big[100000];
	int i, rc, k;

	for (i = 0; i < 100000; i++) {
		big[i] = i;
	}
	ufail = myinst == 2;
	ufail_from = big + SHM_CHUNK / sizeof(int);
	rc = pvm_reduce(u_xor, big, 100000, PVM_INT, 4, gname, 0);
	if (myinst == 0) {
		expect(rc == -99, "root rc %d, want -99", rc);
	}
	ufail = 0;
	ufail_from = NULL;
	if (myinst == 2) {
		usleep(300000);
	}
	for (k = 0; k < 3; k++) {
		good_reduce(gname, nmem, 0, 100000, 4);
	}
	step("a user function failing at chunk 1 of a long call; later "
	     "long calls fine",
	    nmem - 1);
}

/* User messages with the reduce's tag never meet collective traffic. */
static void
mode_interleave(void)
{
	int tids[MAXMEM], i, k, round, v[2], got = 0, rc, src, tag, len;
	int want = 0;

	for (i = 0; i < nmem; i++) {
		tids[i] = pvm_gettid(gname, i);
	}
	for (round = 0; round < 3; round++) {
		for (i = 0; i < nmem; i++) {
			if (i == myinst) {
				continue;
			}
			v[0] = myinst;
			v[1] = round;
			tc_send_ints(tids[i], TAG_USER, v, 2);
			want++;
		}
		good_reduce(gname, nmem, round % nmem, 1000 + round, TAG_USER);
	}
	for (k = 0; k < want; k++) {
		if (!expect(tc_trecv(-1, -1, 30) > 0, "user message %d of %d",
		    k + 1, want)) {
			break;
		}
		pvm_bufinfo(pvm_getrbuf(), &len, &tag, &src);
		pvm_upkint(v, 2, 1);
		expect(tag == TAG_USER && len == 8 && v[0] >= 0 &&
		    v[0] < nmem && src == tids[v[0]] && v[1] >= 0 && v[1] < 3,
		    "unexpected message from t%x tag %d len %d", src, tag, len);
		got++;
	}
	rc = pvm_nrecv(-1, -1);
	expect(rc == 0, "an extra message: nrecv %d", rc);
	expect(got == want, "got %d user messages, want %d", got, want);
	pvm_barrier(gname, nmem);
	step("reduce and user messages on the same tag", nmem - 1);
}

/*
 * The root receives a message from every member before it reduces, and
 * each member reduces before it sends that message.  PVM's reduce allows
 * it (a member's part goes out as messages, which the root's libpvm reads
 * while it waits in pvm_recv), so ours must not deadlock at any size: a
 * path on which a member waits for the root to take its data (shared
 * memory beyond one deposit, coll_shm.c) would hang here.
 */
#define TAG_FIRST 4390
static void
mode_recvfirst(void)
{
	static const int counts[] = { 1, 8192, 8193, 65536, 1048576 };
	static double d[1048576];
	int k, i, n, rc, late[MAXMEM];
	double want, end, left;

	for (k = 0; k < (int)(sizeof(counts) / sizeof(counts[0])); k++) {
		n = counts[k];
		for (i = 0; i < n; i++) {
			d[i] = myinst + 1 + i % 7;
		}
		pvm_barrier(gname, nmem);
		if (myinst != 0) {
			rc = pvm_reduce(PvmSum, d, n, PVM_DOUBLE, 6, gname, 0);
			expect(rc == 0, "%d doubles: reduce rc %d", n, rc);
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&n, 1, 1);
			pvm_send(pvm_gettid(gname, 0), TAG_FIRST);
			continue;
		}
		/* If a member hangs in its reduce, ours below frees it; 20 s
		 * in all, so that a hang fails within the script's limit. */
		end = tc_now() + 20;
		for (i = 1; i < nmem; i++) {
			left = end - tc_now() > 0.1 ? end - tc_now() : 0.1;
			late[i] = tc_trecv(pvm_gettid(gname, i), TAG_FIRST,
			    left) <= 0;
			expect(!late[i], "%d doubles: member %d's message "
			    "before the root's reduce (a deadlock)", n, i);
		}
		rc = pvm_reduce(PvmSum, d, n, PVM_DOUBLE, 6, gname, 0);
		expect(rc == 0, "%d doubles: root's reduce rc %d", n, rc);
		for (i = 1; i < nmem; i++) {
			if (late[i]) {
				pvm_recv(pvm_gettid(gname, i), TAG_FIRST);
			}
		}
		for (i = 0; i < n; i++) {
			want = nmem * (nmem + 1) / 2.0 + nmem * (i % 7);
			if (!expect(d[i] == want, "%d doubles: d[%d] = %g, "
			    "want %g", n, i, d[i], want)) {
				break;
			}
		}
	}
	step("root receives from every member before it reduces, "
	     "1 to 1,048,576 doubles", nmem - 1);
}

/* Many reduces in a row, one tag, varying roots and counts. */
static void
mode_backtoback(void)
{
	static int d[70000];
	int k, i, count, root, rc;
	long want;

	for (k = 0; k < 24; k++) {
		count = k % 3 == 0 ? 70000 : k % 3 == 1 ? 1 : 3000;
		root = (k * 5) % nmem;
		for (i = 0; i < count; i++) {
			d[i] = myinst * 100 + k * 7 + i % 1000;
		}
		rc = pvm_reduce(k % 2 ? PvmMax : PvmSum, d, count, PVM_INT, 5,
		    gname, root);
		expect(rc == 0, "call %d rc %d", k, rc);
		if (myinst != root) {
			continue;
		}
		for (i = 0; i < count; i++) {
			want = k % 2 ? (nmem - 1) * 100 + k * 7 + i % 1000 :
			    100L * nmem * (nmem - 1) / 2 +
				(long)nmem * (k * 7 + i % 1000);
			if (!expect(d[i] == want, "call %d d[%d] = %d want %ld",
			    k, i, d[i], want)) {
				break;
			}
		}
	}
	step("24 back-to-back reduces with one tag", nmem - 1);
}

/* Two disjoint groups reducing at once with the same tag. */
static void
mode_twogroups(int idx)
{
	char g[2][80];
	int k, mine = idx % 2, n = (nmem + 1 - mine) / 2;

	snprintf(g[0], sizeof(g[0]), "%s.A", gname);
	snprintf(g[1], sizeof(g[1]), "%s.B", gname);
	join(g[mine], n);
	for (k = 0; k < 10; k++) {
		good_reduce(g[mine], n, k % n, k % 2 ? 5 : 50000, 6);
	}
	/* Overlapping: everyone joins the other group too (once both
	 * groups are done: a join during a reduce is undefined). */
	expect(pvm_barrier(gname, nmem) == 0, "barrier all");
	expect(pvm_joingroup(g[1 - mine]) >= 0, "join the other group");
	expect(pvm_barrier(g[0], nmem) == 0, "barrier A");
	expect(pvm_barrier(g[1], nmem) == 0, "barrier B");
	good_reduce(gname, nmem, 3, 40000, 6);
	good_reduce(g[0], nmem, 1, 40000, 6);
	good_reduce(g[1], nmem, nmem - 1, 40000, 6);
	step("two groups reducing at the same time", nmem - 1);
}

/* Rounding-sensitive double sums of N (<= 100000) elements: the same
 * bits every call. */
static void
mode_bitident(int N)
{
	static double d[100000], first[100000];
	uint64_t h = 0;
	int k, i, rc, ok = 1;

	for (k = 0; k < 8; k++) {
		for (i = 0; i < N; i++) {
			d[i] = sin((double)(myinst * 7919 + i)) *
			    pow(10.0, (double)((myinst + i) % 13 - 6));
			if (myinst == 3) {
				d[i] += 1e15;
			} else if (myinst == 5) {
				d[i] -= 1e15;
			}
		}
		rc = pvm_reduce(PvmSum, d, N, PVM_DOUBLE, 8, gname, 1);
		expect(rc == 0, "rc %d", rc);
		if (myinst != 1) {
			continue;
		}
		if (k == 0) {
			memcpy(first, d, (size_t)N * sizeof(*d));
		} else if (memcmp(first, d, (size_t)N * sizeof(*d)) != 0) {
			ok = 0;
		}
	}
	if (myinst == 1) {
		expect(ok, "results differ between calls");
		h = tc_fnv(0, (const unsigned char *)first,
		    (size_t)N * sizeof(*first));
	}
	step("8 rounding-sensitive double sums, identical bits", nmem - 1);
	/* The root (instance 1) tells the driver the hash to print. */
	if (myinst == 1) {
		pvm_initsend(PvmDataDefault);
		pvm_pkulong((unsigned long *)&h, 1, 1);
		pvm_send(pvm_gettid(gname, 0), TAG_REPORT + 1);
	}
	if (is_driver && tc_trecv(-1, TAG_REPORT + 1, 60) > 0) {
		pvm_upkulong((unsigned long *)&h, 1, 1);
		tc_info("bitident hash %016llx", (unsigned long long)h);
	}
}

/* A member dies: the root must get PvmNoTask, in bounded time. */
static int kill_me;

static void
u_sum_or_die(int *dt, void *x, void *y, int *num, int *info)
{
	if (kill_me) {
		raise(SIGKILL);
	}
	PvmSum(dt, x, y, num, info);
}

static void
mode_kill(const char *how, int count)
{
	static int d[200000];
	int rc, mid = strcmp(how, "mid") == 0, victim = mid ? 2 : 1;
	int late = strcmp(how, "late") == 0;
	double t0;

	memset(d, 0, sizeof(d));
	kill_me = mid && myinst == victim;
	if (!mid && myinst == victim) {
		/* late: the others are surely waiting by then. */
		if (late) {
			usleep(1000000);
		}
		raise(SIGKILL);
	}
	t0 = tc_now();
	rc = pvm_reduce(u_sum_or_die, d, count, PVM_INT, 2, gname, 0);
	/* Every survivor: done or an error, never a hang. */
	expect(rc == 0 || rc == PvmNoTask || rc == PvmMismatch,
	    "inst %d rc %d", myinst, rc);
	expect(tc_now() - t0 < 10, "inst %d waited %.1f s", myinst,
	    tc_now() - t0);
	if (myinst == 0 && rc == 0) {
		/*
		 * The root's view no longer held the victim when it called:
		 * had it, the root would have waited for the victim and
		 * failed.  Leaf: the death was known before the call.  Mid:
		 * the survivors, whose data went up the old tree, must also
		 * have left (they exit after reporting), or their old-view
		 * data would have been a PvmMismatch -- so the root was alone
		 * in its group, and a reduce of one is right.  Seen under
		 * load once the barrier before this became fast (shared
		 * memory): the root is scheduled last, after all that.
		 */
		tc_info("the root's view had lost the victim before its call");
	} else if (myinst == 0) {
		/* PvmMismatch: the server's news of the death reached
		 * some members before they called (their view differs). */
		expect(rc == PvmNoTask || rc == PvmMismatch,
		    "root rc %d, want PvmNoTask or PvmMismatch", rc);
		expect(tc_now() - t0 < 10, "root waited %.1f s", tc_now() - t0);
		tc_info("root got %d after %.3f s", rc, tc_now() - t0);
	}
	/* Its drain read our sockets without pvm_getfds (tgetfds.h). */
	expect(getfds_calls == 0, "inst %d: %d pvm_getfds calls by libgpvm3",
	    myinst, getfds_calls);
	/* Survivors report without a barrier (the group lost a member). */
	if (late && myinst == 0) {
		expect(rc == PvmNoTask, "late: root rc %d, want PvmNoTask", rc);
	}
	step(mid ? "member killed mid-reduce: root gets an error" :
	    late ? "leaf killed while the root waits: root gets PvmNoTask" :
		   "leaf killed before the reduce: root gets an error",
	    nmem - 2);
}

/*
 * A member leaves (and stays alive) while the others wait in a reduce on
 * the old view: the member that waits for it must not hang (PVM 3.4 and
 * our first version waited until it exited).  Instance 5, a leaf under
 * instance 4, leaves once the others are in the call; 4 learns of the
 * change from the server's push and ends its wait with PvmMismatch,
 * which reaches the root.  Then the 7 others reduce correctly.
 */
static void
mode_leave(int count)
{
	static int d[200000];
	int rc, i, victim = 5, vtid, n = nmem - 1, sum = 0;
	double t0;

	vtid = pvm_gettid(gname, victim);
	if (myinst == victim) {
		usleep(1000000);
		expect(pvm_lvgroup(gname) == 0, "lvgroup");
		/* Alive until the others are done: no exit notify helps. */
		expect(tc_trecv(pvm_parent(), TAG_IDX + 100, 60) > 0, "go");
		step("a member leaves while another waits for it", nmem - 1);
		return;
	}
	t0 = tc_now();
	rc = pvm_reduce(PvmSum, d, count, PVM_INT, 3, gname, 0);
	expect(rc == 0 || rc == PvmMismatch, "rc %d", rc);
	expect(tc_now() - t0 < 20, "waited %.1f s", tc_now() - t0);
	expect(getfds_calls == 0, "inst %d: %d pvm_getfds calls by libgpvm3",
	    myinst, getfds_calls);
	if (myinst == 0) {
		tc_info("root got %d after %.3f s", rc, tc_now() - t0);
	}
	/* The survivors agree again after a barrier; no stale data. */
	expect(pvm_barrier(gname, n) == 0, "barrier of the survivors");
	for (i = 0; i < count; i++) {
		d[i] = myinst * 1000 + i % 1000;
	}
	rc = pvm_reduce(PvmSum, d, count, PVM_INT, 3, gname, 0);
	expect(rc == 0, "reduce after the leave: rc %d", rc);
	for (i = 0; i < nmem; i++) {
		sum += i == victim ? 0 : i;
	}
	for (i = 0; myinst == 0 && i < count; i++) {
		if (!expect(d[i] == sum * 1000 + n * (i % 1000),
		    "after the leave: d[%d] = %d", i, d[i])) {
			break;
		}
	}
	/* Nobody leaves (exits) before all are done: that is a change. */
	expect(pvm_barrier(gname, n) == 0, "final barrier of the survivors");
	if (is_driver) {
		pvm_initsend(PvmDataDefault);
		pvm_send(vtid, TAG_IDX + 100);
	}
	step("a member leaves while another waits for it", nmem - 1);
}

/*
 * 300 calls in a row with one tag: the root moves every call, counts of
 * one chunk, two chunks (flat) and three chunks (binomial), so deposits
 * for different readers share the members' slots.
 */
static void
mode_rootcycle(void)
{
	static int d[40000];
	int k, i, count, root, rc, n = nmem;

	for (k = 0; k < 300; k++) {
		count = k % 4 == 0 ? 1 : k % 4 == 1 ? 9000 :
		    k % 4 == 2 ? 20000 : 40000;
		root = k % n;
		for (i = 0; i < count; i++) {
			d[i] = myinst * 3 + k + i % 7;
		}
		rc = pvm_reduce(PvmSum, d, count, PVM_INT, 5, gname, root);
		expect(rc == 0, "call %d rc %d", k, rc);
		for (i = 0; myinst == root && i < count; i++) {
			if (!expect(d[i] == 3 * n * (n - 1) / 2 +
			    n * (k + i % 7), "call %d root %d d[%d] = %d", k,
			    root, i, d[i])) {
				break;
			}
		}
	}
	step("300 reduces in a row, one tag, the root moving", nmem - 1);
}

/*
 * Instance 2 reduces `big` doubles while the others reduce 1: the root
 * gets PvmMismatch, every member returns within bounded time, and after
 * a barrier the group reduces correctly.  With GPVM_SHM_MAX raised and
 * big past SHM_FLAT, instance 2 also builds another tree (binomial) than
 * the others (flat) and deposits in many chunks.  (Counts on both sides
 * of GPVM_SHM_MAX would take two paths that never meet: PVM requires
 * equal counts.)
 */
static void
mode_mismatch(int big)
{
	static double d[200000];
	int rc, i, count = myinst == 2 ? big : 1;
	double t0 = tc_now();

	for (i = 0; i < count; i++) {
		d[i] = 1;
	}
	rc = pvm_reduce(PvmSum, d, count, PVM_DOUBLE, 4, gname, 0);
	expect(myinst != 0 || rc == PvmMismatch, "root rc %d", rc);
	expect(rc == 0 || rc == PvmMismatch, "inst %d rc %d", myinst, rc);
	expect(tc_now() - t0 < 10, "inst %d waited %.1f s", myinst,
	    tc_now() - t0);
	expect(pvm_barrier(gname, nmem) == 0, "barrier after the mismatch");
	good_reduce(gname, nmem, 0, 1, 4);
	good_reduce(gname, nmem, 3, 50000, 4);
	step("counts that differ: PvmMismatch at the root, no hang",
	    nmem - 1);
}

/*
 * Many more members than CPUs: 2,000 reduces (mostly 1 double, every
 * tenth 8,192), roots moving, must finish well within the limit: the
 * waits yield and sleep instead of spinning the CPU away.
 */
static void
mode_crowd(void)
{
	static double d[8192];
	int k, i, count, root, rc, n = nmem;
	double t0 = tc_now(), t;

	for (k = 0; k < 2000; k++) {
		count = k % 10 == 9 ? 8192 : 1;
		root = k % n;
		for (i = 0; i < count; i++) {
			d[i] = myinst + 1;
		}
		rc = pvm_reduce(PvmSum, d, count, PVM_DOUBLE, 9, gname, root);
		expect(rc == 0, "call %d rc %d", k, rc);
		if (myinst == root && (d[0] != n * (n + 1) / 2 ||
		    d[count - 1] != n * (n + 1) / 2)) {
			expect(0, "call %d: %g", k, d[0]);
		}
	}
	t = tc_now() - t0;
	expect(t < 120, "2000 reduces took %.1f s", t);
	if (is_driver) {
		tc_info("crowd: %d members, %.1f us a call", n, t / 2000 * 1e6);
	}
	step("2000 reduces, more members than CPUs, in bounded time",
	    nmem - 1);
}

/*
 * Per-call times at the root (INFO only): back-to-back calls with root
 * 0, the best of 5 batches (the test machines are shared).
 */
static void
mode_time(void)
{
	static double d[1048576];
	int counts[2] = { 1, 1048576 }, reps[2] = { 500, 5 }, c, k, b;
	double t0, t, best;

	for (c = 0; c < 2; c++) {
		for (k = 0; k < counts[c]; k++) {
			d[k] = 1.0;
		}
		/* Warm up (routes, notifies), then time. */
		pvm_reduce(PvmSum, d, counts[c], PVM_DOUBLE, 12, gname, 0);
		best = 1e9;
		for (b = 0; b < 5; b++) {
			pvm_barrier(gname, nmem);
			t0 = tc_now();
			for (k = 0; k < reps[c]; k++) {
				pvm_reduce(PvmSum, d, counts[c], PVM_DOUBLE, 12,
				    gname, 0);
			}
			t = (tc_now() - t0) / reps[c];
			best = t < best ? t : best;
		}
		pvm_barrier(gname, nmem);
		if (is_driver) {
			tc_info("reduce %d members, %d doubles: %.1f us/call",
			    nmem, counts[c], best * 1e6);
		}
	}
	step("timing runs completed", nmem - 1);
}

int
main(int argc, char **argv)
{
	char solo[80];
	const char *arg1, *arg2;
	int n, idx;

	if (argc < 2) {
		fprintf(stderr, "usage: t_reduce MODE [ARGS]\n");
		return 2;
	}
	mode = argv[1];
	is_driver = !(argc >= 4 && strcmp(argv[2], "member") == 0);
	tc_init("t_reduce");
	if (is_driver) {
		snprintf(solo, sizeof(solo), "red.solo.%d", (int)getpid());
		if (strcmp(mode, "errors") == 0 && pvm_joingroup(solo) != 0) {
			tc_fatal("join %s", solo);
		}
	} else {
		snprintf(solo, sizeof(solo), "red.solo.%d", 0);
	}
	n = strcmp(mode, "example") == 0 ? 3 :
	    strcmp(mode, "errors") == 0 ? 3 :
	    strcmp(mode, "badbyte") == 0 ? 4 :
	    strcmp(mode, "user") == 0 ? 5 :
	    strcmp(mode, "userfail") == 0 ? 5 :
	    strcmp(mode, "interleave") == 0 ? 4 :
	    strcmp(mode, "backtoback") == 0 ? 6 :
	    strcmp(mode, "recvfirst") == 0 ? 6 :
	    strcmp(mode, "twogroups") == 0 ? 8 :
	    strcmp(mode, "bitident") == 0 ? 8 :
	    strcmp(mode, "kill") == 0 ? 4 :
	    strcmp(mode, "leave") == 0 ? 8 :
	    strcmp(mode, "rootcycle") == 0 ? 8 :
	    strcmp(mode, "mismatch") == 0 ? 8 : 0;
	if (strcmp(mode, "time") == 0 || strcmp(mode, "crowd") == 0) {
		n = atoi(argv[is_driver ? 2 : 4]);
	} else if (strcmp(mode, "prop") == 0 ||
	    strcmp(mode, "shmprop") == 0 || strcmp(mode, "gather") == 0) {
		for (idx = is_driver ? 2 : 4; idx < argc; idx++) {
			n = atoi(argv[idx]) > n ? atoi(argv[idx]) : n;
		}
	}
	if (n < 1 || n > MAXMEM) {
		fprintf(stderr, "t_reduce: unknown mode or size\n");
		return 2;
	}
	if (is_driver && strcmp(mode, "errors") == 0) {
		/* Children learn the solo group's name as an argument. */
		static char *av[4];

		av[0] = argv[0];
		av[1] = argv[1];
		av[2] = solo;
		argv = av;
		argc = 3;
	}
	idx = setup(n, argc, argv);
	/* The scenario's own arguments, on the driver and the members. */
	arg1 = argc > (is_driver ? 2 : 4) ? argv[is_driver ? 2 : 4] : NULL;
	arg2 = argc > (is_driver ? 3 : 5) ? argv[is_driver ? 3 : 5] : NULL;
	if (strcmp(mode, "example") == 0) {
		mode_example();
	} else if (strcmp(mode, "errors") == 0) {
		mode_errors(is_driver ? solo : argv[4]);
	} else if (strcmp(mode, "badbyte") == 0) {
		mode_badbyte();
	} else if (strcmp(mode, "user") == 0) {
		mode_user();
	} else if (strcmp(mode, "userfail") == 0) {
		if (arg1 != NULL && strcmp(arg1, "late") == 0) {
			mode_userfail_late();
		} else {
			mode_userfail(arg1 != NULL && strcmp(arg1, "root") == 0);
		}
	} else if (strcmp(mode, "interleave") == 0) {
		mode_interleave();
	} else if (strcmp(mode, "backtoback") == 0) {
		mode_backtoback();
	} else if (strcmp(mode, "recvfirst") == 0) {
		mode_recvfirst();
	} else if (strcmp(mode, "twogroups") == 0) {
		mode_twogroups(idx);
	} else if (strcmp(mode, "bitident") == 0) {
		mode_bitident(arg1 != NULL ? atoi(arg1) : 100000);
	} else if (strcmp(mode, "kill") == 0) {
		mode_kill(arg1, arg2 != NULL ? atoi(arg2) : 200000);
	} else if (strcmp(mode, "leave") == 0) {
		mode_leave(arg1 != NULL ? atoi(arg1) : 200000);
	} else if (strcmp(mode, "prop") == 0) {
		mode_prop(argc, argv, idx);
	} else if (strcmp(mode, "shmprop") == 0) {
		mode_shmprop(argc, argv, idx);
	} else if (strcmp(mode, "gather") == 0) {
		mode_gather(argc, argv, idx);
	} else if (strcmp(mode, "rootcycle") == 0) {
		mode_rootcycle();
	} else if (strcmp(mode, "mismatch") == 0) {
		mode_mismatch(arg1 != NULL ? atoi(arg1) : 5000);
	} else if (strcmp(mode, "crowd") == 0) {
		mode_crowd();
	} else if (strcmp(mode, "time") == 0) {
		mode_time();
	}
	/* Nobody leaves (which changes the group) before all are done. */
	if (strcmp(mode, "kill") != 0 && strcmp(mode, "leave") != 0 &&
	    pvm_barrier(gname, nmem) < 0) {
		printf("FAIL: final barrier\n");
	}
	if (!is_driver) {
		pvm_exit();
		return 0;
	}
	return tc_done();
}
