/*
 * check_hostfile.c: PVM 3.4 hostfiles (daemon/hostfile.c): every option,
 * '*' defaults, '&' and '$', comments, the errors with their line
 * numbers, the 4095-line limit; Slurm-style host lists; and random or
 * mutated input that must never crash a parser.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hostfile.h"

#include "unit_main.h"

static char err[256];

/* A fixed-seed generator: failures reproduce. */
static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static unsigned
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state >> 20);
}

/* hostfile_line on a heap copy, so a sanitizer sees any overread. */
static int
line(const char *s, struct host_opts *d, struct host_ent *e)
{
	char *b = strdup(s);
	int rc;

	ck_assert_ptr_nonnull(b);
	err[0] = '\0';
	rc = hostfile_line(b, d, e, err, sizeof(err));
	free(b);
	return rc;
}

static int
parse(const char *text, size_t len, struct hostfile *hf)
{
	char *b = malloc(len + 1);
	int rc;

	ck_assert_ptr_nonnull(b);
	memcpy(b, text, len);
	err[0] = '\0';
	rc = hostfile_parse(b, len, hf, err, sizeof(err));
	free(b);
	return rc;
}

/* The line must be refused with a reason containing `why`. */
static void
refused(const char *s, const char *why)
{
	struct host_opts d;
	struct host_ent e;

	host_opts_default(&d);
	ck_assert_int_eq(line(s, &d, &e), -1);
	ck_assert_msg(strstr(err, why) != NULL, "\"%s\": got \"%s\"", s, err);
}

START_TEST(opts_default)
{
	struct host_opts o;

	memset(&o, 0x55, sizeof(o));
	host_opts_default(&o);
	ck_assert_int_eq(o.speed, 1000);
	ck_assert_str_eq(o.login, "");
	ck_assert_str_eq(o.dx, "");
	ck_assert_str_eq(o.id, "");
}
END_TEST

START_TEST(every_option)
{
	struct host_opts d;
	struct host_ent e;

	host_opts_default(&d);
	ck_assert_int_eq(line("node1 lo=joe so=ms dx=/opt/pvm/pvmd "
	                      "ep=/a/bin:$HOME/pvm3/bin/$PVM_ARCH wd=/tmp/w "
	                      "ip=10.1.2.3 bx=/usr/bin/gdb id=vm7 sp=2500",
	                     &d, &e),
	    1);
	ck_assert_str_eq(e.name, "node1");
	ck_assert_str_eq(e.o.login, "joe");
	ck_assert_str_eq(e.o.so, "ms");
	ck_assert_str_eq(e.o.dx, "/opt/pvm/pvmd");
	/* $VAR is left for the daemon to expand */
	ck_assert_str_eq(e.o.ep, "/a/bin:$HOME/pvm3/bin/$PVM_ARCH");
	ck_assert_str_eq(e.o.wd, "/tmp/w");
	ck_assert_str_eq(e.o.ip, "10.1.2.3");
	ck_assert_str_eq(e.o.bx, "/usr/bin/gdb");
	ck_assert_str_eq(e.o.id, "vm7");
	ck_assert_int_eq(e.o.speed, 2500);
	ck_assert_int_eq(e.later, 0);
	ck_assert_int_eq(e.overload, 0);
	/* so=pw is kept for the caller to refuse; tabs separate too */
	ck_assert_int_eq(line("\thost2\tso=pw\t", &d, &e), 1);
	ck_assert_str_eq(e.o.so, "pw");
	ck_assert_int_eq(e.o.speed, 1000);
	/* a later option of the same name wins; '=' inside a value */
	ck_assert_int_eq(line("h lo=a lo=b wd=/x=y", &d, &e), 1);
	ck_assert_str_eq(e.o.login, "b");
	ck_assert_str_eq(e.o.wd, "/x=y");
	/* defaults untouched by host lines */
	ck_assert_str_eq(d.login, "");
}
END_TEST

START_TEST(speed_values)
{
	struct host_ent e;

	ck_assert_int_eq(line("h sp=1", NULL, &e), 1);
	ck_assert_int_eq(e.o.speed, 1);
	ck_assert_int_eq(line("h sp=1000000", NULL, &e), 1);
	ck_assert_int_eq(e.o.speed, 1000000);
	refused("h sp=0", "speed");
	refused("h sp=1000001", "speed");
	refused("h sp=99999999999999999999", "speed");
	refused("h sp=-5", "speed");
	refused("h sp=12a", "speed");
	refused("h sp=", "speed");
	refused("h sp=+3", "speed");
}
END_TEST

START_TEST(blank_and_comments)
{
	struct host_opts d;
	struct host_ent e;

	host_opts_default(&d);
	ck_assert_int_eq(line("", &d, &e), 0);
	ck_assert_int_eq(line("   \t  ", &d, &e), 0);
	ck_assert_int_eq(line("# a comment lo=bad", &d, &e), 0);
	ck_assert_int_eq(line("   #indented", &d, &e), 0);
	ck_assert_int_eq(line("\r\n", &d, &e), 0);
	ck_assert_int_eq(hostfile_line(NULL, &d, &e, err, sizeof(err)), 0);
	/* a word starting with '#' ends the line */
	ck_assert_int_eq(line("h lo=x # bogus=1 more", &d, &e), 1);
	ck_assert_str_eq(e.o.login, "x");
	ck_assert_int_eq(line("h wd=/a#b", &d, &e), 1);
	ck_assert_str_eq(e.o.wd, "/a#b");
	/* CR LF ends are blanks */
	ck_assert_int_eq(line("h lo=x\r\n", &d, &e), 1);
	ck_assert_str_eq(e.o.login, "x");
}
END_TEST

START_TEST(flags)
{
	struct host_ent e;

	ck_assert_int_eq(line("&later lo=x", NULL, &e), 1);
	ck_assert_str_eq(e.name, "later");
	ck_assert_int_eq(e.later, 1);
	ck_assert_int_eq(e.overload, 0);
	ck_assert_int_eq(line("$busy", NULL, &e), 1);
	ck_assert_str_eq(e.name, "busy");
	ck_assert_int_eq(e.later, 0);
	ck_assert_int_eq(e.overload, 1);
	ck_assert_int_eq(line("&$both", NULL, &e), 1);
	ck_assert_int_eq(e.later + e.overload, 2);
	ck_assert_int_eq(line("  $&both", NULL, &e), 1);
	ck_assert_str_eq(e.name, "both");
	ck_assert_int_eq(e.later + e.overload, 2);
	refused("&", "host name");
	refused("& host", "host name");
	refused("&* lo=x", "'*'");
	refused("$*", "'*'");
}
END_TEST

START_TEST(host_names)
{
	char name[300];
	struct host_ent e;

	/* numeric addresses are fine for us */
	ck_assert_int_eq(line("192.168.7.1 lo=x", NULL, &e), 1);
	ck_assert_str_eq(e.name, "192.168.7.1");
	ck_assert_int_eq(line("fe80::1", NULL, &e), 1);
	ck_assert_str_eq(e.name, "fe80::1");
	memset(name, 'n', 255);
	name[255] = '\0';
	ck_assert_int_eq(line(name, NULL, &e), 1);
	ck_assert_uint_eq(strlen(e.name), 255);
	memset(name, 'n', 256);
	name[256] = '\0';
	refused(name, "too long");
	refused("lo=x", "host name");
	refused("a\x01 lo=x", "control");
	refused("a lo=x\x7f", "control");
}
END_TEST

START_TEST(option_errors)
{
	char buf[1200];

	refused("h xx=1", "unknown option \"xx\"");
	refused("h LO=x", "unknown option");
	refused("h =x", "unknown option");
	refused("h lo", "not an option");
	refused("h lo=", "empty value for lo=");
	refused("h dx=", "empty value for dx=");
	refused("h so=", "empty value");
	/* the longest value that fits, and one more */
	snprintf(buf, sizeof(buf), "h lo=%063d", 0);
	ck_assert_int_eq(line(buf, NULL, &(struct host_ent){0}), 1);
	snprintf(buf, sizeof(buf), "h lo=%064d", 0);
	refused(buf, "value too long for lo=");
	snprintf(buf, sizeof(buf), "h so=%015d", 0);
	ck_assert_int_eq(line(buf, NULL, &(struct host_ent){0}), 1);
	snprintf(buf, sizeof(buf), "h so=%016d", 0);
	refused(buf, "value too long for so=");
	snprintf(buf, sizeof(buf), "h dx=%01023d", 0);
	ck_assert_int_eq(line(buf, NULL, &(struct host_ent){0}), 1);
	snprintf(buf, sizeof(buf), "h dx=%01024d", 0);
	refused(buf, "value too long for dx=");
	snprintf(buf, sizeof(buf), "h ip=%0256d", 0);
	refused(buf, "value too long for ip=");
	snprintf(buf, sizeof(buf), "h id=%064d", 0);
	refused(buf, "value too long for id=");
}
END_TEST

START_TEST(defaults_line)
{
	struct host_opts d, before;
	struct host_ent e;

	host_opts_default(&d);
	ck_assert_int_eq(line("* lo=dflt wd=/w sp=5", &d, &e), 2);
	ck_assert_str_eq(d.login, "dflt");
	ck_assert_int_eq(d.speed, 5);
	ck_assert_int_eq(line("h", &d, &e), 1);
	ck_assert_str_eq(e.o.login, "dflt");
	ck_assert_str_eq(e.o.wd, "/w");
	ck_assert_int_eq(e.o.speed, 5);
	/* the host's own options win */
	ck_assert_int_eq(line("h lo=own", &d, &e), 1);
	ck_assert_str_eq(e.o.login, "own");
	ck_assert_str_eq(e.o.wd, "/w");
	/* a refused '*' line leaves the defaults alone */
	before = d;
	ck_assert_int_eq(line("* lo=x bad=1", &d, &e), -1);
	ck_assert_int_eq(memcmp(&before, &d, sizeof(d)), 0);
	/* a new '*' line replaces the old defaults, as in PVM */
	ck_assert_int_eq(line("*\tdx=/d", &d, &e), 2);
	ck_assert_str_eq(d.login, "");
	ck_assert_str_eq(d.dx, "/d");
	ck_assert_int_eq(d.speed, 1000);
	/* NULL defaults: a '*' line is still recognised */
	ck_assert_int_eq(line("* lo=z", NULL, &e), 2);
}
END_TEST

START_TEST(file_defaults_later_only)
{
	static const char text[] = "# cluster\n"
	                           "first lo=a\n"
	                           "\n"
	                           "* lo=dflt ep=/e\n"
	                           "&second\r\n"
	                           "third lo=own\n"
	                           "* wd=/w\n"
	                           "$fourth\n"
	                           "fifth"; /* no final newline */
	struct hostfile hf;

	ck_assert_int_eq(parse(text, strlen(text), &hf), 0);
	ck_assert_int_eq(hf.n, 5);
	ck_assert_str_eq(hf.v[0].name, "first");
	ck_assert_str_eq(hf.v[0].o.login, "a");
	ck_assert_str_eq(hf.v[0].o.ep, "");
	ck_assert_int_eq(hf.v[0].line, 2);
	ck_assert_str_eq(hf.v[1].name, "second");
	ck_assert_int_eq(hf.v[1].later, 1);
	ck_assert_str_eq(hf.v[1].o.login, "dflt");
	ck_assert_str_eq(hf.v[1].o.ep, "/e");
	ck_assert_int_eq(hf.v[1].line, 5);
	ck_assert_str_eq(hf.v[2].o.login, "own");
	ck_assert_str_eq(hf.v[2].o.ep, "/e");
	ck_assert_str_eq(hf.v[3].name, "fourth");
	ck_assert_int_eq(hf.v[3].overload, 1);
	ck_assert_str_eq(hf.v[3].o.login, "");
	ck_assert_str_eq(hf.v[3].o.wd, "/w");
	ck_assert_str_eq(hf.v[4].name, "fifth");
	ck_assert_int_eq(hf.v[4].line, 9);
	/* the last '*' line's options stay for later addhosts */
	ck_assert_str_eq(hf.defaults.wd, "/w");
	hostfile_free(&hf);
	ck_assert_ptr_null(hf.v);
	ck_assert_int_eq(hf.n, 0);

	ck_assert_int_eq(parse("", 0, &hf), 0);
	ck_assert_int_eq(hf.n, 0);
	hostfile_free(&hf);
}
END_TEST

START_TEST(file_errors)
{
	static const char bad[] = "a\n# c\nb lo=x\nc frob=1\nd\n";
	static const char nul[] = "a\nb\0c\nd\n";
	struct hostfile hf;

	ck_assert_int_eq(parse(bad, strlen(bad), &hf), -1);
	ck_assert_str_eq(err, "line 4: unknown option \"frob\"");
	ck_assert_ptr_null(hf.v);
	ck_assert_int_eq(hf.n, 0);
	ck_assert_int_eq(parse(nul, sizeof(nul) - 1, &hf), -1);
	ck_assert_str_eq(err, "line 2: NUL byte");
	ck_assert_int_eq(parse("\0", 1, &hf), -1);
	ck_assert_str_eq(err, "line 1: NUL byte");
	ck_assert_int_eq(parse("a\nb lo=\n", 8, &hf), -1);
	ck_assert_str_eq(err, "line 2: empty value for lo=");
	/* no room for the message: still refused */
	ck_assert_int_eq(hostfile_parse("x y", 3, &hf, NULL, 0), -1);
}
END_TEST

/* n lines of hosts or comments, each ending with "\n". */
static char *
many_lines(int n, size_t *len)
{
	char *t = malloc((size_t)n * 16 + 1), *p = t;
	int i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < n; i++)
		p += sprintf(p, i % 3 == 0 ? "# c%d\n" : "h%d\n", i);
	*len = (size_t)(p - t);
	return t;
}

START_TEST(file_line_limit)
{
	struct hostfile hf;
	size_t len;
	char *t;

	t = many_lines(4095, &len);
	ck_assert_int_eq(parse(t, len, &hf), 0);
	ck_assert_int_eq(hf.n, 2730);
	ck_assert_int_eq(hf.v[hf.n - 1].line, 4095);
	hostfile_free(&hf);
	free(t);

	t = many_lines(4096, &len);
	ck_assert_int_eq(parse(t, len, &hf), -1);
	ck_assert_str_eq(err, "line 4096: more than 4095 lines");
	free(t);

	/* blank lines count too: one more, empty or blank, is too many */
	t = many_lines(4095, &len);
	t = realloc(t, len + 4);
	ck_assert_ptr_nonnull(t);
	t[len] = '\n';
	ck_assert_int_eq(parse(t, len + 1, &hf), -1);
	ck_assert_str_eq(err, "line 4096: more than 4095 lines");
	memcpy(t + len, "  ", 2);
	ck_assert_int_eq(parse(t, len + 2, &hf), -1);
	free(t);
}
END_TEST

/* hostlist_expand(spec) must give exactly the names in want. */
static void
expands(const char *spec, const char *const *want, int nwant)
{
	char **v = (char **)1;
	int n = -1, i;

	ck_assert_msg(hostlist_expand(spec, &v, &n) == 0, "%s", spec);
	ck_assert_int_eq(n, nwant);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(v[i], want[i]);
	hostlist_free(v, n);
}

static void
malformed(const char *spec)
{
	char **v = (char **)1;
	int n = -1;

	ck_assert_msg(hostlist_expand(spec, &v, &n) == -1, "%s", spec);
	ck_assert_ptr_null(v);
	ck_assert_int_eq(n, 0);
}

#define EXPANDS(spec, ...)                                                     \
	do {                                                                   \
		static const char *const w_[] = {__VA_ARGS__};                 \
		expands(spec, w_, (int)(sizeof(w_) / sizeof(w_[0])));          \
	} while (0)

START_TEST(hostlist_forms)
{
	EXPANDS("node[1-3]", "node1", "node2", "node3");
	EXPANDS("n[08-10]", "n08", "n09", "n10");
	EXPANDS("a,b[1,3]", "a", "b1", "b3");
	EXPANDS("solo", "solo");
	EXPANDS("x[5]", "x5");
	EXPANDS("n[001-3]", "n001", "n002", "n003");
	EXPANDS("n[9-11]", "n9", "n10", "n11");
	EXPANDS("node[01-02,7],gpu1", "node01", "node02", "node7", "gpu1");
	EXPANDS("r1n[1-2,5-6]", "r1n1", "r1n2", "r1n5", "r1n6");
	EXPANDS("a.b-c_d,e", "a.b-c_d", "e");
	EXPANDS("x[0]", "x0");
}
END_TEST

START_TEST(hostlist_malformed)
{
	static const char *const bad[] = {"x[1-", "x[3-1]", "x[", "x[]",
	    "x[1,]", "x[,1]", "x[1-2", "x[1--2]", "x[-2]", "x[a]", "x[1-2]y",
	    "x[1][2]", "x]", "[1-2]", "", ",a", "a,", "a,,b", "a b", " a",
	    "a\n", "a;rm -rf", "a$b", "a/b", "x[1 -2]", "x[1234567890]",
	    "x[0-999999999]", "x[1-4096]", "a,x[1-4095]",
	    "x[1-3000],y[1-1096]"};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		malformed(bad[i]);
}
END_TEST

START_TEST(hostlist_limits)
{
	char spec[300];
	char **v;
	int n;

	ck_assert_int_eq(hostlist_expand("x[1-4095]", &v, &n), 0);
	ck_assert_int_eq(n, 4095);
	ck_assert_str_eq(v[4094], "x4095");
	hostlist_free(v, n);
	ck_assert_int_eq(hostlist_expand("x[1-4094],y", &v, &n), 0);
	ck_assert_int_eq(n, 4095);
	hostlist_free(v, n);
	ck_assert_int_eq(hostlist_expand(NULL, &v, &n), -1);
	/* names must fit in a host_ent */
	memset(spec, 'a', 255);
	spec[255] = '\0';
	ck_assert_int_eq(hostlist_expand(spec, &v, &n), 0);
	hostlist_free(v, n);
	memset(spec, 'a', 256);
	spec[256] = '\0';
	malformed(spec);
	memset(spec, 'a', 250);
	strcpy(spec + 250, "[1-2]");
	malformed(spec);
	memset(spec, 'a', 240);
	strcpy(spec + 240, "[1-2]");
	ck_assert_int_eq(hostlist_expand(spec, &v, &n), 0);
	ck_assert_int_eq(n, 2);
	hostlist_free(v, n);
}
END_TEST

/* A random line, or a valid one with a few bytes changed. */
static size_t
fuzz_line(char *buf, size_t cap)
{
	static const char *const seeds[] = {"node1 lo=joe sp=20 dx=/p",
	    "* wd=/tmp ep=/a:/b", "&$h ip=1.2.3.4 id=v # c", "# comment",
	    "n[01-05,9],g[1-2]", "a,b[1,3]"};
	static const char alpha[] = "&$*#=[]-,. \t\r\nlospdxewibx019az";
	size_t n, i;

	if (rnd() % 3 == 0) {
		n = rnd() % (cap - 1);
		for (i = 0; i < n; i++)
			buf[i] =
			    (char)(rnd() % 2
			               ? (int)(rnd() % 255 + 1)
			               : alpha[rnd() % (sizeof(alpha) - 1)]);
	} else {
		const char *s = seeds[rnd() % 6];

		n = strlen(s);
		memcpy(buf, s, n);
		for (i = rnd() % 4; i > 0; i--)
			buf[rnd() % n] = alpha[rnd() % (sizeof(alpha) - 1)];
		if (rnd() % 4 == 0)
			n = rnd() % (n + 1);
	}
	buf[n] = '\0';
	return n;
}

START_TEST(fuzz_lines)
{
	struct host_opts d;
	struct host_ent e;
	char buf[200], **v;
	int i, rc, n, hosts = 0;

	host_opts_default(&d);
	for (i = 0; i < 20000; i++) {
		fuzz_line(buf, sizeof(buf));
		rc = line(buf, &d, &e);
		ck_assert(rc >= -1 && rc <= 2);
		if (rc == 1) {
			ck_assert_uint_gt(strlen(e.name), 0);
			ck_assert(e.o.speed >= 1 && e.o.speed <= 1000000);
			hosts++;
		}
		if (hostlist_expand(buf, &v, &n) == 0) {
			ck_assert(n >= 1 && n <= 4095);
			hostlist_free(v, n);
		}
	}
	ck_assert_int_gt(hosts, 100);
}
END_TEST

START_TEST(fuzz_files)
{
	struct hostfile hf;
	char text[2000];
	size_t len;
	int i, j;

	for (i = 0; i < 2000; i++) {
		len = 0;
		for (j = rnd() % 10; j > 0; j--) {
			len += fuzz_line(text + len, 200);
			text[len++] = (char)(rnd() % 8 ? '\n' : rnd() % 256);
		}
		if (parse(text, len, &hf) == 0) {
			ck_assert(hf.n >= 0 && hf.n <= 10);
			hostfile_free(&hf);
		} else {
			ck_assert(strncmp(err, "line ", 5) == 0);
		}
	}
}
END_TEST

static const char *
fake_env(const char *name)
{
	if (strcmp(name, "HOME") == 0)
		return "/home/me";
	if (strcmp(name, "EMPTY") == 0)
		return "";
	return NULL;
}

/* $NAME in option values, as each pvmd expands them. */
START_TEST(expand_vars)
{
	char out[32];

	ck_assert_int_eq(hostfile_expand("$HOME/bin", out, sizeof(out),
	    fake_env), 0);
	ck_assert_str_eq(out, "/home/me/bin");
	ck_assert_int_eq(hostfile_expand("a:$HOME:$NOPE:$EMPTY:b", out,
	    sizeof(out), fake_env), 0);
	ck_assert_str_eq(out, "a:/home/me:::b");
	/* A '$' not followed by a name stays. */
	ck_assert_int_eq(hostfile_expand("x$/$", out, sizeof(out), fake_env),
	    0);
	ck_assert_str_eq(out, "x$/$");
	ck_assert_int_eq(hostfile_expand("plain", out, sizeof(out), fake_env),
	    0);
	ck_assert_str_eq(out, "plain");
	/* Too long: refused, never cut short. */
	ck_assert_int_eq(hostfile_expand("$HOME$HOME$HOME$HOME", out,
	    sizeof(out), fake_env), -1);
	ck_assert_int_eq(hostfile_expand("12345678", out, 8, fake_env), -1);
	ck_assert_int_eq(hostfile_expand("1234567", out, 8, fake_env), 0);
}
END_TEST

/* A PBS node file: one name per line per slot; each name once. */
START_TEST(nodefile_lines)
{
	static const char text[] = "n1\nn1\r\nn2\n\nn3\nn2";
	char **v;
	int n;

	ck_assert_int_eq(hostlist_lines(text, sizeof(text) - 1, &v, &n), 0);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(v[0], "n1");
	ck_assert_str_eq(v[1], "n2");
	ck_assert_str_eq(v[2], "n3");
	hostlist_free(v, n);
	/* Only the first len bytes count. */
	ck_assert_int_eq(hostlist_lines("ab\ncd", 4, &v, &n), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(v[1], "c");
	hostlist_free(v, n);
	ck_assert_int_eq(hostlist_lines("", 0, &v, &n), 0);
	ck_assert_int_eq(n, 0);
}
END_TEST

/*
 * A node file's text ends where its length says, with no NUL after it:
 * here right before a page that cannot be read, so a scan past the end
 * crashes even without AddressSanitizer.  Found by fuzz_hostfile.
 */
START_TEST(nodefile_unterminated)
{
	static const char text[] = "n1\nn2";
	long page = sysconf(_SC_PAGESIZE);
	char *mem, *p, **v;
	int n;

	mem = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(mem, MAP_FAILED);
	ck_assert_int_eq(mprotect(mem + page, (size_t)page, PROT_NONE), 0);
	p = mem + page - (sizeof(text) - 1);
	memcpy(p, text, sizeof(text) - 1);
	ck_assert_int_eq(hostlist_lines(p, sizeof(text) - 1, &v, &n), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(v[1], "n2");
	hostlist_free(v, n);
	munmap(mem, (size_t)page * 2);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("hostfile");
	TCase *tl = tcase_create("lines");
	TCase *tf = tcase_create("files");
	TCase *th = tcase_create("hostlist");

	tcase_add_test(tl, opts_default);
	tcase_add_test(tl, every_option);
	tcase_add_test(tl, speed_values);
	tcase_add_test(tl, blank_and_comments);
	tcase_add_test(tl, flags);
	tcase_add_test(tl, host_names);
	tcase_add_test(tl, option_errors);
	tcase_add_test(tl, defaults_line);
	suite_add_tcase(s, tl);

	tcase_set_timeout(tf, 60);
	tcase_add_test(tf, file_defaults_later_only);
	tcase_add_test(tf, file_errors);
	tcase_add_test(tf, file_line_limit);
	tcase_add_test(tf, fuzz_lines);
	tcase_add_test(tf, fuzz_files);
	suite_add_tcase(s, tf);

	tcase_add_test(th, hostlist_forms);
	tcase_add_test(th, hostlist_malformed);
	tcase_add_test(th, hostlist_limits);
	tcase_add_test(th, expand_vars);
	tcase_add_test(th, nodefile_lines);
	tcase_add_test(th, nodefile_unterminated);
	suite_add_tcase(s, th);
	return unit_run(s);
}
