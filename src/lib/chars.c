/* chars.c - code-point totals in pages: adding, merging, and the bytes
 * they were decoded from */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "chars.h"

void gpuhist_chars_init(struct gpuhist_chars *chars)
{
	memset(chars, 0, sizeof(*chars));
}

void gpuhist_chars_free(struct gpuhist_chars *chars)
{
	/* Only the pages there are (none, for every input of a run that
	 * counts no code points: 4353 calls of free(NULL) and 35 KiB
	 * zeroed an input were most of a run of 3000 small files). */
	for (size_t i = 0; i < GPUHIST_CHAR_PAGES; i++)
		if (chars->page[i]) {
			free(chars->page[i]);
			chars->page[i] = NULL;
		}
}

uint64_t gpuhist_chars_get(const struct gpuhist_chars *chars, uint32_t bin)
{
	const uint64_t *page;

	if (bin >= GPUHIST_CHAR_BINS)
		return 0;
	page = chars->page[bin / GPUHIST_CHAR_PAGE];
	return page ? page[bin % GPUHIST_CHAR_PAGE] : 0;
}

int gpuhist_chars_add(struct gpuhist_chars *chars, uint32_t bin, uint64_t n)
{
	uint64_t **page;

	if (bin >= GPUHIST_CHAR_BINS)
		return GPUHIST_ERR_ARGUMENT;
	if (!n)
		return GPUHIST_OK;
	page = &chars->page[bin / GPUHIST_CHAR_PAGE];
	if (!*page) {
		*page = calloc(GPUHIST_CHAR_PAGE, sizeof(uint64_t));
		if (!*page)
			return GPUHIST_ERR_NOMEM;
	}
	if ((*page)[bin % GPUHIST_CHAR_PAGE] > UINT64_MAX - n)
		return GPUHIST_ERR_ARGUMENT;
	(*page)[bin % GPUHIST_CHAR_PAGE] += n;
	return GPUHIST_OK;
}

int gpuhist_chars_merge(struct gpuhist_chars *to,
			const struct gpuhist_chars *from)
{
	for (uint32_t p = 0; p < GPUHIST_CHAR_PAGES; p++) {
		if (!from->page[p])
			continue;
		for (uint32_t i = 0; i < GPUHIST_CHAR_PAGE; i++) {
			uint32_t bin = p * GPUHIST_CHAR_PAGE + i;
			int err;

			if (bin >= GPUHIST_CHAR_BINS)
				break;
			err = gpuhist_chars_add(to, bin, from->page[p][i]);
			if (err)
				return err;
		}
	}
	return GPUHIST_OK;
}

int gh_chars_encode(uint32_t cp, unsigned char out[4])
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

int gpuhist_chars_bytes(const struct gpuhist_chars *chars,
			uint64_t totals[256])
{
	memset(totals, 0, 256 * sizeof(uint64_t));
	for (uint32_t p = 0; p < GPUHIST_CHAR_PAGES; p++) {
		if (!chars->page[p])
			continue;
		for (uint32_t i = 0; i < GPUHIST_CHAR_PAGE; i++) {
			uint32_t bin = p * GPUHIST_CHAR_PAGE + i;
			uint64_t n = chars->page[p][i];
			unsigned char b[4];
			int len;

			if (bin >= GPUHIST_CHAR_BINS)
				break;
			if (!n)
				continue;
			if (bin >= GPUHIST_CHAR_INVALID) {
				b[0] = (unsigned char)(bin - GPUHIST_CHAR_INVALID + 0x80);
				len = 1;
			} else {
				len = gh_chars_encode(bin, b);
			}
			for (int k = 0; k < len; k++) {
				if (totals[b[k]] > UINT64_MAX - n)
					return -1;
				totals[b[k]] += n;
			}
		}
	}
	return 0;
}

int gh_chars_absorb(struct gpuhist_chars *to, struct gpuhist_chars *from)
{
	int err = GPUHIST_OK;

	for (uint32_t p = 0; p < GPUHIST_CHAR_PAGES; p++) {
		uint64_t *page = from->page[p];

		if (!page)
			continue;
		from->page[p] = NULL;
		if (!to->page[p]) {
			to->page[p] = page;
			continue;
		}
		for (uint32_t i = 0; i < GPUHIST_CHAR_PAGE && !err; i++) {
			uint32_t bin = p * GPUHIST_CHAR_PAGE + i;

			if (bin < GPUHIST_CHAR_BINS)
				err = gpuhist_chars_add(to, bin, page[i]);
		}
		free(page);
	}
	return err;
}
