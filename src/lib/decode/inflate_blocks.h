/* inflate_blocks.h - ISA-L decoding a member's deflate blocks from the middle
 *
 * The parallel gzip decoder (deflate_switch.c) hands ISA-L the blocks it
 * can: from a block header inside a member, once the 32 KiB before it are
 * known.  ISA-L decodes one block at a time, and each block's header is
 * judged by zlib's rules first (inflate_isal.c), so a block ISA-L takes is
 * one zlib takes.  Only with ISA-L (HAVE_ISAL).
 */
#ifndef GH_INFLATE_BLOCKS_H
#define GH_INFLATE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

struct gh_blocks;

enum gh_blocks_status {
	GH_BLOCKS_END,          /* the block ended; the next is not read */
	GH_BLOCKS_MORE,         /* wants more input, or more room */
	GH_BLOCKS_REFUSED,      /* invalid, by ISA-L or by zlib's rules */
};

struct gh_blocks *gh_blocks_new(void);          /* NULL: out of memory */
void gh_blocks_free(struct gh_blocks *b);

/* Starts at a block header that is not a member's last: the history is
 * dict (at most 32 KiB: distances reach no further), the first `nbits`
 * bits of input are the low bits of `bits`, the rest comes through
 * gh_blocks_step(). */
void gh_blocks_start(struct gh_blocks *b, const unsigned char *dict,
		     size_t dict_len, uint64_t bits, unsigned nbits);

/* Decodes the current block on, from *in into *out, advancing both. */
enum gh_blocks_status gh_blocks_step(struct gh_blocks *b,
				     const unsigned char **in, size_t *in_len,
				     unsigned char **out, size_t *out_len);

/* After GH_BLOCKS_END: the bits ISA-L read ahead of the input it took
 * (the next block's first bits), as gh_blocks_start() takes them. */
unsigned gh_blocks_held(const struct gh_blocks *b, uint64_t *bits);

/* After GH_BLOCKS_END: goes on to the next block. */
void gh_blocks_next(struct gh_blocks *b);

#endif
