/* deflate_switch.c - the marked decoder, handing known stretches to ISA-L
 *
 * A region of the parallel gzip decoder (gzip_parallel.c) starts with its
 * window unknown, so deflate_marked.c decodes it into 16-bit symbols.  Yet
 * the markers die out: once the last 32 KiB of output (or all of it since
 * the member began) are plain bytes, nothing later can refer to the
 * unknown window, and the rest of the member is ordinary deflate with a
 * known history.  From the next block header on, ISA-L decodes it (about
 * twice the marked decoder's speed a core), one block at a time, each
 * header first judged by zlib's rules (inflate_blocks.h); its bytes are
 * widened into the same symbol buffer, so what follows (confirming,
 * resolving, CRCs, flushing) does not change.  The same idea as
 * rapidgzip's switch to ISA-L once a chunk's window is free of markers
 * (Knespel & Brunst, HPDC 2023).
 *
 * ISA-L leaves to the marked decoder every block it does not simply take:
 * a member's last block (and so the trailer and the next member), a block
 * at or past the region's end that the region may stop at, one whose
 * header zlib refuses or whose data ISA-L refuses (the block is decoded
 * again by the marked decoder, whose verdict stands), and a block whose
 * output would not fit the buffer.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "deflate_switch.h"
#ifdef HAVE_ISAL
#include "inflate_blocks.h"
#endif

/* ISA-L's output is staged here, then widened into the symbols. */
#define STAGE_BYTES ((size_t)128 << 10)

int gh_switch_init(struct gh_switch *sw)
{
	memset(sw, 0, sizeof(*sw));
#ifdef HAVE_ISAL
	const char *which = getenv("GPUHIST_INFLATE");

	if (which && !strcmp(which, "zlib"))
		return 0;       /* zlib asked for: the marked decoder alone */
	sw->blocks = gh_blocks_new();
	sw->stage = malloc(STAGE_BYTES);
	if (!sw->blocks || !sw->stage) {
		gh_switch_free(sw);
		return -1;
	}
#endif
	return 0;
}

void gh_switch_free(struct gh_switch *sw)
{
#ifdef HAVE_ISAL
	gh_blocks_free(sw->blocks);
#endif
	free(sw->stage);
	sw->blocks = NULL;
	sw->stage = NULL;
}

void gh_switch_started(struct gh_switch *sw, bool window_known)
{
	sw->scanned = GH_WINDOW;
	sw->clean_from = window_known ? 0 : GH_WINDOW;
}

void gh_switch_flushed(struct gh_switch *sw)
{
	gh_switch_started(sw, true);
}

#ifdef HAVE_ISAL
/* Looks at the symbols written since the last look for window markers,
 * keeping the index after the last one. */
static void scan(struct gh_switch *sw, const struct gh_dm *dm)
{
	uint64_t k = dm->pos;

	while (k > sw->scanned) {
		uint64_t from = k - sw->scanned > 64 ? k - 64 : sw->scanned;
		unsigned any = 0;

		for (uint64_t j = from; j < k; j++)
			any |= dm->out[j];
		if (any >> 8) {
			while (!(dm->out[k - 1] >> 8))
				k--;
			sw->clean_from = k;
			break;
		}
		k = from;
	}
	sw->scanned = dm->pos;
}

/* Where the next block header's first three bits come from: the bits
 * held, then the input from file byte `byte`.  -1 if not at hand. */
static int peek3(const struct gh_dm_input *in, uint64_t held, unsigned nheld,
		 uint64_t byte)
{
	if (nheld >= 3)
		return (int)(held & 7);
	if (byte < in->base || byte - in->base >= in->len)
		return -1;
	return (int)((held | (uint64_t)in->data[byte - in->base] << nheld) & 7);
}

/*
 * Decodes blocks with ISA-L from the block header dm stands at, into
 * out[pos..), until a block it leaves to the marked decoder; then moves dm
 * to that block's header.  Returns the bytes it decoded.
 */
static uint64_t stretch(struct gh_switch *sw, struct gh_dm *dm)
{
	struct gh_dm_input *in = dm->in;
	const struct gh_dm saved = *dm;
	const uint64_t saved_byte = in->base + dm->next;
	uint64_t held, bit = gh_dm_bit(dm), byte = saved_byte;
	unsigned nheld = gh_dm_held(dm, &held);
	uint64_t from = dm->lim > dm->pos - GH_WINDOW ? dm->lim
						      : dm->pos - GH_WINDOW;
	uint64_t pos = dm->pos, block_pos = pos, decoded = 0;
	unsigned char *dict = sw->stage;
	bool first = true;

	if (dm->overrun)
		return 0;       /* at the end of the file: nothing to gain */
	/* The history: the known bytes a distance may reach. */
	for (uint64_t k = from; k < pos; k++)
		dict[k - from] = (unsigned char)dm->out[k];
	gh_blocks_start(sw->blocks, dict, pos - from, held, nheld);
	for (;;) {
		/* At a block header: ISA-L's, or the marked decoder's. */
		int head = peek3(in, held, nheld, byte);

		if (head < 0 || (head & 1) || (head >> 1) == 3 ||
		    (bit >= dm->stop_bit && ((head >> 1) == 0 || (head >> 1) == 2)) ||
		    pos + STAGE_BYTES > dm->cap)
			break;
		in->keep_from = bit / 8;
		block_pos = pos;
		for (;;) {
			const unsigned char *next_in = in->data + (byte - in->base);
			size_t in_len = in->len - (size_t)(byte - in->base);
			unsigned char *out = sw->stage;
			size_t room = dm->cap + GH_DM_SLACK - pos;
			enum gh_blocks_status st;

			if (room > STAGE_BYTES)
				room = STAGE_BYTES;
			size_t out_len = room;
			st = gh_blocks_step(sw->blocks, &next_in, &in_len, &out,
					    &out_len);
			byte = in->base + (uint64_t)(next_in - in->data);
			for (size_t k = 0; k < room - out_len; k++)
				dm->out[pos + k] = sw->stage[k];
			pos += room - out_len;
			if (st == GH_BLOCKS_END)
				break;
			if (st == GH_BLOCKS_REFUSED)
				goto give_back;
			if (!in_len) {
				if (in->at_eof || in->more(in->ctx, in))
					goto give_back;
			} else if (out_len || pos >= dm->cap + GH_DM_SLACK) {
				goto give_back;         /* no room, or stuck */
			}
		}
		decoded += pos - block_pos;
		nheld = gh_blocks_held(sw->blocks, &held);
		bit = byte * 8 - nheld;
		first = false;
		gh_blocks_next(sw->blocks);
	}
	/* The marked decoder takes the block at `bit` (it does not pause
	 * there again). */
	in->keep_from = UINT64_MAX;
	if (first) {
		dm->paused_at = bit + 1;
		return 0;
	}
	gh_dm_seek(dm, bit, pos);
	dm->paused_at = bit + 1;
	return decoded;
give_back:
	/* The block is the marked decoder's, from its header. */
	in->keep_from = UINT64_MAX;
	if (first) {
		*dm = saved;
		dm->next = saved_byte - in->base;
		dm->paused_at = bit + 1;
		return 0;
	}
	gh_dm_seek(dm, bit, block_pos);
	dm->paused_at = bit + 1;
	return decoded;
}
#endif

enum gh_dm_status gh_switch_run(struct gh_switch *sw, struct gh_dm *dm)
{
	for (;;) {
		dm->pause = sw->blocks != NULL;
		enum gh_dm_status st = gh_dm_run(dm);

		if (st != GH_DM_BLOCK)
			return st;
#ifdef HAVE_ISAL
		scan(sw, dm);
		uint64_t reach = dm->lim > dm->pos - GH_WINDOW
					 ? dm->lim : dm->pos - GH_WINDOW;

		if (sw->clean_from <= reach) {
			sw->isal_bytes += stretch(sw, dm);
			sw->scanned = dm->pos;
		}
#endif
	}
}
