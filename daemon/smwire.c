/*
 * smwire.c: SM_* bodies from hosters and taskers, and the slave's result
 * line.  Pure: see smwire.h.
 */
#include "smwire.h"
#include "be.h"
#include "pvm3.h"
#include "xdr.h"

#include <string.h>

int
sm_taskx_decode(const uint8_t *p, size_t n, struct sm_taskx *x)
{
	int i;

	if (p == NULL || n < SM_TASKX_LEN)
		return -1;
	x->tid = (int32_t)get32(p);
	x->status = (int32_t)get32(p + 4);
	for (i = 0; i < 4; i++)
		x->usec[i] = (int32_t)get32(p + 8 + 4 * i);
	return 0;
}

/* Pairs {int tid, str result} until the end of r; count or -1. */
static int
ack_pairs(struct xdr_reader *r, int want, struct sm_ack *v, int max)
{
	int k = 0;

	while (want >= 0 ? k < want : xdr_left(r) > 0) {
		if (k >= max || xdr_get_int(r, &v[k].tid) != 0 ||
		    (v[k].result = xdr_get_str(r)) == NULL)
			return -1;
		k++;
	}
	return xdr_left(r) == 0 ? k : -1;
}

int
sm_sthostack_decode(const uint8_t *p, size_t n, struct sm_ack *v, int max)
{
	struct xdr_reader r;
	int32_t count;
	int k;

	if (p == NULL || n == 0)
		return -1;
	/* PVM 3.4.6's hoster sends the count first. */
	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &count) == 0 && count >= 0 && count <= max &&
	    (k = ack_pairs(&r, count, v, max)) >= 0)
		return k;
	/* The man page's form: the count is implied. */
	xdr_reader_init(&r, p, n);
	return ack_pairs(&r, -1, v, max);
}

/* Error names a hoster may answer with (PVM's literal pvm_errno names). */
static const struct {
	const char *name;
	int code;
} sm_errnames[] = {
    {"PvmBadParam", PvmBadParam},
    {"PvmNoHost", PvmNoHost},
    {"PvmNoMem", PvmNoMem},
    {"PvmSysErr", PvmSysErr},
    {"PvmHostFail", PvmHostFail},
    {"PvmDSysErr", PvmDSysErr},
    {"PvmBadVersion", PvmBadVersion},
    {"PvmOutOfRes", PvmOutOfRes},
    {"PvmDupHost", PvmDupHost},
    {"PvmCantStart", PvmCantStart},
    {"PvmAlready", PvmAlready},
};

/* Value of one hex digit, or -1. */
static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The length of line without a trailing "\n" or "\r\n". */
static size_t
line_len(const char *line)
{
	size_t n = strlen(line);

	if (n > 0 && line[n - 1] == '\n')
		n--;
	if (n > 0 && line[n - 1] == '\r')
		n--;
	return n;
}

/* 0 and the key if line[0..n) is exactly a key line, else -1. */
static int
key_line(const char *line, size_t n, uint8_t key[SM_KEY_LEN])
{
	size_t w = sizeof(SM_HOSTKEY_WORD) - 1, i;
	uint8_t k[SM_KEY_LEN];
	int hi, lo;

	if (n != w + 1 + 2 * SM_KEY_LEN ||
	    memcmp(line, SM_HOSTKEY_WORD, w) != 0 || line[w] != ' ')
		return -1;
	for (i = 0; i < SM_KEY_LEN; i++) {
		hi = hexval(line[w + 1 + 2 * i]);
		lo = hexval(line[w + 2 + 2 * i]);
		if (hi < 0 || lo < 0)
			return -1;
		k[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(key, k, SM_KEY_LEN);
	memset(k, 0, sizeof(k));
	return 0;
}

int
sm_result_parse(const char *line, uint8_t key[SM_KEY_LEN])
{
	size_t n, i;

	if (line == NULL)
		return PvmCantStart;
	n = line_len(line);
	if (key_line(line, n, key) == 0)
		return 0;
	for (i = 0; i < sizeof(sm_errnames) / sizeof(sm_errnames[0]); i++) {
		if (strlen(sm_errnames[i].name) == n &&
		    memcmp(line, sm_errnames[i].name, n) == 0)
			return sm_errnames[i].code;
	}
	return PvmCantStart;
}

void
sm_keyline(const uint8_t key[SM_KEY_LEN], char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t w = sizeof(SM_HOSTKEY_WORD) - 1, i;

	memcpy(out, SM_HOSTKEY_WORD, w);
	out[w] = ' ';
	for (i = 0; i < SM_KEY_LEN; i++) {
		out[w + 1 + 2 * i] = digits[key[i] >> 4];
		out[w + 2 + 2 * i] = digits[key[i] & 15];
	}
	out[w + 1 + 2 * SM_KEY_LEN] = '\0';
}
