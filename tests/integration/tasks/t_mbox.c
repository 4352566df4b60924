/*
 * t_mbox.c: the message mailbox (pvm_putinfo, pvm_recvinfo, pvm_delinfo,
 * pvm_getmboxinfo) with every flag, seen from two tasks.
 *
 *   t_mbox         the owner side; spawns "c-other" and "c-wait"
 */
#include "tcheck.h"

#define TAG_REPORT 80
#define TAG_READY 81
#define TAG_EXIT 82
#define TAG_GO 83

/* Put one int under name with flags; the index or a Pvm* code. */
static int
put(char *name, int value, int flags)
{
	int buf = pvm_mkbuf(PvmDataDefault), old, cc;

	old = pvm_setsbuf(buf);
	pvm_pkint(&value, 1, 1);
	cc = pvm_putinfo(name, buf, flags);
	pvm_setsbuf(old);
	pvm_freebuf(buf);
	return cc;
}

/* Read one int from name/index with flags; the value, or the Pvm* code
 * (all values used here are >= 0). */
static int
get(char *name, int index, int flags)
{
	int bufid = pvm_recvinfo(name, index, flags), v = -1000;

	if (bufid < 0) {
		return bufid;
	}
	if (pvm_upkint(&v, 1, 1) < 0) {
		return -1000;
	}
	return v;
}

/*
 * The other task: tries the owner's entries, makes its own, reports
 * the eight results to the parent and exits when told.
 */
static int
c_other(void)
{
	int parent = pvm_parent(), r[8];

	r[0] = put("m_def", 13, PvmMboxDefault);
	r[1] = get("m_def", 0, PvmMboxDefault);
	r[2] = pvm_delinfo("m_def", 0, PvmMboxDefault);
	r[3] = get("m_def", 0, PvmMboxReadAndDelete);
	r[4] = put("m_ow", 77, PvmMboxOverWritable);
	r[5] = put("m_pers", 55, PvmMboxPersistent);
	r[6] = put("m_tmp", 66, PvmMboxDefault);
	r[7] = get("m_ow", 0, PvmMboxDefault);
	tc_send_ints(parent, TAG_REPORT, r, 8);
	/* Stay until the parent has looked at our entries. */
	tc_trecv(parent, TAG_GO, 30);
	pvm_exit();
	return 0;
}

/* The waiter: block in recvinfo(WaitForInfo); report value and time. */
static int
c_wait(void)
{
	int parent = pvm_parent(), r[2], me = pvm_mytid();
	double t0;

	tc_send_ints(parent, TAG_READY, &me, 1);
	t0 = tc_now();
	r[0] = get("m_wait", 0, PvmMboxWaitForInfo);
	r[1] = (int)((tc_now() - t0) * 1000);
	tc_send_ints(parent, TAG_REPORT, r, 2);
	pvm_exit();
	return 0;
}

/* Spawn a helper in `role`; its tid or 0. */
static int
helper(char *role)
{
	char *args[] = {role, NULL};
	int tid = 0;

	if (tc_spawn_self(args, 1, &tid) != 1) {
		tc_check(0, "spawn %s (tid %d)", role, tid);
		return 0;
	}
	return tid;
}

/* Default, OverWritable, Persistent entries and owner exit. */
static void
owner_and_other(void)
{
	int kid, r[8], src;
	double end;

	tc_eq(put("m_def", 11, PvmMboxDefault), 0, "putinfo m_def Default");
	tc_eq(get("m_def", 0, 0), 11, "recvinfo m_def");
	tc_eq(put("m_def", 12, PvmMboxDefault), 0, "owner re-puts m_def");
	tc_eq(get("m_def", 0, 0), 12, "recvinfo m_def after the re-put");
	tc_eq(put("m_ow", 21, PvmMboxOverWritable), 0,
	    "putinfo m_ow OverWritable");

	if ((kid = helper("c-other")) == 0) {
		return;
	}
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &kid);
	if (tc_recv_ints(kid, TAG_REPORT, r, 8, 30) <= 0) {
		tc_check(0, "report of the other task within 30 s");
		return;
	}
	tc_eq(r[0], PvmDenied, "other task puts over a locked entry");
	tc_eq(r[1], 12, "other task reads the locked entry");
	tc_eq(r[2], PvmDenied, "other task deletes a locked entry");
	tc_eq(r[3], PvmDenied, "other task ReadAndDelete on a locked entry");
	tc_eq(r[4], 0, "other task overwrites an OverWritable entry");
	tc_eq(r[5], 0, "other task puts m_pers Persistent");
	tc_eq(r[6], 0, "other task puts m_tmp Default");
	tc_eq(r[7], 77, "other task reads its overwrite");
	tc_eq(get("m_def", 0, 0), 12, "m_def unchanged by the other task");
	tc_eq(get("m_ow", 0, 0), 77, "owner reads the overwritten m_ow");
	tc_eq(get("m_tmp", 0, 0), 66, "m_tmp while its owner lives");
	tc_send_ints(kid, TAG_GO, r, 1);

	src = 0;
	tc_check(tc_recv_ints(-1, TAG_EXIT, &src, 1, 10) != 0 && src == kid,
	    "other task exited (TaskExit for t%x)", src);
	/* Its non-persistent entry goes with it; allow the pvmd a moment. */
	end = tc_now() + 3;
	while (get("m_tmp", 0, 0) != PvmNotFound && tc_now() < end) {
		tc_sleep(0.05);
	}
	tc_eq(get("m_tmp", 0, 0), PvmNotFound,
	    "entry of an exited owner is gone");
	tc_eq(get("m_pers", 0, 0), 55, "Persistent entry outlives its owner");
}

/* MultiInstance, FirstAvail, pvm_getmboxinfo, delinfo. */
static void
multi(void)
{
	struct pvmmboxinfo *mi = NULL;
	int i, n = -1, cc;

	for (i = 0; i < 3; i++) {
		tc_eq(put("m_multi", 100 + i, PvmMboxMultiInstance), i,
		    "MultiInstance put %d: index", i);
	}
	for (i = 0; i < 3; i++) {
		tc_eq(get("m_multi", i, 0), 100 + i, "recvinfo m_multi %d", i);
	}
	cc = pvm_delinfo("m_multi", 1, 0);
	tc_check(cc >= 0, "delinfo m_multi 1 (cc %d)", cc);
	tc_eq(get("m_multi", 1, 0), PvmNotFound, "m_multi 1 after delinfo");
	tc_eq(get("m_multi", 1, PvmMboxFirstAvail), 102,
	    "FirstAvail from index 1 finds index 2");
	cc = pvm_getmboxinfo("m_multi", &n, &mi);
	tc_eq(cc, 0, "pvm_getmboxinfo m_multi");
	tc_eq(n, 1, "classes matching m_multi");
	if (cc == 0 && n == 1) {
		tc_check(mi[0].mi_nentries == 2 && mi[0].mi_indices[0] == 0 &&
		             mi[0].mi_indices[1] == 2 &&
		             mi[0].mi_owners[0] == pvm_mytid(),
		    "m_multi has entries 0 and 2 owned by us (n %d)",
		    mi[0].mi_nentries);
	}
	tc_eq(put("m_multi", 103, PvmMboxMultiInstance), 1,
	    "MultiInstance put reuses the free index 1");
	tc_eq(pvm_delinfo("m_def", 0, 0), 0, "owner deletes m_def");
	tc_eq(get("m_def", 0, 0), PvmNotFound, "m_def after delinfo");
	tc_eq(pvm_delinfo("m_def", 0, 0), PvmNotFound, "delinfo twice");
	tc_eq(get("m_never", 0, 0), PvmNotFound, "recvinfo of an unknown name");
}

/* ReadAndDelete by the owner. */
static void
read_and_delete(void)
{
	tc_eq(put("m_rd", 5, PvmMboxDefault), 0, "putinfo m_rd");
	tc_eq(get("m_rd", 0, PvmMboxReadAndDelete), 5,
	    "ReadAndDelete returns the value");
	tc_eq(get("m_rd", 0, 0), PvmNotFound, "m_rd after ReadAndDelete");
}

/* WaitForInfo: the waiter blocks until we put. */
static void
wait_for_info(void)
{
	int kid, r[2], v;

	if ((kid = helper("c-wait")) == 0) {
		return;
	}
	if (tc_recv_ints(kid, TAG_READY, &v, 1, 30) <= 0) {
		tc_check(0, "waiter ready within 30 s");
		return;
	}
	tc_sleep(1.0);
	tc_eq(pvm_nrecv(kid, TAG_REPORT), 0, "waiter still blocked after 1 s");
	tc_eq(put("m_wait", 99, PvmMboxDefault), 0, "putinfo m_wait");
	if (tc_recv_ints(kid, TAG_REPORT, r, 2, 30) <= 0) {
		tc_check(0, "waiter's report within 30 s");
		return;
	}
	tc_eq(r[0], 99, "WaitForInfo returns the value put later");
	tc_check(r[1] >= 900, "WaitForInfo blocked %d ms (>= 900)", r[1]);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	tc_init("t_mbox");
	if (strcmp(mode, "c-other") == 0) {
		return c_other();
	}
	if (strcmp(mode, "c-wait") == 0) {
		return c_wait();
	}
	if (pvm_mytid() <= 0) {
		tc_fatal("pvm_mytid");
	}
	pvm_setopt(PvmAutoErr, 0);
	owner_and_other();
	multi();
	read_and_delete();
	wait_for_info();
	return tc_done();
}
