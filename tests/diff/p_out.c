/*
 * p_out.c: probe of the output of spawned tasks: the records the pvmd
 * sends to a PvmOutputTid (tag, source, the tid and count at their head,
 * the int after a negative count, the bytes), how a child's writes are
 * cut into records, what a child's PvmSelfOutput* changes send, and what
 * pvm_catchout makes of it in its file, with PvmShowTids on and off,
 * pvm_catchout(0), and pvm_exit waiting for the caught children.
 *
 *   p_out            the probe
 *   p_out script     a child that obeys the parent's commands (TAG_CMD:
 *                    int length, bytes "VERB:ARG"), answering each with
 *                    TAG_ACK (int rc, int PvmOutputTid, int PvmOutputCode)
 *   p_out plain      a child that never enrols: writes a line and exits
 */
#include "probe.h"

#include <signal.h>
#include <unistd.h>

#define TAG_CMD 77
#define TAG_ACK 78
#define TAG_OUT 33
#define TAG_OUT2 44
#define TAG_NONE 999 /* nobody sends it: a wait that only pumps */

static int me;
static char self[4096];

/* ---------------------------------------------------------------- child */

/* A run of n bytes 'a' ending in a newline, in one write. */
static int
child_long(int n)
{
	char *b = malloc((size_t)n);
	int rc;

	if (b == NULL || n < 1)
		return -1;
	memset(b, 'a', (size_t)n);
	b[n - 1] = '\n';
	rc = (int)write(1, b, (size_t)n);
	free(b);
	return rc;
}

/* A grandchild running the same script; its tid (or an error). */
static int
child_spawn(void)
{
	char *args[] = {"script", NULL};
	int tid = 0;

	if (pvm_spawn(self, args, 0, "", 1, &tid) != 1 && tid >= 0)
		tid = -1;
	return tid;
}

/* Obey one command; its result, or -1000 to quit. */
static int
child_do(const char *v, const char *a, int n)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "2") == 0)
		return (int)write(v[0] - '0', a, (size_t)n);
	if (strcmp(v, "printf") == 0)
		return printf("%.*s", n, a);
	if (strcmp(v, "fflush") == 0)
		return fflush(stdout);
	if (strcmp(v, "long") == 0)
		return child_long(atoi(a));
	if (strcmp(v, "close") == 0)
		return close(1) + close(2);
	if (strcmp(v, "stid") == 0)
		return pvm_setopt(PvmSelfOutputTid, atoi(a) ? me : 0);
	if (strcmp(v, "scode") == 0)
		return pvm_setopt(PvmSelfOutputCode, atoi(a));
	if (strcmp(v, "spawn") == 0)
		return child_spawn();
	return -1000;
}

/* The script child: commands until "quit" or a last action. */
static void
child_script(void)
{
	char buf[65536], *colon;
	int len, rc, v[3], src;

	me = pvm_parent();
	for (;;) {
		if (pvm_recv(-1, TAG_CMD) < 0 || pvm_upkint(&len, 1, 1) < 0 ||
		    len < 0 || len >= (int)sizeof(buf) ||
		    pvm_upkbyte(buf, len, 1) < 0)
			return;
		pvm_bufinfo(pvm_getrbuf(), NULL, NULL, &src);
		buf[len] = '\0';
		colon = memchr(buf, ':', (size_t)len);
		if (colon != NULL)
			*colon++ = '\0';
		else
			colon = buf + len;
		if (strcmp(buf, "quit") == 0)
			return;
		if (strcmp(buf, "exit") == 0) {
			/* Leave PVM, then write: does it still arrive? */
			pvm_exit();
			usleep(200000);
			(void)!write(1, colon, strlen(colon));
			return;
		}
		rc = child_do(buf, colon, len - (int)(colon - buf));
		v[0] = rc;
		v[1] = pvm_getopt(PvmOutputTid);
		v[2] = pvm_getopt(PvmOutputCode);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(v, 3, 1);
		pvm_send(src, TAG_ACK);
	}
}

/* --------------------------------------------------------------- parent */

/* Bytes as text: escapes for the unprintable, long runs summarised. */
static const char *
esc(const char *p, int n)
{
	static char b[512];
	int i, k = 0;

	if (n > 64) {
		snprintf(b, sizeof(b), "<%d bytes, first '%c', last %s>", n,
		    p[0], p[n - 1] == '\n' ? "newline" : "other");
		return b;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\n')
			k += snprintf(b + k, 8, "\\n");
		else if (c == '\t')
			k += snprintf(b + k, 8, "\\t");
		else if (c == '\r')
			k += snprintf(b + k, 8, "\\r");
		else if (c < 32 || c > 126 || c == '\\' || c == '\'')
			k += snprintf(b + k, 8, "\\x%02x", c);
		else
			b[k++] = (char)c;
	}
	b[k] = '\0';
	return b;
}

/* A script child spawned with the current options; named name. */
static int
kid(const char *mode, const char *name)
{
	char *args[] = {(char *)mode, NULL};
	int tid = 0, rc;

	rc = pvm_spawn(self, args, 0, "", 1, &tid);
	if (rc != 1) {
		dp_rec(name, "spawn = %s, tid %s", dp_code(rc), dp_code(tid));
		return 0;
	}
	dp_name(tid, name);
	return tid;
}

/* Send a command; wait for its answer (none for the last actions). */
static int *
cmd(int tid, const char *verb, const char *arg, int alen)
{
	static int v[3];
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%s:", verb);
	struct timeval tv = {5, 0};

	if (alen > 0)
		memcpy(buf + n, arg, (size_t)alen);
	n += alen;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&n, 1, 1);
	pvm_pkbyte(buf, n, 1);
	pvm_send(tid, TAG_CMD);
	v[0] = v[1] = v[2] = -999;
	if (strcmp(verb, "quit") == 0 || strcmp(verb, "exit") == 0)
		return v;
	if (pvm_trecv(tid, TAG_ACK, &tv) > 0)
		pvm_upkint(v, 3, 1);
	return v;
}

/* Write text (a C string) on the child's stdout, or stderr (fd 2). */
static void
say(int tid, int fd, const char *text)
{
	cmd(tid, fd == 2 ? "2" : "1", text, (int)strlen(text));
}

/* One output record (the current receive buffer) as a record of c. */
static void
show_record(const char *c, int bufid)
{
	static char data[65536];
	int len = 0, tag = 0, src = 0, tid = 0, cnt = 0, x = 0;
	char ctx[32] = "";

	pvm_bufinfo(bufid, &len, &tag, &src);
	pvm_upkint(&tid, 1, 1);
	pvm_upkint(&cnt, 1, 1);
	if (pvm_getcontext() != 0)
		snprintf(ctx, sizeof(ctx), ", ctx %d", pvm_getcontext());
	if (cnt > 0 && cnt <= (int)sizeof(data) &&
	    pvm_upkbyte(data, cnt, 1) == 0)
		dp_rec(c, "tag %d from %s%s, %s, count %d, '%s'", tag,
		    dp_tid(src), ctx, dp_tid(tid), cnt, esc(data, cnt));
	else if (cnt < 0 && len >= 12 && pvm_upkint(&x, 1, 1) == 0)
		dp_rec(c, "tag %d from %s%s, %s, count %d, int %s, %d bytes",
		    tag, dp_tid(src), ctx, dp_tid(tid), cnt, dp_tid(x), len);
	else
		dp_rec(c, "tag %d from %s%s, %s, count %d, %d bytes", tag,
		    dp_tid(src), ctx, dp_tid(tid), cnt, len);
}

/*
 * The output records (tags TAG_OUT and TAG_OUT2) that arrive: the first
 * within first_ms, each next within 150 ms.
 */
static void
records(const char *c, int first_ms)
{
	struct timeval tv = {first_ms / 1000, (first_ms % 1000) * 1000};
	int b, n = 0;

	for (;;) {
		b = pvm_trecv(-1, TAG_OUT, &tv);
		if (b == 0)
			b = pvm_trecv(-1, TAG_OUT2, &tv);
		if (b <= 0)
			break;
		show_record(c, b);
		n++;
		tv.tv_sec = 0;
		tv.tv_usec = 150000;
	}
	if (n == 0)
		dp_rec(c, "no record within %d ms", first_ms);
}

/* Records of a step that must produce some (the first may be slow). */
#define SOME 3000
/* Records of a step that must produce none. */
#define NONE 300

/* The child's answer to a redirect, as a record. */
static void
show_ack(const char *c, const int *v)
{
	dp_rec(c, "old value %s, PvmOutputTid %s, PvmOutputCode %s",
	    dp_val(v[0]), dp_tid(v[1]), dp_val(v[2]));
}

/* A child's writes of several kinds, each a step of its own. */
static void
raw_writes(void)
{
	int a = kid("script", "kid-a");

	records("raw-spawn", SOME);
	say(a, 1, "one\n");
	records("raw-line", SOME);
	say(a, 2, "err\n");
	records("raw-stderr", SOME);
	say(a, 1, "abc");
	records("raw-partial", SOME);
	say(a, 1, "def\n");
	records("raw-partial-rest", SOME);
	say(a, 1, "\n");
	records("raw-empty-line", SOME);
	say(a, 1, "\n\n\n");
	records("raw-empty-lines", SOME);
	cmd(a, "1", "a\0b\tc\r\n", 7);
	records("raw-binary", SOME);
	say(a, 1, "x\ny\nz");
	records("raw-lines-and-part", SOME);
	say(a, 2, "\n");
	records("raw-stderr-end", SOME);
	cmd(a, "1", "", 0);
	records("raw-write-0", NONE);
	cmd(a, "printf", "held", 4);
	records("raw-printf", NONE);
	cmd(a, "fflush", "", 0);
	records("raw-fflush", SOME);
}

/* Long writes: how the pvmd cuts them. */
static void
raw_long(void)
{
	int a = kid("script", "kid-long");

	records("raw-long-spawn", SOME);
	cmd(a, "long", "3999", 4);
	records("raw-long-3999", SOME);
	cmd(a, "long", "4000", 4);
	records("raw-long-4000", SOME);
	cmd(a, "long", "4096", 4);
	records("raw-long-4096", SOME);
	cmd(a, "long", "10000", 5);
	records("raw-long-10000", SOME);
	cmd(a, "long", "20000", 5);
	records("raw-long-20000", SOME);
	cmd(a, "quit", "", 0);
	records("raw-long-quit", SOME);
}

/* How a child's output ends: its exit, pvm_exit, close, kill. */
static void
raw_ends(void)
{
	int t;

	t = kid("script", "kid-quit");
	records("raw-quit-spawn", SOME);
	cmd(t, "printf", "bye", 3);
	cmd(t, "quit", "", 0);
	records("raw-quit", SOME);
	t = kid("script", "kid-exit");
	records("raw-exit-spawn", SOME);
	cmd(t, "exit", "after\n", 6);
	records("raw-after-pvm-exit", SOME);
	t = kid("script", "kid-close");
	records("raw-close-spawn", SOME);
	cmd(t, "close", "", 0);
	records("raw-close", SOME);
	say(t, 1, "lost\n");
	records("raw-write-closed", NONE);
	cmd(t, "quit", "", 0);
	records("raw-close-quit", NONE);
	t = kid("script", "kid-kill");
	records("raw-kill-spawn", SOME);
	say(t, 1, "k\n");
	records("raw-kill-line", SOME);
	dp_rc("raw-kill", "pvm_kill(kid)", pvm_kill(t));
	records("raw-kill", SOME);
	t = kid("script", "kid-silent");
	records("raw-silent-spawn", SOME);
	cmd(t, "quit", "", 0);
	records("raw-silent-quit", SOME);
}

/* A child that changes its own PvmSelfOutputTid and Code. */
static void
raw_redirect(void)
{
	int t = kid("script", "kid-redir");

	records("raw-redir-spawn", SOME);
	show_ack("redir-code-44", cmd(t, "scode", "44", 2));
	records("redir-code-44", SOME);
	say(t, 1, "r\n");
	records("redir-write-44", SOME);
	show_ack("redir-code-same", cmd(t, "scode", "44", 2));
	records("redir-code-same", NONE);
	show_ack("redir-tid-same", cmd(t, "stid", "1", 1));
	records("redir-tid-same", NONE);
	show_ack("redir-tid-0", cmd(t, "stid", "0", 1));
	records("redir-tid-0", SOME);
	say(t, 1, "to the log\n");
	records("redir-write-log", NONE);
	show_ack("redir-code-log", cmd(t, "scode", "33", 2));
	records("redir-code-log", NONE);
	show_ack("redir-tid-back", cmd(t, "stid", "1", 1));
	records("redir-tid-back", SOME);
	say(t, 1, "back\n");
	records("redir-write-back", SOME);
	cmd(t, "quit", "", 0);
	records("redir-quit", SOME);
}

/* Grandchildren inherit the output destination. */
static void
raw_grand(void)
{
	int t = kid("script", "kid-g"), *v, g;

	records("raw-grand-spawn-child", SOME);
	v = cmd(t, "spawn", "", 0);
	g = v[0];
	if (g > 0)
		dp_name(g, "grand");
	dp_rec("raw-grand", "grandchild %s", g > 0 ? "spawned" : dp_code(g));
	records("raw-grand", SOME);
	say(g, 1, "from grand\n");
	records("raw-grand-line", SOME);
	cmd(g, "quit", "", 0);
	records("raw-grand-quit", SOME);
	cmd(t, "quit", "", 0);
	records("raw-grand-child-quit", SOME);
}

/* A child that never enrols; the output context; the log. */
static void
raw_others(void)
{
	int t;

	kid("plain", "kid-plain");
	records("raw-plain", SOME);
	dp_rc("raw-ctx-set", "pvm_setopt(PvmOutputContext, 5)",
	    pvm_setopt(PvmOutputContext, 5));
	kid("plain", "kid-ctx");
	records("raw-ctx-in-0", NONE);
	dp_rc("raw-ctx-switch", "pvm_setcontext(5)", pvm_setcontext(5));
	records("raw-ctx-in-5", SOME);
	pvm_setcontext(0);
	pvm_setopt(PvmOutputContext, 0);
	dp_rec("raw-to-log", "pvm_setopt(PvmOutputTid, 0) = %s",
	    dp_val(pvm_setopt(PvmOutputTid, 0)));
	t = kid("script", "kid-log");
	say(t, 1, "to the log\n");
	cmd(t, "quit", "", 0);
	records("raw-to-log", NONE);
	pvm_setopt(PvmOutputTid, me);
	pvm_setopt(PvmOutputCode, 34);
	t = kid("script", "kid-code");
	pvm_setopt(PvmOutputCode, TAG_OUT);
	say(t, 1, "code\n");
	records("raw-code-at-spawn", NONE);
	dp_rc("raw-code-34", "pvm_trecv(-1, 34) > 0",
	    pvm_trecv(-1, 34, &(struct timeval){2, 0}) > 0);
	cmd(t, "quit", "", 0);
	dp_drain(300);
	dp_recv("raw-left", 300);
}

/* setopt(what, val), then the four output options. */
static void
selfout(const char *c, int what, int val)
{
	int rc = pvm_setopt(what, val);

	dp_rec(c, "= %s; self %s code %s, children %s code %s", dp_val(rc),
	    dp_val(pvm_getopt(PvmSelfOutputTid)),
	    dp_val(pvm_getopt(PvmSelfOutputCode)),
	    dp_val(pvm_getopt(PvmOutputTid)),
	    dp_val(pvm_getopt(PvmOutputCode)));
}

/* Output options: what setopt accepts and getopt says. */
static void
options(void)
{
	dp_rec("opt-outtid-default", "PvmOutputTid = %s",
	    dp_val(pvm_getopt(PvmOutputTid)));
	dp_rec("opt-outcode-default", "PvmOutputCode = %s",
	    dp_val(pvm_getopt(PvmOutputCode)));
	dp_rec("opt-outctx-default", "PvmOutputContext = %s",
	    dp_val(pvm_getopt(PvmOutputContext)));
	dp_rec("opt-showtids-default", "PvmShowTids = %s",
	    dp_val(pvm_getopt(PvmShowTids)));
	dp_rec("opt-selfouttid-default", "PvmSelfOutputTid = %s",
	    dp_val(pvm_getopt(PvmSelfOutputTid)));
	dp_rc("opt-outtid-notask", "pvm_setopt(PvmOutputTid, notask)",
	    pvm_setopt(PvmOutputTid, 0x4fff0));
	dp_rc("opt-outtid-pvmd", "pvm_setopt(PvmOutputTid, TIDPVMD)",
	    pvm_setopt(PvmOutputTid, (int)0x80000000u));
	dp_rc("opt-outtid-me", "pvm_setopt(PvmOutputTid, me)",
	    pvm_setopt(PvmOutputTid, me));
	dp_rc("opt-outcode", "pvm_setopt(PvmOutputCode, 33)",
	    pvm_setopt(PvmOutputCode, TAG_OUT));
	dp_rec("opt-outtid-set", "PvmOutputTid = %s",
	    dp_val(pvm_getopt(PvmOutputTid)));
	selfout("opt-scode-log", PvmSelfOutputCode, 44);
	selfout("opt-stid-me", PvmSelfOutputTid, me);
	selfout("opt-scode-me", PvmSelfOutputCode, 45);
	selfout("opt-ocode", PvmOutputCode, 50);
	selfout("opt-stid-0", PvmSelfOutputTid, 0);
	selfout("opt-scode-0", PvmSelfOutputCode, 46);
	selfout("opt-stid-back", PvmSelfOutputTid, me);
	selfout("opt-otid-0", PvmOutputTid, 0);
	selfout("opt-scode-again", PvmSelfOutputCode, 0);
	selfout("opt-stid-off", PvmSelfOutputTid, 0);
	pvm_setopt(PvmOutputTid, me);
	pvm_setopt(PvmOutputCode, TAG_OUT);
}

/* ------------------------------------------------------------ catchout */

static FILE *cf;
static long cpos;

/* Let the output come (pvm calls read it), for ms. */
static void
pump(int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	(void)pvm_trecv(-1, TAG_NONE, &tv);
}

/* n bytes of line with every "[t<hex>]" as "[name]", into out. */
static size_t
untid(const char *p, size_t n, char *out, size_t size)
{
	const char *e = p + n;
	char *end;
	size_t k = 0;
	unsigned long t;

	while (p < e && k + 64 < size) {
		if (e - p > 2 && p[0] == '[' && p[1] == 't') {
			t = strtoul(p + 2, &end, 16);
			if (end > p + 2 && end < e && *end == ']') {
				k += (size_t)snprintf(
				    out + k, size - k, "[%s]", dp_tid((int)t));
				p = end + 1;
				continue;
			}
		}
		out[k++] = *p++;
	}
	return k;
}

/* Print the lines added to the catchout file, tids by name. */
static void
co_lines(const char *c, FILE *f, long *pos)
{
	static char named[65536];
	char *line = NULL;
	size_t cap = 0, k;
	ssize_t len;
	int n = 0, nl;

	fflush(f);
	fseek(f, *pos, SEEK_SET);
	while ((len = getline(&line, &cap, f)) > 0) {
		nl = line[len - 1] == '\n';
		k = untid(line, (size_t)(len - nl), named, sizeof(named));
		dp_rec(
		    c, "%s%s", esc(named, (int)k), nl ? "" : " (no newline)");
		n++;
	}
	free(line);
	*pos = ftell(f);
	fseek(f, 0, SEEK_END);
	if (n == 0)
		dp_rec(c, "nothing");
}

/* Pump for ms, then print what came. */
static void
co_step(const char *c, int ms)
{
	pump(ms);
	co_lines(c, cf, &cpos);
}

/* The file holds "[t<tid>] EOF" after pos (or ms passed). */
static void
co_wait_eof(int tid, int ms)
{
	char want[32], line[65536];
	int i;

	snprintf(want, sizeof(want), "[t%x] EOF", (unsigned)tid);
	for (i = 0; i < ms / 50; i++) {
		pump(50);
		fflush(cf);
		fseek(cf, cpos, SEEK_SET);
		while (fgets(line, sizeof(line), cf) != NULL)
			if (strncmp(line, want, strlen(want)) == 0) {
				fseek(cf, 0, SEEK_END);
				return;
			}
		fseek(cf, 0, SEEK_END);
	}
}

/* Output caught with PvmShowTids on. */
static void
co_showtids(void)
{
	int s1, s2;

	s1 = kid("script", "s1");
	co_step("co-spawn", 300);
	say(s1, 1, "one\n");
	co_step("co-line", 300);
	say(s1, 2, "err\n");
	co_step("co-stderr", 300);
	say(s1, 1, "abc");
	co_step("co-partial", 300);
	say(s1, 1, "def\n");
	co_step("co-partial-rest", 300);
	say(s1, 1, "\n\n");
	co_step("co-empty-lines", 300);
	say(s1, 1, "a\tb\r\n");
	co_step("co-tab-cr", 300);
	cmd(s1, "long", "10000", 5);
	co_step("co-long-10000", 300);
	cmd(s1, "long", "5000", 4);
	co_step("co-long-5000", 300);
	s2 = kid("script", "s2");
	co_step("co-spawn-2", 300);
	say(s1, 1, "A1");
	say(s2, 1, "B1\n");
	/* Across hosts B1 comes through another pvmd: let it arrive. */
	pump(300);
	say(s1, 1, "A2\n");
	co_step("co-interleave", 300);
	say(s1, 1, "tail");
	cmd(s1, "quit", "", 0);
	co_wait_eof(s1, 3000);
	co_step("co-nonl-quit", 0);
	cmd(s2, "exit", "after\n", 6);
	co_wait_eof(s2, 3000);
	co_step("co-after-pvm-exit", 0);
	s1 = kid("script", "s3");
	say(s1, 1, "killed\n");
	pump(300);
	dp_rc("co-kill", "pvm_kill(s3)", pvm_kill(s1));
	co_wait_eof(s1, 3000);
	co_step("co-kill", 0);
}

/* Grandchildren and records sent to us with our own code. */
static void
co_grand(void)
{
	int t = kid("script", "co-kid"), g, *v;

	v = cmd(t, "spawn", "", 0);
	g = v[0];
	if (g > 0)
		dp_name(g, "co-grand");
	co_step("co-grand-spawn", 300);
	say(g, 1, "grand line\n");
	co_step("co-grand-line", 300);
	cmd(g, "quit", "", 0);
	co_wait_eof(g, 3000);
	co_step("co-grand-quit", 0);
	cmd(t, "quit", "", 0);
	co_wait_eof(t, 3000);
	co_step("co-grand-child-quit", 0);
}

/* A NUL byte in a line, then more lines. */
static void
co_nul(void)
{
	int t = kid("script", "nul");

	co_step("co-nul-spawn", 300);
	cmd(t, "1", "n\0ul\n", 5);
	co_step("co-nul", 300);
	say(t, 1, "next\n");
	co_step("co-nul-next", 300);
	say(t, 1, "last\n");
	co_step("co-nul-last", 300);
	cmd(t, "quit", "", 0);
	co_wait_eof(t, 3000);
	co_step("co-nul-quit", 0);
}

/* Output caught with PvmShowTids off: raw text. */
static void
co_raw(void)
{
	int t;

	dp_rc("co-showtids-off", "pvm_setopt(PvmShowTids, 0)",
	    pvm_setopt(PvmShowTids, 0));
	t = kid("script", "n1");
	co_step("co-raw-spawn", 300);
	say(t, 1, "plain\n");
	co_step("co-raw-line", 300);
	say(t, 1, "part");
	co_step("co-raw-partial", 300);
	say(t, 1, "ial\n\n");
	co_step("co-raw-partial-rest", 300);
	say(t, 1, "end");
	cmd(t, "quit", "", 0);
	co_step("co-raw-quit", 1000);
	pvm_setopt(PvmShowTids, 1);
}

/* pvm_catchout(0), a second file, and the options it sets. */
static void
co_switch(void)
{
	FILE *f2 = tmpfile();
	long pos2 = 0;
	int t, z;

	t = kid("script", "k1");
	co_step("co-switch-spawn", 300);
	dp_rc("co-switch", "pvm_catchout(f2)", pvm_catchout(f2));
	say(t, 1, "where\n");
	co_step("co-switch-old-file", 300);
	co_lines("co-switch-new-file", f2, &pos2);
	dp_rc("co-off", "pvm_catchout(0)", pvm_catchout(NULL));
	dp_rec("co-off-outtid", "PvmOutputTid = %s",
	    dp_val(pvm_getopt(PvmOutputTid)));
	dp_rec("co-off-outcode", "PvmOutputCode = %s",
	    dp_val(pvm_getopt(PvmOutputCode)));
	say(t, 1, "after off\n");
	co_step("co-off-old-child", 300);
	co_lines("co-off-old-child-f2", f2, &pos2);
	z = kid("script", "z1");
	say(z, 1, "lost\n");
	cmd(z, "quit", "", 0);
	co_step("co-off-new-child", 500);
	co_lines("co-off-new-child-f2", f2, &pos2);
	records("co-off-no-records", NONE);
	cmd(t, "quit", "", 0);
	pump(300);
	fclose(f2);
}

/*
 * pvm_exit while a caught child runs: it waits, and says so on stderr;
 * that line is shown as a record, our tid by name.
 */
static void
exit_quietly(void)
{
	FILE *e = tmpfile();
	long pos = 0;
	int fd = dup(2), rc;

	fflush(stderr);
	dup2(fileno(e), 2);
	rc = pvm_exit();
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	dp_rc("co-exit", "pvm_exit()", rc);
	co_lines("co-exit-stderr", e, &pos);
	fclose(e);
}

/* pvm_catchout and its options; ends with pvm_exit waiting. */
static void
catchout(void)
{
	int t;

	pvm_setopt(PvmOutputTid, 0);
	pvm_setopt(PvmOutputCode, 0);
	cf = tmpfile();
	dp_rc("co-on", "pvm_catchout(f)", pvm_catchout(cf));
	dp_rec(
	    "co-outtid", "PvmOutputTid = %s", dp_val(pvm_getopt(PvmOutputTid)));
	dp_rec("co-outcode", "PvmOutputCode = 0x%x",
	    (unsigned)pvm_getopt(PvmOutputCode));
	dp_rec("co-outctx", "PvmOutputContext = 0x%x",
	    (unsigned)pvm_getopt(PvmOutputContext));
	co_showtids();
	co_grand();
	co_nul();
	co_raw();
	co_switch();
	dp_rc("co-again", "pvm_catchout(f)", pvm_catchout(cf));
	t = kid("script", "late");
	pump(300);
	cmd(t, "exit", "late line\n", 10);
	exit_quietly();
	co_lines("co-exit-waited", cf, &cpos);
}

int
main(int argc, char **argv)
{
	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "script") == 0) {
		pvm_setopt(PvmAutoErr, 0);
		child_script();
		pvm_exit();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "plain") == 0) {
		(void)!write(1, "plain\n", 6);
		return 0;
	}
	pvm_setopt(PvmAutoErr, 0);
	me = pvm_mytid();
	dp_rec("mytid", "me is %s", me > 0 ? "a task tid" : dp_code(me));
	if (me <= 0)
		return 1;
	dp_name(me, "me");
	dp_name((int)0x80000000u | pvm_tidtohost(me), "pvmd1-addr");
	dp_name(0x4fff0, "notask");
	options();
	raw_writes();
	raw_long();
	raw_ends();
	raw_redirect();
	raw_grand();
	raw_others();
	catchout();
	return 0;
}
