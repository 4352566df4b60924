/*
 * fuzz_env.c: libpvm's parsers of the environment and of option values,
 * which need no pvmd: $PVM_EXPORT's colon list (pvm_export,
 * pvm_unexport), $PVM_TMP, $PVM_RSH and $PVM_VMID (pvmgettmp,
 * pvmgetrsh, pvmtmpnam, paths_make), pvm_setopt/pvm_getopt and the trace
 * masks (env.c, opts.c, common/paths.c).
 *
 * Input: one choice byte, then pieces (a length byte and the bytes).  The
 * task is never enrolled here (lpvm_enrol fails), so no option reaches a
 * pvmd.
 */
#include "fuzz.h"
#include "lpvm.h"
#include "ctl.h"

/* ---- the transport, never connected ---- */

struct lpvm_conn *lpvm_pvmd;

int
lpvm_enrol(void)
{
	return PvmSysErr;
}

/* Only reachable once enrolled. */
int
lpvm_send_xdr(int dst, int tag, int ctx, const struct xdr_writer *w)
{
	(void)dst;
	(void)tag;
	(void)ctx;
	(void)w;
	abort();
}

int
pvm_putinfo(char *name, int bufid, int flags)
{
	(void)name;
	(void)bufid;
	(void)flags;
	abort();
}

int
pvm_delinfo(char *name, int index, int flags)
{
	(void)name;
	(void)index;
	(void)flags;
	abort();
}

/* ---- targets ---- */

/*
 * Set name to value with putenv and a buffer of our own: glibc's setenv
 * keeps every value it was ever given, and millions of them would fill
 * the memory of a long run.
 */
static void
fz_setenv(char *buf, size_t size, const char *name, const char *value)
{
	snprintf(buf, size, "%s=%s", name, value);
	FZ_CHECK(putenv(buf) == 0);
}

/* Whether the colon list holds name as a whole element. */
static int
in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; p != NULL; p = strchr(p, ':')) {
		p += *p == ':';
		if (strncmp(p, name, n) == 0 && (p[n] == ':' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/* $PVM_EXPORT, then a name exported or unexported. */
static void
fz_export(struct fz *f, int add)
{
	static char buf[300];
	size_t ln, nn;
	const uint8_t *l = fz_piece(f, &ln), *n = fz_piece(f, &nn);
	char *list = fz_str(l, ln), *name = fz_str(n, nn);
	const char *now;

	if (fz_byte(f) & 1)
		unsetenv("PVM_EXPORT");
	else
		fz_setenv(buf, sizeof(buf), "PVM_EXPORT", list);
	FZ_CHECK((add ? pvm_export(name) : pvm_unexport(name)) == 0);
	/* A name with a colon is several names (or none) to the list. */
	now = getenv("PVM_EXPORT");
	if (*name != '\0' && strchr(name, ':') == NULL) {
		if (add)
			FZ_CHECK(now != NULL && in_list(now, name));
		else if (now != NULL && !in_list(list, name))
			FZ_CHECK(!in_list(now, name));
	}
	free(list);
	free(name);
}

/*
 * An option set from its initial 0 (setopt returns the old value) reads
 * back as set, except PvmSelfOutputCode while PvmSelfOutputTid is 0: PVM
 * 3.4.6 ignores it then (tests/diff p_out).  Option numbers run from -8
 * to 39, past both ends.
 */
static void
fz_opts(struct fz *f)
{
	int what = (int)(fz_byte(f) % 48) - 8, val = (int)fz_u32(f);

	if (pvm_setopt(what, val) != 0)
		return;
	if (what == PvmSelfOutputCode && pvm_getopt(PvmSelfOutputTid) == 0)
		FZ_CHECK(pvm_getopt(what) == 0);
	else
		FZ_CHECK(pvm_getopt(what) == val);
}

static void
fz_tmask(struct fz *f)
{
	char in[CTL_TMASK_LEN], out[CTL_TMASK_LEN];
	size_t n;
	int who = (int)(fz_byte(f) % 4) - 1;
	const uint8_t *p = fz_take(f, sizeof(in), &n);

	memset(in, 'x', sizeof(in));
	memcpy(in, p, n);
	if (pvm_settmask(who, in) == 0) {
		FZ_CHECK(pvm_gettmask(who, out) == 0);
		FZ_CHECK(memcmp(out, in, sizeof(out)) == 0);
	}
}

/* $PVM_TMP and $PVM_VMID as the pvmd and every task read them. */
static void
fz_paths(struct fz *f)
{
	struct pvm_paths p;
	size_t tn, vn;
	const uint8_t *t = fz_piece(f, &tn), *v = fz_piece(f, &vn);
	char *tmp = fz_str(t, tn), *vmid = fz_str(v, vn), sock[64];
	uid_t uid = (uid_t)fz_u32(f);

	if (paths_make(&p, tmp, uid, vmid) == 0) {
		FZ_CHECK(strchr(vmid, '/') == NULL);
		FZ_CHECK(strncmp(p.sock, p.dir, strlen(p.dir)) == 0);
		FZ_CHECK(strlen(p.log) < sizeof(p.log));
		(void)paths_task_sock(&p, (int)uid, sock, sizeof(sock));
	}
	free(tmp);
	free(vmid);
}

/* $PVM_TMP and $PVM_RSH (read once: later changes are not seen), and a
 * temporary name made from the first. */
static void
fz_dirs(struct fz *f)
{
	size_t tn, rn;
	const uint8_t *t = fz_piece(f, &tn), *r = fz_piece(f, &rn);
	char *tmp = fz_str(t, tn), *rsh = fz_str(r, rn), buf[128];

	static char tbuf[300], rbuf[300];

	fz_setenv(tbuf, sizeof(tbuf), "PVM_TMP", tmp);
	fz_setenv(rbuf, sizeof(rbuf), "PVM_RSH", rsh);
	FZ_CHECK(*pvmgettmp() != '\0' && pvmgettmp() == pvmgettmp());
	FZ_CHECK(*pvmgetrsh() != '\0' && pvmgetrsh() == pvmgetrsh());
	FZ_CHECK(strlen(pvmtmpnam(buf)) < sizeof(buf));
	FZ_CHECK(strlen(pvmtmpnam(NULL)) < sizeof(buf));
	free(tmp);
	free(rsh);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;

	/* Options as a task starts with them, PvmAutoErr 0: quiet. */
	memset(&lpvm, 0, sizeof(lpvm));
	fz_init(&f, data, size);
	switch (fz_byte(&f) % 6) {
	case 0:
		fz_export(&f, 1);
		break;
	case 1:
		fz_export(&f, 0);
		break;
	case 2:
		fz_opts(&f);
		break;
	case 3:
		fz_tmask(&f);
		break;
	case 4:
		fz_paths(&f);
		break;
	default:
		fz_dirs(&f);
		break;
	}
	return 0;
}
