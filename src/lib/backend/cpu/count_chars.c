/* count_chars.c - counting the code points of UTF-8 text on the CPU
 *
 * Sixteen bytes at a time while they are ASCII (the bulk of log text),
 * into four small tables on the stack as count.c does; anything else is
 * decoded one
 * character at a time by gh_utf8.h's rule into a table of every bin,
 * which is allocated zeroed and touched only where characters land: the
 * pages touched are listed, so emptying it costs what was counted, not
 * its 4.4 MB.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "count_chars.h"
#include "gh_utf8.h"

#define ASCII_TABLES 4
#define PAGE GPUHIST_CHAR_PAGE

struct gh_char_tally {
	uint32_t ascii[ASCII_TABLES][128];
	uint32_t *bins;                     /* GPUHIST_CHAR_BINS */
	unsigned char touched[GPUHIST_CHAR_PAGES];
	uint16_t list[GPUHIST_CHAR_PAGES];  /* the touched pages */
	int n_touched;
};

_Static_assert(GPUHIST_CHAR_PAGES <= 65535, "page numbers fit 16 bits");
_Static_assert(GPUHIST_CHUNK_MAX < ((uint64_t)1 << 32),
	       "a chunk's counts fit 32 bits");

struct gh_char_tally *gh_char_tally_new(void)
{
	struct gh_char_tally *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->bins = calloc(GPUHIST_CHAR_BINS, sizeof(uint32_t));
	if (!t->bins) {
		free(t);
		return NULL;
	}
	return t;
}

void gh_char_tally_free(struct gh_char_tally *t)
{
	if (!t)
		return;
	free(t->bins);
	free(t);
}

static inline void count_bin(struct gh_char_tally *t, uint32_t bin)
{
	uint32_t page = bin / PAGE;

	if (!t->touched[page]) {
		t->touched[page] = 1;
		t->list[t->n_touched++] = (uint16_t)page;
	}
	t->bins[bin]++;
}

void gh_count_chars(struct gh_char_tally *t, const unsigned char *buf,
		    uint64_t n, uint64_t from, uint64_t to)
{
	/* On the stack, as count.c's: no store to them can change buf. */
	uint32_t asc[ASCII_TABLES][128];
	uint64_t p = from;

	if (p >= to)
		return;
	memset(asc, 0, sizeof(asc));
	p = gh_utf8_resume(buf, n, p);
	while (p < to) {
		uint64_t a, b, stop;

		if (p + 16 <= to) {
			memcpy(&a, buf + p, 8);
			memcpy(&b, buf + p + 8, 8);
			if (!((a | b) & 0x8080808080808080ull)) {
				asc[0][a & 0x7f]++;         asc[1][(a >> 8) & 0x7f]++;
				asc[2][(a >> 16) & 0x7f]++; asc[3][(a >> 24) & 0x7f]++;
				asc[0][(a >> 32) & 0x7f]++; asc[1][(a >> 40) & 0x7f]++;
				asc[2][(a >> 48) & 0x7f]++; asc[3][a >> 56]++;
				asc[0][b & 0x7f]++;         asc[1][(b >> 8) & 0x7f]++;
				asc[2][(b >> 16) & 0x7f]++; asc[3][(b >> 24) & 0x7f]++;
				asc[0][(b >> 32) & 0x7f]++; asc[1][(b >> 40) & 0x7f]++;
				asc[2][(b >> 48) & 0x7f]++; asc[3][b >> 56]++;
				p += 16;
				continue;
			}
		}
		/* Not all ASCII: character by character to the next 16. */
		stop = p + 16 < to ? p + 16 : to;
		while (p < stop) {
			if (buf[p] < 0x80)
				asc[0][buf[p++]]++;
			else
				count_bin(t, gh_utf8_next(buf, n, &p));
		}
	}
	for (int k = 0; k < ASCII_TABLES; k++)
		for (int c = 0; c < 128; c++)
			t->ascii[k][c] += asc[k][c];
}

int gh_char_tally_flush(struct gh_char_tally *t, struct gpuhist_chars *chars)
{
	int err = GPUHIST_OK;

	for (uint32_t c = 0; c < 128; c++) {
		uint64_t sum = 0;

		for (int k = 0; k < ASCII_TABLES; k++)
			sum += t->ascii[k][c];
		if (sum && !err)
			err = gpuhist_chars_add(chars, c, sum);
	}
	memset(t->ascii, 0, sizeof(t->ascii));
	for (int i = 0; i < t->n_touched; i++) {
		uint32_t page = t->list[i];
		uint32_t *bins = t->bins + (size_t)page * PAGE;
		uint32_t n = page == GPUHIST_CHAR_PAGES - 1
			     ? GPUHIST_CHAR_BINS - page * PAGE : PAGE;

		for (uint32_t k = 0; k < n; k++)
			if (bins[k] && !err)
				err = gpuhist_chars_add(chars, page * PAGE + k,
							bins[k]);
		memset(bins, 0, n * sizeof(uint32_t));
		t->touched[page] = 0;
	}
	t->n_touched = 0;
	return err;
}

void gh_count_chars_simple(const unsigned char *buf, uint64_t n,
			   uint64_t from, uint64_t to,
			   struct gpuhist_chars *chars)
{
	for (uint64_t p = from; p < to; p++) {
		uint64_t q = gh_utf8_resume(buf, n, p);

		/* p is covered by a sequence that began before it. */
		if (q != p)
			continue;
		gpuhist_chars_add(chars, gh_utf8_next(buf, n, &q), 1);
	}
}
