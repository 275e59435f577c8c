/*
 * UTF-8 validation and repair; see utf8.h.
 */
#include <config.h>

#include <string.h>

#include "utf8.h"

size_t
utf8_seq(const char *str, size_t n, size_t *bad)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;

	*bad = 0;
	if (s[0] < 0x80)
		return 1;
	/* the lead byte: the sequence's length and its second byte's range */
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;		/* no overlong form */
		else if (s[0] == 0xed)
			hi = 0x9f;		/* no surrogate */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		if (s[0] == 0xf0)
			lo = 0x90;		/* no overlong form */
		else if (s[0] == 0xf4)
			hi = 0x8f;		/* nothing past U+10FFFF */
	} else {
		*bad = 1;		/* 80..C1, F5..FF: never a lead */
		return 0;
	}
	for (i = 1; i < need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*bad = i;	/* the valid prefix is the subpart */
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return need;
}

int
utf8_valid(const char *s, size_t len)
{
	size_t i = 0, k, bad;

	while (i < len) {
		/* ASCII eight bytes at a time: names are mostly ASCII */
		while (i + 8 <= len) {
			unsigned long long w;

			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if ((k = utf8_seq(s + i, len - i, &bad)) == 0)
			return 0;
		i += k;
	}
	return 1;
}

size_t
utf8_sanitize(const char *s, size_t len, char *out, size_t *nbad)
{
	size_t i = 0, o = 0, k, bad;

	while (i < len) {
		if ((k = utf8_seq(s + i, len - i, &bad)) > 0) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
			continue;
		}
		memcpy(out + o, UTF8_REPLACEMENT, UTF8_REPLACEMENT_LEN);
		o += UTF8_REPLACEMENT_LEN;
		i += bad;
		if (nbad != NULL)
			(*nbad)++;
	}
	return o;
}
