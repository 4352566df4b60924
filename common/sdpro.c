/*
 * sdpro.c: encoders and pure decoders of the resource manager's and the
 * tracer's message bodies (sdpro.h describes them).
 */
#include "sdpro.h"

#include <stdlib.h>
#include <string.h>

/* Read n ints into v; 0 or -1. */
static int
sd_ints(struct xdr_reader *r, int32_t *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (xdr_get_int(r, &v[i]) != 0)
			return -1;
	}
	return 0;
}

int
sd_exec_decode(const uint8_t *p, size_t n, struct sd_exec *e)
{
	struct xdr_reader r;
	int32_t v[7];

	memset(e, 0, sizeof(*e));
	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &e->ptid) != 0 ||
	    (e->file = xdr_get_str(&r)) == NULL || sd_ints(&r, v, 3) != 0)
		return -1;
	e->flags = v[0];
	e->count = v[1];
	e->nargs = v[2];
	if (e->count < 1 || e->count > SD_COUNT_MAX ||
	    (e->args = xdr_get_strs(&r, e->nargs)) == NULL)
		goto bad;
	if (sd_ints(&r, v, 7) != 0)
		goto bad;
	e->outtid = v[0];
	e->outctx = v[1];
	e->outtag = v[2];
	e->trctid = v[3];
	e->trcctx = v[4];
	e->trctag = v[5];
	e->nenv = v[6];
	if ((e->env = xdr_get_strs(&r, e->nenv)) == NULL)
		goto bad;
	/* PVM 3.4.6 reads instance and outof after the environment; older
	 * managers do not send them. */
	if (xdr_left(&r) >= 8 && sd_ints(&r, v, 2) == 0) {
		e->instance = v[0];
		e->outof = v[1];
	}
	if (xdr_left(&r) != 0)
		goto bad;
	return 0;
bad:
	sd_exec_free(e);
	return -1;
}

void
sd_exec_free(struct sd_exec *e)
{
	free(e->args);
	free(e->env);
	e->args = NULL;
	e->env = NULL;
}

void
sd_host_free(struct sd_host *h)
{
	free(h->name);
	free(h->arch);
	h->name = NULL;
	h->arch = NULL;
}

/* {int tid, str name, str arch, int speed, int dsig}; 0 or -1. */
static int
sd_host_decode(struct xdr_reader *r, struct sd_host *h)
{
	const char *name, *arch;

	memset(h, 0, sizeof(*h));
	if (xdr_get_int(r, &h->tid) != 0 || (name = xdr_get_str(r)) == NULL ||
	    (arch = xdr_get_str(r)) == NULL || xdr_get_int(r, &h->speed) != 0 ||
	    xdr_get_int(r, &h->dsig) != 0)
		return -1;
	h->name = strdup(name);
	h->arch = strdup(arch);
	if (h->name == NULL || h->arch == NULL) {
		sd_host_free(h);
		return -1;
	}
	return 0;
}

void
sd_sched_encode(struct xdr_writer *w, int32_t old, int32_t tid,
    const char *name, const char *arch, int32_t speed, int32_t dsig)
{
	xdr_put_int(w, old);
	xdr_put_int(w, tid);
	xdr_put_str(w, name);
	xdr_put_str(w, arch);
	xdr_put_int(w, speed);
	xdr_put_int(w, dsig);
}

int
sd_sched_decode(const uint8_t *p, size_t n, struct sd_sched *s)
{
	struct xdr_reader r;

	memset(s, 0, sizeof(*s));
	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &s->old) != 0)
		return -1;
	if (s->old < 0)
		return xdr_left(&r) == 0 ? s->old : -1;
	if (sd_host_decode(&r, &s->master) != 0)
		return -1;
	if (xdr_left(&r) != 0) {
		sd_host_free(&s->master);
		return -1;
	}
	return 0;
}

void
sd_hosts_free(struct sd_host *hosts, int n)
{
	int i;

	for (i = 0; hosts != NULL && i < n; i++)
		sd_host_free(&hosts[i]);
	free(hosts);
}

/* n hosts from r into a new array; NULL if malformed. */
static struct sd_host *
sd_hosts_read(struct xdr_reader *r, int32_t n)
{
	struct sd_host *h;
	int32_t i;

	/* Each host takes at least 5 words. */
	if (n < 0 || n > SD_HOSTS_MAX || (size_t)n > xdr_left(r) / 20)
		return NULL;
	if ((h = calloc((size_t)n + 1, sizeof(*h))) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (sd_host_decode(r, &h[i]) != 0) {
			sd_hosts_free(h, i);
			return NULL;
		}
	}
	return h;
}

int
sd_config_decode(
    const uint8_t *p, size_t n, struct sd_host **hosts, int *nhost, int *narch)
{
	struct xdr_reader r;
	int32_t nh, na;

	*hosts = NULL;
	*nhost = *narch = 0;
	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &nh) != 0)
		return -1;
	if (nh < 0 && xdr_left(&r) == 0)
		return nh;
	if (xdr_get_int(&r, &na) != 0 || na < 0 || na > SD_HOSTS_MAX ||
	    (*hosts = sd_hosts_read(&r, nh)) == NULL)
		return -1;
	*nhost = nh;
	*narch = na;
	return 0;
}

int
sd_spawn_reply_decode(const uint8_t *p, size_t n, int count, int32_t *slots)
{
	struct xdr_reader r;
	int32_t cc;
	int i, ok = 0;

	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &cc) != 0)
		return SD_MALFORMED;
	if (cc < 0)
		return xdr_left(&r) == 0 ? cc : SD_MALFORMED;
	if (cc != count || xdr_left(&r) != (size_t)count * 4)
		return SD_MALFORMED;
	for (i = 0; i < count; i++) {
		xdr_get_int(&r, &slots[i]);
		if (slots[i] > 0)
			ok++;
	}
	return ok;
}

void
sd_tasks_free(struct sd_task *tasks, int n)
{
	int i;

	for (i = 0; tasks != NULL && i < n; i++)
		free(tasks[i].a_out);
	free(tasks);
}

/* One {tid, ptid, host, flag, a_out, pid}; 0 or -1. */
static int
sd_task_decode(struct xdr_reader *r, struct sd_task *t)
{
	int32_t v[4];
	const char *a;

	if (sd_ints(r, v, 4) != 0 || (a = xdr_get_str(r)) == NULL ||
	    xdr_get_int(r, &t->pid) != 0)
		return -1;
	t->tid = v[0];
	t->ptid = v[1];
	t->host = v[2];
	t->flag = v[3];
	return (t->a_out = strdup(a)) != NULL ? 0 : -1;
}

int
sd_tasks_decode(const uint8_t *p, size_t n, struct sd_task **tasks, int *ntask)
{
	struct xdr_reader r;
	struct sd_task *v;
	int32_t st;
	size_t max, i = 0;

	*tasks = NULL;
	*ntask = 0;
	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &st) != 0)
		return SD_MALFORMED;
	if (st < 0)
		return xdr_left(&r) == 0 ? st : SD_MALFORMED;
	/* Each task takes at least 7 words. */
	max = xdr_left(&r) / 28;
	if (max > SD_COUNT_MAX || (v = calloc(max + 1, sizeof(*v))) == NULL)
		return SD_MALFORMED;
	while (xdr_left(&r) > 0) {
		if (i == max || sd_task_decode(&r, &v[i]) != 0) {
			sd_tasks_free(v, (int)i + 1);
			return SD_MALFORMED;
		}
		i++;
	}
	*tasks = v;
	*ntask = (int)i;
	return 0;
}

int
sd_hostchange_decode(
    const uint8_t *p, size_t n, int add, int count, int32_t *codes)
{
	struct xdr_reader r;
	struct sd_host *h;
	int32_t cc, narch;
	int i;

	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &cc) != 0)
		return SD_MALFORMED;
	if (cc < 0)
		return xdr_left(&r) == 0 ? cc : SD_MALFORMED;
	if (cc != count || count < 1 || count > SD_HOSTS_MAX)
		return SD_MALFORMED;
	if (!add) {
		if (xdr_left(&r) != (size_t)count * 4)
			return SD_MALFORMED;
		for (i = 0; i < count; i++)
			xdr_get_int(&r, &codes[i]);
		return count;
	}
	if (xdr_get_int(&r, &narch) != 0 ||
	    (h = sd_hosts_read(&r, count)) == NULL)
		return SD_MALFORMED;
	for (i = 0; i < count; i++)
		codes[i] = h[i].tid;
	sd_hosts_free(h, count);
	return xdr_left(&r) == 0 ? count : SD_MALFORMED;
}

int
sd_add_decode(const uint8_t *p, size_t n, const char ***names, int *count)
{
	struct xdr_reader r;
	const char **v;
	int32_t c;
	int i;

	*names = NULL;
	*count = 0;
	xdr_reader_init(&r, p, n);
	/* Each name takes 8 bytes at least: a bound before allocating. */
	if (xdr_get_int(&r, &c) != 0 || c < 1 || c > SD_HOSTS_MAX ||
	    (size_t)c > xdr_left(&r) / 8)
		return -1;
	if ((v = calloc((size_t)c, sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < c; i++) {
		if ((v[i] = xdr_get_str(&r)) == NULL) {
			free(v);
			return -1;
		}
	}
	if (xdr_left(&r) != 0) {
		free(v);
		return -1;
	}
	*names = v;
	*count = c;
	return 0;
}

void
sd_tracer_encode(struct xdr_writer *w, const struct sd_tracer *t)
{
	xdr_put_int(w, t->tid);
	xdr_put_int(w, t->trcctx);
	xdr_put_int(w, t->trctag);
	xdr_put_int(w, t->outctx);
	xdr_put_int(w, t->outtag);
	xdr_put_str(w, t->tmask);
	xdr_put_int(w, t->trcbuf);
	xdr_put_int(w, t->trcopt);
}

/* ctx, tag, ctx, tag, mask, buf, opt into t (t->tid untouched). */
static int
sd_tracer_settings(struct xdr_reader *r, struct sd_tracer *t)
{
	int32_t v[4];
	const char *m;

	if (sd_ints(r, v, 4) != 0 || (m = xdr_get_str(r)) == NULL ||
	    strlen(m) >= SD_TMASK_LEN || xdr_get_int(r, &t->trcbuf) != 0 ||
	    xdr_get_int(r, &t->trcopt) != 0)
		return -1;
	t->trcctx = v[0];
	t->trctag = v[1];
	t->outctx = v[2];
	t->outtag = v[3];
	memset(t->tmask, 0, sizeof(t->tmask));
	memcpy(t->tmask, m, strlen(m));
	return 0;
}

int
sd_tracer_decode(struct xdr_reader *r, struct sd_tracer *t)
{
	memset(t, 0, sizeof(*t));
	if (xdr_get_int(r, &t->tid) != 0 || sd_tracer_settings(r, t) != 0 ||
	    xdr_left(r) != 0)
		return -1;
	return 0;
}

int
sd_tracer_req_decode(
    const uint8_t *p, size_t n, int *regme, struct sd_tracer *t)
{
	struct xdr_reader r;
	int32_t v;

	memset(t, 0, sizeof(*t));
	xdr_reader_init(&r, p, n);
	if (xdr_get_int(&r, &v) != 0)
		return -1;
	*regme = v != 0;
	if (*regme && sd_tracer_settings(&r, t) != 0)
		return -1;
	/* An unregistration may carry settings too (they are ignored). */
	return *regme && xdr_left(&r) != 0 ? -1 : 0;
}
