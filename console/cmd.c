/*
 * cmd.c: the console's command table, line splitting, alias expansion,
 * dispatch and the generated "help".
 *
 * One table entry per command (designated initializers); "help" prints
 * from the table, so a new command documents itself by being added here.
 */
#include "pvm3.h"
#include "console.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD_MAXDEPTH 8 /* aliases naming aliases */

static int cmd_help(int argc, char **argv);

static const struct cmd_entry cmd_table[] = {
	{ .name = "add", .fn = cmd_add,
	    .usage = "add hostname ...",
	    .summary = "Add hosts to the virtual machine",
	    .help = "Each argument is a host name, optionally followed by\n"
		    "hostfile options in one quoted word.\n" },
	{ .name = "alias", .fn = cmd_alias,
	    .usage = "alias [ name [ command [ arg ... ] ] ]",
	    .summary = "Define or list command aliases",
	    .help = "Without arguments, list every alias; with a name only,\n"
		    "show that alias.\n" },
	{ .name = "conf", .fn = cmd_conf,
	    .usage = "conf",
	    .summary = "List the hosts of the virtual machine",
	    .help = "Columns:\n"
		    "  HOST    host name\n"
		    "  DTID    tid of the host's pvmd\n"
		    "  ARCH    architecture\n"
		    "  SPEED   relative speed\n"
		    "  DSIG    data format signature\n" },
	{ .name = "delete", .fn = cmd_delete,
	    .complete = CMD_COMPLETE_HOSTS,
	    .usage = "delete hostname ...",
	    .summary = "Remove hosts from the virtual machine" },
	{ .name = "echo", .fn = cmd_echo,
	    .usage = "echo [ arg ... ]",
	    .summary = "Print the arguments" },
	{ .name = "export", .fn = cmd_export,
	    .usage = "export [ name ... ]",
	    .summary = "Add variables to the spawn environment list",
	    .help = "Without arguments, show PVM_EXPORT.\n" },
	{ .name = "getopt", .fn = cmd_getopt,
	    .usage = "getopt [ option ]",
	    .summary = "Show the console task's PVM options" },
	{ .name = "halt", .fn = cmd_halt,
	    .usage = "halt",
	    .summary = "Stop every pvmd and task, then leave" },
	{ .name = "help", .fn = cmd_help,
	    .usage = "help [ command ]",
	    .summary = "Describe the commands, or one command" },
	{ .name = "id", .fn = cmd_id,
	    .usage = "id",
	    .summary = "Print the console's task id" },
	{ .name = "jobs", .fn = cmd_jobs,
	    .usage = "jobs [ -l ]",
	    .summary = "List the jobs whose output is collected",
	    .help = "Options:  -l   list each job's tasks like ps\n" },
	{ .name = "kill", .fn = cmd_kill,
	    .usage = "kill [ -c ] tid ...",
	    .summary = "Terminate tasks",
	    .help = "Options:  -c   terminate the children of each tid\n"
		    "Tids are hex, with or without a leading t (t40003).\n" },
	{ .name = "mstat", .fn = cmd_mstat,
	    .complete = CMD_COMPLETE_HOSTS,
	    .usage = "mstat hostname ...",
	    .summary = "Show whether hosts are up" },
	{ .name = "names", .fn = cmd_names,
	    .usage = "names [ pattern ]",
	    .summary = "List the names in the message mailbox" },
	{ .name = "ps", .fn = cmd_ps,
	    .usage = "ps [ -alx ] [ -hhost-tid ] [ -nhostname ]",
	    .summary = "List tasks",
	    .help = "Options:  -a       all hosts (default: this one)\n"
		    "          -hTID    tasks of the host with pvmd tid TID\n"
		    "          -nNAME   tasks of the host called NAME\n"
		    "          -l       long listing: parent tid and pid too\n"
		    "          -x       also the console and unnamed tasks\n"
		    "Columns:  HOST, TID, PTID, PID, FLAG, COMMAND\n"
		    "FLAG letters:\n"
		    "  c   connected to its pvmd\n"
		    "  f   started by its pvmd\n"
		    "  a   waiting for authentication\n"
		    "  o   connection closing\n"
		    "  s   blocked on shared memory\n"
		    "  H   hoster   R   resource manager   T   tasker\n" },
	{ .name = "pstat", .fn = cmd_pstat,
	    .usage = "pstat tid ...",
	    .summary = "Show whether tasks are running" },
	{ .name = "put", .fn = cmd_put,
	    .usage = "put name flags value",
	    .summary = "Add an entry to the message mailbox",
	    .help = "flags: the PvmMbox bits as a decimal number (1 persistent,\n"
		    "2 multi-instance, 4 overwritable).  The entry holds one\n"
		    "int, 0, whatever the value says (as PVM 3.4.6's console\n"
		    "stores it).  names lists the mailbox.\n" },
	{ .name = "quit", .fn = cmd_quit,
	    .usage = "quit",
	    .summary = "Leave the console; the pvmd keeps running" },
	{ .name = "reset", .fn = cmd_reset,
	    .usage = "reset",
	    .summary = "Kill all tasks but consoles and no-reset ones" },
	{ .name = "setenv", .fn = cmd_setenv,
	    .usage = "setenv [ name [ value ] ]",
	    .summary = "Show or set the console's environment" },
	{ .name = "setopt", .fn = cmd_setopt,
	    .usage = "setopt option value",
	    .summary = "Set a PVM option of the console task itself" },
	{ .name = "sig", .fn = cmd_sig,
	    .usage = "sig signum tid ...",
	    .summary = "Send a signal to tasks" },
	{ .name = "spawn", .fn = cmd_spawn,
	    .usage = "spawn [ options ] file [ arg ... ]",
	    .summary = "Start tasks",
	    .help = "Options:  -N          start N tasks (default 1)\n"
		    "          -HOST       on that host\n"
		    "          --host=ADDR on the host with that address\n"
		    "          -ARCH       on hosts of that architecture\n"
		    "          -?          under the debugger\n"
		    "          ->          show the tasks' output here\n"
		    "          ->FILE      write the tasks' output to FILE\n"
		    "          ->>FILE     append the tasks' output to FILE\n"
		    "          -@          trace the tasks here\n"
		    "          -@FILE      trace them into FILE (a new file)\n"
		    "A trace here has its start (the machine's hosts) only:\n"
		    "no tracer records the tasks' events.\n"
		    "Not supported: -:WD, -HOST:WD (working directory).\n" },
	{ .name = "tickle", .fn = cmd_tickle, .hidden = 1,
	    .usage = "tickle how [ arg ... ]",
	    .summary = "Ask the pvmd for a debugging action",
	    .help = "Numbers as in C (0x10 is 16); the pvmd's answer is\n"
		    "printed as ( value ... ).  How (dumps go to the pvmd's log):\n"
		    "  0   heap (nothing to dump here)\n"
		    "  1   host table\n"
		    "  2   task table of this host\n"
		    "  3   wait contexts (none kept here)\n"
		    "  4   message mailbox\n"
		    "  5   get the debug mask\n"
		    "  6   mask: set the debug mask (non-zero: debug lines)\n"
		    "  7   num: set nopax (no effect here)\n"
		    "  8   dtid: make that host fail (master only)\n"
		    "  9   statistics\n"
		    "  100 shared memory (not used here)\n" },
	{ .name = "trace", .fn = cmd_trace,
	    .usage = "trace [ [+|-] name|*|xpvm ... ] [ buf [n] ] "
		     "[ opt [full|time|count] ]",
	    .summary = "Show or set the trace event mask",
	    .help = "Without arguments, list the events ('*': traced).\n"
		    "+ (the default) traces the names that follow, - stops;\n"
		    "* is every event, xpvm the mask XPVM shows (the start).\n"
		    "buf and opt without a value show the trace buffer and\n"
		    "options.  Nothing is traced here (no tracer): the mask\n"
		    "is kept and shown.\n" },
	{ .name = "unalias", .fn = cmd_unalias,
	    .usage = "unalias name ...",
	    .summary = "Remove command aliases" },
	{ .name = "unexport", .fn = cmd_unexport,
	    .usage = "unexport [ name ... ]",
	    .summary = "Remove variables from the spawn environment list" },
	{ .name = "version", .fn = cmd_version,
	    .usage = "version",
	    .summary = "Print the libpvm version" },
};

#define CMD_COUNT (sizeof cmd_table / sizeof cmd_table[0])

/* The table entry called `name`, or NULL. */
const struct cmd_entry *
cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < CMD_COUNT; i++) {
		if (strcmp(cmd_table[i].name, name) == 0) {
			return &cmd_table[i];
		}
	}
	return NULL;
}

/* The table, entry by entry, for the console's completion (edit.c): the
 * names Tab offers are the names help lists. */
const struct cmd_entry *
cmd_entry_at(size_t i)
{
	return i < CMD_COUNT ? &cmd_table[i] : NULL;
}

/* help [command]: generated from the table. */
static int
cmd_help(int argc, char **argv)
{
	const struct cmd_entry *ce;
	size_t i;

	if (argc > 2) {
		printf("help: wrong #args\n");
		return CMD_OK;
	}
	ce = cmd_find(argc == 2 ? argv[1] : "help");
	if (ce == NULL) {
		return CMD_OK; /* PVM 3.4.6 says nothing */
	}
	printf("%-12s%s\n", ce->name, ce->summary);
	printf("Syntax:  %s\n", ce->usage);
	if (argc == 2) {
		if (ce->help != NULL) {
			fputs(ce->help, stdout);
		}
		return CMD_OK;
	}
	printf("Commands are:\n");
	for (i = 0; i < CMD_COUNT; i++) {
		if (!cmd_table[i].hidden) {
			printf("  %-12s%s\n", cmd_table[i].name,
			    cmd_table[i].summary);
		}
	}
	return CMD_OK;
}

/* A growable argv. */
struct cmd_words {
	char **v;
	int n, cap;
};

/* Append a copy of s; -1 if out of memory. */
static int
cmd_words_add(struct cmd_words *w, const char *s, size_t len)
{
	char **nv;
	int ncap;

	if (w->n + 2 > w->cap) {
		/* cap grows only with the array: after a failed realloc the
		 * next call must not think there is room. */
		ncap = w->cap ? w->cap * 2 : 16;
		nv = realloc(w->v, (size_t)ncap * sizeof *nv);
		if (nv == NULL) {
			return -1;
		}
		w->v = nv;
		w->cap = ncap;
	}
	if ((w->v[w->n] = strndup(s, len)) == NULL) {
		return -1;
	}
	w->n++;
	w->v[w->n] = NULL;
	return 0;
}

/* Free the words. */
static void
cmd_words_free(struct cmd_words *w)
{
	int i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i]);
	}
	free(w->v);
	w->v = NULL;
	w->n = w->cap = 0;
}

/*
 * Split a line into words: blanks separate, '...' and "..." quote (the
 * quotes are removed), a backslash takes the next character literally.
 * An unquoted '#' at the start of a word begins a comment.  -1 on an
 * unterminated quote or no memory.
 */
static int
cmd_split(const char *line, struct cmd_words *w)
{
	char *buf, *o;
	const char *p = line;
	char quote;
	int inword;

	if ((buf = malloc(strlen(line) + 1)) == NULL) {
		return -1;
	}
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			p++;
		}
		if (*p == '\0' || *p == '#') {
			break;
		}
		o = buf;
		quote = 0;
		inword = 1;
		while (inword && *p != '\0') {
			if (quote != 0) {
				if (*p == quote) {
					quote = 0;
				} else if (*p == '\\' && quote == '"' &&
				    p[1] != '\0') {
					*o++ = *++p;
				} else {
					*o++ = *p;
				}
				p++;
			} else if (*p == '\'' || *p == '"') {
				quote = *p++;
			} else if (*p == '\\' && p[1] != '\0') {
				*o++ = p[1];
				p += 2;
			} else if (strchr(" \t\r\n", *p) != NULL) {
				inword = 0;
			} else {
				*o++ = *p++;
			}
		}
		if (quote != 0) {
			printf("unmatched %c\n", quote);
			free(buf);
			return -1;
		}
		if (cmd_words_add(w, buf, (size_t)(o - buf)) < 0) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

/* Run argv, expanding an alias in argv[0] (depth counts nested ones). */
static int
cmd_run(int argc, char **argv, int depth)
{
	const struct cmd_entry *ce;
	struct cmd_words w = { 0 };
	char **av;
	int ac, i, rc;

	if ((av = cmd_alias_find(argv[0], &ac)) != NULL &&
	    depth < CMD_MAXDEPTH) {
		for (i = 0; i < ac; i++) {
			if (cmd_words_add(&w, av[i], strlen(av[i])) < 0) {
				goto nomem;
			}
		}
		for (i = 1; i < argc; i++) {
			if (cmd_words_add(&w, argv[i], strlen(argv[i])) < 0) {
				goto nomem;
			}
		}
		rc = w.n > 0 ? cmd_run(w.n, w.v, depth + 1) : CMD_OK;
		cmd_words_free(&w);
		return rc;
	}
	if ((ce = cmd_find(argv[0])) == NULL) {
		printf("%s: not found\n", argv[0]);
		return CMD_OK;
	}
	return ce->fn(argc, argv);

nomem:
	cmd_words_free(&w);
	printf("%s: out of memory\n", argv[0]);
	return CMD_OK;
}

/* Run one command line. */
int
cmd_line(const char *line)
{
	struct cmd_words w = { 0 };
	int rc = CMD_OK;

	if (cmd_split(line, &w) == 0 && w.n > 0) {
		rc = cmd_run(w.n, w.v, 0);
	}
	cmd_words_free(&w);
	fflush(stdout);
	return rc;
}

/* Run each line of a file (~/.pvmrc); stop early if one quits. */
int
cmd_file(const char *path)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	int rc = CMD_OK;

	if ((fp = fopen(path, "r")) == NULL) {
		return CMD_OK;
	}
	while (rc == CMD_OK && getline(&line, &cap, fp) != -1) {
		rc = cmd_line(line);
	}
	free(line);
	fclose(fp);
	return rc;
}
