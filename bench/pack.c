/*
 * pack.c: how fast a task packs and unpacks, with no message moving.
 *
 *   pack [-n COUNT] [-r REPS]
 *
 * For each encoding (Default = XDR, Raw, InPlace) and each type (double,
 * int, float, short, long), packs COUNT values (default 131,072: 1 MiB
 * of doubles) into a fresh send buffer, then unpacks them from the same
 * buffer made the receive buffer, REPS times (default 200), and prints
 * one line per case: "enc type op MB/s" (native bytes per second of the
 * median repetition).  A memcpy of the same bytes is the reference line.
 * Every unpack is checked against the input.  InPlace is packed only: its
 * buffer holds a pointer to the caller's array until it is sent.  Built against
 * our pvm3.h and against PVM 3.4.6's by bench/run-pack.sh; needs no pvmd where
 * the library packs without one (ours and PVM 3.4.6 both do).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvm3.h"
#include "stats.h"

static int count = 131072, reps = 200;

struct tcase {
	const char *name;
	size_t size;
	int (*pk)(void *, int, int);
	int (*upk)(void *, int, int);
};

#define PKFN(T, name)                                                          \
	static int pk_##name(void *p, int n, int s)                            \
	{                                                                      \
		return pvm_pk##name((T *)p, n, s);                             \
	}                                                                      \
	static int upk_##name(void *p, int n, int s)                           \
	{                                                                      \
		return pvm_upk##name((T *)p, n, s);                            \
	}
PKFN(double, double)
PKFN(int, int)
PKFN(float, float)
PKFN(short, short)
PKFN(long, long)

static const struct tcase tcases[] = {
    {"double", sizeof(double), pk_double, upk_double},
    {"int", sizeof(int), pk_int, upk_int},
    {"float", sizeof(float), pk_float, upk_float},
    {"short", sizeof(short), pk_short, upk_short},
    {"long", sizeof(long), pk_long, upk_long},
};

/* Integers that survive every encoding of every type exactly. */
static void
fill(unsigned char *p, size_t size, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		long v = (i * 37L + 11) % 30000 - 15000;

		if (size == sizeof(short))
			((short *)p)[i] = (short)v;
		else if (size == sizeof(int))
			((int *)p)[i] = (int)v;
		else
			((long *)p)[i] = v;
	}
}

static void
fill_case(const struct tcase *t, void *p)
{
	int i;

	if (strcmp(t->name, "double") == 0)
		for (i = 0; i < count; i++)
			((double *)p)[i] = i * 0.25 - 1000.5;
	else if (strcmp(t->name, "float") == 0)
		for (i = 0; i < count; i++)
			((float *)p)[i] = (float)(i % 4096) * 0.5f;
	else
		fill(p, t->size, count);
}

static double
mbs(double us)
{
	return us > 0 ? (double)count * 1.0 / us : 0;
}

/* One encoding x type: pack and unpack times, us per repetition. */
static int
run_case(int enc, const struct tcase *t, double *pk_us, double *upk_us)
{
	size_t bytes = (size_t)count * t->size;
	unsigned char *in = malloc(bytes), *out = malloc(bytes);
	double *tp = calloc((size_t)reps, sizeof(double));
	double *tu = calloc((size_t)reps, sizeof(double));
	int r, bad = 0;

	if (in == NULL || out == NULL || tp == NULL || tu == NULL)
		return -1;
	fill_case(t, in);
	for (r = 0; r < reps && !bad; r++) {
		int buf = pvm_mkbuf(enc), old = pvm_setsbuf(buf);
		double t0;

		(void)old;
		t0 = now_us();
		if (t->pk(in, count, 1) < 0)
			bad = 1;
		tp[r] = now_us() - t0;
		pvm_setsbuf(0);
		if (enc == PvmDataInPlace) {
			pvm_freebuf(buf);
			continue;
		}
		pvm_setrbuf(buf);
		memset(out, 0, bytes);
		t0 = now_us();
		if (t->upk(out, count, 1) < 0)
			bad = 1;
		tu[r] = now_us() - t0;
		if (memcmp(in, out, bytes) != 0)
			bad = 2;
		pvm_setrbuf(0);
		pvm_freebuf(buf);
	}
	*pk_us = median(tp, reps);
	*upk_us = enc == PvmDataInPlace ? 0 : median(tu, reps);
	free(in);
	free(out);
	free(tp);
	free(tu);
	return bad ? -bad : 0;
}

static double
memcpy_us(size_t bytes)
{
	unsigned char *a = malloc(bytes), *b = malloc(bytes);
	double *tv = calloc((size_t)reps, sizeof(double));
	double m;
	int r;

	memset(a, 1, bytes);
	memset(b, 2, bytes);
	for (r = 0; r < reps; r++) {
		double t0 = now_us();

		memcpy(b, a, bytes);
		__asm__ __volatile__("" : : "r"(b) : "memory");
		tv[r] = now_us() - t0;
	}
	m = median(tv, reps);
	free(a);
	free(b);
	free(tv);
	return m;
}

int
main(int argc, char **argv)
{
	static const struct {
		int code;
		const char *name;
	} encs[] = {{PvmDataDefault, "default"}, {PvmDataRaw, "raw"},
	    {PvmDataInPlace, "inplace"}};
	size_t i, e;
	int c;

	while ((c = getopt(argc, argv, "n:r:")) != -1) {
		if (c == 'n')
			count = atoi(optarg);
		else if (c == 'r')
			reps = atoi(optarg);
		else {
			fprintf(stderr, "usage: pack [-n COUNT] [-r REPS]\n");
			return 2;
		}
	}
	if (count < 1 || reps < 1)
		return 2;
	printf("memcpy double copy %.0f\n",
	    (double)count * 8 / memcpy_us((size_t)count * 8));
	for (e = 0; e < sizeof(encs) / sizeof(encs[0]); e++) {
		for (i = 0; i < sizeof(tcases) / sizeof(tcases[0]); i++) {
			double pu, uu;
			int cc = run_case(encs[e].code, &tcases[i], &pu, &uu);
			double k = (double)tcases[i].size;

			if (cc < 0) {
				printf("%s %s FAILED (%s)\n", encs[e].name,
				    tcases[i].name,
				    cc == -2 ? "values differ" : "call failed");
				continue;
			}
			printf("%s %s pack %.0f\n", encs[e].name,
			    tcases[i].name, mbs(pu) * k);
			if (uu > 0)
				printf("%s %s unpack %.0f\n", encs[e].name,
				    tcases[i].name, mbs(uu) * k);
		}
	}
	return 0;
}
