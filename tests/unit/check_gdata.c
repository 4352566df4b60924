/*
 * check_gdata.c: the data segment of the shared-memory collectives
 * (libgpvm/gdata.c): the file, every verdict a reader can reach, taking,
 * both places, reclaiming a place whose reader went or gave its call up,
 * pvmgs's new and gone marks, a scatter's places of one reader each,
 * and two forked processes passing a few thousand deposits through the
 * futex words (both kinds of place).
 */
#include <check.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvm3.h"
#include "gdata.h"

#include "unit_main.h"

/* Reader instance 0 (tid 100), children 1 (tid 101) and 2 (tid 102). */
#define RTID 100
#define CTID 101

static struct gdata *d;
static char dir[] = "/tmp/check_gdata.XXXXXX";
static char path[256];

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(gdata_path(dir, 0x1234, path, sizeof(path)), 0);
	d = gdata_create(path);
	ck_assert_ptr_nonnull(d);
	gdata_member_new(d, 0, RTID);
	gdata_member_new(d, 1, CTID);
	gdata_member_new(d, 2, CTID + 1);
}

static void
teardown(void)
{
	gdata_unmap(d);
	unlink(path);
	rmdir(dir);
	strcpy(dir, "/tmp/check_gdata.XXXXXX");
}

/* What reader 0 expects from child 1 in call (version 5, call k). */
static struct gdata_want
want(uint32_t call, int chunk)
{
	struct gdata_want w = { 0, RTID, CTID, 5, call, GDATA_REDUCE, 7,
		PVM_INT, 3, chunk, 0, 0 };

	return w;
}

/* Child c deposits chunk `chunk` of call (version, call) for `to`. */
static int
deposit(int c, int to, int totid, uint32_t version, uint32_t call,
    int chunk, int status, int value)
{
	uint32_t seen;
	struct gdata_hdr *h;
	int place = gdata_put_ready(d, c, &seen) - 1;
	int v[3] = { value, value + 1, value + 2 };

	if (place < 0) {
		return -1;
	}
	h = gdata_put_hdr(d, c, place);
	*h = (struct gdata_hdr){ version, call, to, totid, 7, status, PVM_INT,
		3, chunk, 3, GDATA_REDUCE, 0 };
	memcpy(gdata_put_data(d, c, place), v, sizeof(v));
	gdata_put(d, c, place);
	return place;
}

/* Reader 0 and child 1 are both in call (version 5, call). */
static void
both_in(uint32_t call)
{
	gdata_enter(d, 0, GDATA_ID(5, call));
	gdata_enter(d, 1, GDATA_ID(5, call));
}

/* Reader 0's verdict on child 1; *err and *seen filled. */
static int
look(uint32_t call, int chunk, struct gdata_seen *seen, int *err)
{
	struct gdata_want w = want(call, chunk);

	*err = 1;
	return gdata_look(d, 1, &w, seen, err);
}

START_TEST(file_map_and_refuse)
{
	struct gdata *m;
	char bad[300];
	FILE *f;

	ck_assert_ptr_nonnull(strstr(path, "/g00001234.d"));
	m = gdata_map(path);
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(atomic_load(&m->slot[1].owner), CTID);
	gdata_unmap(m);
	snprintf(bad, sizeof(bad), "%s/nosuch", dir);
	ck_assert_ptr_null(gdata_map(bad));
	snprintf(bad, sizeof(bad), "%s/short", dir);
	f = fopen(bad, "w");
	fputs("not a segment", f);
	fclose(f);
	ck_assert_ptr_null(gdata_map(bad));
	unlink(bad);
}
END_TEST

START_TEST(ready_take_and_two_places)
{
	struct gdata_seen s;
	uint32_t g;
	int err;
	const int *v;

	gdata_enter(d, 0, GDATA_ID(5, 0));
	ck_assert_int_eq(look(0, 0, &s, &err), GD_WAIT);
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 0, 0, 0, 40), 0);
	ck_assert_int_eq(look(0, 0, &s, &err), GD_READY);
	ck_assert_int_eq(err, 0);
	v = gdata_data(d, 1, &s);
	ck_assert_int_eq(v[0], 40);
	ck_assert_int_eq(v[2], 42);
	/* Chunk 1 goes to the second place while chunk 0 is unread. */
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 0, 1, 0, 50), 1);
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 0);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(look(0, 1, &s, &err), GD_READY);
	ck_assert_int_eq(((const int *)gdata_data(d, 1, &s))[0], 50);
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 1);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(look(0, 2, &s, &err), GD_WAIT);
	/* Taking twice changes nothing. */
	gdata_take(d, 1, &s);
	ck_assert_int_eq(atomic_load(&d->slot[1].got), 2);
	ck_assert_int_eq(atomic_load(&d->slot[1].put), 2);
}
END_TEST

START_TEST(verdicts)
{
	struct gdata_seen s;
	int err;

	both_in(3);
	/* Another reader's deposit of an earlier call: not ours, wait. */
	deposit(1, 2, CTID + 1, 5, 2, 0, 0, 1);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_WAIT);
	/* Ours next to it: found in the other place. */
	deposit(1, 0, RTID, 5, 3, 0, 0, 9);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_READY);
	gdata_take(d, 1, &s);
	/* A status: FAILED with it. */
	atomic_store(&d->slot[1].place[0].state,
	    atomic_load(&d->slot[1].place[0].state) + 1);
	deposit(1, 0, RTID, 5, 3, 0, PvmNoTask, 0);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_FAILED);
	ck_assert_int_eq(err, PvmNoTask);
	gdata_take(d, 1, &s);
	/* Wrong count or chunk: PvmMismatch. */
	deposit(1, 0, RTID, 5, 3, 4, 0, 0);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_FAILED);
	ck_assert_int_eq(err, PvmMismatch);
	gdata_take(d, 1, &s);
	/* Ours from an earlier call (given up): FAILED, take it. */
	deposit(1, 0, RTID, 5, 1, 0, 0, 0);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_FAILED);
	ck_assert_int_eq(err, PvmMismatch);
	gdata_take(d, 1, &s);
	/* Ours for a later call, or another version: LOST, left alone. */
	deposit(1, 0, RTID, 6, 0, 0, 0, 0);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmMismatch);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_LOST);
}
END_TEST

START_TEST(past_our_call)
{
	struct gdata_seen s;
	int err;

	gdata_enter(d, 0, GDATA_ID(5, 3));
	/* The child is in call 4 and sent us nothing for 3. */
	gdata_enter(d, 1, GDATA_ID(5, 4));
	ck_assert_int_eq(look(3, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmMismatch);
	/* Behind: wait for it. */
	gdata_enter(d, 1, GDATA_ID(5, 2));
	ck_assert_int_eq(look(3, 0, &s, &err), GD_WAIT);
	/* Its deposit of call 4 for another reader: past ours. */
	deposit(1, 2, CTID + 1, 5, 4, 0, 0, 0);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_LOST);
}
END_TEST

/* A child that finished our call without a deposit for us (another
 * tree: the calls disagreed) ends the wait; a reader that finished a
 * call frees the places of that call's deposits for it. */
START_TEST(done_with_the_call)
{
	struct gdata_seen s;
	uint32_t g;
	int err;

	both_in(3);
	ck_assert_int_eq(look(3, 0, &s, &err), GD_WAIT);
	gdata_leave(d, 1, GDATA_ID(5, 3));
	ck_assert_int_eq(look(3, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmMismatch);
	/* Two deposits of call 3 for reader 0, which then finishes it. */
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 3, 1, 0, 0), 0);
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 3, 2, 0, 0), 1);
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 0);
	gdata_leave(d, 0, GDATA_ID(5, 3));
	ck_assert_int_ne(gdata_put_ready(d, 1, &g), 0);
}
END_TEST

START_TEST(gone_and_new)
{
	struct gdata_seen s;
	int err;

	gdata_enter(d, 0, GDATA_ID(5, 0));
	gdata_member_gone(d, 1, PvmNoTask);
	ck_assert_int_eq(look(0, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmNoTask);
	gdata_member_new(d, 1, CTID);
	gdata_member_gone(d, 1, PvmMismatch);
	ck_assert_int_eq(look(0, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmMismatch);
	/* Another task holds the instance now. */
	gdata_member_new(d, 1, CTID + 50);
	ck_assert_int_eq(look(0, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmMismatch);
	/* A deposit made before a leave is still read. */
	gdata_member_new(d, 1, CTID);
	deposit(1, 0, RTID, 5, 0, 0, 0, 3);
	gdata_member_gone(d, 1, PvmMismatch);
	ck_assert_int_eq(look(0, 0, &s, &err), GD_READY);
	/* A new holder starts with empty places. */
	gdata_member_new(d, 1, CTID);
	ck_assert_int_eq(look(0, 0, &s, &err), GD_WAIT);
	ck_assert_int_eq(atomic_load(&d->slot[1].place[0].state) % 2, 0);
}
END_TEST

START_TEST(reclaim)
{
	uint32_t g;

	gdata_enter(d, 0, GDATA_ID(5, 0));
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 0, 0, 0, 1), 0);
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 1, 0, 0, 1), 1);
	/* Full, and the reader is still in call 0: wait. */
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 0);
	/* The reader moved to call 1: call 0's place is reclaimed. */
	gdata_enter(d, 0, GDATA_ID(5, 1));
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 1);
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 2, 0, 0, 1), 0);
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 0);
	/* The reader went: everything it was to read is reclaimed. */
	gdata_member_gone(d, 0, PvmNoTask);
	ck_assert_int_ne(gdata_put_ready(d, 1, &g), 0);
}
END_TEST

/* The long place: a reduce of 10 ints, chunks of 4 (4, 4, 2). */
#define LONG_COUNT 10
#define LONG_PER 4

/* What reader 0 expects from child 1 in chunk `chunk` of a long call. */
static struct gdata_want
want_long(uint32_t call, int chunk)
{
	struct gdata_want w = want(call, chunk);

	w.count = LONG_COUNT;
	w.per = LONG_PER;
	w.chunkbytes = LONG_PER * sizeof(int);
	return w;
}

/* Child 1 writes chunk `chunk` of its long deposit for reader 0 in call
 * `call`: elements value + i; chunk 0 makes the deposit.  The place +
 * 1, or 0 if the long place is not free. */
static int
deposit_long(uint32_t call, int chunk, int value)
{
	int v[LONG_PER], i, n = chunk < 2 ? LONG_PER : 2;
	unsigned char *at = gdata_put_data(d, 1, GDATA_LONGP);
	struct gdata_hdr *h;
	uint32_t seen;

	if (chunk == 0 && gdata_put_ready_long(d, 1, &seen) == 0) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		v[i] = value + chunk * LONG_PER + i;
	}
	memcpy(at + chunk * sizeof(v), v, (size_t)n * sizeof(int));
	if (chunk > 0) {
		gdata_put_more(d, 1, chunk);
		return GDATA_LONGP + 1;
	}
	h = gdata_put_hdr(d, 1, GDATA_LONGP);
	*h = (struct gdata_hdr){ 5, call, 0, RTID, 7, 0, PVM_INT, LONG_COUNT,
		GDATA_WHOLE, LONG_PER, GDATA_REDUCE, 0 };
	gdata_put(d, 1, GDATA_LONGP);
	return GDATA_LONGP + 1;
}

/* Reader 0's verdict on child 1 for chunk `chunk` of a long call. */
static int
look_long(uint32_t call, int chunk, struct gdata_seen *seen, int *err)
{
	struct gdata_want w = want_long(call, chunk);

	*err = 1;
	return gdata_look(d, 1, &w, seen, err);
}

START_TEST(long_place_in_chunks)
{
	struct gdata_seen s;
	const int *v;
	uint32_t g;
	int err;

	both_in(0);
	ck_assert_int_eq(look_long(0, 0, &s, &err), GD_WAIT);
	ck_assert_int_eq(deposit_long(0, 0, 100), GDATA_LONGP + 1);
	ck_assert_int_eq(look_long(0, 0, &s, &err), GD_READY);
	ck_assert_int_eq(err, 0);
	v = gdata_data(d, 1, &s);
	ck_assert_int_eq(v[0], 100);
	ck_assert_int_eq(v[3], 103);
	/* Not the last chunk: taking it leaves the place full. */
	gdata_take(d, 1, &s);
	ck_assert_int_eq(atomic_load(&d->slot[1].lplace.state) % 2, 1);
	ck_assert_int_eq(atomic_load(&d->slot[1].got), 0);
	/* Chunk 1 is not written yet. */
	ck_assert_int_eq(look_long(0, 1, &s, &err), GD_WAIT);
	deposit_long(0, 1, 100);
	ck_assert_int_eq(look_long(0, 1, &s, &err), GD_READY);
	v = gdata_data(d, 1, &s);
	ck_assert_int_eq(v[0], 104);
	gdata_take(d, 1, &s);
	/* The owner's next long deposit waits for this one. */
	ck_assert_int_eq(gdata_put_ready_long(d, 1, &g), 0);
	deposit_long(0, 2, 100);
	ck_assert_int_eq(look_long(0, 2, &s, &err), GD_READY);
	v = gdata_data(d, 1, &s);
	ck_assert_int_eq(v[0], 108);
	ck_assert_int_eq(v[1], 109);
	/* The last chunk empties the place. */
	gdata_take(d, 1, &s);
	ck_assert_int_eq(atomic_load(&d->slot[1].lplace.state) % 2, 0);
	ck_assert_int_eq(atomic_load(&d->slot[1].got), 1);
	ck_assert_int_eq(gdata_put_ready_long(d, 1, &g), GDATA_LONGP + 1);
}
END_TEST

START_TEST(long_place_mismatch_and_reclaim)
{
	struct gdata_want w = want_long(0, 0);
	struct gdata_seen s;
	uint32_t g;
	int err;

	both_in(0);
	ck_assert_int_eq(deposit_long(0, 0, 1), GDATA_LONGP + 1);
	/* A reader of a one-chunk call does not look at the long place:
	 * it waits while the child is in the call, then gets nothing. */
	ck_assert_int_eq(look(0, 0, &s, &err), GD_WAIT);
	gdata_leave(d, 1, GDATA_ID(5, 0));
	ck_assert_int_eq(look(0, 0, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmMismatch);
	/* Another chunk size is another call: PvmMismatch, taken. */
	w.per = 2;
	w.chunkbytes = 2 * sizeof(int);
	err = 1;
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_FAILED);
	ck_assert_int_eq(err, PvmMismatch);
	/* The reader is still in call 0: the long place stays untaken... */
	ck_assert_int_eq(gdata_put_ready_long(d, 1, &g), 0);
	/* ...until the reader is past that call: reclaimed. */
	gdata_enter(d, 0, GDATA_ID(5, 1));
	ck_assert_int_eq(gdata_put_ready_long(d, 1, &g), GDATA_LONGP + 1);
	ck_assert_int_eq(atomic_load(&d->slot[1].lplace.state) % 2, 0);
	/* The long place holds whole parts only: a deposit of one chunk
	 * there is PvmMismatch. */
	ck_assert_int_eq(deposit_long(1, 0, 1), GDATA_LONGP + 1);
	gdata_put_hdr(d, 1, GDATA_LONGP)->chunk = 0;
	w = want_long(1, 0);
	err = 1;
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_FAILED);
	ck_assert_int_eq(err, PvmMismatch);
}
END_TEST

START_TEST(long_place_then_an_error)
{
	struct gdata_seen s;
	int err;

	both_in(0);
	deposit_long(0, 0, 1);
	/* Chunk 1 failed at the child: its status goes to a place. */
	ck_assert_int_eq(deposit(1, 0, RTID, 5, 0, 1, PvmNoTask, 0), 0);
	gdata_leave(d, 1, GDATA_ID(5, 0));
	/* Chunk 0 is still there for the reader; chunk 1 is the error. */
	ck_assert_int_eq(look_long(0, 0, &s, &err), GD_READY);
	ck_assert_int_eq(s.place, GDATA_LONGP);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(look_long(0, 1, &s, &err), GD_FAILED);
	ck_assert_int_eq(err, PvmNoTask);
	ck_assert_int_eq(s.place, 0);
	gdata_take(d, 1, &s);
	/* Chunk 0 of that call is still in the long place.  The reader's
	 * next long call, before the child's, waits: no mismatch. */
	gdata_leave(d, 0, GDATA_ID(5, 0));
	gdata_enter(d, 0, GDATA_ID(5, 1));
	ck_assert_int_eq(atomic_load(&d->slot[1].lplace.state) % 2, 1);
	ck_assert_int_eq(look_long(1, 0, &s, &err), GD_WAIT);
	/* The child's next long deposit reclaims the place. */
	gdata_enter(d, 1, GDATA_ID(5, 1));
	ck_assert_int_eq(deposit_long(1, 0, 50), GDATA_LONGP + 1);
	ck_assert_int_eq(look_long(1, 0, &s, &err), GD_READY);
	ck_assert_int_eq(((const int *)gdata_data(d, 1, &s))[0], 50);
}
END_TEST

/* A gather deposit (op GDATA_GATHER, tag 7) made on view `version`. */
static int
deposit_gather(int c, uint32_t version, int chunk, int value)
{
	uint32_t seen;
	struct gdata_hdr *h;
	int place = gdata_put_ready(d, c, &seen) - 1;

	if (place < 0) {
		return -1;
	}
	h = gdata_put_hdr(d, c, place);
	*h = (struct gdata_hdr){ version, 0, 0, RTID, 7, 0, PVM_INT, 3, chunk,
		3, GDATA_GATHER, 0 };
	memcpy(gdata_put_data(d, c, place), &value, sizeof(value));
	gdata_put(d, c, place);
	return place;
}

START_TEST(gather_first_in_first_out)
{
	struct gdata_want w = want(0, 0), r = want(0, 0);
	struct gdata_seen s;
	uint32_t g;
	int err;

	w.op = GDATA_GATHER;
	/* Two gathers of views 3 and 9 (a join between): taken in order. */
	ck_assert_int_eq(deposit_gather(1, 3, 0, 11), 0);
	ck_assert_int_eq(deposit_gather(1, 9, 0, 22), 1);
	/* A reduce reader sees neither; a gather reader the older. */
	ck_assert_int_eq(gdata_look(d, 1, &r, &s, &err), GD_WAIT);
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_READY);
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 11);
	gdata_take(d, 1, &s);
	/* The reader's cur moving on does not make gathers stale. */
	gdata_enter(d, 0, GDATA_ID(50, 50));
	ck_assert_int_eq(deposit_gather(1, 3, 0, 33), 0);
	ck_assert_int_eq(gdata_put_ready(d, 1, &g), 0);
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_READY);
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 22);
	gdata_take(d, 1, &s);
	/* Another tag is another stream. */
	w.tag = 8;
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_WAIT);
	w.tag = 7;
	/* A scatter reader does not take a gather's deposit. */
	w.op = GDATA_SCATTER;
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_WAIT);
	/* The child went: LOST with why. */
	gdata_member_gone(d, 1, PvmNoTask);
	w.op = GDATA_GATHER;
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_READY);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(gdata_look(d, 1, &w, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmNoTask);
}
END_TEST

/* Scatter root 1 deposits value for reader `to` (tid totid) in its own
 * place: the place, or what gdata_put_ready_own said (0: wait). */
static int
deposit_scatter(int to, int totid, int value)
{
	uint32_t seen;
	struct gdata_hdr *h;
	int place = gdata_put_ready_own(d, 1, to, totid, &seen);

	if (place <= 0) {
		return place;
	}
	place--;
	h = gdata_put_hdr(d, 1, place);
	*h = (struct gdata_hdr){
	    0, 0, to, totid, 7, 0, PVM_INT, 1, 0, 1, GDATA_SCATTER, 0};
	memcpy(gdata_put_data(d, 1, place), &value, sizeof(value));
	gdata_put(d, 1, place);
	return place;
}

/* What scatter reader `me` (tid metid) expects from root 1. */
static struct gdata_want
want_scatter(int me, int metid)
{
	struct gdata_want w = {
	    me, metid, CTID, 0, 0, GDATA_SCATTER, 7, PVM_INT, 1, 0, 0, 0};

	return w;
}

START_TEST(scatter_own_places)
{
	struct gdata_want w0 = want_scatter(0, RTID);
	struct gdata_want w2 = want_scatter(2, CTID + 1);
	struct gdata_want g = w0;
	struct gdata_seen s;
	int err;

	/* A slice for each reader, none taken: the root does not wait. */
	ck_assert_int_eq(deposit_scatter(0, RTID, 10), GDATA_OWN(0));
	ck_assert_int_eq(deposit_scatter(2, CTID + 1, 12), GDATA_OWN(2));
	/* Its next slice for 0 waits until 0 took this one. */
	ck_assert_int_eq(deposit_scatter(0, RTID, 20), 0);
	/* Each reader sees its own slice only; a gather reader none. */
	g.op = GDATA_GATHER;
	ck_assert_int_eq(gdata_look(d, 1, &g, &s, &err), GD_WAIT);
	ck_assert_int_eq(gdata_look(d, 1, &w2, &s, &err), GD_READY);
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 12);
	ck_assert_int_eq(gdata_look(d, 1, &w0, &s, &err), GD_READY);
	ck_assert_int_eq(s.place, GDATA_OWN(0));
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 10);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(gdata_look(d, 1, &w0, &s, &err), GD_WAIT);
	ck_assert_int_eq(deposit_scatter(0, RTID, 20), GDATA_OWN(0));
	ck_assert_int_eq(gdata_look(d, 1, &w0, &s, &err), GD_READY);
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 20);
	/* Another tag is another stream: not taken, not a mismatch. */
	w0.tag = 8;
	ck_assert_int_eq(gdata_look(d, 1, &w0, &s, &err), GD_WAIT);
	/* Reader 2 dies with its slice untaken: the root's wait for its
	 * place ends with PvmNoTask, and the place is reclaimed. */
	gdata_member_gone(d, 2, PvmNoTask);
	ck_assert_int_eq(deposit_scatter(2, CTID + 1, 22), PvmNoTask);
	ck_assert_int_eq(atomic_load(&d->slot[1].own[2].state) % 2, 0);
	/* A new holder of 2: the old tid is a mismatch, the new one fits. */
	gdata_member_new(d, 2, CTID + 60);
	ck_assert_int_eq(deposit_scatter(2, CTID + 1, 22), PvmMismatch);
	ck_assert_int_eq(deposit_scatter(2, CTID + 60, 22), GDATA_OWN(2));
	/* The root dies: a reader with nothing left gets PvmNoTask. */
	gdata_member_gone(d, 1, PvmNoTask);
	w2.metid = CTID + 60;
	ck_assert_int_eq(gdata_look(d, 1, &w2, &s, &err), GD_READY);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(gdata_look(d, 1, &w2, &s, &err), GD_LOST);
	ck_assert_int_eq(err, PvmNoTask);
}
END_TEST

/* gdata.c's hook between the reads of two places (GDATA_TEST_HOOK). */
extern void (*gdata_test_hook)(int place);
static int hook_fired;

/* As the owner, between the reader's reads of place 0 and place 1:
 * chunk 0 into place 0 (read already, empty then), chunk 1 into 1. */
static void
owner_meanwhile(int place)
{
	if (place == 0 && !hook_fired) {
		hook_fired = 1;
		deposit(1, 0, RTID, 5, 0, 0, 0, 100);
		deposit(1, 0, RTID, 5, 0, 1, 0, 101);
	}
}

/*
 * The race behind a PvmMismatch seen once in ~100,000 looks under load:
 * the reader found place 0 empty, the owner then filled both places, the
 * reader found chunk 1 in place 1 and judged the child's stream wrong.
 * A scan during which put moved is made again.
 */
START_TEST(deposits_during_a_scan)
{
	struct gdata_seen s;
	int err;

	gdata_enter(d, 0, GDATA_ID(5, 0));
	gdata_test_hook = owner_meanwhile;
	ck_assert_int_eq(look(0, 0, &s, &err), GD_READY);
	gdata_test_hook = NULL;
	ck_assert_int_eq(hook_fired, 1);
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 100);
	gdata_take(d, 1, &s);
	ck_assert_int_eq(look(0, 1, &s, &err), GD_READY);
	ck_assert_int_eq(*(const int *)gdata_data(d, 1, &s), 101);
}
END_TEST

/* Chunks a call of two_processes has. */
#define NCHUNK 3

/* Child process: n calls of NCHUNK chunks for reader 0, chunk k of call
 * i holding i * NCHUNK + k. */
static void
child_run(int n)
{
	struct gdata *m = gdata_map(path);
	uint32_t g;
	int i, k;

	if (m == NULL) {
		_exit(2);
	}
	d = m;
	for (i = 0; i < n; i++) {
		gdata_enter(d, 1, GDATA_ID(5, i));
		for (k = 0; k < NCHUNK; k++) {
			while (gdata_put_ready(d, 1, &g) == 0) {
				gdata_sleep_got(d, 1, g, 100);
			}
			if (deposit(1, 0, RTID, 5, (uint32_t)i, k, 0,
			    i * NCHUNK + k) < 0) {
				_exit(3);
			}
		}
	}
	_exit(0);
}

/*
 * Two processes, the reader taking every chunk in order while the owner
 * fills both places as fast as it can: a look must never take a later
 * chunk or call for a wrong one (a scan that missed an earlier deposit
 * made meanwhile used to: PvmMismatch once in ~100,000 looks).
 */
/* Child process: scatter root 1, n slices i for reader 0, as fast as
 * its one place allows. */
static void
child_scatter(int n)
{
	struct gdata *m = gdata_map(path);
	uint32_t g;
	int i, p;

	if (m == NULL) {
		_exit(2);
	}
	d = m;
	for (i = 0; i < n; i++) {
		while ((p = gdata_put_ready_own(d, 1, 0, RTID, &g)) == 0) {
			gdata_sleep_got(d, 1, g, 100);
		}
		if (p < 0 || deposit_scatter(0, RTID, i) != GDATA_OWN(0)) {
			_exit(3);
		}
	}
	_exit(0);
}

/* Two processes: a scatter root running ahead of its reader, who
 * sleeps on its own place; every slice arrives once, in order. */
START_TEST(two_processes_scatter)
{
	struct gdata_want w = want_scatter(0, RTID);
	struct gdata_seen s;
	int i, err, v, status, sum = 0, n = 30000;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		child_scatter(n);
	}
	for (i = 0; i < n; i++) {
		while ((v = gdata_look(d, 1, &w, &s, &err)) == GD_WAIT) {
			gdata_sleep_own(d, 1, 0, s.ostate, 100);
		}
		if (v != GD_READY) {
			ck_abort_msg("slice %d: verdict %d", i, v);
		}
		sum += *(const int *)gdata_data(d, 1, &s) == i;
		gdata_take(d, 1, &s);
	}
	ck_assert_int_eq(sum, n);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

START_TEST(two_processes)
{
	struct gdata_seen s;
	int i, k, err, v, status, sum = 0, n = 30000;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		child_run(n);
	}
	for (i = 0; i < n; i++) {
		gdata_enter(d, 0, GDATA_ID(5, i));
		for (k = 0; k < NCHUNK; k++) {
			while ((v = look((uint32_t)i, k, &s, &err)) ==
			    GD_WAIT) {
				gdata_sleep_put(d, 1, s.put, 100);
			}
			if (v != GD_READY) {
				ck_abort_msg("call %d chunk %d: verdict %d", i,
				    k, v);
			}
			sum += ((const int *)gdata_data(d, 1, &s))[0] ==
			    i * NCHUNK + k;
			gdata_take(d, 1, &s);
		}
	}
	ck_assert_int_eq(sum, n * NCHUNK);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

static Suite *
gdata_suite(void)
{
	Suite *s = suite_create("gdata");
	TCase *tc = tcase_create("slots");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, file_map_and_refuse);
	tcase_add_test(tc, ready_take_and_two_places);
	tcase_add_test(tc, verdicts);
	tcase_add_test(tc, past_our_call);
	tcase_add_test(tc, done_with_the_call);
	tcase_add_test(tc, gone_and_new);
	tcase_add_test(tc, reclaim);
	tcase_add_test(tc, long_place_in_chunks);
	tcase_add_test(tc, long_place_mismatch_and_reclaim);
	tcase_add_test(tc, long_place_then_an_error);
	tcase_add_test(tc, gather_first_in_first_out);
	tcase_add_test(tc, scatter_own_places);
	tcase_add_test(tc, deposits_during_a_scan);
	tcase_add_test(tc, two_processes);
	tcase_add_test(tc, two_processes_scatter);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(gdata_suite());
}
