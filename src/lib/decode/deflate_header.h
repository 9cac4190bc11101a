/* deflate_header.h - zlib's verdict on one deflate block header
 *
 * ISA-L decodes faster than zlib but takes some headers zlib refuses
 * (incomplete Huffman codes).  inflate_isal.c stops ISA-L at every block's
 * end and has each header judged here by zlib's rules (inflate.c and
 * inftrees.c), with zlib's messages, so that gzip -dc's verdict holds
 * without a second walk over the symbols.
 */
#ifndef GH_DEFLATE_HEADER_H
#define GH_DEFLATE_HEADER_H

#include <stddef.h>
#include <stdint.h>

enum gh_dh_result {
	GH_DH_OK,       /* a header zlib takes */
	GH_DH_MORE,     /* the bytes end before the header does */
	GH_DH_BAD,      /* zlib refuses it: see why */
};

/* What a header zlib takes says of the block after it. */
struct gh_dh_block {
	unsigned last;          /* BFINAL */
	unsigned type;          /* 0 stored, 1 fixed, 2 dynamic */
	/* A code that is not complete (a single one-bit code, or no
	 * distance codes at all), which only ISA-L's refusal of a missing
	 * code can then catch; a fixed block has both. */
	unsigned lit_partial, dist_partial;
	const char *why;        /* zlib's reason, for GH_DH_BAD */
};

/*
 * Judges the header that starts `skip` bits (0..7) into data[0..len).  A
 * fault found in the bits there is GH_DH_BAD even when the header would
 * run past them; GH_DH_MORE only when it cannot be judged without more.
 */
enum gh_dh_result gh_dh_judge(const unsigned char *data, size_t len,
			      unsigned skip, struct gh_dh_block *block);

/* Bytes that always hold a whole header (3 + 14 + 57 bits, then at most
 * 316 code lengths of 7 + 7 bits), and the skip's byte. */
#define GH_DH_MAX_BYTES 600

#endif
