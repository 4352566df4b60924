/*
 * t_mcast.c: pvm_mcast to N children.  The tid list also holds the sender
 * and a few duplicates; every child must receive exactly one copy and the
 * sender none.
 *
 *   t_mcast N
 */
#include "tcheck.h"

#define TAG_DATA 21
#define TAG_REPORT 22
#define MAXKIDS 256

/* Child: count copies of TAG_DATA (waiting a second for extra ones). */
static int
child(void)
{
	int parent = pvm_parent(), res[3] = {0, -1, -1}, v[2];

	tc_hello();
	if (tc_trecv(parent, TAG_DATA, 60) > 0) {
		res[0] = 1;
		if (pvm_upkint(v, 2, 1) >= 0) {
			res[1] = v[0];
			res[2] = v[1];
		}
		while (tc_trecv(parent, TAG_DATA, 1.0) > 0) {
			res[0]++;
		}
	}
	tc_send_ints(parent, TAG_REPORT, res, 3);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	static int tids[MAXKIDS], list[MAXKIDS + 8], got[MAXKIDS];
	char *args[] = {"child", NULL};
	int n, me, cc, i, k, res[3], src, once = 1, payload = 1;

	tc_init("t_mcast");
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		return child();
	}
	n = argc > 1 ? atoi(argv[1]) : 32;
	if (n < 5 || n > MAXKIDS) {
		return 2;
	}
	if ((me = pvm_mytid()) <= 0) {
		tc_fatal("pvm_mytid");
	}
	cc = tc_spawn_self(args, n, tids);
	tc_eq(cc, n, "spawn %d receivers", n);
	if (cc != n) {
		return tc_done();
	}
	/* Multicast only to enrolled receivers (spawn races are t_spawn's). */
	for (i = 0; i < n; i++) {
		if (!tc_wait_hello(tids[i])) {
			return tc_done();
		}
	}
	/* n receivers, ourselves, and the first four again. */
	memcpy(list, tids, sizeof(int) * (size_t)n);
	list[n] = me;
	for (i = 0; i < 4; i++) {
		list[n + 1 + i] = tids[i];
	}
	pvm_initsend(PvmDataDefault);
	res[0] = 4242;
	res[1] = n;
	pvm_pkint(res, 2, 1);
	tc_eq(
	    pvm_mcast(list, n + 5, TAG_DATA), 0, "pvm_mcast to %d tids", n + 5);
	memset(got, 0, sizeof(got));
	for (i = 0; i < n; i++) {
		src = tc_recv_ints(-1, TAG_REPORT, res, 3, 30);
		if (src <= 0) {
			tc_check(0, "report %d of %d within 30 s", i + 1, n);
			break;
		}
		k = tc_index(tids, n, src);
		if (k < 0) {
			tc_check(0, "report from unknown t%x", src);
			continue;
		}
		got[k]++;
		if (res[0] != 1) {
			once = 0;
			tc_info("t%x received %d copies", src, res[0]);
		}
		if (res[1] != 4242 || res[2] != n) {
			payload = 0;
		}
	}
	for (i = 0; i < n; i++) {
		if (got[i] != 1) {
			once = 0;
			tc_info("t%x reported %d times", tids[i], got[i]);
		}
	}
	tc_check(once, "each of %d receivers got exactly one copy", n);
	tc_check(payload, "every copy carried 4242, %d", n);
	tc_eq(pvm_nrecv(-1, TAG_DATA), 0, "copies that reached the sender");
	tc_eq(pvm_mcast(list, -1, TAG_DATA), PvmBadParam, "mcast count -1");
	tc_eq(pvm_mcast(list, n, -5), PvmBadParam, "mcast tag -5");
	tc_eq(pvm_mcast(list, 0, TAG_DATA), 0, "mcast to no one");
	return tc_done();
}
