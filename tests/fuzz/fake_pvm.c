/*
 * fake_pvm.c: the pvmd-facing libpvm calls of the console, answered by a
 * fixed machine of two hosts (see fake_pvm.h).  Message buffers are
 * libpvm's own (msgbuf.c, pack.c), so what the console unpacks is
 * unpacked by the real code.
 *
 * Each call checks what the console hands it (strings end, arrays are
 * as long as said), so that a parser passing garbage on is caught here.
 */
#include "fake_pvm.h"
#include "fuzz.h"
#include "lpvm.h"

#define FAKE_NTASK 64 /* spawned tasks remembered */
#define FAKE_NCODE 16 /* job output codes remembered */
#define FAKE_NOPT 64  /* option numbers kept */

static struct pvmhostinfo fake_hosts[] = {
    {0x40000, "alpha", "LINUX64", 1000, 0x408841},
    {0x80000, "beta", "LINUX64", 2000, 0x408841},
};
#define FAKE_NHOST ((int)(sizeof(fake_hosts) / sizeof(fake_hosts[0])))

static struct pvmtaskinfo fake_tasks[FAKE_NTASK + 1];
static char fake_names[FAKE_NTASK + 1][32];
static int fake_ntask, fake_nexttid;
static int fake_codes[FAKE_NCODE], fake_ncode;
static int fake_opts[FAKE_NOPT];
static int fake_pending; /* a queued message's bufid, or 0 */

void
fake_reset(void)
{
	fake_ntask = fake_ncode = fake_pending = 0;
	fake_nexttid = 0;
	memset(fake_opts, 0, sizeof(fake_opts));
	lpvm_msg_free_all();
}

void
fake_post(unsigned which, const uint8_t *body, size_t len)
{
	struct lpvm_msg *m;
	int id;

	m = lpvm_msg_wrap(
	    len > 0 ? fz_dup(body, len) : NULL, len, WIRE_ENC_XDR);
	FZ_CHECK(m != NULL && (id = lpvm_msg_register(m)) > 0);
	m->src = tid_pvmd(1);
	m->tag = fake_ncode > 0 ? fake_codes[which % fake_ncode] : (int)which;
	if (fake_pending > 0)
		pvm_freebuf(fake_pending);
	fake_pending = id;
}

int
pvm_nrecv(int tid, int tag)
{
	int id = fake_pending;

	FZ_CHECK(tid == -1 && tag == -1);
	fake_pending = 0;
	if (id > 0)
		pvm_setrbuf(id);
	return id;
}

/* A task of the fake machine, or NULL. */
static struct pvmtaskinfo *
fake_task(int tid)
{
	int i;

	for (i = 0; i < fake_ntask; i++)
		if (fake_tasks[i].ti_tid == tid)
			return &fake_tasks[i];
	return NULL;
}

/* The console itself is always there. */
static void
fake_add_task(int tid, const char *name, int host)
{
	struct pvmtaskinfo *t;

	if (fake_ntask > FAKE_NTASK)
		return;
	t = &fake_tasks[fake_ntask];
	snprintf(fake_names[fake_ntask], sizeof(fake_names[0]), "%s", name);
	t->ti_tid = tid;
	t->ti_ptid = 0;
	t->ti_host = host;
	t->ti_flag = 0x6;
	t->ti_a_out = fake_names[fake_ntask];
	t->ti_pid = 1000 + fake_ntask;
	fake_ntask++;
}

int
pvm_tasks(int where, int *ntask, struct pvmtaskinfo **tip)
{
	if (fake_ntask == 0)
		fake_add_task(FAKE_CONSOLE_TID, "pvm", fake_hosts[0].hi_tid);
	if (where != 0 && fake_task(where) == NULL &&
	    tid_hostpart(where) != fake_hosts[0].hi_tid &&
	    tid_hostpart(where) != fake_hosts[1].hi_tid)
		return PvmBadParam;
	*ntask = fake_ntask;
	*tip = fake_tasks;
	return 0;
}

int
pvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	*nhost = FAKE_NHOST;
	if (narch != NULL)
		*narch = 1;
	if (hostp != NULL)
		*hostp = fake_hosts;
	return 0;
}

/* Host part of the host called name, or 0. */
static int
fake_host(const char *name)
{
	int i;

	for (i = 0; i < FAKE_NHOST; i++)
		if (strcmp(fake_hosts[i].hi_name, name) == 0)
			return fake_hosts[i].hi_tid;
	return 0;
}

/* Four tasks start; the others fail as for want of resources. */
int
pvm_spawn(char *file, char **argv, int flag, char *where, int ntask, int *tids)
{
	int i, ok = 0, host;

	(void)flag;
	/* The console asks for no more than a pvmd starts (SPAWN_MAX). */
	FZ_CHECK(file != NULL && ntask >= 1 && ntask <= TID_LOCAL_MAX);
	FZ_CHECK(tids != NULL);
	FZ_CHECK(where == NULL || strlen(where) < 4096);
	for (i = 0; argv != NULL && argv[i] != NULL; i++)
		FZ_CHECK(strlen(argv[i]) < 4096);
	if (*file == '\0')
		return PvmBadParam;
	host = where != NULL && fake_host(where) ? fake_host(where)
	                                         : fake_hosts[0].hi_tid;
	for (i = 0; i < ntask; i++) {
		if (i >= 4) {
			tids[i] = PvmOutOfRes;
			continue;
		}
		tids[i] = host | (2 + (fake_nexttid++ & 0xffff));
		fake_add_task(tids[i], file, host);
		ok++;
	}
	return ok;
}

/* kill, sig and pstat: a known task, or PvmNoTask. */
static int
fake_known(int tid)
{
	if (fake_ntask == 0)
		fake_add_task(FAKE_CONSOLE_TID, "pvm", fake_hosts[0].hi_tid);
	return fake_task(tid) != NULL ? 0 : PvmNoTask;
}

int
pvm_kill(int tid)
{
	return fake_known(tid);
}

int
pvm_sendsig(int tid, int sig)
{
	(void)sig;
	return fake_known(tid);
}

int
pvm_pstat(int tid)
{
	return fake_known(tid) == 0 ? PvmOk : PvmNoTask;
}

int
pvm_mstat(char *host)
{
	return fake_host(host) != 0 ? PvmOk : PvmNoHost;
}

/* The codes of the console's notifies are job tags, as output codes are:
 * kept for fake_post. */
int
pvm_notify(int what, int code, int count, int *tids)
{
	int i;

	FZ_CHECK(what == PvmTaskExit && count > 0 && count <= FAKE_NTASK + 1);
	for (i = 0; i < count; i++)
		FZ_CHECK(tids[i] > 0);
	if (fake_ncode < FAKE_NCODE)
		fake_codes[fake_ncode++] = code;
	return 0;
}

int
pvm_putinfo(char *name, int bufid, int flags)
{
	int len, tag, src;

	(void)flags;
	FZ_CHECK(strlen(name) < 65536);
	FZ_CHECK(pvm_bufinfo(bufid, &len, &tag, &src) == 0 && len == 4);
	return *name == '\0' ? PvmBadParam : 0;
}

int
pvm_tickle(int narg, int *argp, int *nresp, int *resp)
{
	FZ_CHECK(narg >= 1 && narg <= 10 && argp != NULL);
	*nresp = 1;
	resp[0] = argp[0];
	return 0;
}

int
pvm_halt(void)
{
	return 0;
}

int
pvm_tidtohost(int tid)
{
	return tid_hostpart(tid);
}

/* Hosts whose name starts with 'x' cannot start (or be deleted). */
static int
fake_hostlist(char **names, int count, int *infos, int add)
{
	int i, ok = 0;

	if (count < 1)
		return PvmBadParam;
	for (i = 0; i < count; i++) {
		FZ_CHECK(strlen(names[i]) < 4096);
		if (names[i][0] == 'x')
			infos[i] = add ? PvmCantStart : PvmNoHost;
		else if (add && fake_host(names[i]) != 0)
			infos[i] = PvmDupHost;
		else
			infos[i] = add ? 0xc0000 : 0;
		ok += infos[i] >= 0;
	}
	return ok;
}

int
pvm_addhosts(char **names, int count, int *infos)
{
	return fake_hostlist(names, count, infos, 1);
}

int
pvm_delhosts(char **names, int count, int *infos)
{
	return fake_hostlist(names, count, infos, 0);
}

int
pvm_getmboxinfo(char *pattern, int *nclasses, struct pvmmboxinfo **classes)
{
	static int idx[] = {0, 1}, own[] = {FAKE_CONSOLE_TID, 0x40002};
	static int flags[] = {0, 4};
	static struct pvmmboxinfo mi = {"pvmgs", 2, idx, own, flags};

	FZ_CHECK(strlen(pattern) < 4096);
	*nclasses = 1;
	*classes = &mi;
	return 0;
}

int
pvm_getnoresets(int **tids, int *ntids)
{
	static int none[1];

	*tids = none;
	*ntids = 0;
	return 0;
}

int
pvm_getfds(int **fds)
{
	(void)fds;
	return PvmSysErr;
}

int
pvm_getcontext(void)
{
	return 0;
}

char *
pvm_version(void)
{
	static char v[] = "3.4.6";

	return v;
}

int
pvm_getopt(int what)
{
	return what > 0 && what < FAKE_NOPT ? fake_opts[what] : PvmBadParam;
}

/* Output codes the console sets for its jobs are kept for fake_post. */
int
pvm_setopt(int what, int val)
{
	int old;

	if (what <= 0 || what >= FAKE_NOPT)
		return PvmBadParam;
	old = fake_opts[what];
	fake_opts[what] = val;
	if (what == PvmOutputCode && val != 0 && fake_ncode < FAKE_NCODE)
		fake_codes[fake_ncode++] = val;
	return old;
}
