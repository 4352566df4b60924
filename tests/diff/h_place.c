/*
 * h_place.c: probe of where pvm_spawn puts tasks on a machine of four
 * hosts (t-diff-hosts.sh): runs of default, PvmTaskArch and PvmHostCompl
 * spawns of 1 to 7 tasks in a row from h1, then the same from a task on
 * h2, then from another task on h1 (PVM 3.4.6's cursor is its pvmd's,
 * shared by the tasks of a host), each record the hosts of the tids in
 * order.
 *
 *   h_place            the probe (on h1; it adds h2, h3 and h4)
 *   h_place sub HOST   the same runs from a task on HOST, records sent
 *                      to the parent, which prints them
 *   h_place child      a spawned child: leaves at once
 */
#include "probe.h"

#include <unistd.h>

#define TAG_REC 8
#define TAG_DONE 9

static char self[4096];
static int sub;

/* One spawn; its record printed, or sent to the parent (sub). */
static void
spawn(const char *c, int flag, char *where, int count)
{
	char *args[] = {"child", NULL}, line[512];
	int t[16], i, rc;
	size_t k;

	rc = pvm_spawn(self, args, flag, where, count, t);
	k = (size_t)snprintf(line, sizeof(line), "rc %s:", dp_code(rc));
	for (i = 0; i < count && k < sizeof(line); i++)
		k += (size_t)snprintf(line + k, sizeof(line) - k, " %s",
		    t[i] > 0 ? dp_host_of(t[i]) : dp_code(t[i]));
	if (!sub) {
		dp_rec(c, "%s", line);
		return;
	}
	pvm_initsend(PvmDataDefault);
	pvm_pkstr((char *)c);
	pvm_pkstr(line);
	pvm_send(pvm_parent(), TAG_REC);
}

static void
runs(const char *from)
{
	char c[64];
	int n;

	for (n = 1; n <= 7; n++) {
		snprintf(c, sizeof(c), "%s-default-%d", from, n);
		spawn(c, PvmTaskDefault, NULL, n);
	}
	for (n = 1; n <= 4; n++) {
		snprintf(c, sizeof(c), "%s-arch-%d", from, n);
		spawn(c, PvmTaskArch, "LINUX64", n);
	}
	for (n = 1; n <= 4; n++) {
		snprintf(c, sizeof(c), "%s-compl-h1-%d", from, n);
		spawn(c, PvmTaskHost | PvmHostCompl, "h1", n);
	}
	for (n = 1; n <= 3; n++) {
		snprintf(c, sizeof(c), "%s-default-again-%d", from, n);
		spawn(c, PvmTaskDefault, NULL, n);
	}
}

/* The runs of a task on host where (its cases start with label),
 * printed as they come. */
static void
runs_on(char *where, char *label)
{
	char *args[] = {"sub", label, NULL}, c[64], line[512];
	struct timeval tv = {20, 0};
	int t, b, len, tag, src;

	if (pvm_spawn(self, args, PvmTaskHost, where, 1, &t) != 1) {
		dp_rec(where, "the task did not start");
		return;
	}
	while ((b = pvm_trecv(t, -1, &tv)) > 0) {
		pvm_bufinfo(b, &len, &tag, &src);
		if (tag != TAG_REC)
			return;
		pvm_upkstr(c);
		pvm_upkstr(line);
		dp_rec(c, "%s", line);
	}
	dp_rec(where, "no end from the task");
}

int
main(int argc, char **argv)
{
	char *hosts[] = {"h2", "h3", "h4"};
	int infos[3], n;
	dp_self(self, sizeof(self));
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		pvm_exit();
		return 0;
	}
	pvm_setopt(PvmAutoErr, 0);
	if (argc > 1 && strcmp(argv[1], "sub") == 0) {
		sub = 1;
		runs(argc > 2 ? argv[2] : "sub");
		pvm_initsend(PvmDataDefault);
		pvm_send(pvm_parent(), TAG_DONE);
		pvm_exit();
		return 0;
	}
	if (pvm_mytid() <= 0)
		return 1;
	n = pvm_addhosts(hosts, 3, infos);
	dp_rec("addhosts", "pvm_addhosts(h2 h3 h4) = %s", dp_code(n));
	runs("h1");
	runs_on("h2", "h2");
	spawn("h1-before-h1-task", PvmTaskDefault, NULL, 1);
	runs_on("h1", "h1-task2");
	spawn("h1-after-h1-task", PvmTaskDefault, NULL, 1);
	pvm_exit();
	return 0;
}
