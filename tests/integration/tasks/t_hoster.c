/*
 * t_hoster.c: pvm_reg_hoster on several hosts (t-hosts-hoster.sh).
 *
 *   t_hoster serve MODE       the hoster: registers, then answers every
 *                             SM_STHOST as MODE says, running each host's
 *                             command through $PVM_RSH itself:
 *       ok        every host's result line, in reverse order
 *       partial   the first host's only
 *       cantstart "PvmCantStart" for each (nothing run)
 *       garbage   a body that does not decode (nothing run)
 *       nothing   no answer at all (nothing run)
 *       wrongkey  each result line with its key changed
 *   t_hoster add MAXSECS NAME=WANT...
 *                             pvm_addhosts(NAME...): each host's result
 *                             is checked against WANT ("ok" or a Pvm*
 *                             name), and the call must return within
 *                             MAXSECS
 *   t_hoster job              one child on every other host: each says
 *                             where it runs and echoes a message
 *
 * The hoster prints "HOSTER: ..." lines (not checks): the script reads
 * them.  Its answers carry the request's wait id (pvm_getmwid /
 * pvm_setmwid), as pvm_reg_hoster's man page asks.
 */
#define PVM33COMPAT /* pvm3.h then declares pvm_getmwid, pvm_setmwid */
#include "tcheck.h"
#include "pvmsdpro.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#define MAXH 16
#define TAG_HELLO 41
#define TAG_ECHO 42
#define LINE_MS 20000

/* One host of an SM_STHOST. */
struct req_host {
	int tid;
	char so[256], login[512], cmd[4096];
	char result[1024];
};

/* Run cmd on host through $PVM_RSH, stdin /dev/null; its first line. */
static void
run_remote(const char *login, const char *cmd, char *out, size_t len)
{
	const char *rsh = getenv("PVM_RSH");
	const char *host = strchr(login, '@') ? strchr(login, '@') + 1 : login;
	int p[2], st;
	size_t have = 0;
	ssize_t n;
	pid_t pid;

	snprintf(out, len, "PvmCantStart");
	if (rsh == NULL || pipe(p) != 0)
		return;
	if ((pid = fork()) == 0) {
		int null = open("/dev/null", 0);

		dup2(null, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		execl(rsh, rsh, host, cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	alarm(LINE_MS / 1000);
	while (have < len - 1 &&
	       (n = read(p[0], out + have, len - 1 - have)) > 0) {
		have += (size_t)n;
		out[have] = '\0';
		if (strchr(out, '\n') != NULL)
			break;
	}
	alarm(0);
	out[have] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (have == 0)
		snprintf(out, len, "PvmCantStart");
	close(p[0]);
	if (pid > 0) {
		alarm(LINE_MS / 1000);
		waitpid(pid, &st, 0);
		alarm(0);
	}
}

/* Answer SM_STHOSTACK with hosts v[from..to) (step), wait id wid. */
static void
answer(int dst, int wid, struct req_host *v, int n, int step)
{
	int i, k = 0, sbuf;

	sbuf = pvm_initsend(PvmDataDefault);
	for (i = step > 0 ? 0 : n - 1; i >= 0 && i < n; i += step)
		k++;
	pvm_pkint(&k, 1, 1);
	for (i = step > 0 ? 0 : n - 1; i >= 0 && i < n; i += step) {
		pvm_pkint(&v[i].tid, 1, 1);
		pvm_pkstr(v[i].result);
	}
	pvm_setmwid(sbuf, wid);
	pvm_send(dst, (int)SM_STHOSTACK);
	printf("HOSTER: answered %d host(s), wait id %d\n", k, wid);
}

/* Change the key of a result line (its last hex digit). */
static void
spoil(char *line)
{
	size_t n = strlen(line);

	if (n > 0)
		line[n - 1] = line[n - 1] == '0' ? '1' : '0';
}

/* One SM_STHOST, handled as mode says. */
static void
serve_one(int bufid, const char *mode)
{
	struct req_host v[MAXH];
	struct pvmminfo mi;
	char junk[256];
	int n = 0, i, len, tag, src, wid;

	pvm_bufinfo(bufid, &len, &tag, &src);
	wid = pvm_getmwid(bufid);
	pvm_getminfo(bufid, &mi);
	printf("HOSTER: SM_STHOST, wait id %d (minfo %d)\n", wid, mi.wid);
	pvm_upkint(&n, 1, 1);
	for (i = 0; i < n && i < MAXH; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		pvm_upkint(&v[i].tid, 1, 1);
		pvm_upkstr(v[i].so);
		pvm_upkstr(v[i].login);
		pvm_upkstr(v[i].cmd);
		pvm_upkstr(junk);
		pvm_upkstr(junk);
		printf("HOSTER: host t%x so \"%s\" login %s cmd %s\n", v[i].tid,
		    v[i].so, v[i].login, v[i].cmd);
	}
	n = n < MAXH ? n : MAXH;
	if (strcmp(mode, "nothing") == 0)
		return;
	if (strcmp(mode, "garbage") == 0) {
		int sbuf = pvm_initsend(PvmDataDefault), k = 7;

		pvm_pkint(&k, 1, 1);
		pvm_pkbyte("xyz", 3, 1);
		pvm_setmwid(sbuf, wid);
		pvm_send(src, (int)SM_STHOSTACK);
		printf("HOSTER: answered garbage\n");
		return;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(mode, "cantstart") == 0 ||
		    (strcmp(mode, "partial") == 0 && i > 0))
			snprintf(
			    v[i].result, sizeof(v[i].result), "PvmCantStart");
		else
			run_remote(v[i].login, v[i].cmd, v[i].result,
			    sizeof(v[i].result));
		if (strcmp(mode, "wrongkey") == 0)
			spoil(v[i].result);
		printf("HOSTER: t%x result %.12s...\n", v[i].tid, v[i].result);
	}
	answer(src, wid, v, strcmp(mode, "partial") == 0 ? 1 : n,
	    strcmp(mode, "ok") == 0 ? -1 : 1);
}

static int
serve(const char *mode)
{
	int rc, bufid;

	signal(SIGALRM, SIG_DFL);
	pvm_setopt(PvmResvTids, 1);
	rc = pvm_reg_hoster();
	printf("HOSTER: pvm_reg_hoster = %d%s\n", rc,
	    rc == 0 ? " registered" : "");
	if (rc != 0)
		return 1;
	for (;;) {
		if ((bufid = pvm_recv(-1, (int)SM_STHOST)) < 0)
			break;
		serve_one(bufid, mode);
	}
	pvm_exit();
	return 0;
}

/* The Pvm* name of an error the add may give, or "?". */
static const char *
errname(int code)
{
	switch (code) {
	case PvmCantStart:
		return "PvmCantStart";
	case PvmDupHost:
		return "PvmDupHost";
	case PvmNoHost:
		return "PvmNoHost";
	case PvmBadParam:
		return "PvmBadParam";
	case PvmDSysErr:
		return "PvmDSysErr";
	default:
		return "?";
	}
}

static int
add(int maxsecs, int n, char **spec)
{
	char *names[MAXH], want[MAXH][64];
	int infos[MAXH], i, rc;
	double t0 = tc_now(), dt;

	for (i = 0; i < n && i < MAXH; i++) {
		char *eq = strchr(spec[i], '=');

		snprintf(want[i], sizeof(want[i]), "%s", eq ? eq + 1 : "ok");
		if (eq != NULL)
			*eq = '\0';
		names[i] = spec[i];
	}
	rc = pvm_addhosts(names, n, infos);
	dt = tc_now() - t0;
	tc_check(dt < maxsecs, "pvm_addhosts returned in %.1f s (< %d s)", dt,
	    maxsecs);
	for (i = 0; i < n; i++) {
		const char *got = infos[i] > 0 ? "ok" : errname(infos[i]);

		tc_check(strcmp(got, want[i]) == 0,
		    "host %s: %s (want %s; rc %d)", names[i], got, want[i], rc);
	}
	pvm_exit();
	return tc_nfail > 0;
}

/* A child: say where we are, echo one message. */
static int
child(void)
{
	int parent = pvm_parent(), v;

	pvm_initsend(PvmDataDefault);
	v = pvm_tidtohost(pvm_mytid());
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, TAG_HELLO);
	pvm_recv(parent, TAG_ECHO);
	pvm_upkint(&v, 1, 1);
	pvm_initsend(PvmDataDefault);
	v = v * 2 + 1;
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, TAG_ECHO);
	pvm_exit();
	return 0;
}

static int
job(void)
{
	struct pvmhostinfo *hi;
	char self[1024], *av[2] = {"child", NULL};
	int nh, na, i, tid, rc, v, me = pvm_mytid();
	struct timeval tv = {20, 0};
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[k > 0 ? k : 0] = '\0';
	pvm_config(&nh, &na, &hi);
	tc_check(nh == 4, "the machine has 4 hosts (%d)", nh);
	for (i = 0; i < nh; i++) {
		if (hi[i].hi_tid == pvm_tidtohost(me))
			continue;
		rc = pvm_spawn(self, av, PvmTaskHost, hi[i].hi_name, 1, &tid);
		if (!tc_check(rc == 1, "spawn on %s (%d)", hi[i].hi_name, rc))
			continue;
		v = 0;
		if (pvm_trecv(tid, TAG_HELLO, &tv) > 0)
			pvm_upkint(&v, 1, 1);
		tc_check(
		    v == hi[i].hi_tid, "the child runs on %s", hi[i].hi_name);
		pvm_initsend(PvmDataDefault);
		v = 20 + i;
		pvm_pkint(&v, 1, 1);
		pvm_send(tid, TAG_ECHO);
		v = 0;
		if (pvm_trecv(tid, TAG_ECHO, &tv) > 0)
			pvm_upkint(&v, 1, 1);
		tc_check(v == 2 * (20 + i) + 1, "a message to %s and back",
		    hi[i].hi_name);
	}
	pvm_exit();
	return tc_nfail > 0;
}

int
main(int argc, char **argv)
{
	tc_init("t_hoster");
	if (argc > 2 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2]);
	if (argc > 2 && strcmp(argv[1], "add") == 0)
		return add(atoi(argv[2]), argc - 3, argv + 3);
	if (argc > 1 && strcmp(argv[1], "job") == 0)
		return job();
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child();
	fprintf(stderr, "usage: t_hoster serve MODE | add SECS NAME=WANT... "
	                "| job\n");
	return 2;
}
