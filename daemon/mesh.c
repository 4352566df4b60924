/*
 * mesh.c: direct links between slaves.
 *
 * Every slave dials the master (link.c); without more, frames between
 * two slaves cross the master, two links and three pvmds.  So each slave
 * also listens, and of two slaves the one with the higher index dials
 * the other as soon as it knows it (from the table it was welcomed with
 * or a DM_HOSTADD; addresses are in both).  So two slaves never dial
 * each other at once, and a chain of dials always ends (each dial waits
 * for a pvmd of lower index).  The handshake is the master's (link.c):
 * both sides prove the secret.  Until a direct link is up, and if
 * dialing fails, frames go through the master as before.
 *
 * Switch-over without reordering.  Frames already sent through the
 * master must not be overtaken by frames sent on the new link.  Each
 * side, when it moves its sending to the new link, first sends a
 * DM_MESHMARK to the peer through the master; the peer does not read
 * the new link until that mark has come, and everything the side sent
 * through the master came before it (one path, FIFO).  The side that
 * accepted the link switches as soon as the proof checks out; the side
 * that dialed waits for the acceptor's mark, so it switches only once it
 * knows the link was taken (a refused link then costs nothing).  So:
 *
 *   acceptor: proof ok -> mark via master, send on link, hold link
 *   dialer:   hold link ... acceptor's mark -> release, mark via master,
 *             send on link
 *   acceptor: ... dialer's mark -> release
 *
 * The acceptor's mark also follows the master's DM_HOSTADD for the
 * dialer on the master's link, so the dialer's frames are never read
 * before its host entry exists.
 *
 * A direct link that closes once we sent on it may have lost frames: we
 * tell the master (DM_HOSTFAIL), which deletes that host, as if its
 * link to the master had closed.  One that closes before is just
 * dropped.  PVMD_MESH=0 turns dialing off (frames keep going through the
 * master); PVMD_MESH_HOLD=FILE holds it until FILE exists (the tests
 * use that to switch in the middle of a stream: a delay in time failed
 * when a loaded machine started the stream late).
 */
#include "pvmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#define MESH_DIAL_MS 2000 /* per slave; the loop waits that long at most */
#define MESH_HOLD_MS 50   /* PVMD_MESH_HOLD: how often the file is looked for */

struct mesh_peer {
	struct conn *c; /* the direct link, NULL if none */
	int switched;   /* our frames for it go on c */
	int tried;      /* we dialed it (once per host) */
};

static struct mesh_peer mesh[TID_HOST_MAX + 1];
static struct event *mesh_ev;
static const char *mesh_hold; /* $PVMD_MESH_HOLD, read by mesh_start */

static int
mesh_index_ok(int index)
{
	return index > TID_MASTER_HOST && index <= TID_HOST_MAX &&
	       index != pvmd.host;
}

/* Through the master, behind everything we sent that way. */
static void
mesh_send_mark(int index)
{
	conn_send(pvmd.master_link, pvmd.mytid, tid_pvmd(index), DM_MESHMARK,
	    SYSCTX_TM, 0, WIRE_ENC_XDR, NULL, 0);
}

/* From now on our frames for `index` go on the direct link. */
static void
mesh_switch(int index)
{
	struct host *hp = host_get(index);

	mesh_send_mark(index);
	mesh[index].switched = 1;
	if (hp != NULL)
		hp->link = mesh[index].c;
	log_info("direct link to host %d in use", index);
}

/* Dial one slave; on success the link waits for its mark. */
static void
mesh_dial(const struct host *hp)
{
	char addr[sizeof(hp->addr) + 16], err[512];
	struct conn *c;
	int s;

	snprintf(addr, sizeof(addr), strchr(hp->addr, ':') ? "[%s]:%d"
	                                                    : "%s:%d",
	    hp->addr, hp->port);
	s = link_dial(addr, pvmd.host, slave.name, pvmd.key, MESH_DIAL_MS,
	    err, sizeof(err));
	if (s < 0) {
		log_warn("no direct link to host %d (%s): %s; its frames go "
		         "through the master",
		    hp->index, hp->name, err);
		return;
	}
	if ((c = conn_link_open(s, hp->index)) == NULL) {
		log_warn("out of memory for a direct link");
		return;
	}
	mesh_link_up(c, hp->index, 1);
}

/* PVMD_MESH_HOLD names a file that does not exist yet: look again later. */
static int
mesh_held(void)
{
	struct timeval tv = {0, MESH_HOLD_MS * 1000};

	if (mesh_hold == NULL || *mesh_hold == '\0' ||
	    access(mesh_hold, F_OK) == 0)
		return 0;
	evtimer_add(mesh_ev, &tv);
	return 1;
}

static void
mesh_dial_cb(evutil_socket_t fd, short what, void *arg)
{
	struct host *hp;
	int i;

	(void)fd;
	(void)what;
	(void)arg;
	if (mesh_held())
		return;
	for (i = TID_MASTER_HOST + 1; i <= TID_HOST_MAX; i++) {
		if (pvmd.halting || pvmd.master_link == NULL)
			return;
		if (mesh_index_ok(i) && i < pvmd.host && !mesh[i].tried &&
		    (hp = host_get(i)) != NULL && hp->port > 0 &&
		    mesh[i].c == NULL) {
			mesh[i].tried = 1;
			mesh_dial(hp);
		}
	}
}

/* Slave: we know new hosts; dial those below us (later, in the loop). */
void
mesh_start(void)
{
	const char *on = getenv("PVMD_MESH");
	struct timeval tv = {0, 0};

	if (on != NULL && strcmp(on, "0") == 0)
		return;
	mesh_hold = getenv("PVMD_MESH_HOLD");
	if (mesh_ev == NULL &&
	    (mesh_ev = evtimer_new(pvmd.base, mesh_dial_cb, NULL)) == NULL)
		return;
	evtimer_add(mesh_ev, &tv);
}

int
mesh_accepted(int index)
{
	if (!mesh_index_ok(index) || index < pvmd.host ||
	    mesh[index].c != NULL) {
		log_warn("direct link claiming host %d refused: %s", index,
		    !mesh_index_ok(index) ? "not a slave"
		    : index < pvmd.host   ? "we dial that host"
		                          : "we have one");
		return -1;
	}
	return 0;
}

void
mesh_link_up(struct conn *c, int index, int dialed)
{
	mesh[index].c = c;
	mesh[index].switched = 0;
	conn_hold(c, 1);
	log_info("direct link to host %d up (%s)", index,
	    dialed ? "dialed" : "accepted");
	if (!dialed)
		mesh_switch(index);
}

void
mesh_on_mark(int index)
{
	if (!mesh_index_ok(index) || mesh[index].c == NULL) {
		log_debug("mark from host %d without a direct link", index);
		return;
	}
	conn_hold(mesh[index].c, 0);
	if (!mesh[index].switched)
		mesh_switch(index);
}

struct conn *
mesh_route(int index)
{
	if (index >= 0 && index <= TID_HOST_MAX && mesh[index].switched)
		return mesh[index].c;
	return pvmd.master_link;
}

int
mesh_lost(struct conn *c)
{
	struct host *hp;
	int i = conn_link_host(c);

	if (i < 0 || i > TID_HOST_MAX || mesh[i].c != c)
		return 0;
	mesh[i].c = NULL;
	if ((hp = host_get(i)) != NULL && hp->link == c)
		hp->link = pvmd.master_link;
	if (mesh[i].switched && hp != NULL && !pvmd.halting &&
	    pvmd.master_link != NULL) {
		log_warn("lost the direct link to host %d (%s)", i, hp->name);
		pvmd_send_int(tid_pvmd(TID_MASTER_HOST), DM_HOSTFAIL,
		    SYSCTX_TM, 0, i);
	}
	mesh[i].switched = 0;
	return 1;
}

void
mesh_forget(int index)
{
	struct conn *c;

	if (index < 0 || index > TID_HOST_MAX)
		return;
	mesh[index].tried = 0;
	if ((c = mesh[index].c) == NULL)
		return;
	mesh[index].c = NULL;
	mesh[index].switched = 0;
	conn_close(c, "its host left");
}
