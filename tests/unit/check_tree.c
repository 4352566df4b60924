/*
 * check_tree.c: the collectives' topology (libgpvm/tree.c).
 *
 * For 1 to 64 members, every root and several host layouts (one host,
 * round-robin over 2, 3 and 4 hosts, blocks, one member per host, holes
 * in the instance table), every member builds its own view of the tree;
 * together the views must form one tree rooted at the root: every member
 * reached exactly once, parent and child links agreeing, data crossing
 * hosts only between leaders (h - 1 such links), depth within
 * ceil(log2 m) + ceil(log2 h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpvm.h"
#include "tid.h"

#include "unit_main.h"

#define MAXN 64

/* Check's ck_assert records every passing assertion (a write to a pipe);
 * the loops here make millions of them, so fail only on failure. */
#define REQUIRE(cond, ...)                                               \
	do {                                                             \
		if (!(cond)) {                                           \
			ck_abort_msg(__VA_ARGS__);                       \
		}                                                        \
	} while (0)
#define MAXSLOTS (2 * MAXN)

/* A host layout: the host index of member j (0-based) of n. */
typedef int (*layout_fn)(int j, int n);

static int
lay_one(int j, int n)
{
	(void)j;
	(void)n;
	return 1;
}

static int
lay_rr2(int j, int n)
{
	(void)n;
	return 1 + j % 2;
}

static int
lay_rr3(int j, int n)
{
	(void)n;
	return 1 + j % 3;
}

static int
lay_rr4(int j, int n)
{
	(void)n;
	return 1 + j % 4;
}

static int
lay_block4(int j, int n)
{
	(void)n;
	return 1 + j / 4;
}

static int
lay_block5_rev(int j, int n)
{
	/* Blocks of 5, hosts numbered downwards, so host order is not
	 * instance order. */
	return 40 - j / 5 + n % 2;
}

static int
lay_perhost(int j, int n)
{
	(void)n;
	return 1 + j;
}

static int
lay_lumpy(int j, int n)
{
	/* Uneven: half on host 7, the rest spread over 3 hosts. */
	return j < n / 2 ? 7 : 2 + j % 3;
}

static const struct layout {
	const char *name;
	layout_fn fn;
} layouts[] = {
	{ "one host", lay_one },
	{ "round-robin 2", lay_rr2 },
	{ "round-robin 3", lay_rr3 },
	{ "round-robin 4", lay_rr4 },
	{ "blocks of 4", lay_block4 },
	{ "blocks of 5, reversed hosts", lay_block5_rev },
	{ "one per host", lay_perhost },
	{ "lumpy", lay_lumpy },
};
#define NLAYOUTS (int)(sizeof(layouts) / sizeof(layouts[0]))

/* Smallest d with 2^d >= x. */
static int
ceil_log2(int x)
{
	int d = 0;

	while ((1 << d) < x) {
		d++;
	}
	return d;
}

/*
 * Build an instance table of n members on layout fn into tids[]; with
 * holes, every third slot (and slot 0) is empty.  Returns the slot count.
 */
static int
make_table(int *tids, int n, layout_fn fn, int holes)
{
	int s = 0, j;

	for (j = 0; j < n; j++) {
		if (holes && (s == 0 || s % 3 == 2)) {
			tids[s++] = -1;
		}
		/* Local parts not in instance order, to catch tid sorting. */
		tids[s++] = tid_make(fn(j, n), 1 + (j * 37) % 211 + 300 * j);
	}
	return s;
}

/* Slot of tid in tids[0..ns), or -1. */
static int
slot_of(const int *tids, int ns, int tid)
{
	int i;

	for (i = 0; i < ns; i++) {
		if (tids[i] == tid && tid > 0) {
			return i;
		}
	}
	return -1;
}

/* Check the whole tree for one table and root; 1 if all is well. */
static int
check_one(const int *tids, int ns, int root, const char *what)
{
	static struct gpvm_tree tr[MAXSLOTS];
	int seen[MAXSLOTS], stack[MAXSLOTS], hostcount[4096];
	int i, c, p, sp, nmem = 0, nhosts = 0, maxhost = 0, cross = 0;
	int links = 0, d, maxd = 0, bound;

	memset(hostcount, 0, sizeof(hostcount));
	for (i = 0; i < ns; i++) {
		if (tids[i] <= 0) {
			continue;
		}
		nmem++;
		if (hostcount[tid_host(tids[i])]++ == 0) {
			nhosts++;
		}
		if (hostcount[tid_host(tids[i])] > maxhost) {
			maxhost = hostcount[tid_host(tids[i])];
		}
		REQUIRE(gpvm_tree_build(tids, ns, root, tids[i],
		    &tr[i]) == 0, "%s: build failed", what);
	}
	/* Parent and child links agree; children are members. */
	for (i = 0; i < ns; i++) {
		if (tids[i] <= 0) {
			continue;
		}
		if (tids[i] == root) {
			REQUIRE(tr[i].parent == 0, "%s: root has parent",
			    what);
		} else {
			p = slot_of(tids, ns, tr[i].parent);
			REQUIRE(p >= 0, "%s: t%x parent t%x not a member",
			    what, tids[i], tr[i].parent);
		}
		for (c = 0; c < tr[i].nchildren; c++) {
			p = slot_of(tids, ns, tr[i].children[c]);
			REQUIRE(p >= 0, "%s: child not a member", what);
			REQUIRE(tr[p].parent == tids[i],
			    "%s: child t%x of t%x names parent t%x", what,
			    tids[p], tids[i], tr[p].parent);
			if (tid_host(tids[p]) != tid_host(tids[i])) {
				cross++;
			}
			links++;
		}
	}
	REQUIRE(links == nmem - 1, "%s: %d links for %d members", what,
	    links, nmem);
	REQUIRE(cross == nhosts - 1, "%s: %d cross-host links, %d hosts",
	    what, cross, nhosts);
	/* Walk down from the root: every member exactly once. */
	memset(seen, 0, sizeof(seen));
	sp = 0;
	stack[sp++] = slot_of(tids, ns, root);
	while (sp > 0) {
		i = stack[--sp];
		REQUIRE(seen[i] == 0, "%s: t%x reached twice", what,
		    tids[i]);
		seen[i] = 1;
		for (c = 0; c < tr[i].nchildren; c++) {
			REQUIRE(sp < MAXSLOTS, "stack");
			stack[sp++] = slot_of(tids, ns, tr[i].children[c]);
		}
	}
	for (i = 0; i < ns; i++) {
		REQUIRE(tids[i] <= 0 || seen[i], "%s: t%x not reached",
		    what, tids[i]);
	}
	/* Depth. */
	for (i = 0; i < ns; i++) {
		if (tids[i] <= 0) {
			continue;
		}
		for (d = 0, p = i; tids[p] != root; d++) {
			REQUIRE(d <= nmem, "%s: cycle", what);
			p = slot_of(tids, ns, tr[p].parent);
		}
		if (d > maxd) {
			maxd = d;
		}
	}
	bound = ceil_log2(maxhost) + ceil_log2(nhosts);
	REQUIRE(maxd <= bound, "%s: depth %d > %d", what, maxd, bound);
	return 1;
}

/* Every size, every root, for layout _i (with and without holes). */
START_TEST(test_layout)
{
	int tids[MAXSLOTS], n, ns, s, holes;
	char what[128];

	for (holes = 0; holes <= 1; holes++) {
		for (n = 1; n <= MAXN; n++) {
			ns = make_table(tids, n, layouts[_i].fn, holes);
			for (s = 0; s < ns; s++) {
				if (tids[s] <= 0) {
					continue;
				}
				snprintf(what, sizeof(what),
				    "%s%s, n=%d, root slot %d",
				    layouts[_i].name, holes ? ", holes" : "",
				    n, s);
				check_one(tids, ns, tids[s], what);
			}
		}
	}
}
END_TEST

/* The shape on one host is the textbook binomial tree. */
START_TEST(test_binomial_shape)
{
	struct gpvm_tree t;
	int tids[8], i;

	for (i = 0; i < 8; i++) {
		tids[i] = tid_make(1, i + 1);
	}
	ck_assert_int_eq(gpvm_tree_build(tids, 8, tids[0], tids[0], &t), 0);
	ck_assert_int_eq(t.parent, 0);
	ck_assert_int_eq(t.nchildren, 3);
	ck_assert_int_eq(t.children[0], tids[1]);
	ck_assert_int_eq(t.children[1], tids[2]);
	ck_assert_int_eq(t.children[2], tids[4]);
	ck_assert_int_eq(gpvm_tree_build(tids, 8, tids[0], tids[6], &t), 0);
	ck_assert_int_eq(t.parent, tids[4]);
	ck_assert_int_eq(t.nchildren, 1);
	ck_assert_int_eq(t.children[0], tids[7]);
	/* Root 5: it leads, the others follow in instance order. */
	ck_assert_int_eq(gpvm_tree_build(tids, 8, tids[5], tids[0], &t), 0);
	ck_assert_int_eq(t.parent, tids[5]);
	ck_assert_int_eq(t.nchildren, 0);
}
END_TEST

/* Two hosts: the leader takes its host's children first, then hosts. */
START_TEST(test_two_hosts_order)
{
	struct gpvm_tree t;
	int tids[4];

	tids[0] = tid_make(1, 1);
	tids[1] = tid_make(2, 1);
	tids[2] = tid_make(1, 2);
	tids[3] = tid_make(2, 2);
	ck_assert_int_eq(gpvm_tree_build(tids, 4, tids[0], tids[0], &t), 0);
	ck_assert_int_eq(t.nchildren, 2);
	ck_assert_int_eq(t.children[0], tids[2]);
	ck_assert_int_eq(t.children[1], tids[1]);
	/* Root on host 2, instance 3: host 1's leader is instance 0. */
	ck_assert_int_eq(gpvm_tree_build(tids, 4, tids[3], tids[2], &t), 0);
	ck_assert_int_eq(t.parent, tids[0]);
	ck_assert_int_eq(gpvm_tree_build(tids, 4, tids[3], tids[0], &t), 0);
	ck_assert_int_eq(t.parent, tids[3]);
	ck_assert_int_eq(t.nchildren, 1);
	ck_assert_int_eq(t.children[0], tids[2]);
}
END_TEST

/* Bad arguments: root or caller not in the table, empty table. */
START_TEST(test_bad_args)
{
	struct gpvm_tree t;
	int tids[3] = { tid_make(1, 1), -1, tid_make(1, 3) };

	ck_assert_int_eq(gpvm_tree_build(tids, 3, tid_make(1, 2), tids[0],
	    &t), PvmBadParam);
	ck_assert_int_eq(gpvm_tree_build(tids, 3, tids[0], tid_make(1, 9),
	    &t), PvmBadParam);
	ck_assert_int_eq(gpvm_tree_build(tids, 3, tids[0], -1, &t),
	    PvmBadParam);
	ck_assert_int_eq(gpvm_tree_build(tids, 0, tids[0], tids[0], &t),
	    PvmBadParam);
	ck_assert_int_eq(gpvm_tree_build(NULL, 3, tids[0], tids[0], &t),
	    PvmBadParam);
	ck_assert_int_eq(gpvm_tree_build(tids, 3, tids[2], tids[2], &t), 0);
	ck_assert_int_eq(t.parent, 0);
	ck_assert_int_eq(t.nchildren, 1);
	ck_assert_int_eq(t.children[0], tids[0]);
}
END_TEST

/* ---- the k-nomial tree of the shared-memory collectives ---- */

/*
 * Every member's view of the k-nomial tree over tids[0..n) (holes < 0)
 * for root slot r must form one tree: each member reached once from the
 * root, parent and child links agreeing, children in increasing rank.
 */
static void
check_ktree(const int *tids, int n, int r, int radix, const char *what)
{
	struct gpvm_ktree t[MAXN + 1];
	int seen[MAXN + 1], stack[MAXN + 1], sp = 0, i, j, c, members = 0;

	for (i = 0; i < n; i++) {
		seen[i] = 0;
		if (tids[i] <= 0) {
			continue;
		}
		members++;
		REQUIRE(gpvm_ktree_build(tids, n, r, i, radix, &t[i]) == 0,
		    "%s: build for %d", what, i);
		REQUIRE((t[i].parent < 0) == (i == r), "%s: %d's parent %d",
		    what, i, t[i].parent);
	}
	stack[sp++] = r;
	seen[r] = 1;
	while (sp > 0) {
		i = stack[--sp];
		for (j = 0; j < t[i].nchildren; j++) {
			c = t[i].children[j];
			REQUIRE(c >= 0 && c < n && tids[c] > 0 && !seen[c],
			    "%s: child %d of %d", what, c, i);
			REQUIRE(t[c].parent == i, "%s: %d's parent %d, not %d",
			    what, c, t[c].parent, i);
			seen[c] = 1;
			members--;
			stack[sp++] = c;
		}
	}
	REQUIRE(members == 1, "%s: %d members not reached", what, members - 1);
}

/* Every size to 65, root, radix 2 .. 9 and flat, with and without holes;
 * radix 2 is gpvm_tree_build's one-host tree, link for link. */
START_TEST(test_ktree)
{
	struct gpvm_tree bt;
	struct gpvm_ktree kt;
	int tids[MAXN + 1], n, r, k, i, j, holes;
	char what[96];

	for (holes = 0; holes <= 1; holes++) {
		for (n = 1; n <= MAXN + 1; n++) {
			for (i = 0; i < n; i++) {
				tids[i] = holes && i % 3 == 2 && i != 0 ? -1 :
				    tid_make(1, i + 1);
			}
			for (r = 0; r < n; r++) {
				if (tids[r] <= 0) {
					continue;
				}
				for (k = 2; k <= 10; k++) {
					snprintf(what, sizeof(what),
					    "n=%d root %d radix %d%s", n, r,
					    k == 10 ? n + 1 : k,
					    holes ? " holes" : "");
					check_ktree(tids, n, r,
					    k == 10 ? n + 1 : k, what);
				}
				for (i = 0; i < n; i++) {
					if (tids[i] <= 0) {
						continue;
					}
					gpvm_ktree_build(tids, n, r, i, 2, &kt);
					gpvm_tree_build(tids, n, tids[r], tids[i],
					    &bt);
					REQUIRE(kt.nchildren == bt.nchildren &&
					    (kt.parent < 0 ? 0 :
					    tids[kt.parent]) == bt.parent,
					    "radix 2 vs binomial, n=%d r=%d i=%d",
					    n, r, i);
					for (j = 0; j < kt.nchildren; j++) {
						REQUIRE(tids[kt.children[j]] ==
						    bt.children[j],
						    "child %d, n=%d r=%d i=%d",
						    j, n, r, i);
					}
				}
			}
		}
	}
}
END_TEST

/* Flat: the root's children are everyone else, in instance order. */
START_TEST(test_ktree_flat_and_bad)
{
	struct gpvm_ktree t;
	int tids[6], i;

	for (i = 0; i < 6; i++) {
		tids[i] = tid_make(1, i + 1);
	}
	tids[3] = -1;
	ck_assert_int_eq(gpvm_ktree_build(tids, 6, 2, 2, 6, &t), 0);
	ck_assert_int_eq(t.parent, -1);
	ck_assert_int_eq(t.nchildren, 4);
	ck_assert_int_eq(t.children[0], 0);
	ck_assert_int_eq(t.children[1], 1);
	ck_assert_int_eq(t.children[2], 4);
	ck_assert_int_eq(t.children[3], 5);
	ck_assert_int_eq(gpvm_ktree_build(tids, 6, 2, 4, 6, &t), 0);
	ck_assert_int_eq(t.parent, 2);
	ck_assert_int_eq(t.nchildren, 0);
	/* A hole, a radix below 2, 66 instances: refused. */
	ck_assert_int_eq(gpvm_ktree_build(tids, 6, 3, 2, 6, &t), PvmBadParam);
	ck_assert_int_eq(gpvm_ktree_build(tids, 6, 2, 3, 6, &t), PvmBadParam);
	ck_assert_int_eq(gpvm_ktree_build(tids, 6, 2, 2, 1, &t), PvmBadParam);
	ck_assert_int_eq(gpvm_ktree_build(tids, GPVM_KTREE_MAX + 2, 2, 2, 2,
	    &t), PvmBadParam);
}
END_TEST

static Suite *
tree_suite(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("topology");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_layout, 0, NLAYOUTS);
	tcase_add_test(tc, test_binomial_shape);
	tcase_add_test(tc, test_two_hosts_order);
	tcase_add_test(tc, test_bad_args);
	tcase_add_test(tc, test_ktree);
	tcase_add_test(tc, test_ktree_flat_and_bad);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(tree_suite());
}
