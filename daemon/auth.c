/*
 * auth.c: the pvmd-to-pvmd handshake's keys, MACs and message codecs.
 * Pure: no I/O, no logging, no libevent, so a fuzzer can call every
 * decoder on any bytes.
 *
 * Why libsodium rather than OpenSSL's libcrypto: we need one MAC, random
 * bytes and a constant-time compare, and libsodium gives exactly these
 * with an API that is hard to misuse (no contexts to leak, no error
 * queues, constant-time sodium_memcmp and hex helpers), in a small,
 * audited library that Debian packages (libsodium-dev).  libcrypto would
 * bring a far larger attack surface and API for the same three calls.
 * Only the pvmd links it; libpvm3 does not.
 */
#include "auth.h"
#include "be.h"

#include <sodium.h>
#include <string.h>

/*
 * One label per role, NUL included, so that neither label is a prefix of
 * the other and a MAC of one role can never verify as the other's.
 */
static const char label_dialer[] = "pvm4 link auth v1: dialer";
static const char label_acceptor[] = "pvm4 link auth v1: acceptor";

int
auth_init(void)
{
	/* 1 means "already initialised", which is fine. */
	return sodium_init() < 0 ? -1 : 0;
}

void
auth_key_new(uint8_t key[AUTH_KEY_LEN])
{
	randombytes_buf(key, AUTH_KEY_LEN);
}

void
auth_key_hex(const uint8_t key[AUTH_KEY_LEN], char out[AUTH_HEX_LEN + 1])
{
	sodium_bin2hex(out, AUTH_HEX_LEN + 1, key, AUTH_KEY_LEN);
}

/* Is s[0..n) "", "\n" or "\r\n"? */
static int
key_tail_ok(const char *s, size_t n)
{
	if (n == 0)
		return 1;
	if (n == 1)
		return s[0] == '\n';
	return n == 2 && s[0] == '\r' && s[1] == '\n';
}

int
auth_key_parse(const char *s, size_t n, uint8_t key[AUTH_KEY_LEN])
{
	uint8_t tmp[AUTH_KEY_LEN];
	const char *end = NULL;
	size_t len = 0;
	int rc = -1;

	if (s == NULL || n < AUTH_HEX_LEN ||
	    !key_tail_ok(s + AUTH_HEX_LEN, n - AUTH_HEX_LEN))
		return -1;
	/* sodium_hex2bin takes both cases and runs in constant time. */
	if (sodium_hex2bin(
	        tmp, sizeof(tmp), s, AUTH_HEX_LEN, NULL, &len, &end) == 0 &&
	    len == AUTH_KEY_LEN && end == s + AUTH_HEX_LEN) {
		memcpy(key, tmp, AUTH_KEY_LEN);
		rc = 0;
	}
	sodium_memzero(tmp, sizeof(tmp));
	return rc;
}

void
auth_nonce_new(uint8_t nonce[AUTH_NONCE_LEN])
{
	randombytes_buf(nonce, AUTH_NONCE_LEN);
}

void
auth_mac(const uint8_t key[AUTH_KEY_LEN], enum auth_role role,
    const uint8_t dnonce[AUTH_NONCE_LEN], const uint8_t anonce[AUTH_NONCE_LEN],
    int32_t index, const char *name, uint8_t mac[AUTH_MAC_LEN])
{
	crypto_auth_hmacsha256_state st;
	const char *label = role == AUTH_DIALER ? label_dialer : label_acceptor;
	size_t llen =
	    role == AUTH_DIALER ? sizeof(label_dialer) : sizeof(label_acceptor);
	size_t nlen = name == NULL ? 0 : strnlen(name, AUTH_NAME_MAX);
	uint8_t be[8];

	put32(be, (uint32_t)index);
	put32(be + 4, (uint32_t)nlen);
	crypto_auth_hmacsha256_init(&st, key, AUTH_KEY_LEN);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)label, llen);
	crypto_auth_hmacsha256_update(&st, dnonce, AUTH_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, anonce, AUTH_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, be, sizeof(be));
	if (nlen > 0)
		crypto_auth_hmacsha256_update(&st, (const uint8_t *)name, nlen);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

int
auth_check(const uint8_t key[AUTH_KEY_LEN], enum auth_role role,
    const uint8_t dnonce[AUTH_NONCE_LEN], const uint8_t anonce[AUTH_NONCE_LEN],
    int32_t index, const char *name, const uint8_t mac[AUTH_MAC_LEN])
{
	uint8_t want[AUTH_MAC_LEN];
	int rc;

	if (role != AUTH_DIALER && role != AUTH_ACCEPTOR)
		return -1;
	auth_mac(key, role, dnonce, anonce, index, name, want);
	rc = crypto_verify_32(want, mac) == 0 ? 0 : -1;
	sodium_memzero(want, sizeof(want));
	return rc;
}

/* A host name as it may appear in a hello: printable, no NUL. */
static int
name_ok(const uint8_t *p, size_t n)
{
	size_t i;

	if (n == 0 || n > AUTH_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 0;
	return 1;
}

size_t
auth_hello_encode(const struct auth_hello *h, uint8_t *out, size_t cap)
{
	size_t nlen = strnlen(h->name, sizeof(h->name));
	size_t len = AUTH_HELLO_MIN - 1 + nlen;
	struct auth_hello check;

	if (nlen == 0 || nlen > AUTH_NAME_MAX || len > cap)
		return 0;
	put32(out, h->version);
	put32(out + 4, (uint32_t)h->index);
	memcpy(out + 8, h->nonce, AUTH_NONCE_LEN);
	put32(out + 8 + AUTH_NONCE_LEN, (uint32_t)nlen);
	memcpy(out + 12 + AUTH_NONCE_LEN, h->name, nlen);
	/* Never put on the wire what the other side must refuse. */
	if (auth_hello_decode(out, len, &check) < 0)
		return 0;
	return len;
}

int
auth_hello_decode(const uint8_t *p, size_t n, struct auth_hello *h)
{
	uint32_t nlen;
	int32_t index;

	memset(h, 0, sizeof(*h));
	if (n < AUTH_HELLO_MIN || n > AUTH_HELLO_MAX)
		return -1;
	nlen = get32(p + 8 + AUTH_NONCE_LEN);
	index = (int32_t)get32(p + 4);
	if (get32(p) != AUTH_VERSION || index < 1 || index > AUTH_INDEX_MAX ||
	    nlen != n - (AUTH_HELLO_MIN - 1) ||
	    !name_ok(p + 12 + AUTH_NONCE_LEN, nlen))
		return -1;
	h->version = AUTH_VERSION;
	h->index = index;
	memcpy(h->nonce, p + 8, AUTH_NONCE_LEN);
	memcpy(h->name, p + 12 + AUTH_NONCE_LEN, nlen);
	return 0;
}

size_t
auth_challenge_encode(const struct auth_challenge *c, uint8_t *out, size_t cap)
{
	if (cap < AUTH_CHALLENGE_LEN)
		return 0;
	memcpy(out, c->nonce, AUTH_NONCE_LEN);
	memcpy(out + AUTH_NONCE_LEN, c->mac, AUTH_MAC_LEN);
	return AUTH_CHALLENGE_LEN;
}

int
auth_challenge_decode(const uint8_t *p, size_t n, struct auth_challenge *c)
{
	memset(c, 0, sizeof(*c));
	if (n != AUTH_CHALLENGE_LEN)
		return -1;
	memcpy(c->nonce, p, AUTH_NONCE_LEN);
	memcpy(c->mac, p + AUTH_NONCE_LEN, AUTH_MAC_LEN);
	return 0;
}

size_t
auth_proof_encode(const struct auth_proof *p, uint8_t *out, size_t cap)
{
	if (cap < AUTH_PROOF_LEN)
		return 0;
	memcpy(out, p->mac, AUTH_MAC_LEN);
	return AUTH_PROOF_LEN;
}

int
auth_proof_decode(const uint8_t *p, size_t n, struct auth_proof *pr)
{
	memset(pr, 0, sizeof(*pr));
	if (n != AUTH_PROOF_LEN)
		return -1;
	memcpy(pr->mac, p, AUTH_MAC_LEN);
	return 0;
}

/* Erase a secret from memory; the compiler may not drop the stores. */
void
auth_wipe(void *p, size_t n)
{
	sodium_memzero(p, n);
}

/* The sealing key of one handshake: keyed BLAKE2b over both nonces. */
static void
seal_key(const uint8_t k[AUTH_KEY_LEN], const uint8_t dnonce[AUTH_NONCE_LEN],
    const uint8_t anonce[AUTH_NONCE_LEN], uint8_t out[AUTH_KEY_LEN])
{
	static const char label[] = "pvm4 hoster seal v1";
	crypto_generichash_state st;

	crypto_generichash_init(&st, k, AUTH_KEY_LEN, AUTH_KEY_LEN);
	crypto_generichash_update(&st, (const uint8_t *)label, sizeof(label));
	crypto_generichash_update(&st, dnonce, AUTH_NONCE_LEN);
	crypto_generichash_update(&st, anonce, AUTH_NONCE_LEN);
	crypto_generichash_final(&st, out, AUTH_KEY_LEN);
	sodium_memzero(&st, sizeof(st));
}

void
auth_seal(const uint8_t k[AUTH_KEY_LEN], const uint8_t dnonce[AUTH_NONCE_LEN],
    const uint8_t anonce[AUTH_NONCE_LEN], const uint8_t secret[AUTH_KEY_LEN],
    uint8_t out[AUTH_SEAL_LEN])
{
	uint8_t sk[AUTH_KEY_LEN];

	seal_key(k, dnonce, anonce, sk);
	randombytes_buf(out, AUTH_SEAL_NONCE_LEN);
	crypto_secretbox_easy(
	    out + AUTH_SEAL_NONCE_LEN, secret, AUTH_KEY_LEN, out, sk);
	sodium_memzero(sk, sizeof(sk));
}

int
auth_unseal(const uint8_t k[AUTH_KEY_LEN], const uint8_t dnonce[AUTH_NONCE_LEN],
    const uint8_t anonce[AUTH_NONCE_LEN], const uint8_t *p, size_t n,
    uint8_t secret[AUTH_KEY_LEN])
{
	uint8_t sk[AUTH_KEY_LEN], tmp[AUTH_KEY_LEN];
	int rc;

	if (p == NULL || n != AUTH_SEAL_LEN)
		return -1;
	seal_key(k, dnonce, anonce, sk);
	rc = crypto_secretbox_open_easy(
	    tmp, p + AUTH_SEAL_NONCE_LEN, n - AUTH_SEAL_NONCE_LEN, p, sk);
	if (rc == 0)
		memcpy(secret, tmp, AUTH_KEY_LEN);
	sodium_memzero(sk, sizeof(sk));
	sodium_memzero(tmp, sizeof(tmp));
	return rc == 0 ? 0 : -1;
}
