/*
 * be.h: big-endian (network order) 32-bit words in byte buffers, for the
 * pure codecs (wire.c, daemon/auth.c) and their tests.
 */
#ifndef PVM_BE_H
#define PVM_BE_H

#include <stdint.h>

static inline void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t
get32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

#endif /* PVM_BE_H */
