/*
 * hostfile.c: PVM 3.4's hostfile format and Slurm-style host lists.
 * Pure: no I/O, no logging, so a fuzzer can call every parser on any
 * bytes.  See hostfile.h for the format.
 */
#include "hostfile.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string option: its name before '=' and where it goes. */
struct opt_desc {
	const char *name;
	size_t off;
	size_t size;
};

#define OPT(n, f)                                                              \
	{                                                                      \
		n, offsetof(struct host_opts, f),                              \
		    sizeof(((struct host_opts *)0)->f)                         \
	}

static const struct opt_desc opt_table[] = {
    OPT("lo", login),
    OPT("so", so),
    OPT("dx", dx),
    OPT("ep", ep),
    OPT("wd", wd),
    OPT("ip", ip),
    OPT("bx", bx),
    OPT("id", id),
};

/* A word of a line: [p, p + n). */
struct word {
	const char *p;
	size_t n;
};

void
host_opts_default(struct host_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->speed = HOST_SPEED_DEFAULT;
}

static void seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* Refuse NUL and control characters other than blanks anywhere. */
static int
line_chars_ok(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && !is_blank(c)) || c == 0x7f)
			return 0;
	}
	return 1;
}

/* The next word at or after *pos in [.., end); 0 if none is left. */
static int
next_word(const char **pos, const char *end, struct word *w)
{
	const char *p = *pos;

	while (p < end && is_blank((unsigned char)*p))
		p++;
	if (p == end)
		return 0;
	w->p = p;
	while (p < end && !is_blank((unsigned char)*p))
		p++;
	w->n = (size_t)(p - w->p);
	*pos = p;
	return 1;
}

/* sp=: a decimal 1..HOST_SPEED_MAX. */
static int
parse_speed(const char *p, size_t n, int *speed)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 7)
		return -1;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	if (v < 1 || v > HOST_SPEED_MAX)
		return -1;
	*speed = (int)v;
	return 0;
}

static const struct opt_desc *
opt_find(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (strlen(opt_table[i].name) == n &&
		    memcmp(opt_table[i].name, p, n) == 0)
			return &opt_table[i];
	return NULL;
}

/* Apply one "opt=value" word to *o. */
static int
apply_opt(const struct word *w, struct host_opts *o, char *err, size_t errlen)
{
	const char *eq = memchr(w->p, '=', w->n);
	const struct opt_desc *d;
	size_t klen, vlen;
	char *dst;

	if (eq == NULL) {
		seterr(err, errlen, "not an option: \"%.*s\"",
		    (int)(w->n > 32 ? 32 : w->n), w->p);
		return -1;
	}
	klen = (size_t)(eq - w->p);
	vlen = w->n - klen - 1;
	if (klen == 2 && memcmp(w->p, "sp", 2) == 0) {
		if (parse_speed(eq + 1, vlen, &o->speed) < 0) {
			seterr(err, errlen, "bad speed (sp=1..%d)",
			    HOST_SPEED_MAX);
			return -1;
		}
		return 0;
	}
	if ((d = opt_find(w->p, klen)) == NULL) {
		seterr(err, errlen, "unknown option \"%.*s\"",
		    (int)(klen > 32 ? 32 : klen), w->p);
		return -1;
	}
	if (vlen == 0) {
		seterr(err, errlen, "empty value for %s=", d->name);
		return -1;
	}
	if (vlen >= d->size) {
		seterr(err, errlen, "value too long for %s= (max %zu)", d->name,
		    d->size - 1);
		return -1;
	}
	dst = (char *)o + d->off;
	memcpy(dst, eq + 1, vlen);
	dst[vlen] = '\0';
	return 0;
}

/* The leading '&' and '$' of the first word; *w is left on the name. */
static void
take_flags(struct word *w, struct host_ent *e)
{
	while (w->n > 0 && (w->p[0] == '&' || w->p[0] == '$')) {
		if (w->p[0] == '&')
			e->later = 1;
		else
			e->overload = 1;
		w->p++;
		w->n--;
	}
}

/* Check the host name word (after its flags). */
static int
name_ok(
    const struct word *w, const struct host_ent *e, char *err, size_t errlen)
{
	if (w->n == 0 || memchr(w->p, '=', w->n) != NULL) {
		seterr(err, errlen, "host name expected");
		return 0;
	}
	if (w->n >= sizeof(e->name)) {
		seterr(err, errlen, "host name too long (max %zu)",
		    sizeof(e->name) - 1);
		return 0;
	}
	if (w->n == 1 && w->p[0] == '*' && (e->later || e->overload)) {
		seterr(err, errlen, "'&' or '$' on a '*' line");
		return 0;
	}
	return 1;
}

/* Apply every option word after the name; a word starting '#' ends. */
static int
parse_opts(const char *pos, const char *end, struct host_opts *o, char *err,
    size_t errlen)
{
	struct word w;

	while (next_word(&pos, end, &w)) {
		if (w.p[0] == '#')
			break;
		if (apply_opt(&w, o, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* hostfile_line on [p, p + n), which may hold a NUL (refused). */
static int
parse_line(const char *p, size_t n, struct host_opts *defaults,
    struct host_ent *e, char *err, size_t errlen)
{
	const char *pos = p, *end = p + n;
	struct host_opts o;
	struct word w;

	memset(e, 0, sizeof(*e));
	if (!line_chars_ok(p, n)) {
		seterr(err, errlen, "NUL or control character");
		return -1;
	}
	if (!next_word(&pos, end, &w) || w.p[0] == '#')
		return 0;
	take_flags(&w, e);
	if (!name_ok(&w, e, err, errlen))
		return -1;
	/* A '*' line starts again from the built-in defaults, as in PVM. */
	if (w.n == 1 && w.p[0] == '*')
		host_opts_default(&o);
	else if (defaults != NULL)
		o = *defaults;
	else
		host_opts_default(&o);
	if (parse_opts(pos, end, &o, err, errlen) < 0)
		return -1;
	if (w.n == 1 && w.p[0] == '*') {
		if (defaults != NULL)
			*defaults = o;
		return 2;
	}
	memcpy(e->name, w.p, w.n);
	e->o = o;
	return 1;
}

int
hostfile_line(const char *line, struct host_opts *defaults, struct host_ent *e,
    char *err, size_t errlen)
{
	if (line == NULL) {
		memset(e, 0, sizeof(*e));
		return 0;
	}
	return parse_line(line, strlen(line), defaults, e, err, errlen);
}

/* Append a copy of *e to hf->v. */
static int
hostfile_add(struct hostfile *hf, int *cap, const struct host_ent *e)
{
	struct host_ent *v;

	if (hf->n == *cap) {
		int ncap = *cap == 0 ? 16 : 2 * *cap;

		v = realloc(hf->v, (size_t)ncap * sizeof(*v));
		if (v == NULL)
			return -1;
		hf->v = v;
		*cap = ncap;
	}
	hf->v[hf->n++] = *e;
	return 0;
}

/* One line of hostfile_parse: 0, or -1 with the reason in why. */
static int
parse_file_line(struct hostfile *hf, int *cap, const char *p, size_t n,
    int lineno, char *why, size_t whylen)
{
	struct host_ent e;
	int rc;

	if (lineno > HOSTFILE_MAX_LINES) {
		seterr(why, whylen, "more than %d lines", HOSTFILE_MAX_LINES);
		return -1;
	}
	if (memchr(p, '\0', n) != NULL) {
		seterr(why, whylen, "NUL byte");
		return -1;
	}
	rc = parse_line(p, n, &hf->defaults, &e, why, whylen);
	if (rc == 1) {
		e.line = lineno;
		if (hostfile_add(hf, cap, &e) < 0) {
			seterr(why, whylen, "out of memory");
			return -1;
		}
	}
	return rc < 0 ? -1 : 0;
}

int
hostfile_parse(
    const char *text, size_t len, struct hostfile *hf, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	char why[128];
	int lineno = 0, cap = 0;

	memset(hf, 0, sizeof(*hf));
	host_opts_default(&hf->defaults);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl == NULL ? (size_t)(end - p) : (size_t)(nl - p);

		lineno++;
		if (parse_file_line(hf, &cap, p, n, lineno, why, sizeof(why)) <
		    0) {
			seterr(err, errlen, "line %d: %s", lineno, why);
			hostfile_free(hf);
			return -1;
		}
		p += n + (nl != NULL);
	}
	return 0;
}

void
hostfile_free(struct hostfile *hf)
{
	free(hf->v);
	hf->v = NULL;
	hf->n = 0;
	host_opts_default(&hf->defaults);
}

/* --- Slurm-style host lists ------------------------------------------ */

struct names {
	char **v;
	int n;
	int cap;
};

/*
 * Host name characters.  Strict on purpose: these names end up on a
 * launcher's command line (ssh, srun), so nothing a shell could read.
 */
static int
host_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
}

static int
names_push(struct names *nm, const char *s, size_t n)
{
	char *copy;

	if (nm->n >= HOSTLIST_MAX)
		return -1;
	if (nm->n == nm->cap) {
		int ncap = nm->cap == 0 ? 16 : 2 * nm->cap;
		char **v = realloc(nm->v, (size_t)ncap * sizeof(*v));

		if (v == NULL)
			return -1;
		nm->v = v;
		nm->cap = ncap;
	}
	if ((copy = malloc(n + 1)) == NULL)
		return -1;
	memcpy(copy, s, n);
	copy[n] = '\0';
	nm->v[nm->n++] = copy;
	return 0;
}

/* A decimal of 1..9 digits at *pp; its digit count in *width. */
static int
parse_num(const char **pp, unsigned long *v, int *width)
{
	const char *p = *pp;

	*v = 0;
	while (*p >= '0' && *p <= '9' && p - *pp < 10)
		*v = *v * 10 + (unsigned long)(*p++ - '0');
	*width = (int)(p - *pp);
	if (*width == 0 || *width > 9)
		return -1;
	*pp = p;
	return 0;
}

/* Names prefix + lo..hi, each number padded to width digits. */
static int
push_range(struct names *nm, const char *prefix, size_t plen, unsigned long lo,
    unsigned long hi, int width)
{
	char buf[256];
	unsigned long i;

	if (lo > hi || hi - lo >= (unsigned long)(HOSTLIST_MAX - nm->n))
		return -1;
	/* Widest number: 9 digits; the name must fit in a host_ent. */
	if (plen + 9 >= sizeof(buf))
		return -1;
	memcpy(buf, prefix, plen);
	for (i = lo; i <= hi; i++) {
		int k =
		    snprintf(buf + plen, sizeof(buf) - plen, "%0*lu", width, i);

		if (names_push(nm, buf, plen + (size_t)k) < 0)
			return -1;
	}
	return 0;
}

/* The ranges between '[' and ']' at *pp (after the '['). */
static int
expand_brackets(
    const char **pp, struct names *nm, const char *prefix, size_t plen)
{
	const char *p = *pp;
	unsigned long lo, hi;
	int width, hwidth;

	for (;;) {
		if (parse_num(&p, &lo, &width) < 0)
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &hi, &hwidth) < 0)
				return -1;
		}
		if (push_range(nm, prefix, plen, lo, hi, width) < 0)
			return -1;
		if (*p == ']')
			break;
		if (*p++ != ',')
			return -1;
	}
	*pp = p + 1;
	return 0;
}

/* One comma-separated item at *pp: "name" or "prefix[ranges]". */
static int
expand_item(const char **pp, struct names *nm)
{
	const char *p = *pp, *prefix = p;
	size_t plen;

	while (host_char((unsigned char)*p))
		p++;
	plen = (size_t)(p - prefix);
	if (plen == 0 || plen > 255)
		return -1;
	if (*p == '[') {
		p++;
		if (expand_brackets(&p, nm, prefix, plen) < 0)
			return -1;
	} else if (names_push(nm, prefix, plen) < 0)
		return -1;
	/* Only a separator or the end may follow ("a[1-2]b" is not ours). */
	if (*p != ',' && *p != '\0')
		return -1;
	*pp = p;
	return 0;
}

int
hostlist_expand(const char *spec, char ***out, int *n)
{
	struct names nm = {NULL, 0, 0};
	const char *p = spec;

	*out = NULL;
	*n = 0;
	if (spec == NULL || *spec == '\0')
		return -1;
	for (;;) {
		if (expand_item(&p, &nm) < 0) {
			hostlist_free(nm.v, nm.n);
			return -1;
		}
		if (*p == '\0')
			break;
		p++; /* the ',' */
	}
	*out = nm.v;
	*n = nm.n;
	return 0;
}

void
hostlist_free(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Expand $NAME in an option value; see hostfile.h. */
int
hostfile_expand(const char *in, char *out, size_t outlen,
    const char *(*lookup)(const char *name))
{
	char name[256];
	const char *v;
	size_t o = 0, n, k;

	while (*in != '\0') {
		n = *in == '$' ? strspn(in + 1, "abcdefghijklmnopqrstuvwxyz"
		                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                                "0123456789_") : 0;
		if (n == 0 || n >= sizeof(name)) {
			if (o + 1 >= outlen)
				return -1;
			out[o++] = *in++;
			continue;
		}
		memcpy(name, in + 1, n);
		name[n] = '\0';
		in += n + 1;
		/* Unset is empty.  Not memcpy from NULL, even of 0 bytes: it
		 * is undefined (UBSan, in fuzz_hostfile). */
		if ((v = lookup(name)) == NULL)
			v = "";
		k = strlen(v);
		if (o + k >= outlen)
			return -1;
		memcpy(out + o, v, k);
		o += k;
	}
	if (outlen == 0)
		return -1;
	out[o] = '\0';
	return 0;
}

/* Is name (n bytes) in nm already? */
static int
names_have(const struct names *nm, const char *s, size_t n)
{
	int i;

	for (i = 0; i < nm->n; i++) {
		if (strlen(nm->v[i]) == n && memcmp(nm->v[i], s, n) == 0)
			return 1;
	}
	return 0;
}

/*
 * Bytes before the "\r", "\n" or end at p.  Not strcspn: the text need
 * not end in a NUL, and strcspn read past it (found by fuzz_hostfile).
 */
static size_t
line_len(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q != '\r' && *q != '\n')
		q++;
	return (size_t)(q - p);
}

/* The names of a node file (PBS_NODEFILE); see hostfile.h. */
int
hostlist_lines(const char *text, size_t len, char ***out, int *n)
{
	struct names nm = { 0 };
	const char *p = text, *end = text + len;
	size_t k;

	*out = NULL;
	*n = 0;
	while (p < end) {
		k = line_len(p, end);
		if (k > 0 && !names_have(&nm, p, k) &&
		    names_push(&nm, p, k) != 0) {
			hostlist_free(nm.v, nm.n);
			return -1;
		}
		p += k + 1;
	}
	*out = nm.v;
	*n = nm.n;
	return 0;
}
