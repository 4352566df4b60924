/*
 * addhost.c: adding hosts (master).  For each host of a pvm_addhosts, of
 * the hostfile given at start-up or of a batch allocation (-b), start a
 * slave pvmd through the launcher (launch.c) with the secret on its
 * standard input; the slave dials back and proves the secret (link.c),
 * then sends DM_SLAVE, and the host is in (vm.c tells everyone).  The
 * request is answered once every one of its hosts is up or has failed,
 * with the launcher's own words for those that failed.
 */
#include "pvmd.h"
#include "auth.h"
#include "hostfile.h"
#include "smwire.h"

#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <event2/event.h>

/* s for a new host to come up ($PVMD_ADD_TIMEOUT). */
#define VM_ADD_TIMEOUT 60
#define VM_ARGV_MAX 64
#define VM_FILE_MAX (32u << 20) /* a hostfile or node file */

/* One pvm_addhosts call (tid 0: the hostfile given at start-up), or a
 * resource manager's SM_ADD (rm set; answered in its context ctx). */
struct addreq {
	int tid, wid;
	int rm, ctx;
	int n, left;
	int *res;
	char **why; /* per host: why it failed, or NULL */
};

/* How a host being started is started (struct pend's hstate). */
enum host_start {
	HOST_BY_LAUNCHER = 0, /* $PVM_RSH, the secret on its stdin */
	HOST_BY_HOSTER,       /* SM_STHOST sent (or to send): no answer yet */
	HOST_KEYED,           /* the hoster's answer brought its key K */
	HOST_KEY_USED,        /* a link proved K: the secret went out */
};

/* A host being started. */
struct pend {
	int index;
	char name[256];
	int speed; /* sp=, 0: what the slave says */
	struct addreq *req;
	int slot;
	enum host_start hstate;
	int hwid;                   /* the SM_STHOST's wait id, 0: not sent */
	char *hcmd, *hlogin, *hso;  /* for SM_STHOST, until it is sent */
	uint8_t hkey[AUTH_KEY_LEN]; /* K (HOST_KEYED) */
	struct launch *launch;
	struct conn *link; /* proved the secret, DM_SLAVE not yet seen */
	struct event *timer;
	TAILQ_ENTRY(pend) entry;
};

static TAILQ_HEAD(, pend) pend_list = TAILQ_HEAD_INITIALIZER(pend_list);
static struct host_opts vm_defaults; /* the hostfile's last '*' line */
static int vm_defaults_set;
static struct hostfile vm_later; /* its lines: options for later */
static int vm_next_index = 2;
static int add_booting; /* hosts of the start-up hostfile pending */

/* Answer an add request once all of its hosts are up or failed. */
static void
addreq_finish(struct addreq *q)
{
	struct xdr_writer w;
	int i, nok = 0;

	for (i = 0; i < q->n; i++) {
		if (q->res[i] >= 0)
			nok++;
	}
	if (q->tid == 0) {
		log_info("hostfile: %d of %d host(s) added", nok, q->n);
		add_booting = 0;
		pvmd_ready();
	} else if (q->rm) {
		sched_addack(q->tid, q->ctx, q->wid, q->n, q->res);
	} else {
		xdr_writer_init(&w);
		xdr_put_int(&w, nok);
		xdr_put_int(&w, q->n);
		for (i = 0; i < q->n; i++)
			xdr_put_int(&w, q->res[i]);
		for (i = 0; i < q->n; i++)
			xdr_put_str(&w, q->why[i] != NULL ? q->why[i] : "");
		pvmd_send(q->tid, TM_ADDHOST, SYSCTX_TM, q->wid, &w);
		xdr_writer_free(&w);
	}
	for (i = 0; i < q->n; i++)
		free(q->why[i]);
	free(q->why);
	free(q->res);
	free(q);
}

/* Free p and what it holds (the one-time key wiped). */
static void
pend_free(struct pend *p)
{
	auth_wipe(p->hkey, sizeof(p->hkey));
	free(p->hcmd);
	free(p->hlogin);
	free(p->hso);
	free(p);
}

/* Host p is up (code: its hi_tid) or failed (a Pvm* error). */
static void
pend_finish(struct pend *p, int code)
{
	struct addreq *q = p->req;

	TAILQ_REMOVE(&pend_list, p, entry);
	if (p->timer != NULL)
		event_free(p->timer);
	if (p->launch != NULL)
		launch_cancel(p->launch, code < 0);
	q->res[p->slot] = code;
	pend_free(p);
	if (--q->left == 0)
		addreq_finish(q);
}

/* Failed: log why, close a half-made link, tell the requester. */
static void
pend_fail(struct pend *p, int code, const char *why)
{
	struct conn *c = p->link;

	log_warn("cannot start host %s: %s", p->name, why);
	p->req->why[p->slot] = strdup(why);
	p->link = NULL;
	pend_finish(p, code);
	if (c != NULL)
		conn_close(c, "the host failed to start");
}

/* The launcher of p ended (launch.c). */
static void
pend_launch_done(void *arg, int status, const char *text)
{
	struct pend *p = arg;
	char why[2200];

	p->launch = NULL;
	if (status == LAUNCH_NOHOST) {
		snprintf(why, sizeof(why), "no such host (%s)", text);
		pend_fail(p, PvmNoHost, why);
		return;
	}
	if (status == 0)
		snprintf(why, sizeof(why),
		    "the launcher exited without "
		    "starting a pvmd%s%s",
		    *text ? ": " : "", text);
	else if (WIFEXITED(status))
		snprintf(why, sizeof(why),
		    "the launcher exited with status "
		    "%d%s%s",
		    WEXITSTATUS(status), *text ? ": " : "", text);
	else
		snprintf(why, sizeof(why), "the launcher was killed%s%s",
		    *text ? ": " : "", text);
	pend_fail(p, PvmCantStart, why);
}

static void
pend_timeout_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	pend_fail(arg, PvmCantStart, "no answer in time ($PVMD_ADD_TIMEOUT)");
}

/* A free host index, or 0. */
static int
vm_alloc_index(void)
{
	struct pend *p;
	int i, k;

	for (k = 0; k < TID_HOST_MAX; k++) {
		i = 2 + (vm_next_index - 2 + k) % (TID_HOST_MAX - 1);
		if (host_get(i) != NULL)
			continue;
		TAILQ_FOREACH(p, &pend_list, entry)
		{
			if (p->index == i)
				break;
		}
		if (p == NULL) {
			vm_next_index = i + 1;
			return i;
		}
	}
	return 0;
}

/*
 * True if s can pass through a remote shell as one word.  ep= and wd=
 * may hold $NAME too: the slave expands it (hostfile_expand), and ssh's
 * remote shell may do so first, both from the slave's environment.
 */
static int
vm_shell_safe(const char *s, int dollar)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
	                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                            "0123456789._/:@%+,=~-";

	for (; *s != '\0'; s++) {
		if (strchr(plain, *s) == NULL && !(dollar && *s == '$'))
			return 0;
	}
	return 1;
}

/* A launcher's command line and the strings it points into. */
struct vm_cmd {
	char *argv[VM_ARGV_MAX];
	char words[1024]; /* $PVM_RSH, cut into words */
	char dx[PATHS_MAX];
	char master[320];
	char index[16];
};

/* The pvmd to run on the new host: dx=, $PVM_DPATH, or our own. */
static int
vm_dx(const struct host_ent *e, char *out, size_t len)
{
	const char *dx = e->o.dx;
	ssize_t k;

	if (*dx == '\0' && (dx = getenv("PVM_DPATH")) != NULL && *dx != '/')
		dx = NULL;
	if (dx != NULL && *dx != '\0') {
		snprintf(out, len, "%s", dx);
		return 0;
	}
	if ((k = readlink("/proc/self/exe", out, len - 1)) <= 0)
		return -1;
	out[k] = '\0';
	return 0;
}

/*
 * The slave's own command line for host p, from m->argv[n] on: the
 * pvmd, -S (and -K for a hoster: a one-time key), the master, index,
 * name and the ep= and wd= options.  The new count.
 */
static int
vm_slave_argv(const struct pend *p, const struct host_ent *e, struct vm_cmd *m,
    int n, int port)
{
	snprintf(
	    m->master, sizeof(m->master), "%s:%d", host_self()->name, port);
	snprintf(m->index, sizeof(m->index), "-i%d", p->index);
	m->argv[n++] = m->dx;
	m->argv[n++] = "-S";
	if (p->hstate != HOST_BY_LAUNCHER)
		m->argv[n++] = "-K";
	m->argv[n++] = "-m";
	m->argv[n++] = m->master;
	m->argv[n++] = m->index;
	m->argv[n++] = "-H";
	m->argv[n++] = (char *)p->name;
	if (e->o.ep[0]) {
		m->argv[n++] = "-e";
		m->argv[n++] = (char *)e->o.ep;
	}
	if (e->o.wd[0]) {
		m->argv[n++] = "-w";
		m->argv[n++] = (char *)e->o.wd;
	}
	m->argv[n] = NULL;
	return n;
}

/*
 * The launcher's command line for host p: $PVM_RSH (else ssh), the host
 * (ip= if given), [-l login], then the slave's own command line.  ssh
 * joins the words for a remote shell, so every word must be plain.  For
 * a hoster, only the slave's own (the hoster has its own launcher).
 */
static int
vm_argv(const struct pend *p, const struct host_ent *e, struct vm_cmd *m)
{
	const char *rsh = getenv("PVM_RSH");
	char *tok, *save = NULL;
	int n = 0, port;

	if (link_listen(&port) != 0 || vm_dx(e, m->dx, sizeof(m->dx)) != 0)
		return -1;
	if (*m->dx == '\0' || !vm_shell_safe(m->dx, 0) ||
	    !vm_shell_safe(e->o.ep, 1) || !vm_shell_safe(e->o.wd, 1) ||
	    !vm_shell_safe(e->o.login, 0))
		return -1;
	if (p->hstate != HOST_BY_LAUNCHER)
		return vm_slave_argv(p, e, m, 0, port);
	snprintf(m->words, sizeof(m->words), "%s",
	    rsh != NULL && *rsh ? rsh : "ssh");
	for (tok = strtok_r(m->words, " \t", &save); tok != NULL && n < 16;
	     tok = strtok_r(NULL, " \t", &save))
		m->argv[n++] = tok;
	m->argv[n++] = (char *)(e->o.ip[0] ? e->o.ip : e->name);
	if (e->o.login[0]) {
		m->argv[n++] = "-l";
		m->argv[n++] = (char *)e->o.login;
	}
	return vm_slave_argv(p, e, m, n, port);
}

/* Is a host of that name already in the machine or on its way. */
static int
vm_name_taken(const char *name)
{
	struct pend *p;

	if (host_find_name(name) != NULL)
		return 1;
	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (strcasecmp(p->name, name) == 0)
			return 1;
	}
	return 0;
}

/* The words of argv joined by spaces (a hoster's command); NULL if none. */
static char *
vm_join(char *const *argv)
{
	size_t len = 1;
	char *out;
	int i;

	for (i = 0; argv[i] != NULL; i++)
		len += strlen(argv[i]) + 1;
	if ((out = calloc(1, len)) == NULL)
		return NULL;
	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			strcat(out, " ");
		strcat(out, argv[i]);
	}
	return out;
}

/* What SM_STHOST will carry for p (sent once the request is read). */
static int
vm_hoster_prepare(struct pend *p, const struct host_ent *e, char *const *argv)
{
	const char *host = e->o.ip[0] ? e->o.ip : e->name;
	size_t len = strlen(e->o.login) + strlen(host) + 2;

	p->hcmd = vm_join(argv);
	p->hso = strdup(e->o.so);
	if ((p->hlogin = calloc(1, len)) != NULL)
		snprintf(p->hlogin, len, "%s%s%s", e->o.login,
		    e->o.login[0] ? "@" : "", host);
	return p->hcmd != NULL && p->hso != NULL && p->hlogin != NULL ? 0 : -1;
}

/* Run the launcher for p; 0 or -1. */
static int
vm_launch(struct pend *p, const struct host_ent *e, char *const *argv)
{
	char secret[AUTH_HEX_LEN + 2];

	auth_key_hex(pvmd.key, secret);
	strcat(secret, "\n");
	log_info(
	    "starting host %s (index %d) with %s", p->name, p->index, argv[0]);
	/* A name that does not resolve is PvmNoHost, as in PVM; the
	 * launcher's child looks it up (launch.c). */
	p->launch = launch_start(
	    argv, e->o.ip[0] ? e->o.ip : e->name, secret, pend_launch_done, p);
	auth_wipe(secret, sizeof(secret));
	return p->launch != NULL ? 0 : -1;
}

/* Start host e for slot i of q; 1 if now pending, else the error code. */
static int
vm_start_host(struct addreq *q, int slot, const struct host_ent *e)
{
	struct timeval tv = {VM_ADD_TIMEOUT, 0};
	struct vm_cmd m;
	const char *s;
	struct pend *p;
	int rc;

	if (e->o.so[0] != '\0' && hoster_tid() == 0) {
		log_warn("host %s: so=%s (manual start-up) is not supported "
		         "without a hoster",
		    e->name, e->o.so);
		return PvmCantStart;
	}
	if (vm_name_taken(e->name))
		return PvmDupHost;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return PvmNoMem;
	if ((p->index = vm_alloc_index()) == 0) {
		free(p);
		return PvmOutOfRes;
	}
	snprintf(p->name, sizeof(p->name), "%s", e->name);
	p->speed = e->o.speed;
	p->hstate = hoster_tid() != 0 ? HOST_BY_HOSTER : HOST_BY_LAUNCHER;
	if (vm_argv(p, e, &m) < 0) {
		log_warn("host %s: cannot build the launcher's command line "
		         "(options must be plain words)",
		    e->name);
		free(p);
		return PvmBadParam;
	}
	if ((s = getenv("PVMD_ADD_TIMEOUT")) != NULL && atoi(s) > 0)
		tv.tv_sec = atoi(s);
	p->req = q;
	p->slot = slot;
	p->timer = evtimer_new(pvmd.base, pend_timeout_cb, p);
	TAILQ_INSERT_TAIL(&pend_list, p, entry);
	if (p->hstate == HOST_BY_HOSTER)
		rc = vm_hoster_prepare(p, e, m.argv);
	else
		rc = vm_launch(p, e, m.argv);
	if (p->timer == NULL || rc != 0) {
		TAILQ_REMOVE(&pend_list, p, entry);
		if (p->timer != NULL)
			event_free(p->timer);
		pend_free(p);
		return PvmCantStart;
	}
	evtimer_add(p->timer, &tv);
	return 1;
}

/* Send SM_STHOST for the hosts of q that wait for the hoster. */
static void
vm_hoster_send(struct addreq *q)
{
	struct hoster_host *v;
	struct pend *p, *next;
	int n = 0, wid;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->req == q && p->hstate == HOST_BY_HOSTER && !p->hwid)
			n++;
	}
	if (n == 0)
		return;
	if ((v = calloc((size_t)n, sizeof(*v))) == NULL) {
		wid = PvmNoMem;
	} else {
		n = 0;
		TAILQ_FOREACH(p, &pend_list, entry)
		{
			if (p->req != q || p->hstate != HOST_BY_HOSTER ||
			    p->hwid)
				continue;
			v[n].index = p->index;
			v[n].so = p->hso;
			v[n].login = p->hlogin;
			v[n].cmd = p->hcmd;
			n++;
		}
		wid = hoster_start(v, n);
		free(v);
	}
	TAILQ_FOREACH_SAFE(p, &pend_list, entry, next)
	{
		if (p->req != q || p->hstate != HOST_BY_HOSTER || p->hwid)
			continue;
		if (wid <= 0) {
			pend_fail(p, PvmCantStart, "cannot ask the hoster");
			continue;
		}
		p->hwid = wid;
		log_info("host %s (index %d): asked of the hoster, wait id %d",
		    p->name, p->index, wid);
	}
}

/* The options of an '&' line of the start-up hostfile for `name`. */
static const struct host_ent *
vm_later_find(const char *name)
{
	int i;

	for (i = 0; i < vm_later.n; i++) {
		if (strcasecmp(vm_later.v[i].name, name) == 0)
			return &vm_later.v[i];
	}
	return NULL;
}

/* The key, the listening socket and the liveness timer, once. */
static int
vm_prepare(void)
{
	int port;

	if (!pvmd.have_key) {
		auth_key_new(pvmd.key);
		pvmd.have_key = 1;
	}
	return link_listen(&port) == 0 && link_timer_start() == 0 ? 0 : -1;
}

/* Add one line of a request; the slot's code, or 1 if pending. */
static int
vm_add_line(struct addreq *q, int slot, const char *line)
{
	struct host_opts defaults;
	const struct host_ent *later;
	struct host_ent e;
	char err[128] = "";

	if (!vm_defaults_set) {
		host_opts_default(&vm_defaults);
		vm_defaults_set = 1;
	}
	defaults = vm_defaults;
	if (hostfile_line(line, &defaults, &e, err, sizeof(err)) != 1) {
		log_warn(
		    "pvm_addhosts \"%s\": %s", line, *err ? err : "not a host");
		return PvmBadParam;
	}
	/* A bare name takes the options its '&' line gave at start-up. */
	if (strcspn(line + strspn(line, " \t&$"), " \t") ==
	        strlen(line + strspn(line, " \t&$")) &&
	    (later = vm_later_find(e.name)) != NULL)
		e = *later;
	return vm_start_host(q, slot, &e);
}

/* Start adding n host lines for requester tid/wid (tid 0: start-up; rm:
 * an SM_ADD in context ctx). */
static void
vm_add_as(int tid, int wid, int rm, int ctx, const char *const *lines, int n)
{
	struct addreq *q;
	int i, rc;

	if ((q = calloc(1, sizeof(*q))) == NULL ||
	    (q->res = calloc((size_t)n + 1, sizeof(int))) == NULL ||
	    (q->why = calloc((size_t)n + 1, sizeof(char *))) == NULL) {
		if (q != NULL)
			free(q->res);
		free(q);
		if (rm)
			sched_addack(tid, ctx, wid, PvmNoMem, NULL);
		else
			vm_rpc_fail(tid, TM_ADDHOST, wid, PvmNoMem);
		return;
	}
	q->tid = tid;
	q->wid = wid;
	q->rm = rm;
	q->ctx = ctx;
	q->n = n;
	q->left = 1; /* held until every line is started */
	if (vm_prepare() != 0) {
		for (i = 0; i < n; i++)
			q->res[i] = PvmCantStart;
	} else {
		for (i = 0; i < n; i++) {
			rc = vm_add_line(q, i, lines[i]);
			if (rc == 1)
				q->left++;
			else
				q->res[i] = rc;
		}
		vm_hoster_send(q);
	}
	if (--q->left == 0)
		addreq_finish(q);
}

static void
vm_add(int tid, int wid, const char *const *lines, int n)
{
	vm_add_as(tid, wid, 0, 0, lines, n);
}

void
vm_add_for_rm(int tid, int ctx, int wid, const char *const *lines, int n)
{
	vm_add_as(tid, wid, 1, ctx, lines, n);
}

/* TM_ADDHOST: int n, n x str line (master only). */
void
ctl_TM_ADDHOST(struct ctlreq *q)
{
	const char **lines;
	int32_t n, i;

	if (!pvmd.master || pvmd.halting) {
		ctl_reply_int(q, pvmd.halting ? PvmSysErr : PvmNotImpl);
		return;
	}
	if (xdr_get_int(&q->r, &n) != 0 || n < 1 || n > TID_HOST_MAX ||
	    (size_t)n > xdr_left(&q->r) / 4 ||
	    (lines = calloc((size_t)n, sizeof(*lines))) == NULL) {
		ctl_bad(q);
		return;
	}
	for (i = 0; i < n; i++) {
		if ((lines[i] = xdr_get_str(&q->r)) == NULL) {
			free(lines);
			ctl_bad(q);
			return;
		}
	}
	log_info("t%x adds %d host(s)", (unsigned)q->src, n);
	vm_add(q->src, q->wid, lines, n);
	free(lines);
}

/* Master: the machine halts; hosts still starting fail now. */
void
vm_halt_pending(void)
{
	struct pend *p;

	while ((p = TAILQ_FIRST(&pend_list)) != NULL)
		pend_fail(p, PvmCantStart, "the virtual machine halts");
}

/* Master: link c closed; 1 if it belonged to a host still starting. */
int
addhost_link_lost(struct conn *c)
{
	struct pend *p;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->link == c) {
			p->link = NULL;
			pend_fail(p, PvmCantStart,
			    "its link closed before it was ready");
			return 1;
		}
	}
	return 0;
}

/* Master: a link proved the secret for host `index` called `name`. */
int
vm_link_authenticated(struct conn *c, int index, const char *name)
{
	struct pend *p;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->index == index && p->link == NULL &&
		    strcasecmp(p->name, name) == 0) {
			p->link = c;
			return 0;
		}
	}
	log_warn("link from \"%s\" claiming host %d refused: no such host "
	         "is being added",
	    name, index);
	return -1;
}

/* Master: DM_SLAVE, the new host's description: it is in. */
void
addhost_on_slave(struct conn *c, struct xdr_reader *r)
{
	const char *arch = xdr_get_str(r);
	int32_t speed, dsig, port = 0;
	struct host *hp;
	struct pend *p;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->link == c)
			break;
	}
	if (p == NULL || arch == NULL || xdr_get_int(r, &speed) != 0 ||
	    xdr_get_int(r, &dsig) != 0) {
		conn_close(c, "malformed or unexpected DM_SLAVE");
		return;
	}
	if (p->speed > 0)
		speed = p->speed;
	if (xdr_get_int(r, &port) != 0 || port < 0 || port > 65535)
		port = 0; /* no direct links to it: all through us */
	if ((hp = host_add(p->index, p->name, arch, speed, dsig, c)) == NULL) {
		pend_fail(p, PvmCantStart, "out of memory");
		return;
	}
	conn_peer_addr(c, hp->addr, sizeof(hp->addr));
	hp->port = hp->addr[0] != '\0' ? port : 0;
	log_info("host %s (index %d, %s) joined the virtual machine", p->name,
	    p->index, arch);
	p->link = NULL;
	pend_finish(p, tid_make(hp->index, 0));
	vm_host_joined(hp);
}

/* Master: the hoster's result for host tid of start wid (hoster.c). */
void
addhost_hoster_result(int wid, int tid, const char *result)
{
	char why[300];
	struct pend *p;
	int code;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->hwid == wid && p->hstate == HOST_BY_HOSTER &&
		    tid_make(p->index, 0) == tid)
			break;
	}
	if (p == NULL) {
		log_warn("hoster: answer for t%x (wait id %d) matches no host "
		         "being started: ignored",
		    (unsigned)tid, wid);
		return;
	}
	if ((code = sm_result_parse(result, p->hkey)) == 0) {
		p->hstate = HOST_KEYED;
		log_info("host %s: the hoster started it; waiting for its link",
		    p->name);
		return;
	}
	snprintf(why, sizeof(why), "the hoster says: %.250s", result);
	pend_fail(p, code, why);
}

/* Master: the hoster answered start wid; hosts it left out fail. */
void
addhost_hoster_end(int wid, const char *why)
{
	struct pend *p, *next;

	TAILQ_FOREACH_SAFE(p, &pend_list, entry, next)
	{
		if (p->hwid == wid && p->hstate == HOST_BY_HOSTER)
			pend_fail(p, PvmCantStart, why);
	}
}

/* Master: the hoster left; hosts it still owes fail. */
void
addhost_hoster_gone(void)
{
	struct pend *p, *next;

	TAILQ_FOREACH_SAFE(p, &pend_list, entry, next)
	{
		if (p->hstate == HOST_BY_HOSTER)
			pend_fail(p, PvmCantStart, "the hoster left first");
	}
}

/* Master: the key a link for host index/name proves (pvmd.h). */
int
addhost_link_key(int index, const char *name, uint8_t *key)
{
	struct pend *p;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->index != index || strcasecmp(p->name, name) != 0)
			continue;
		switch (p->hstate) {
		case HOST_BY_LAUNCHER:
			return 0;
		case HOST_KEYED:
			memcpy(key, p->hkey, AUTH_KEY_LEN);
			return 1;
		case HOST_BY_HOSTER:
		case HOST_KEY_USED:
			return -1;
		}
		break;
	}
	return 0; /* refused later: no such host expected */
}

/* Master: host index's one-time key was proved; forget it. */
void
addhost_link_key_used(int index)
{
	struct pend *p;

	TAILQ_FOREACH(p, &pend_list, entry)
	{
		if (p->index == index && p->hstate == HOST_KEYED) {
			p->hstate = HOST_KEY_USED;
			auth_wipe(p->hkey, sizeof(p->hkey));
		}
	}
}

/* Read a whole file; NULL with the reason in err. */
static char *
vm_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL, *nb;
	size_t cap = 0, n = 1;

	*len = 0;
	if (fp == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	while (n > 0) {
		if (*len == cap) {
			cap = cap * 2 + 4096;
			if (cap > VM_FILE_MAX ||
			    (nb = realloc(buf, cap)) == NULL) {
				snprintf(err, errlen, "%s: too large", path);
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, fp);
		*len += n;
	}
	fclose(fp);
	return buf;
}

/* Master: add the hosts of a hostfile; '&' lines are kept for later. */
int
vm_add_hostfile(const char *path)
{
	struct hostfile hf;
	const char **lines;
	char err[256], *text;
	size_t len;
	int i, n = 0;

	if ((text = vm_read_file(path, &len, err, sizeof(err))) == NULL ||
	    hostfile_parse(text, len, &hf, err, sizeof(err)) != 0) {
		free(text);
		log_warn("hostfile %s: %s", path, err);
		return -1;
	}
	free(text);
	vm_defaults = hf.defaults;
	vm_defaults_set = 1;
	if ((lines = calloc((size_t)hf.n + 1, sizeof(*lines))) == NULL)
		return -1;
	vm_later = hf;
	for (i = 0; i < hf.n; i++) {
		if (!hf.v[i].later && !host_is_self(hf.v[i].name))
			lines[n++] = hf.v[i].name;
	}
	if (n > 0) {
		add_booting = 1;
		vm_add(0, 0, lines, n);
	}
	free(lines);
	return 0;
}

/* True while the start-up hostfile's hosts are being added. */
int
vm_starting(void)
{
	return add_booting;
}

/* The host names of a PBS/Torque node file, once each. */
static int
vm_nodefile(const char *path, char ***out, int *n)
{
	char err[256], *text;
	size_t len;
	int rc;

	*out = NULL;
	*n = 0;
	if ((text = vm_read_file(path, &len, err, sizeof(err))) == NULL) {
		log_warn("%s", err);
		return -1;
	}
	rc = memchr(text, '\0', len) != NULL
	         ? -1
	         : hostlist_lines(text, len, out, n);
	free(text);
	return rc;
}

/*
 * Master: add the hosts of the batch allocation we run in: Slurm's
 * SLURM_JOB_NODELIST, else PBS's node file.  Every host but this one is
 * started through $PVM_RSH (for Slurm: srun --nodes=1 --ntasks=1 -w).
 */
int
vm_add_batch(void)
{
	const char *spec = getenv("SLURM_JOB_NODELIST"), **lines;
	char **names = NULL;
	int i, n = 0, k = 0, rc;

	if (spec == NULL)
		spec = getenv("SLURM_NODELIST");
	if (spec != NULL)
		rc = hostlist_expand(spec, &names, &n);
	else if (getenv("PBS_NODEFILE") != NULL)
		rc = vm_nodefile(getenv("PBS_NODEFILE"), &names, &n);
	else {
		log_warn("-b: no batch allocation (SLURM_JOB_NODELIST or "
		         "PBS_NODEFILE) in the environment");
		return -1;
	}
	if (rc != 0 ||
	    (lines = calloc((size_t)n + 1, sizeof(*lines))) == NULL) {
		log_warn("-b: cannot read the allocation's host list");
		hostlist_free(names, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!host_is_self(names[i]))
			lines[k++] = names[i];
	}
	log_info("batch allocation: %d host(s), %d to start", n, k);
	if (k > 0) {
		add_booting = 1;
		vm_add(0, 0, lines, k);
	}
	free(lines);
	hostlist_free(names, n);
	return 0;
}
