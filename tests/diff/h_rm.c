/*
 * h_rm.c: a resource manager (RM) on a machine of network-namespace
 * hosts (t-diff-hosts.sh; the machine starts with h1 alone).  One
 * program in several roles (argv[1]):
 *
 *   (none)  the probe, on h1 (the master): starts the others, records
 *           what they report
 *   rm      pvm_reg_rm on h1; serves SM_ADDHOST (SM_ADD to the master
 *           pvmd, its SM_ADDACK passed back), SM_DELHOST (pvm_delhosts
 *           of its own), SM_CONFIG; keeps the SM_TASKX and SM_HOSTX it
 *           hears; on the probe's word hands over to another task
 *           (SM_HANDOFF)
 *   rmnew   the task the RM hands over to: serves SM_CONFIG
 *   client  a task started on h1 while the RM is registered: adds and
 *           deletes hosts (through the RM)
 *   asker   a task on a host added after the RM registered (PVM's master
 *           tells such a slave of its RM): pvm_config, then it exits
 *
 * The SM_* values are PVM 3.4.6's (its pvmsdpro.h is not installed).
 */
#include "probe.h"

#define SM_ADDHOST ((int)0x80040006)
#define SM_DELHOST ((int)0x80040007)
#define SM_ADD ((int)0x80040008)
#define SM_ADDACK ((int)0x80040009)
#define SM_CONFIG ((int)0x80040005)
#define SM_TASKX ((int)0x8004000b)
#define SM_HOSTX ((int)0x8004000c)
#define SM_HANDOFF ((int)0x8004000d)
#define PVMD_BIT ((int)0x80000000)

#define TAG_READY 501
#define TAG_RES 502
#define TAG_END 503
#define TAG_GO 504
#define TAG_ASK 505
#define TAG_HOSTX 506
#define TAG_HANDOFF 507
#define TEXT_LEN 1024
#define MAXT 32

static char self[4096];
static int master_pvmd; /* the master pvmd's tid, from pvm_reg_rm */

static void
report(int to, const char *text)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkstr((char *)text);
	pvm_send(to, TAG_RES);
}

/* ---------------------------------------------------------------- */
/* The resource managers                                             */
/* ---------------------------------------------------------------- */

static int seen_config[MAXT], nconfig; /* who sent SM_CONFIG */
static int taskx[MAXT], ntaskx;        /* tids of SM_TASKX */
static int hostx[MAXT], nhostx;        /* tids of SM_HOSTX */
static int seen_add, seen_addack, seen_del;

/* Whether v is in list[0..n). */
static int
listed(const int *list, int n, int v)
{
	int i;

	for (i = 0; i < n; i++) {
		if (list[i] == v)
			return 1;
	}
	return 0;
}

/* SM_CONFIG: our own pvm_config, as the answer. */
static void
rm_config(int src)
{
	struct pvmhostinfo *hi;
	int nh = 0, na = 0, i;

	if (nconfig < MAXT)
		seen_config[nconfig++] = src;
	pvm_config(&nh, &na, &hi);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&nh, 1, 1);
	pvm_pkint(&na, 1, 1);
	for (i = 0; i < nh; i++) {
		pvm_pkint(&hi[i].hi_tid, 1, 1);
		pvm_pkstr(hi[i].hi_name);
		pvm_pkstr(hi[i].hi_arch);
		pvm_pkint(&hi[i].hi_speed, 1, 1);
		pvm_pkint(&hi[i].hi_dsig, 1, 1);
	}
	pvm_send(src, SM_CONFIG);
}

/* SM_ADDHOST from src: the same names in SM_ADD to the master pvmd; its
 * SM_ADDACK (or a timeout, PvmSysErr) goes back as the answer. */
static void
rm_addhost(int src)
{
	struct timeval tv = {20, 0};
	char names[8][256];
	int count = 0, i, b, err = PvmSysErr;

	seen_add++;
	pvm_upkint(&count, 1, 1);
	if (count < 0 || count > 8)
		count = 0;
	for (i = 0; i < count; i++)
		pvm_upkstr(names[i]);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&count, 1, 1);
	for (i = 0; i < count; i++)
		pvm_pkstr(names[i]);
	pvm_send(master_pvmd, SM_ADD);
	if ((b = pvm_trecv(-1, SM_ADDACK, &tv)) > 0) {
		seen_addack++;
		/* The answer is SM_ADDACK's body, unchanged. */
		pvm_setsbuf(pvm_setrbuf(0));
		pvm_send(src, SM_ADDHOST);
		pvm_freebuf(pvm_setsbuf(0));
		return;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&err, 1, 1);
	pvm_send(src, SM_ADDHOST);
}

/* SM_DELHOST from src: pvm_delhosts of our own, its infos back. */
static void
rm_delhost(int src)
{
	char names[8][256], *p[8];
	int count = 0, i, infos[8], rc;

	seen_del++;
	pvm_upkint(&count, 1, 1);
	if (count < 0 || count > 8)
		count = 0;
	for (i = 0; i < count; i++) {
		pvm_upkstr(names[i]);
		p[i] = names[i];
	}
	rc = pvm_delhosts(p, count, infos);
	pvm_initsend(PvmDataDefault);
	if (rc < 0) {
		pvm_pkint(&rc, 1, 1);
	} else {
		pvm_pkint(&count, 1, 1);
		pvm_pkint(infos, count, 1);
	}
	pvm_send(src, SM_DELHOST);
}

/* One message to an RM; 1 if it is not an SM_* (for the caller). */
static int
rm_serve(int b)
{
	int tag, src, len, t = 0;

	pvm_bufinfo(b, &len, &tag, &src);
	if (tag == SM_CONFIG)
		rm_config(src);
	else if (tag == SM_ADDHOST)
		rm_addhost(src);
	else if (tag == SM_DELHOST)
		rm_delhost(src);
	else if (tag == SM_TASKX) {
		pvm_upkint(&t, 1, 1);
		if (ntaskx < MAXT)
			taskx[ntaskx++] = t;
	} else if (tag == SM_HOSTX) {
		pvm_upkint(&t, 1, 1);
		if (nhostx < MAXT)
			hostx[nhostx++] = t;
	} else
		return 1;
	return 0;
}

/* Up to ms for a message of tag (SM_TASKX or SM_HOSTX) that puts v in
 * list; other messages wait in the queue. */
static void
rm_wait(const int *list, const int *n, int v, int tag, int ms)
{
	struct timeval tv;
	int b;

	while (ms > 0 && !listed(list, *n, v)) {
		tv.tv_sec = 0;
		tv.tv_usec = 100000;
		ms -= 100;
		if ((b = pvm_trecv(-1, tag, &tv)) > 0)
			rm_serve(b);
	}
}

/* TAG_ASK {tid}: whether tid asked us for the config, and whether an
 * SM_TASKX came for it (3 s at most). */
static void
rm_ask(int parent)
{
	char out[TEXT_LEN];
	int tid = 0;

	pvm_upkint(&tid, 1, 1);
	rm_wait(taskx, &ntaskx, tid, SM_TASKX, 3000);
	snprintf(out, sizeof(out), "SM_CONFIG from it %s, SM_TASKX %s",
	    listed(seen_config, nconfig, tid) ? "yes" : "no",
	    listed(taskx, ntaskx, tid) ? "reported" : "not reported");
	report(parent, out);
}

/* TAG_HOSTX {host tid}: whether SM_HOSTX named that host's pvmd (3 s at
 * most). */
static void
rm_hostx(int parent)
{
	int h = 0;

	pvm_upkint(&h, 1, 1);
	rm_wait(hostx, &nhostx, h | PVMD_BIT, SM_HOSTX, 3000);
	report(parent, listed(hostx, nhostx, h | PVMD_BIT)
	                   ? "SM_HOSTX with the host's pvmd tid"
	               : nhostx > 0 ? "SM_HOSTX with another tid"
	                            : "no SM_HOSTX");
}

/* TAG_HANDOFF {tid}: SM_HANDOFF to our pvmd. */
static void
rm_handoff(void)
{
	int tid = 0;

	pvm_upkint(&tid, 1, 1);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&tid, 1, 1);
	pvm_send(pvm_tidtohost(pvm_mytid()) | PVMD_BIT, SM_HANDOFF);
}

/* The RM's loop (reg: pvm_reg_rm first, else the one handed over to). */
static int
rm_main(int reg)
{
	struct pvmhostinfo *hi = NULL;
	char out[TEXT_LEN];
	int parent = pvm_parent(), b, tag, src, len, rc = 0;

	alarm(120);
	pvm_setopt(PvmResvTids, 1);
	if (reg) {
		rc = pvm_reg_rm(&hi);
		if (rc >= 0 && hi != NULL)
			master_pvmd = hi->hi_tid | PVMD_BIT;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&rc, 1, 1);
	pvm_send(parent, TAG_READY);
	while ((b = pvm_recv(-1, -1)) > 0) {
		if (!rm_serve(b))
			continue;
		pvm_bufinfo(b, &len, &tag, &src);
		if (src != parent)
			continue;
		if (tag == TAG_ASK)
			rm_ask(parent);
		else if (tag == TAG_HOSTX)
			rm_hostx(parent);
		else if (tag == TAG_HANDOFF)
			rm_handoff();
		else if (tag == TAG_END)
			break;
	}
	snprintf(out, sizeof(out),
	    "SM_ADDHOST %d (SM_ADDACK %d), SM_DELHOST %d, SM_CONFIG %d",
	    seen_add, seen_addack, seen_del, nconfig);
	report(parent, out);
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The tasks                                                         */
/* ---------------------------------------------------------------- */

/* pvm_addhosts or pvm_delhosts of one name through the RM, reported. */
static void
client_hosts(int parent, int add, char *name)
{
	char out[TEXT_LEN];
	int info = 0, rc;

	rc =
	    add ? pvm_addhosts(&name, 1, &info) : pvm_delhosts(&name, 1, &info);
	snprintf(out, sizeof(out), "%s(%s) = %s, info %s",
	    add ? "pvm_addhosts" : "pvm_delhosts", name, dp_code(rc),
	    info > 0 ? "a host tid" : dp_code(info));
	report(parent, out);
}

/* TAG_GO {int what}: 1 add h2, 2 add h2 again, 3 add nosuchhost,
 * 4 delete h2, 0 leave. */
static int
client_main(void)
{
	int parent = pvm_parent(), what = -1;

	alarm(120);
	pvm_setopt(PvmAutoErr, 0);
	while (what != 0) {
		pvm_recv(parent, TAG_GO);
		pvm_upkint(&what, 1, 1);
		if (what == 1 || what == 2)
			client_hosts(parent, 1, "h2");
		else if (what == 3)
			client_hosts(parent, 1, "nosuchhost");
		else if (what == 4)
			client_hosts(parent, 0, "h2");
	}
	pvm_exit();
	return 0;
}

/* pvm_config (through the RM if this host's pvmd knows one). */
static int
asker_main(void)
{
	struct pvmhostinfo *hi;
	char out[TEXT_LEN];
	int nh = 0, na = 0, rc;

	alarm(60);
	pvm_setopt(PvmAutoErr, 0);
	rc = pvm_config(&nh, &na, &hi);
	snprintf(
	    out, sizeof(out), "pvm_config = %s, nhost %d", dp_code(rc), nh);
	report(pvm_parent(), out);
	pvm_exit();
	return 0;
}

/* ---------------------------------------------------------------- */
/* The probe                                                         */
/* ---------------------------------------------------------------- */

/* A copy of ourselves in role r on host h; its tid or 0. */
static int
start(const char *c, const char *r, char *h)
{
	return dp_start(c, self, r, PvmTaskHost, h);
}

/* READY {rc} from tid, recorded as c; 1 if it came. */
static int
ready(const char *c, int tid, const char *call)
{
	return dp_ready(c, tid, TAG_READY, 10, call);
}

static void
send_int(int to, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(to, tag);
}

/* The client's step what, its report recorded as c. */
static void
step(int cl, int what, const char *c)
{
	send_int(cl, TAG_GO, what);
	dp_answer(c, cl, TAG_RES, 30000);
}

/* A task on h2 (added after the RM registered): what the RM saw of it. */
static void
slave_task(int rm)
{
	int tid = start("slave-task", "asker", "h2");

	if (tid == 0)
		return;
	dp_answer("slave-task", tid, TAG_RES, 10000);
	send_int(rm, TAG_ASK, tid);
	dp_answer("slave-task-rm", rm, TAG_RES, 10000);
}

/* SM_HANDOFF to a new RM, then a task started on h1 asks for the
 * config: which RM answers. */
static void
handoff(int rm)
{
	int rm2 = start("handoff", "rmnew", "h1"), tid;

	if (rm2 == 0 || !ready("handoff-new", rm2, "ready"))
		return;
	send_int(rm, TAG_HANDOFF, rm2);
	sleep(1);
	if ((tid = start("handoff-task", "asker", "h1")) == 0)
		return;
	dp_answer("handoff-task", tid, TAG_RES, 10000);
	send_int(rm2, TAG_END, 0);
	dp_answer("handoff-new-end", rm2, TAG_RES, 10000);
}

int
main(int argc, char **argv)
{
	struct pvmhostinfo *hi;
	int rm, cl, nh, na, i, h2 = 0;

	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "rm") == 0)
		return rm_main(1);
	if (argc > 1 && strcmp(argv[1], "rmnew") == 0)
		return rm_main(0);
	if (argc > 1 && strcmp(argv[1], "client") == 0)
		return client_main();
	if (argc > 1 && strcmp(argv[1], "asker") == 0)
		return asker_main();
	if (dp_enrol() <= 0)
		return 1;
	if ((rm = start("rm", "rm", "h1")) == 0 ||
	    !ready("rm-reg", rm, "pvm_reg_rm"))
		return 0;
	if ((cl = start("client", "client", "h1")) == 0)
		return 0;
	step(cl, 1, "rm-add");
	step(cl, 2, "rm-add-dup");
	step(cl, 3, "rm-add-nohost");
	slave_task(rm);
	pvm_config(&nh, &na, &hi);
	for (i = 0; i < nh; i++) {
		if (strcmp(hi[i].hi_name, "h2") == 0)
			h2 = hi[i].hi_tid;
	}
	step(cl, 4, "rm-del");
	send_int(rm, TAG_HOSTX, h2);
	dp_answer("rm-hostx", rm, TAG_RES, 10000);
	handoff(rm);
	send_int(cl, TAG_GO, 0);
	send_int(rm, TAG_END, 0);
	dp_answer("rm-end", rm, TAG_RES, 10000);
	dp_drain(200);
	pvm_exit();
	return 0;
}
