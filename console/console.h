/*
 * console.h: the `pvm` console, one section per file.
 *
 * The console is an ordinary PVM task.  It reads command lines (from a
 * terminal with a "pvm> " prompt, or from a pipe or file without one),
 * runs them through a table of commands, and, while it waits for the next
 * line, prints the output of the jobs whose output it collects (spawn ->).
 * Everything it prints keeps PVM 3.4's shapes, because people and scripts
 * read them.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

#include <stddef.h>
#include <stdio.h>

/* ---- console.c: start-up and the input loop ---- */

/* The console's own tid, set once enrolled. */
extern int console_tid;
/* Non-zero while a "pvm> " prompt is on the screen (terminal only). */
extern int console_prompted;

/* Start a line of asynchronous output: leave the prompt line first. */
void console_async_begin(void);

/* ---- edit.c: line editing on a terminal (libedit), or none ---- */

/* What edit_read_ready found. */
#define EDIT_MORE 0 /* a key was taken; the line is not finished */
#define EDIT_LINE 1 /* a whole line */
#define EDIT_EOF 2  /* end of input (^D on an empty line, hangup) */

/* stdin is a terminal (the caller knows): start editing if libedit was
 * built in, load the history, set up completion.  1 if the console now
 * reads through edit_read_ready, 0 if it reads plain lines itself. */
int edit_init(void);
/* Show the prompt and the line being edited, unless they are on the
 * screen already (first prompt, after a command, after async output). */
void edit_prompt(void);
/* stdin is readable: take what it has.  EDIT_LINE sets *line to the
 * line (no newline), valid until the next call. */
int edit_read_ready(char **line);
/* Output is about to be printed while a line is being edited: leave the
 * line (it is shown again by edit_prompt). */
void edit_async_output_begin(void);
/* Save the history, give the terminal back; safe to call twice. */
void edit_finish(void);

/* ---- cmd.c: the command table, parsing, dispatch, help ---- */

/* What a command handler returns. */
#define CMD_OK 0
#define CMD_QUIT 1 /* leave the console, pvmd keeps running */
#define CMD_HALT 2 /* the pvmd was told to stop: leave at once */

struct cmd_entry {
	const char *name;
	const char *usage;   /* "Syntax:" line, without the name-less part */
	const char *summary; /* one line for "help" */
	const char *help;    /* further lines for "help name", or NULL */
	int (*fn)(int argc, char **argv);
	int hidden;          /* left out of help's list (PVM's tickle) */
	int complete;        /* CMD_COMPLETE_*: what Tab offers after it */
};

/* What Tab completes in the words after a command's name (edit.c). */
#define CMD_COMPLETE_NONE 0
#define CMD_COMPLETE_HOSTS 1 /* host names of the virtual machine */

/* Split a line into words (quotes and backslashes as in a shell), expand
 * an alias in the first word, run the command.  Returns CMD_*. */
int cmd_line(const char *line);
/* Run the commands of a file (~/.pvmrc) until one quits. */
int cmd_file(const char *path);
/* The i-th entry of the command table (help's order), NULL past the
 * end; and the entry called `name`, or NULL. */
const struct cmd_entry *cmd_entry_at(size_t i);
const struct cmd_entry *cmd_find(const char *name);

/* ---- cmd-env.c: commands that touch only the console ---- */

int cmd_alias(int argc, char **argv);
int cmd_unalias(int argc, char **argv);
int cmd_echo(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_unexport(int argc, char **argv);
int cmd_setenv(int argc, char **argv);
int cmd_id(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_quit(int argc, char **argv);
int cmd_getopt(int argc, char **argv);
int cmd_setopt(int argc, char **argv);
/* The words an alias expands to, or NULL (argv-style, NULL-terminated). */
char **cmd_alias_find(const char *name, int *argc);

/* ---- cmd-vm.c: commands about hosts and tasks ---- */

int cmd_add(int argc, char **argv);
int cmd_conf(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_halt(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_mstat(int argc, char **argv);
int cmd_names(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_pstat(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_sig(int argc, char **argv);
/* For jobs -l: the short ps header, and ps rows of the given tasks. */
void cmd_ps_header(int lng);
void cmd_ps_tids(const int *tids, int ntid);

/* ---- cmd-pvmd.c: put and tickle ---- */

int cmd_put(int argc, char **argv);
int cmd_tickle(int argc, char **argv);

/* ---- cmd-trace.c: trace settings, the start of spawn -@'s trace ---- */

int cmd_trace(int argc, char **argv);
/* The header and host records of job `job`'s trace, to fp (stdout: each
 * line marked "[Tjob:tTID] "). */
void trace_header(FILE *fp, int job);

/* ---- cmd-spawn.c ---- */

int cmd_spawn(int argc, char **argv);

/* ---- job.c: jobs whose output the console collects ---- */

/* A new job writing its tasks' output to fp (stdout, or a file the job
 * then owns), or, fp NULL, one that collects no output (spawn -@ alone:
 * it ends when its tasks exit).  A traced job takes two numbers. */
struct job *job_new(FILE *fp, int traced);
/* Drop a job (it owns its file). */
void job_free(struct job *j);
/* Its number ([1], [2], ...) and the message tag its output carries. */
int job_number(const struct job *j);
int job_tag(const struct job *j);
/* Record the tids pvm_spawn gave; drops the job if none started. */
void job_started(struct job *j, const int *tids, int ntid);
/* Take every message that is waiting; returns 0 or a Pvm* error (the
 * pvmd went away). */
int job_drain(void);
/* Number of jobs still running. */
int job_count(void);
/* Wait until every job has finished (end of input); 0 or a Pvm* error,
 * reported on stderr already. */
int job_wait_all(void);
int cmd_jobs(int argc, char **argv);

/* ---- util.c ---- */

/* Parse "t40003", "40003" or "0x40003".  0 and *tid, or -1. */
int util_parse_tid(const char *s, int *tid);
/* Parse a decimal int; 0 and *v, or -1. */
int util_parse_int(const char *s, int *v);
/* PVM 3.4.6's console's readings: a tid ("t12", "12zz": 0x12; "junk":
 * 0) and a number (atoi's). */
int util_tid_lax(const char *s);
int util_atoi(const char *s);
/* The same in another base (0: C's prefixes). */
int util_num(const char *s, int base);
/* PVM's text for an error code ("No such file"). */
const char *util_errtext(int code);
/* Report a failure the way PvmAutoErr reports libpvm's, on stderr. */
void util_perror(const char *call, int code);
/* Host name of a pvmd tid, from a fresh pvm_config; NULL if unknown. */
const char *util_hostname(int dtid);
/* The flag letters of a task, PVM's ps style ("c,f"); static buffer. */
const char *util_taskflags(int flag);
/* $HOME/name in buf (n bytes); -1 if there is no HOME or it does not
 * fit (~/.pvmrc, ~/.pvm_history). */
int util_home_file(const char *name, char *buf, size_t n);

#endif /* CONSOLE_H */
