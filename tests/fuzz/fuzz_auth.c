/*
 * fuzz_auth.c: the daemon-link handshake's decoders and checks
 * (daemon/auth.c) on what an unauthenticated peer may send: a hello, a
 * challenge, a proof, the secret's file, and the secret sealed for a
 * slave a hoster started (DM_SEAL).
 *
 * Input: one choice byte, then the message (copied into a block of
 * exactly its size).  Besides not crashing: an accepted hello encodes
 * back to the same bytes, a MAC verifies if and only if it is the one
 * auth_mac computes for that role, and a MAC made for one role never
 * verifies as the other's.
 */
#include "fuzz.h"
#include "auth.h"

static const uint8_t key[AUTH_KEY_LEN] = "a fuzzing key, not a secret";
static const uint8_t dnonce[AUTH_NONCE_LEN] = "dialer nonce, fixed for fuzzing";
static const uint8_t anonce[AUTH_NONCE_LEN] = "acceptor nonce, fixed to fuzz!";

/* auth_check agrees with auth_mac, and the roles never mix. */
static void
check_macs(int32_t index, const char *name, const uint8_t *mac)
{
	uint8_t want[AUTH_MAC_LEN];
	int role, same;

	for (role = AUTH_DIALER; role <= AUTH_ACCEPTOR; role++) {
		auth_mac(key, role, dnonce, anonce, index, name, want);
		same = memcmp(want, mac, AUTH_MAC_LEN) == 0;
		FZ_CHECK((auth_check(key, role, dnonce, anonce, index, name,
		              mac) == 0) == same);
		FZ_CHECK(auth_check(key, role, dnonce, anonce, index, name,
		             want) == 0);
		FZ_CHECK(auth_check(key, AUTH_DIALER + AUTH_ACCEPTOR - role,
		             dnonce, anonce, index, name, want) != 0);
	}
}

/* The acceptor reads a hello: what it accepts, it could have sent. */
static void
fz_hello(const uint8_t *p, size_t n)
{
	struct auth_hello h;
	uint8_t out[AUTH_HELLO_MAX], mac[AUTH_MAC_LEN] = {0};

	if (auth_hello_decode(p, n, &h) != 0)
		return;
	FZ_CHECK(h.index >= 1 && h.index <= AUTH_INDEX_MAX);
	FZ_CHECK(strlen(h.name) >= 1 && strlen(h.name) <= AUTH_NAME_MAX);
	FZ_CHECK(auth_hello_encode(&h, out, sizeof(out)) == n);
	FZ_CHECK(memcmp(out, p, n) == 0);
	check_macs(h.index, h.name, mac);
}

/* The dialer reads a challenge and checks the acceptor's MAC. */
static void
fz_challenge(const uint8_t *p, size_t n)
{
	struct auth_challenge c;
	uint8_t out[AUTH_CHALLENGE_LEN];

	if (auth_challenge_decode(p, n, &c) != 0)
		return;
	FZ_CHECK(auth_challenge_encode(&c, out, sizeof(out)) == n);
	FZ_CHECK(memcmp(out, p, n) == 0);
	check_macs(2, "node2", c.mac);
}

/* The acceptor reads a proof and checks the dialer's MAC. */
static void
fz_proof(const uint8_t *p, size_t n)
{
	struct auth_proof pr;
	uint8_t out[AUTH_PROOF_LEN];

	if (auth_proof_decode(p, n, &pr) != 0)
		return;
	FZ_CHECK(auth_proof_encode(&pr, out, sizeof(out)) == n);
	FZ_CHECK(memcmp(out, p, n) == 0);
	check_macs(AUTH_INDEX_MAX, "a.b-c_d", pr.mac);
}

/* The secret's file: 64 hex digits and an optional line end. */
static void
fz_key(const uint8_t *p, size_t n)
{
	uint8_t k[AUTH_KEY_LEN];
	char hex[AUTH_HEX_LEN + 1];
	size_t i;

	if (auth_key_parse((const char *)p, n, k) != 0)
		return;
	FZ_CHECK(n >= AUTH_HEX_LEN && n <= AUTH_HEX_LEN + 2);
	auth_key_hex(k, hex);
	for (i = 0; i < AUTH_HEX_LEN; i++)
		FZ_CHECK(hex[i] == (p[i] | 0x20)); /* digits and lower case */
}

/* A slave reads the sealed secret (DM_SEAL): it opens only if whole. */
static void
fz_seal(const uint8_t *p, size_t n)
{
	uint8_t secret[AUTH_KEY_LEN], box[AUTH_SEAL_LEN];

	if (auth_unseal(key, dnonce, anonce, p, n, secret) != 0)
		return;
	FZ_CHECK(n == AUTH_SEAL_LEN);
	/* what opened seals again and opens to the same secret */
	auth_seal(key, dnonce, anonce, secret, box);
	FZ_CHECK(auth_unseal(key, dnonce, anonce, box, sizeof(box),
	             secret) == 0);
}

static void (*const decoders[])(const uint8_t *, size_t) = {
    fz_hello,
    fz_challenge,
    fz_proof,
    fz_key,
    fz_seal,
};
#define NDECODERS (sizeof(decoders) / sizeof(decoders[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct fz f;
	unsigned which;
	uint8_t *p;

	if (!ready) {
		FZ_CHECK(auth_init() == 0);
		ready = 1;
	}
	fz_init(&f, data, size);
	which = fz_byte(&f) % NDECODERS;
	p = fz_dup(f.p, f.n);
	decoders[which](p, f.n);
	free(p);
	return 0;
}
