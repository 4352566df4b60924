/*
 * hostfile.h: PVM 3.4's hostfile format and batch allocations' host
 * lists.  Pure functions over strings: the caller reads the file (or the
 * environment), the daemon expands $VAR in values, refuses so=pw/so=ms
 * and finds duplicate hosts.
 *
 * A hostfile line is blank, a comment ('#' first), or
 *
 *   [&][$]name [opt=value ...]        '&': known, start later (addhosts)
 *   * [opt=value ...]                 defaults for the lines below
 *
 * Options: lo= so= dx= ep= wd= ip= bx= id= sp=.  Words are separated by
 * blanks; there is no quoting.  A word starting with '#' ends the line.
 * As in PVM, a '*' line replaces the defaults of an earlier '*' line (it
 * starts again from host_opts_default), and applies to later lines only.
 */
#ifndef PVMD_HOSTFILE_H
#define PVMD_HOSTFILE_H

#include <stddef.h>

#define HOSTFILE_MAX_LINES 4095 /* as PVM: one line per possible host */
#define HOSTLIST_MAX 4095
#define HOST_SPEED_DEFAULT 1000
#define HOST_SPEED_MAX 1000000

struct host_opts {
	char login[64]; /* lo= */
	char so[16];    /* so= (pw, ms: not supported; the caller refuses) */
	char dx[1024];  /* dx= pvmd path on that host */
	char ep[1024];  /* ep= executable search path */
	char wd[1024];  /* wd= working directory */
	char ip[256];   /* ip= name/address to connect to instead */
	char bx[1024];  /* bx= debugger */
	char id[64];    /* id= virtual machine id */
	int speed;      /* sp=, 1..1000000, default 1000 */
};

struct host_ent {
	char name[256];
	int later;    /* leading '&': known, not started */
	int overload; /* leading '$' (accepted, no effect) */
	int line;     /* line number in the file (hostfile_parse), else 0 */
	struct host_opts o;
};

void host_opts_default(struct host_opts *o);

/*
 * Parse one line (a trailing "\n" or "\r\n" is taken as blank) with
 * *defaults applied first (NULL: host_opts_default).  Returns 1 for a
 * host entry in *e, 2 for a '*' line (*defaults replaced), 0 for a blank
 * or comment line, or -1 with a short reason in err (errlen bytes; err
 * may be NULL).  *defaults is untouched when -1 is returned.
 */
int hostfile_line(const char *line, struct host_opts *defaults,
    struct host_ent *e, char *err, size_t errlen);

struct hostfile {
	struct host_ent *v;
	int n;
	struct host_opts defaults; /* the last '*' line's, for addhosts */
};

/*
 * Parse a whole file's text (len bytes; a NUL byte makes it invalid).
 * 0, or -1 with "line N: reason" in err and *hf empty.  More than
 * HOSTFILE_MAX_LINES lines (comments and blank lines count) is an error,
 * as in PVM.
 */
int hostfile_parse(const char *text, size_t len, struct hostfile *hf, char *err,
    size_t errlen);
void hostfile_free(struct hostfile *hf);

/*
 * Expand a Slurm-style compressed node list, comma separated items each
 * either a plain name or prefix[ranges] ("node[01-03,7],gpu1"), into n
 * names in *out (malloc'ed array of malloc'ed strings).  A range keeps
 * the width of its first number ("n[08-10]": n08 n09 n10).  0, or -1 for
 * malformed input or more than HOSTLIST_MAX names (*out NULL, *n 0).
 */
int hostlist_expand(const char *spec, char ***out, int *n);
void hostlist_free(char **v, int n);
/*
 * The host names of a node file (PBS_NODEFILE: one per line, repeated
 * once per slot), each once, in order; blank lines skipped.  0, or -1 if
 * out of memory or more than HOSTLIST_MAX names.  text need not end in
 * a NUL but must not hold one.
 */
int hostlist_lines(const char *text, size_t len, char ***out, int *n);

/*
 * Expand $NAME (letters, digits, '_') in an option value, as each pvmd
 * does in PVM 3.4, with lookup(NAME) (NULL: empty).  0, or -1 if the
 * result does not fit in out[outlen].  Pure but for what lookup does.
 */
int hostfile_expand(const char *in, char *out, size_t outlen,
    const char *(*lookup)(const char *name));

#endif
