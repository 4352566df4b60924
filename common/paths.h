/*
 * paths.h: where a virtual machine keeps its files.
 *
 *   $PVM_TMP/pvm-<uid>[-<PVM_VMID>]/        private directory, mode 0700
 *       sock                               the pvmd's Unix socket
 *       lock                               flock'ed by the running pvmd
 *       pid                                its process id, for messages
 *       t<tid in hex>                      a task's direct-route socket
 *       g<segid in hex>                    a group's barrier segment
 *   $PVM_TMP/pvm-<uid>[-<PVM_VMID>].log     the pvmd's log
 *
 * PVM_TMP defaults to /tmp.  The names differ from PVM 3.4's
 * (/tmp/pvmd.<uid>) so that both can run side by side.
 */
#ifndef PVM_PATHS_H
#define PVM_PATHS_H

#include <sys/types.h>

#define PATHS_MAX 4096

struct pvm_paths {
	char dir[PATHS_MAX];
	char sock[PATHS_MAX];
	char lock[PATHS_MAX];
	char pid[PATHS_MAX];
	char log[PATHS_MAX];
};

/*
 * Fill `p` from explicit inputs (pure).  tmp NULL or "" means /tmp; vmid
 * NULL or "" means none.  Returns 0, or -1 if a path would not fit or the
 * vmid holds a '/'.
 */
int paths_make(struct pvm_paths *p, const char *tmp, uid_t uid,
    const char *vmid);
/* The same from the environment ($PVM_TMP, $PVM_VMID) and getuid(). */
int paths_from_env(struct pvm_paths *p);
/* The direct-route socket path of task `tid`; -1 if it would not fit. */
int paths_task_sock(const struct pvm_paths *p, int tid, char *out,
    size_t outlen);

/* Unlink every file in dir whose name starts with one of the characters
 * of `prefixes` ("tg": direct-route sockets and barrier segments). */
void paths_remove_prefixed(const char *dir, const char *prefixes);

#endif /* PVM_PATHS_H */
