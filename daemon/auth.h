/*
 * auth.h: mutual challenge-response authentication of pvmd-to-pvmd links
 * with the virtual machine's secret.  Pure (no I/O, no logging): the
 * codecs can be called on any bytes.
 *
 * The handshake, before any frame is routed on a link:
 *
 *   dialer -> acceptor   hello      version, claimed index, dnonce, name
 *   acceptor -> dialer   challenge  anonce, auth_mac(AUTH_ACCEPTOR)
 *   dialer -> acceptor   proof      auth_mac(AUTH_DIALER)
 *
 * Both MACs cover both nonces, the index and the name, so each side
 * proves knowledge of the key over a nonce it did not choose.  The dialer
 * checks the acceptor's MAC before it sends its own, so it never answers
 * an impostor.
 */
#ifndef PVMD_AUTH_H
#define PVMD_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define AUTH_KEY_LEN 32
#define AUTH_NONCE_LEN 32
#define AUTH_MAC_LEN 32
#define AUTH_HEX_LEN (2 * AUTH_KEY_LEN)
#define AUTH_NAME_MAX 255
#define AUTH_VERSION 2
#define AUTH_INDEX_MAX 4095 /* TID_HOST_MAX */

enum auth_role { AUTH_DIALER = 1, AUTH_ACCEPTOR = 2 };

/* sodium_init; 0 or -1.  Call once before anything else here. */
int auth_init(void);
/* A new random key. */
void auth_key_new(uint8_t key[AUTH_KEY_LEN]);
/* The key as 64 lower-case hex digits and a NUL. */
void auth_key_hex(const uint8_t key[AUTH_KEY_LEN], char out[AUTH_HEX_LEN + 1]);
/* Exactly 64 hex digits, optionally followed by "\n" or "\r\n"; 0 or -1. */
int auth_key_parse(const char *s, size_t n, uint8_t key[AUTH_KEY_LEN]);
void auth_nonce_new(uint8_t nonce[AUTH_NONCE_LEN]);
/* Erase a secret from memory (not optimised away). */
void auth_wipe(void *p, size_t n);

/*
 * The MAC that `role` sends: HMAC-SHA-256(key, label(role) || dnonce ||
 * anonce || be32(index) || be32(strlen(name)) || name).  The label differs
 * per role, so a MAC can never be reflected back as the other role's.
 * name must be at most AUTH_NAME_MAX bytes (NULL is taken as "").
 */
void auth_mac(const uint8_t key[AUTH_KEY_LEN], enum auth_role role,
    const uint8_t dnonce[AUTH_NONCE_LEN], const uint8_t anonce[AUTH_NONCE_LEN],
    int32_t index, const char *name, uint8_t mac[AUTH_MAC_LEN]);
/* 0 if mac is what `role` must send, else -1; constant time. */
int auth_check(const uint8_t key[AUTH_KEY_LEN], enum auth_role role,
    const uint8_t dnonce[AUTH_NONCE_LEN], const uint8_t anonce[AUTH_NONCE_LEN],
    int32_t index, const char *name, const uint8_t mac[AUTH_MAC_LEN]);

/* Handshake bodies (frame bodies; big-endian; pure codecs). */
/* dialer -> acceptor, first */
struct auth_hello {
	uint32_t version;              /* AUTH_VERSION */
	int32_t index;                 /* host index the dialer claims */
	uint8_t nonce[AUTH_NONCE_LEN]; /* dnonce */
	char name[AUTH_NAME_MAX + 1];  /* NUL-terminated, no NUL inside */
};

/* acceptor -> dialer */
struct auth_challenge {
	uint8_t nonce[AUTH_NONCE_LEN]; /* anonce */
	uint8_t mac[AUTH_MAC_LEN];     /* auth_mac(AUTH_ACCEPTOR, ...) */
};

/* dialer -> acceptor */
struct auth_proof {
	uint8_t mac[AUTH_MAC_LEN]; /* auth_mac(AUTH_DIALER, ...) */
};

/* version | index | nonce | name length | name (no NUL) */
#define AUTH_HELLO_MIN (4 + 4 + AUTH_NONCE_LEN + 4 + 1)
#define AUTH_HELLO_MAX (4 + 4 + AUTH_NONCE_LEN + 4 + AUTH_NAME_MAX)
#define AUTH_CHALLENGE_LEN (AUTH_NONCE_LEN + AUTH_MAC_LEN)
#define AUTH_PROOF_LEN AUTH_MAC_LEN

/*
 * Encoders write into out (cap bytes) and return the length written, or 0
 * if it does not fit (or, for a hello, if the decoder would refuse it).
 * Decoders return 0, or -1 for anything malformed: a wrong length; for a
 * hello also a bad version, an index outside 1..4095, an empty or
 * overlong name, NUL or control characters in the name.
 */
size_t auth_hello_encode(const struct auth_hello *h, uint8_t *out, size_t cap);
int auth_hello_decode(const uint8_t *p, size_t n, struct auth_hello *h);
size_t auth_challenge_encode(
    const struct auth_challenge *c, uint8_t *out, size_t cap);
int auth_challenge_decode(const uint8_t *p, size_t n, struct auth_challenge *c);
size_t auth_proof_encode(const struct auth_proof *p, uint8_t *out, size_t cap);
int auth_proof_decode(const uint8_t *p, size_t n, struct auth_proof *pr);

/*
 * The machine's secret for a slave that proved a one-time key K (a
 * hoster started it, docs/security.md): sealed with crypto_secretbox
 * under BLAKE2b(key K, label || dnonce || anonce), so the box is bound
 * to that one handshake.  Layout: 24-byte nonce, then the box (the
 * secret and a 16-byte tag).
 */
#define AUTH_SEAL_NONCE_LEN 24
#define AUTH_SEAL_LEN (AUTH_SEAL_NONCE_LEN + 16 + AUTH_KEY_LEN)
void auth_seal(const uint8_t k[AUTH_KEY_LEN],
    const uint8_t dnonce[AUTH_NONCE_LEN], const uint8_t anonce[AUTH_NONCE_LEN],
    const uint8_t secret[AUTH_KEY_LEN], uint8_t out[AUTH_SEAL_LEN]);
/* 0 with the secret, or -1 (wrong length, or the box does not open). */
int auth_unseal(const uint8_t k[AUTH_KEY_LEN],
    const uint8_t dnonce[AUTH_NONCE_LEN], const uint8_t anonce[AUTH_NONCE_LEN],
    const uint8_t *p, size_t n, uint8_t secret[AUTH_KEY_LEN]);

#endif
