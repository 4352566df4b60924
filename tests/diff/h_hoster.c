/*
 * h_hoster.c: pvm_reg_hoster's protocol as a program sees it, on a
 * machine of network-namespace hosts that starts with h1 alone
 * (t-diff-hosts.sh).  The same file is three programs (argv[1]):
 *
 *   (none)    the driver: spawns the hoster on h1, adds h2 and h3
 *             through it, records what the hoster was asked (SM_STHOST)
 *             and what pvm_addhosts, pvm_config and a job on h2 give;
 *             then has the hoster refuse h4 (PvmCantStart).
 *   hoster    registers and answers each SM_STHOST: it runs each
 *             host's command through $PVM_RSH (each system's own
 *             launcher), relays the first line the command prints
 *             (whatever its format: each side's slave speaks its own),
 *             and tells the driver what the request held.  After a
 *             "refuse" message from the driver, it answers PvmCantStart
 *             without running anything.
 *   child     a task on another host: says hello, echoes one message.
 *
 * The wait id is read and set with pvm_getminfo/pvm_setminfo: Debian's
 * PVM 3.4.6 library lacks the PVM33COMPAT pvm_getmwid/pvm_setmwid.
 */
#include "probe.h"

#include <poll.h>
#include <signal.h>

/* Debian's PVM 3.4.6 does not install pvmsdpro.h; ours does. */
#if __has_include("pvmsdpro.h")
#include "pvmsdpro.h"
#else
#define SM_STHOST 0x8004000f
#define SM_STHOSTACK 0x80040010
#endif

#define TAG_REG 10    /* hoster -> driver: pvm_reg_hoster's result */
#define TAG_ASKED 11  /* hoster -> driver: one request's contents */
#define TAG_REFUSE 12 /* driver -> hoster: refuse from now on */
#define TAG_HELLO 20
#define TAG_ECHO 21
#define MAXH 8
#define LINE_MS 20000

static char self[1024];

/* ---- the hoster ---- */

/* The first line cmd prints on host (through $PVM_RSH), or an error. */
static void
first_line(const char *host, const char *cmd, char *out, size_t len)
{
	const char *rsh = getenv("PVM_RSH");
	struct pollfd pfd;
	size_t have = 0;
	ssize_t n;
	int p[2];

	snprintf(out, len, "PvmCantStart");
	if (rsh == NULL || pipe(p) != 0)
		return;
	if (fork() == 0) {
		FILE *null = freopen("/dev/null", "r", stdin);

		(void)null;
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		execl(rsh, rsh, host, cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	while (have < len - 1 && poll(&pfd, 1, LINE_MS) > 0 &&
	       (n = read(p[0], out + have, len - 1 - have)) > 0) {
		have += (size_t)n;
		out[have] = '\0';
		if (strchr(out, '\n') != NULL)
			break;
	}
	if (have > 0) {
		out[have] = '\0';
		out[strcspn(out, "\n")] = '\0';
	} else {
		snprintf(out, len, "PvmCantStart");
	}
	close(p[0]);
}

/* Answer one SM_STHOST; refuse: PvmCantStart for each host. */
static void
serve_one(int bufid, int driver, int refuse)
{
	int n = 0, i, len, tag, src, tids[MAXH], sbuf, v, wid, got;
	char so[256], login[256], cmd[2048], win[2048], vmid[256];
	char res[MAXH][512];
	struct pvmminfo mi;

	pvm_bufinfo(bufid, &len, &tag, &src);
	pvm_getminfo(bufid, &mi);
	pvm_upkint(&n, 1, 1);
	if (n > MAXH)
		n = MAXH;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&src, 1, 1);
	v = mi.wid != 0;
	pvm_pkint(&v, 1, 1);
	pvm_pkint(&mi.ctx, 1, 1);
	pvm_pkint(&n, 1, 1);
	for (i = 0; i < n; i++) {
		pvm_upkint(&tids[i], 1, 1);
		pvm_upkstr(so);
		pvm_upkstr(login);
		pvm_upkstr(cmd);
		win[0] = vmid[0] = '\0';
		got = pvm_upkstr(win);
		if (got >= 0)
			got = pvm_upkstr(vmid);
		if (refuse)
			snprintf(res[i], sizeof(res[i]), "PvmCantStart");
		else
			first_line(login, cmd, res[i], sizeof(res[i]));
		pvm_pkint(&tids[i], 1, 1);
		pvm_pkstr(so);
		pvm_pkstr(login);
		v = cmd[0] == '/';
		pvm_pkint(&v, 1, 1);
		v = got >= 0 && win[0] == '\0' && vmid[0] == '\0';
		pvm_pkint(&v, 1, 1);
	}
	pvm_send(driver, TAG_ASKED);
	sbuf = pvm_initsend(PvmDataDefault);
	pvm_pkint(&n, 1, 1);
	for (i = 0; i < n; i++) {
		pvm_pkint(&tids[i], 1, 1);
		pvm_pkstr(res[i]);
	}
	/* The answer carries the request's wait id. */
	wid = mi.wid;
	pvm_getminfo(sbuf, &mi);
	mi.wid = wid;
	pvm_setminfo(sbuf, &mi);
	pvm_send(src, (int)SM_STHOSTACK);
	pvm_freebuf(bufid);
}

static int
hoster_main(void)
{
	int driver, rc, bufid, len, tag, src, refuse = 0;

	signal(SIGCHLD, SIG_IGN);
	pvm_setopt(PvmAutoErr, 0);
	pvm_setopt(PvmResvTids, 1);
	driver = pvm_parent();
	rc = pvm_reg_hoster();
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_send(driver, TAG_REG);
	while ((bufid = pvm_recv(-1, -1)) > 0) {
		pvm_bufinfo(bufid, &len, &tag, &src);
		if (tag == (int)SM_STHOST) {
			serve_one(bufid, driver, refuse);
		} else if (tag == TAG_REFUSE) {
			refuse = 1;
		}
	}
	pvm_exit();
	return 0;
}

/* ---- a child ---- */

static int
child_main(void)
{
	int parent = pvm_parent(), v = pvm_tidtohost(pvm_mytid());

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, TAG_HELLO);
	pvm_recv(parent, TAG_ECHO);
	pvm_upkint(&v, 1, 1);
	v = v * 3;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(parent, TAG_ECHO);
	pvm_exit();
	return 0;
}

/* ---- the driver ---- */

/* What the hoster was asked, as records. */
static void
rec_asked(const char *c, int *hosttids, int nadd)
{
	int src, wid, ctx, n, i, j, tid, cmdpath, empty;
	char so[256], login[256];

	if (!dp_wait(-1, TAG_ASKED, 30000)) {
		dp_rec(c, "the hoster was asked nothing");
		return;
	}
	pvm_upkint(&src, 1, 1);
	pvm_upkint(&wid, 1, 1);
	pvm_upkint(&ctx, 1, 1);
	pvm_upkint(&n, 1, 1);
	dp_rec(c, "SM_STHOST from %s, wait id %s, context %d, %d host(s)",
	    dp_tid(src), wid ? "set" : "0", ctx, n);
	for (i = 0; i < n; i++) {
		pvm_upkint(&tid, 1, 1);
		pvm_upkstr(so);
		pvm_upkstr(login);
		pvm_upkint(&cmdpath, 1, 1);
		pvm_upkint(&empty, 1, 1);
		for (j = 0; j < nadd && hosttids[j] != tid; j++)
			;
		dp_rec(c,
		    "host %d: tid %s, so \"%s\", login %s, command %s, "
		    "last two strings %s",
		    i, j < nadd ? "as pvm_addhosts gives it" : dp_tid(tid), so,
		    login, cmdpath ? "a path" : "other",
		    empty ? "empty" : "set");
	}
}

int
main(int argc, char **argv)
{
	int me, hoster = 0, rc, b, v, infos[4], tid;
	char *hav[2] = {(char *)"hoster", NULL};
	char *cav[2] = {(char *)"child", NULL};
	char *names[3] = {(char *)"h2", (char *)"h3", (char *)"h4"};
	struct pvmhostinfo *hi;
	int nh, na;

	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "hoster") == 0)
		return hoster_main();
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	me = dp_enrol();
	if (me <= 0)
		return 1;
	rc = pvm_spawn(self, hav, PvmTaskDefault, "", 1, &hoster);
	dp_rec("hoster-spawn", "pvm_spawn = %s", dp_code(rc));
	dp_name(hoster, "hoster");
	b = dp_wait(hoster, TAG_REG, 10000);
	v = 1;
	if (b)
		pvm_upkint(&v, 1, 1);
	dp_rec("hoster-reg", "pvm_reg_hoster in the hoster = %s",
	    b ? dp_code(v) : "(no answer)");

	rc = pvm_addhosts(names, 2, infos);
	dp_rec("add-2", "pvm_addhosts(h2 h3) = %s, %s, %s", dp_code(rc),
	    infos[0] > 0 ? "host-tid" : dp_code(infos[0]),
	    infos[1] > 0 ? "host-tid" : dp_code(infos[1]));
	rec_asked("asked-2", infos, 2);
	rc = pvm_config(&nh, &na, &hi);
	dp_rec("config", "pvm_config = %s, %d hosts", dp_code(rc), nh);
	rc = pvm_spawn(self, cav, PvmTaskHost, (char *)"h2", 1, &tid);
	dp_rec("job-spawn", "pvm_spawn on h2 = %s", dp_code(rc));
	if (rc == 1) {
		dp_name(tid, "child");
		v = 0;
		if (dp_wait(tid, TAG_HELLO, 10000))
			pvm_upkint(&v, 1, 1);
		dp_rec("job-hello", "the child's host is %s",
		    v == infos[0] ? "h2" : dp_tid(v));
		pvm_initsend(PvmDataDefault);
		v = 14;
		pvm_pkint(&v, 1, 1);
		pvm_send(tid, TAG_ECHO);
		v = 0;
		if (dp_wait(tid, TAG_ECHO, 10000))
			pvm_upkint(&v, 1, 1);
		dp_rec("job-echo", "14 came back as %d", v);
	}

	pvm_initsend(PvmDataDefault);
	pvm_send(hoster, TAG_REFUSE);
	rc = pvm_addhosts(names + 2, 1, infos + 2);
	dp_rec("add-refused", "pvm_addhosts(h4) = %s, %s", dp_code(rc),
	    infos[2] > 0 ? "host-tid" : dp_code(infos[2]));
	rec_asked("asked-refused", infos + 2, 1);
	rc = pvm_config(&nh, &na, &hi);
	dp_rec("config-after", "pvm_config = %s, %d hosts", dp_code(rc), nh);
	pvm_exit();
	return 0;
}
