/*
 * cmd-trace.c: the console's trace settings, and the start of the trace
 * that spawn -@ shows.
 *
 *   trace                          the event mask, four columns, '*' =
 *                                  traced
 *   trace [+|-] name|*|xpvm ...    trace (+, the default) or not (-) the
 *                                  events named (with or without "pvm_"),
 *                                  or all (*); xpvm: back to the mask
 *                                  XPVM shows, which is the start
 *   trace buf [n]                  show or set the trace buffer (bytes)
 *   trace opt [full|time|count]    show or set the trace options
 *
 * Words are taken in order, so "trace - send + recv buf 10" works.  No
 * tracer exists here (no task sends trace events): the settings are kept
 * and shown as PVM 3.4.6's console shows them, and buf and opt set
 * PvmTraceBuffer and PvmTraceOptions, as it does.
 *
 * spawn -@ (trace_header) prints what PVM 3.4.6's console prints before
 * any task's event: the trace file's header and a host_add record per
 * host of the machine.  The records of the tasks' events, which need a
 * tracer, are not made.
 */
#include "pvm3.h"
#include "console.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* The events by name, sorted, and whether XPVM's mask has them. */
static const struct {
	const char *name;
	int xpvm;
} trace_events[] = {
	{ "addhosts", 0 }, { "addmhf", 1 }, { "archcode", 0 },
	{ "barrier", 1 }, { "bcast", 1 }, { "bufinfo", 0 }, { "catchout", 0 },
	{ "config", 0 }, { "delete", 0 }, { "delhosts", 0 }, { "delinfo", 0 },
	{ "delmhf", 1 }, { "exit", 1 }, { "freebuf", 0 },
	{ "freecontext", 0 }, { "gather", 0 }, { "getcontext", 0 },
	{ "getfds", 0 }, { "getinfo", 0 }, { "getinst", 0 },
	{ "getmboxinfo", 0 }, { "getminfo", 0 }, { "getmwid", 0 },
	{ "getopt", 0 }, { "getrbuf", 0 }, { "getsbuf", 0 }, { "gettid", 0 },
	{ "gettmask", 0 }, { "gsize", 0 }, { "halt", 0 }, { "hostsync", 0 },
	{ "initsend", 0 }, { "insert", 0 }, { "joingroup", 1 }, { "kill", 1 },
	{ "lookup", 0 }, { "lvgroup", 1 }, { "mcast", 1 },
	{ "mhf_invoke", 1 }, { "mkbuf", 0 }, { "mstat", 0 }, { "mytid", 1 },
	{ "newcontext", 0 }, { "notify", 0 }, { "nrecv", 1 }, { "packf", 0 },
	{ "parent", 1 }, { "perror", 0 }, { "pkbyte", 0 }, { "pkcplx", 0 },
	{ "pkdcplx", 0 }, { "pkdouble", 0 }, { "pkfloat", 0 }, { "pkint", 0 },
	{ "pklong", 0 }, { "pkshort", 0 }, { "pkstr", 0 }, { "pkuint", 0 },
	{ "pkulong", 0 }, { "pkushort", 0 }, { "precv", 1 }, { "probe", 1 },
	{ "psend", 1 }, { "pstat", 0 }, { "putinfo", 0 }, { "recv", 1 },
	{ "recvf", 1 }, { "reduce", 0 }, { "reg_hoster", 0 }, { "reg_rm", 0 },
	{ "reg_tasker", 0 }, { "reg_tracer", 0 }, { "scatter", 0 },
	{ "send", 1 }, { "sendsig", 1 }, { "setcontext", 0 },
	{ "setminfo", 0 }, { "setmwid", 0 }, { "setopt", 0 },
	{ "setrbuf", 0 }, { "setsbuf", 0 }, { "settmask", 0 },
	{ "siblings", 1 }, { "spawn", 1 }, { "start_pvmd", 0 },
	{ "tasks", 0 }, { "tickle", 0 }, { "tidtohost", 0 }, { "trecv", 1 },
	{ "unpackf", 0 }, { "upkbyte", 0 }, { "upkcplx", 0 },
	{ "upkdcplx", 0 }, { "upkdouble", 0 }, { "upkfloat", 0 },
	{ "upkint", 0 }, { "upklong", 0 }, { "upkshort", 0 }, { "upkstr", 0 },
	{ "upkuint", 0 }, { "upkulong", 0 }, { "upkushort", 0 },
	{ "user_defined", 1 }, { "version", 0 },
};

#define TRACE_NEV (sizeof trace_events / sizeof trace_events[0])
#define TRACE_COLS 4

static const char *const trace_opts[] = { "full", "time", "count" };

static int trace_on[TRACE_NEV]; /* the mask */
static int trace_started;       /* trace_on holds XPVM's mask already */
static int trace_buf;           /* trace buf's bytes */
static int trace_opt = PvmTraceFull;

/* The mask starts as XPVM's. */
static void
trace_xpvm(void)
{
	size_t i;

	for (i = 0; i < TRACE_NEV; i++) {
		trace_on[i] = trace_events[i].xpvm;
	}
	trace_started = 1;
}

/* The mask in four columns, down then across. */
static void
trace_list(void)
{
	size_t rows = (TRACE_NEV + TRACE_COLS - 1) / TRACE_COLS, r, c, i;

	for (r = 0; r < rows; r++) {
		for (c = 0; c < TRACE_COLS; c++) {
			if ((i = c * rows + r) >= TRACE_NEV) {
				break;
			}
			printf("%s %c %-15s", c > 0 ? " " : "",
			    trace_on[i] ? '*' : ' ', trace_events[i].name);
		}
		printf("\n");
	}
}

/* Trace (on) or not the event called name ("pvm_" may precede it). */
static void
trace_event(const char *name, int on)
{
	const char *n = strncmp(name, "pvm_", 4) == 0 ? name + 4 : name;
	size_t i;

	for (i = 0; i < TRACE_NEV; i++) {
		if (strcmp(n, trace_events[i].name) == 0) {
			trace_on[i] = on;
			return;
		}
	}
	printf("no such event \"%s\"\n", name);
}

/* trace buf [n]: shows without n; returns the words used after "buf". */
static int
trace_bufword(const char *n)
{
	if (n == NULL) {
		printf("\nTrace Buffering set to %d bytes\n\n", trace_buf);
		return 0;
	}
	trace_buf = util_atoi(n);
	(void)pvm_setopt(PvmTraceBuffer, trace_buf);
	return 1;
}

/* trace opt [name]: the same for the options. */
static int
trace_optword(const char *n)
{
	int i;

	if (n == NULL) {
		printf("\nTrace Options set to \"%s\"\n\n",
		    trace_opts[trace_opt - PvmTraceFull]);
		return 0;
	}
	for (i = 0; i < 3; i++) {
		if (strcmp(n, trace_opts[i]) == 0) {
			trace_opt = PvmTraceFull + i;
			(void)pvm_setopt(PvmTraceOptions, trace_opt);
			return 1;
		}
	}
	printf("\nError:  Unknown Trace Option \"%s\"\n\n", n);
	return 1;
}

/* trace [words]: see the top of the file. */
int
cmd_trace(int argc, char **argv)
{
	const char *next;
	int on = 1, i;
	size_t k;

	if (!trace_started) {
		trace_xpvm();
	}
	if (argc == 1) {
		trace_list();
		return CMD_OK;
	}
	for (i = 1; i < argc; i++) {
		next = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(argv[i], "+") == 0 || strcmp(argv[i], "-") == 0) {
			on = argv[i][0] == '+';
		} else if (strcmp(argv[i], "*") == 0) {
			for (k = 0; k < TRACE_NEV; k++) {
				trace_on[k] = on;
			}
		} else if (strcmp(argv[i], "xpvm") == 0) {
			trace_xpvm();
		} else if (strcmp(argv[i], "buf") == 0) {
			i += trace_bufword(next);
		} else if (strcmp(argv[i], "opt") == 0) {
			i += trace_optword(next);
		} else {
			trace_event(argv[i], on);
		}
	}
	return CMD_OK;
}

/* One line of a trace from tid: "[Tjob:ttid] " before it on the
 * terminal, nothing in a file. */
static void __attribute__((format(printf, 4, 5)))
trace_line(FILE *fp, int job, int tid, const char *fmt, ...)
{
	va_list ap;

	if (fp == stdout) {
		fprintf(fp, "[T%d:t%x] ", job, (unsigned)tid);
	}
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputc('\n', fp);
}

/* The description of the host_add record, before the first one. */
static void
trace_host_desc(FILE *fp, int job, int tid)
{
	static const char *const field[][3] = {
		{ "TS", "Time Seconds", "int" },
		{ "TU", "Time Microseconds", "int" },
		{ "TID", "Task ID", "int" },
		{ "HN", "Host Name", "char" },
		{ "HNA", "Host Name Alias", "char" },
		{ "HA", "Host Architecture", "char" },
		{ "HSP", "Host Speed", "int" },
	};
	size_t i;

	trace_line(fp, job, tid, "%s", "");
	trace_line(fp, job, tid, "#1802: \"host_add(0)\"");
	trace_line(fp, job, tid, "{");
	for (i = 0; i < sizeof field / sizeof field[0]; i++) {
		trace_line(fp, job, tid, "\t// \"%s\" \"%s\"", field[i][0],
		    field[i][1]);
		trace_line(fp, job, tid, "\t%s \"%s\"%s;", field[i][2],
		    field[i][0], field[i][2][0] == 'c' ? "[]" : "");
	}
	trace_line(fp, job, tid, "};;");
	trace_line(fp, job, tid, "%s", "");
}

/* One host_add record: the time, the host's pvmd, its names, arch and
 * speed (strings with their length, the NUL counted). */
static void
trace_host(FILE *fp, int job, const struct pvmhostinfo *h)
{
	const char *name = h->hi_name != NULL ? h->hi_name : "";
	const char *arch = h->hi_arch != NULL ? h->hi_arch : "";
	struct timeval tv;

	gettimeofday(&tv, NULL);
	trace_line(fp, job, h->hi_tid,
	    "\"host_add(0)\" { %ld, %ld, %d, [%zu] { \"%s\" }, [%zu] "
	    "{ \"%s\" }, [%zu] { \"%s\" }, %d };;",
	    (long)tv.tv_sec, (long)tv.tv_usec, h->hi_tid, strlen(name) + 1,
	    name, strlen(name) + 1, name, strlen(arch) + 1, arch, h->hi_speed);
}

/* The start of job `job`'s trace, to fp (stdout: the terminal). */
void
trace_header(FILE *fp, int job)
{
	struct pvmhostinfo *hp;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	int nhost, narch, i;

	if (localtime_r(&now, &tm) == NULL ||
	    strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &tm) == 0) {
		date[0] = '\0';
	}
	trace_line(fp, job, console_tid, "/*");
	trace_line(fp, job, console_tid, " * \"Creation Date\" \"%s\"", date);
	trace_line(fp, job, console_tid,
	    " * \"Machine\" \"Console %s (PVM %s)\"", pvm_version(),
	    pvm_version());
	trace_line(fp, job, console_tid, " */ ;;");
	trace_line(fp, job, console_tid, "%s", "");
	if (pvm_config(&nhost, &narch, &hp) < 0) {
		return;
	}
	for (i = 0; i < nhost; i++) {
		if (i == 0) {
			trace_host_desc(fp, job, hp[i].hi_tid);
		}
		trace_host(fp, job, &hp[i]);
	}
	fflush(fp);
}
