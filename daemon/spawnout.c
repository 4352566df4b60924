/*
 * spawnout.c: the -1 start record of a task started for a task of
 * another host.  PVM 3.4.6 sends it from the spawner's pvmd once the
 * start is confirmed, while the -2 record and the output come from the
 * task's pvmd.  Here the task's pvmd (B) sends -2 (output.c), then
 * DM_SPAWNED to the spawner's pvmd (A) ahead of the TM_SPAWN reply, and
 * A sends the -1 records.  The order at the output tid does not depend
 * on timing:
 *
 *   on A's host (the spawner itself, or its own output tid there: the
 *   usual case): B's -2, DM_SPAWNED and B's output all take the one path
 *   from B to A, so -2, -1, then the output.
 *
 *   on another host X (B included): B holds every message for the
 *   output tid back (output_hold) until DM_OUTGO.  A sends DM_OUTGO to
 *   X's pvmd right behind the -1 records (one path, A to X); X passes it
 *   to B, or is B; B's output to X follows it.  So -2, -1, output there
 *   too, which PVM 3.4.6 leaves to chance.
 *
 * Every frame between two pvmds keeps its order (mesh.c keeps it when a
 * direct link replaces the master's relay).
 */
#include "pvmd.h"

/* B: DM_SPAWNED for the tasks started (res > 0) for spawner's task. */
void
spawnout_tell(int spawner, int ptid, const int *out, const int *res, int count)
{
	struct xdr_writer w;
	int i, n = 0;

	for (i = 0; i < count; i++) {
		if (res[i] > 0)
			n++;
	}
	if (n == 0)
		return;
	xdr_writer_init(&w);
	xdr_put_int(&w, ptid);
	xdr_put_int(&w, out[0]);
	xdr_put_int(&w, out[1]);
	xdr_put_int(&w, out[2]);
	xdr_put_int(&w, n);
	for (i = 0; i < count; i++) {
		if (res[i] > 0)
			xdr_put_int(&w, res[i]);
	}
	pvmd_send(tid_pvmd(tid_host(spawner)), DM_SPAWNED, SYSCTX_TM, 0, &w);
	xdr_writer_free(&w);
}

/*
 * Read int n and check the n tids that end the body: tasks of one host
 * (of host `want` if it is > 0), which *host gets.  n, or -1 if
 * malformed.  The tids stay unread in r.
 */
static int
spawnout_tids(struct xdr_reader *r, int want, int *host)
{
	struct xdr_reader peek;
	int32_t n, tid, i;

	if (xdr_get_int(r, &n) != 0 || n < 1 || (size_t)n * 4 != xdr_left(r))
		return -1;
	peek = *r;
	for (i = 0; i < n; i++) {
		if (xdr_get_int(&peek, &tid) != 0 || !tid_is_task(tid))
			return -1;
		if (i == 0 && want <= 0)
			want = tid_host(tid);
		if (tid_host(tid) != want)
			return -1;
	}
	*host = want;
	return n;
}

/*
 * A: DM_SPAWNED from pvmd src (body, len): the -1 records, and
 * DM_OUTGO where B holds the output back (see the top).
 */
void
spawnout_on_spawned(int src, const uint8_t *body, size_t len)
{
	struct xdr_reader r;
	struct xdr_writer go;
	int32_t ptid, dst, ctx, tag, tid;
	int host = tid_host(src), n, i, x;

	xdr_reader_init(&r, body, len);
	if (xdr_get_int(&r, &ptid) != 0 || xdr_get_int(&r, &dst) != 0 ||
	    xdr_get_int(&r, &ctx) != 0 || xdr_get_int(&r, &tag) != 0 ||
	    output_dest(dst) == 0 ||
	    (n = spawnout_tids(&r, host, &host)) < 0) {
		log_warn("host %d: malformed %s", tid_host(src),
		    wire_tag_name(DM_SPAWNED));
		return;
	}
	xdr_writer_init(&go);
	xdr_put_int(&go, n);
	for (i = 0; i < n; i++) {
		(void)xdr_get_int(&r, &tid);
		output_announce(tid, dst, ctx, tag, ptid);
		xdr_put_int(&go, tid);
	}
	if ((x = tid_host(dst)) != pvmd.host) {
		/* No such host: the -1 went nowhere, B need not wait. */
		pvmd_send(host_get(x) != NULL ? tid_pvmd(x) : src, DM_OUTGO,
		    SYSCTX_TM, 0, &go);
	}
	xdr_writer_free(&go);
}

/* X or B: DM_OUTGO from pvmd src: release, or pass it on to B. */
void
spawnout_on_go(int src, const uint8_t *body, size_t len)
{
	struct xdr_reader r;
	int32_t tid;
	int host = 0, n, i;

	xdr_reader_init(&r, body, len);
	if ((n = spawnout_tids(&r, 0, &host)) < 0) {
		log_warn("host %d: malformed %s", tid_host(src),
		    wire_tag_name(DM_OUTGO));
		return;
	}
	if (host == pvmd.host) {
		for (i = 0; i < n; i++) {
			(void)xdr_get_int(&r, &tid);
			output_release(tid);
		}
		return;
	}
	/* Never back to where the tasks live: it would have released. */
	if (host == tid_host(src) || host_get(host) == NULL) {
		log_debug("host %d: %s for host %d dropped", tid_host(src),
		    wire_tag_name(DM_OUTGO), host);
		return;
	}
	pvmd_send_raw(
	    tid_pvmd(host), DM_OUTGO, SYSCTX_TM, 0, WIRE_ENC_XDR, body, len);
}
