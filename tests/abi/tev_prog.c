/*
 * tev_prog.c: trace masks built with pvmtev.h's macros go through
 * pvm_settmask and come back from pvm_gettmask bit for bit.
 *
 * t-tev-masks.sh builds it against our headers, and against PVM 3.4.6's
 * when they are installed, and links it with our libpvm3 either way.  It
 * needs no pvmd: the masks are kept by the library.  Prints one "PASS: "
 * or "FAIL: " line per check; exits 1 when one failed.
 */
#include <stdio.h>
#include <string.h>

#include <pvm3.h>
#include <pvmtev.h>

static int failures;

static void
check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		failures++;
}

/* The bits of m, one character per event number, for the messages. */
static const char *
bits(Pvmtmask m)
{
	static char text[4 * TEV_MASK_LENGTH + 1];
	int k;

	for (k = 0; k < 4 * (TEV_MASK_LENGTH - 1); k++)
		text[k] = TEV_MASK_CHECK(m, k) ? '1' : '0';
	text[k] = '\0';
	return text;
}

/* Set m for who, read it back, and check every byte and every bit. */
static void
round_trip(int who, Pvmtmask m, const char *what)
{
	Pvmtmask back;
	char line[256];
	int k, same = 1;

	snprintf(line, sizeof(line), "pvm_settmask(%s, %s) returns 0",
	    who == PvmTaskSelf ? "Self" : "Child", what);
	check(pvm_settmask(who, m) == 0, line);
	memset(back, 0x55, sizeof(back));
	snprintf(line, sizeof(line), "pvm_gettmask(%s) returns 0",
	    who == PvmTaskSelf ? "Self" : "Child");
	check(pvm_gettmask(who, back) == 0, line);
	snprintf(line, sizeof(line), "%s: the %d bytes read back are the "
	    "bytes set", what, TEV_MASK_LENGTH);
	check(memcmp(back, m, TEV_MASK_LENGTH) == 0, line);
	for (k = 0; k < 4 * (TEV_MASK_LENGTH - 1); k++)
		if (!TEV_MASK_CHECK(back, k) != !TEV_MASK_CHECK(m, k))
			same = 0;
	snprintf(line, sizeof(line), "%s: every bit read back (%s)", what,
	    bits(back));
	check(same, line);
}

int
main(void)
{
	Pvmtmask empty, m, self, child, back;
	int k, n;

	/* The mask nothing has set yet is the empty one. */
	TEV_MASK_INIT(empty)
	check(empty[TEV_MASK_LENGTH - 1] == '\0' &&
	    strspn(empty, "@") == (size_t)TEV_MASK_LENGTH - 1,
	    "TEV_MASK_INIT: 35 bytes '@', then a NUL");
	memset(back, 0x55, sizeof(back));
	check(pvm_gettmask(PvmTaskSelf, back) == 0 &&
	    memcmp(back, empty, TEV_MASK_LENGTH) == 0,
	    "pvm_gettmask(Self) before any set is the empty mask");
	memset(back, 0x55, sizeof(back));
	check(pvm_gettmask(PvmTaskChild, back) == 0 &&
	    memcmp(back, empty, TEV_MASK_LENGTH) == 0,
	    "pvm_gettmask(Child) before any set is the empty mask");

	/* A few events. */
	TEV_MASK_INIT(m);
	TEV_MASK_SET(m, TEV_SEND);
	TEV_MASK_SET(m, TEV_RECV);
	TEV_MASK_SET(m, TEV_SETTMASK);
	check(TEV_MASK_CHECK(m, TEV_SEND) && TEV_MASK_CHECK(m, TEV_RECV) &&
	    TEV_MASK_CHECK(m, TEV_SETTMASK) && !TEV_MASK_CHECK(m, TEV_MCAST),
	    "TEV_MASK_SET / TEV_MASK_CHECK: send, recv, settmask on, "
	    "mcast off");
	round_trip(PvmTaskSelf, m, "send+recv+settmask");

	/* Every event, then every other one unset. */
	TEV_MASK_INIT(m);
	for (k = TEV_FIRST; k <= TEV_MAX; k++)
		TEV_MASK_SET(m, k);
	round_trip(PvmTaskSelf, m, "every event");
	for (k = TEV_FIRST; k <= TEV_MAX; k += 2)
		TEV_MASK_UNSET(m, k);
	n = 0;
	for (k = TEV_FIRST; k <= TEV_MAX; k++)
		n += TEV_MASK_CHECK(m, k) != 0;
	check(n == (TEV_MAX - TEV_FIRST + 1) / 2,
	    "TEV_MASK_UNSET: half of the events left");
	round_trip(PvmTaskChild, m, "odd events");

	/* Self and Child are kept apart. */
	TEV_MASK_INIT(self);
	TEV_MASK_SET(self, TEV_MYTID);
	TEV_MASK_INIT(child);
	TEV_MASK_SET(child, TEV_SPAWN);
	TEV_MASK_SET(child, TEV_USER_DEFINED);
	check(pvm_settmask(PvmTaskSelf, self) == 0 &&
	    pvm_settmask(PvmTaskChild, child) == 0,
	    "pvm_settmask of Self and of Child");
	check(pvm_gettmask(PvmTaskSelf, back) == 0 &&
	    memcmp(back, self, TEV_MASK_LENGTH) == 0,
	    "Self's mask is Self's after Child's was set");
	check(pvm_gettmask(PvmTaskChild, back) == 0 &&
	    memcmp(back, child, TEV_MASK_LENGTH) == 0,
	    "Child's mask is Child's");

	/* The highest bit a mask holds, and back to empty. */
	TEV_MASK_INIT(m);
	TEV_MASK_SET(m, 4 * (TEV_MASK_LENGTH - 1) - 1);
	round_trip(PvmTaskSelf, m, "bit 139");
	round_trip(PvmTaskSelf, empty, "the empty mask");

	/* Neither Self nor Child. */
	check(pvm_settmask(2, m) == PvmBadParam,
	    "pvm_settmask(2, m) is PvmBadParam");
	check(pvm_gettmask(-1, back) == PvmBadParam,
	    "pvm_gettmask(-1, m) is PvmBadParam");

	return failures ? 1 : 0;
}
