/*
 * fuzz_hostfile.c: the hostfile and host list parsers of daemon/hostfile.c
 * (a user's hostfile, a batch system's node list, $NAME in option
 * values), all pure.
 *
 * Input: one choice byte, then the text.  Texts with a length are copied
 * into blocks of exactly that length (no NUL after them), since that is
 * how the pvmd hands over a file it read.  Besides not crashing, what a
 * parser accepts must respect the limits its callers rely on.
 */
#include "fuzz.h"
#include "hostfile.h"

/* A name a launcher may put on its command line. */
static int
host_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 256 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
	                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._") == n;
}

static void
check_ent(const struct host_ent *e)
{
	FZ_CHECK(memchr(e->name, '\0', sizeof(e->name)) != NULL);
	FZ_CHECK(e->name[0] != '\0');
	FZ_CHECK(e->o.speed >= 1 && e->o.speed <= HOST_SPEED_MAX);
}

static void
fz_parse(const uint8_t *p, size_t n)
{
	struct hostfile hf;
	char err[128] = "";
	int i;

	if (hostfile_parse((const char *)p, n, &hf, err, sizeof(err)) != 0) {
		FZ_CHECK(hf.v == NULL && hf.n == 0 && err[0] != '\0');
		return;
	}
	FZ_CHECK(hf.n >= 0 && hf.n <= HOSTFILE_MAX_LINES);
	for (i = 0; i < hf.n; i++)
		check_ent(&hf.v[i]);
	hostfile_free(&hf);
}

/* Line by line through hostfile_line, the defaults carried along. */
static void
fz_lines(const uint8_t *p, size_t n)
{
	struct host_opts d, before;
	struct host_ent e;
	char *text = fz_str(p, n), *line, *save = NULL;
	char err[64];
	int rc;

	host_opts_default(&d);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		before = d;
		rc = hostfile_line(line, &d, &e, err, sizeof(err));
		FZ_CHECK(rc >= -1 && rc <= 2);
		if (rc == 1)
			check_ent(&e);
		if (rc != 2)
			FZ_CHECK(memcmp(&before, &d, sizeof(d)) == 0);
	}
	free(text);
}

static void
fz_expand(const uint8_t *p, size_t n)
{
	char *spec = fz_str(p, n), **v;
	int i, k;

	if (hostlist_expand(spec, &v, &k) == 0) {
		FZ_CHECK(k > 0 && k <= HOSTLIST_MAX);
		for (i = 0; i < k; i++)
			FZ_CHECK(host_name_ok(v[i]));
		hostlist_free(v, k);
	} else {
		FZ_CHECK(v == NULL && k == 0);
	}
	free(spec);
}

/* A node file: one name a line, each name once. */
static void
fz_nodefile(const uint8_t *p, size_t n)
{
	uint8_t *text = fz_dup(p, n);
	char **v;
	size_t i;
	int j, k, m;

	/* The caller promises no NUL inside. */
	for (i = 0; i < n; i++)
		if (text[i] == '\0')
			text[i] = '\n';
	if (hostlist_lines((const char *)text, n, &v, &k) == 0) {
		FZ_CHECK(k >= 0 && k <= HOSTLIST_MAX);
		for (j = 0; j < k; j++) {
			FZ_CHECK(v[j][0] != '\0' && !strpbrk(v[j], "\r\n"));
			for (m = 0; m < j; m++)
				FZ_CHECK(strcmp(v[j], v[m]) != 0);
		}
		hostlist_free(v, k);
	}
	free(text);
}

/* $NAME values for fz_dollar: one from the input, or unset. */
static const char *fz_value;

static const char *
fz_lookup(const char *name)
{
	FZ_CHECK(name[0] != '\0');
	return name[0] < 'm' ? fz_value : NULL;
}

/* Input: outlen byte, value piece, then the option value. */
static void
fz_dollar(struct fz *f)
{
	size_t outlen = fz_byte(f), vn;
	const uint8_t *v = fz_piece(f, &vn);
	char *val = fz_str(v, vn), *in = fz_str(f->p, f->n);
	char *out = malloc(outlen ? outlen : 1);

	FZ_CHECK(out != NULL);
	fz_value = val;
	if (hostfile_expand(in, out, outlen, fz_lookup) == 0)
		FZ_CHECK(strlen(out) < outlen);
	free(out);
	free(in);
	free(val);
}

static fz_plain_fn *const plain[] = {
    fz_parse,
    fz_lines,
    fz_expand,
    fz_nodefile,
};
#define NPLAIN (sizeof(plain) / sizeof(plain[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	unsigned which;

	fz_init(&f, data, size);
	which = fz_byte(&f) % (NPLAIN + 1);
	if (which == NPLAIN)
		fz_dollar(&f);
	else
		fz_run_plain(&f, plain[which]);
	return 0;
}
