/*
 * slave.c: a slave pvmd's start-up (-S).  The master started us through
 * its launcher with the secret on our standard input; we check our
 * options, read the secret, dial the master and prove it (link.c)
 * before the loop runs, then hand the link to the loop.  Readiness is
 * announced when the master's DM_WELCOME brings the host table (vm.c).
 */
#include "pvmd.h"
#include "auth.h"
#include "hostfile.h"
#include "smwire.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLAVE_SECRET_WAIT_MS 10000
#define SLAVE_DIAL_MS 10000    /* to reach the master and prove the secret */
#define SLAVE_ONETIME_MS 60000 /* the same through a hoster (-K) */

struct pvmd_slave slave = {.fd = -1};

static const char *
env_lookup(const char *name)
{
	return getenv(name);
}

/* Slave: $NAME in an ep= or wd= value, from our environment (as PVM). */
static int
slave_expand(char *v, size_t len)
{
	char out[PATHS_MAX];

	if (hostfile_expand(v, out, sizeof(out), env_lookup) != 0 ||
	    strlen(out) >= len)
		return -1;
	memcpy(v, out, strlen(out) + 1);
	return 0;
}

/* Slave: the secret, one line of hex on standard input. */
static void
slave_read_secret(void)
{
	struct pollfd pfd = {0, POLLIN, 0};
	char buf[AUTH_HEX_LEN + 4];
	size_t have = 0;
	ssize_t n;

	while (have < sizeof(buf) - 1 && memchr(buf, '\n', have) == NULL) {
		if (poll(&pfd, 1, SLAVE_SECRET_WAIT_MS) <= 0)
			pvmd_startup_fail("no secret on standard input");
		n = read(0, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	if (auth_key_parse(buf, have, pvmd.key) != 0)
		pvmd_startup_fail("the secret on standard input is not 64 "
		                  "hex digits");
	auth_wipe(buf, sizeof(buf));
	pvmd.have_key = 1;
}

/*
 * Slave started by a hoster (-K): no secret on standard input.  Make a
 * one-time key K, print it as our result line (the hoster relays it to
 * the master), let the command end, then prove K to the master, which
 * answers with the machine's secret sealed under K (docs/security.md).
 */
static void
slave_dial_onetime(void)
{
	uint8_t k[AUTH_KEY_LEN];
	char line[SM_KEYLINE_LEN + 1], err[512];

	auth_key_new(k);
	sm_keyline(k, line);
	printf("%s\n", line);
	fflush(stdout);
	auth_wipe(line, sizeof(line));
	/* The hoster may wait for the command's end before it answers. */
	pvmd_ready();
	slave.fd = link_dial_onetime(pvmd.master_addr, slave.index, slave.name,
	    k, SLAVE_ONETIME_MS, pvmd.key, err, sizeof(err));
	auth_wipe(k, sizeof(k));
	if (slave.fd < 0)
		pvmd_startup_fail(err);
	pvmd.have_key = 1;
}

/* Slave: reach the master and prove the secret, before anything else. */
void
slave_dial(void)
{
	char err[512];

	if (auth_init() != 0)
		pvmd_startup_fail("cannot initialise libsodium");
	if (slave.onetime) {
		slave_dial_onetime();
		if (slave.ep[0] != '\0')
			setenv("PVM_PATH", slave.ep, 1);
		return;
	}
	slave_read_secret();
	slave.fd = link_dial(pvmd.master_addr, slave.index, slave.name,
	    pvmd.key, SLAVE_DIAL_MS, err, sizeof(err));
	if (slave.fd < 0)
		pvmd_startup_fail(err);
	if (slave.ep[0] != '\0')
		setenv("PVM_PATH", slave.ep, 1);
}

/*
 * Slave: the link becomes a connection of the loop; until the master's
 * DM_WELCOME brings the table, the master's entry is a placeholder.  We
 * listen for the direct links of slaves that join after us (mesh.c);
 * DM_SLAVE tells the master the port.  Readiness is announced on
 * DM_WELCOME (vm.c).
 */
void
slave_link_start(void)
{
	struct conn *c;
	char name[300], *colon;
	int port = 0;

	snprintf(name, sizeof(name), "%s", pvmd.master_addr);
	if ((colon = strrchr(name, ':')) != NULL)
		*colon = '\0';
	if ((c = conn_link_open(slave.fd, TID_MASTER_HOST)) == NULL ||
	    host_add(TID_MASTER_HOST, name, PVM_ARCH, PVMD_SPEED, PVMD_DSIG,
	        c) == NULL ||
	    link_timer_start() != 0)
		pvmd_startup_fail("out of memory setting up the link");
	slave.fd = -1;
	pvmd.master_link = c;
	if (link_listen(&port) != 0)
		port = 0; /* logged; the others reach us through the master */
	vm_slave_hello(port);
}

/* After the command line: -S's own options, checked and expanded. */
int
slave_check_opts(void)
{
	if (slave.onetime && !slave.on) {
		fprintf(stderr, "pvmd: -K goes with -S\n");
		return -1;
	}
	if (!slave.on)
		return 0;
	if (pvmd.master_addr[0] == '\0' || slave.index < 2 ||
	    slave.index > TID_HOST_MAX || slave.name[0] == '\0') {
		fprintf(stderr,
		    "pvmd: -S needs -m master:port, -i index "
		    "(2..%d) and -H name\n",
		    TID_HOST_MAX);
		return -1;
	}
	if (slave_expand(slave.ep, sizeof(slave.ep)) != 0 ||
	    slave_expand(slave.wd, sizeof(slave.wd)) != 0) {
		fprintf(stderr, "pvmd: -e or -w too long once expanded\n");
		return -1;
	}
	snprintf(pvmd.altname, sizeof(pvmd.altname), "%s", slave.name);
	return 0;
}
