/*
 * fmbox.c: the mailbox from Fortran.
 *
 * pvmfgetmboxinfo returns one class per call: its name, the number of
 * classes that matched (nclasses), its number of entries (nentries), and
 * the entries' indices, owners and flags in the arrays index, owner and
 * flags (the caller makes them large enough).  The first call takes a
 * snapshot for the pattern (a private copy); later calls walk it; when
 * it is used up, the call returns info = PvmNotFound and the next call
 * starts over.  nclasses = -1 on input starts over at once.
 * (PVM 3.4's version never advanced past the first class.)
 */
#include "fpvm.h"

#include <stdlib.h>
#include <string.h>

/* One class of the snapshot. */
struct fmbox_class {
	char *name;
	int n;
	int *ent; /* n indices, then n owners, then n flags */
};

static struct {
	int valid;
	int n, next;
	struct fmbox_class *cl;
} fmbox_snap;

/* pvm_putinfo; index = the entry's index or an error. */
void
FPVM(pvmfputinfo, PVMFPUTINFO)(
    char *name, int *bufid, int *flags, int *index, fstrlen_t namelen)
{
	FSTR_CALL(buf, FSTR_NAME, name, namelen, *index,
	    pvm_putinfo(buf, *bufid, *flags));
}

/* pvm_recvinfo. */
void
FPVM(pvmfrecvinfo, PVMFRECVINFO)(
    char *name, int *index, int *flags, int *bufid, fstrlen_t namelen)
{
	FSTR_CALL(buf, FSTR_NAME, name, namelen, *bufid,
	    pvm_recvinfo(buf, *index, *flags));
}

/* pvm_delinfo. */
void
FPVM(pvmfdelinfo, PVMFDELINFO)(
    char *name, int *index, int *flags, int *info, fstrlen_t namelen)
{
	FSTR_CALL(buf, FSTR_NAME, name, namelen, *info,
	    pvm_delinfo(buf, *index, *flags));
}

/* Forget the snapshot. */
static void
fmbox_free(void)
{
	int i;

	for (i = 0; i < fmbox_snap.n && fmbox_snap.cl != NULL; i++) {
		free(fmbox_snap.cl[i].name);
		free(fmbox_snap.cl[i].ent);
	}
	free(fmbox_snap.cl);
	memset(&fmbox_snap, 0, sizeof(fmbox_snap));
}

/* Copy one class of pvm_getmboxinfo's answer; 0 or PvmNoMem. */
static int
fmbox_copy(struct fmbox_class *c, const struct pvmmboxinfo *mi)
{
	size_t n = mi->mi_nentries > 0 ? (size_t)mi->mi_nentries : 0;

	c->name = strdup(mi->mi_name != NULL ? mi->mi_name : "");
	c->ent = calloc(3 * n + 1, sizeof(int));
	if (c->name == NULL || c->ent == NULL) {
		return PvmNoMem;
	}
	c->n = (int)n;
	if (n > 0) {
		memcpy(c->ent, mi->mi_indices, n * sizeof(int));
		memcpy(c->ent + n, mi->mi_owners, n * sizeof(int));
		memcpy(c->ent + 2 * n, mi->mi_flags, n * sizeof(int));
	}
	return 0;
}

/* Take a snapshot of the classes matching pattern; 0 or a Pvm* code. */
static int
fmbox_take(char *pattern)
{
	struct pvmmboxinfo *mi;
	int n, cc, i;

	fmbox_free();
	if ((cc = pvm_getmboxinfo(pattern, &n, &mi)) < 0) {
		return cc;
	}
	fmbox_snap.cl = calloc(n > 0 ? (size_t)n : 1, sizeof(*fmbox_snap.cl));
	if (fmbox_snap.cl == NULL) {
		return PvmNoMem;
	}
	fmbox_snap.n = n;
	for (i = 0; i < n; i++) {
		if (fmbox_copy(&fmbox_snap.cl[i], &mi[i]) < 0) {
			fmbox_free();
			return PvmNoMem;
		}
	}
	fmbox_snap.valid = 1;
	return 0;
}

/* pvm_getmboxinfo, one class per call (see the top of the file). */
void
FPVM(pvmfgetmboxinfo, PVMFGETMBOXINFO)(char *pattern, char *name, int *nclasses,
    int *nentries, int *index, int *owner, int *flags, int *info,
    fstrlen_t patternlen, fstrlen_t namelen)
{
	char buf[FSTR_NAME + 1];
	struct fmbox_class *c;
	int cc;

	if (*nclasses == -1 || !fmbox_snap.valid) {
		if ((cc = fstr_in(buf, sizeof(buf), pattern, patternlen)) < 0 ||
		    (cc = fmbox_take(buf)) < 0) {
			*info = cc;
			return;
		}
	}
	*nclasses = fmbox_snap.n;
	if (fmbox_snap.next >= fmbox_snap.n) {
		fmbox_snap.valid = 0;
		*nentries = 0;
		*info = PvmNotFound;
		return;
	}
	c = &fmbox_snap.cl[fmbox_snap.next++];
	fstr_out(name, namelen, c->name);
	*nentries = c->n;
	if (c->n > 0) {
		memcpy(index, c->ent, (size_t)c->n * sizeof(int));
		memcpy(owner, c->ent + c->n, (size_t)c->n * sizeof(int));
		memcpy(flags, c->ent + 2 * c->n, (size_t)c->n * sizeof(int));
	}
	*info = 0;
}
