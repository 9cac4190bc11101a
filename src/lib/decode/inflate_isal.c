/* inflate_isal.c - one gzip member at a time with ISA-L's igzip (when built)
 *
 * isal_inflate() parses a gzip header only when it gets the whole header in
 * one buffer (intel/isa-l#224), and ISA-L 2.30 refuses headers with a
 * header CRC; a stream read in pieces can split a header anywhere.  So the
 * header and trailer are walked here, byte by byte and across any number of
 * calls, and ISA-L decodes only the deflate data (ISAL_GZIP_NO_HDR, which
 * still keeps the CRC-32 of the output).  ISA-L loads input ahead into a
 * bit buffer; when the deflate data ends, the whole bytes still there
 * belong to the trailer and are handed back by moving *in back over them.
 *
 * zlib's verdict, block by block.  ISA-L takes blocks whose Huffman codes
 * are incomplete, which zlib and gzip -dc refuse, and ISA-L 2.30 cannot
 * stop at a block's end to let the header be looked at.  So before ISA-L
 * reads a block header, the header's first bit (BFINAL) is set in ISA-L's
 * bit buffer, the block's own BFINAL kept here, and the header's bytes
 * copied aside and judged by zlib's rules (deflate_header.c).  ISA-L then
 * stops where the block ends, as at the end of a stream; where the block
 * was not the last, the 32 KiB of history is kept as isal_inflate() keeps
 * it between calls, and ISA-L is set to read the next header.  This uses
 * inflate_state's fields, public in igzip_lib.h, as ISA-L 2.30 lays them
 * out (configure checks the version).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include "deflate_header.h"
#include "inflate.h"
#include "magic.h"

enum member_part { IN_HEADER, IN_DEFLATE, IN_TRAILER };

/* Where the header walk is: the fixed part, then each optional field. */
enum header_step { H_FIXED, H_EXTRA_LEN, H_EXTRA, H_NAME, H_COMMENT, H_CRC,
		   H_DONE };

#define FHCRC 0x02
#define FEXTRA 0x04
#define FNAME 0x08
#define FCOMMENT 0x10
#define FRESERVED 0xe0

struct isal_inflater {
	struct gh_inflater base;        /* first: callers see only this */
	struct inflate_state st;
	enum member_part part;
	enum header_step step;
	unsigned char fixed[10];        /* the header's fixed part */
	unsigned char two[2];           /* a 16-bit field being read */
	unsigned char trailer[8];       /* CRC-32 and length, little-endian */
	unsigned got;                   /* bytes of the current field so far */
	unsigned extra_left;
	uLong header_crc;               /* CRC-32 of the header so far */
	uint32_t out_len;               /* output of this member, mod 2^32 */
	/* the block ISA-L is in (see the top of the file) */
	bool armed;                     /* its BFINAL set, its header logged */
	bool judged;                    /* ... and its header taken */
	unsigned last;                  /* its own BFINAL */
	struct gh_dh_block block;       /* what the header said */
	uint64_t taken;                 /* input bytes taken since the reset */
	uint64_t logged_to;             /* input byte the log has reached */
	size_t log_len;
	unsigned log_skip;              /* bits of log[0] before the header */
	unsigned char log[GH_DH_MAX_BYTES];
	char message[96];               /* a refusal's, for *why */
};

static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The step after `from`, skipping fields the flags do not announce. */
static enum header_step next_step(const struct isal_inflater *z,
				  enum header_step from)
{
	unsigned flags = z->fixed[3];

	switch (from) {
	case H_FIXED:
		if (flags & FEXTRA)
			return H_EXTRA_LEN;
		/* fall through */
	case H_EXTRA_LEN:
	case H_EXTRA:
		if (flags & FNAME)
			return H_NAME;
		/* fall through */
	case H_NAME:
		if (flags & FCOMMENT)
			return H_COMMENT;
		/* fall through */
	case H_COMMENT:
		if (flags & FHCRC)
			return H_CRC;
		/* fall through */
	default:
		return H_DONE;
	}
}

/* Feeds one header byte; 0 to go on, -1 with *why on a bad header. */
static int header_byte(struct isal_inflater *z, unsigned char c,
		       const char **why)
{
	if (z->step != H_CRC)
		z->header_crc = crc32(z->header_crc, &c, 1);
	switch (z->step) {
	case H_FIXED:
		z->fixed[z->got++] = c;
		if (z->got < sizeof(z->fixed))
			return 0;
		if (!gh_is_gzip(z->fixed, sizeof(z->fixed))) {
			*why = "corrupt gzip data (incorrect header check)";
			return -1;
		}
		if (z->fixed[2] != 8) {
			*why = "corrupt gzip data (unknown compression method)";
			return -1;
		}
		if (z->fixed[3] & FRESERVED) {
			*why = "corrupt gzip data (unknown header flags set)";
			return -1;
		}
		break;
	case H_EXTRA_LEN:
		z->two[z->got++] = c;
		if (z->got < 2)
			return 0;
		z->extra_left = z->two[0] | (unsigned)z->two[1] << 8;
		if (z->extra_left) {
			z->step = H_EXTRA;
			z->got = 0;
			return 0;
		}
		break;
	case H_EXTRA:
		if (--z->extra_left)
			return 0;
		break;
	case H_NAME:
	case H_COMMENT:
		if (c)
			return 0;
		break;
	case H_CRC:
		z->two[z->got++] = c;
		if (z->got < 2)
			return 0;
		if ((z->two[0] | (unsigned)z->two[1] << 8) !=
		    (z->header_crc & 0xffff)) {
			*why = "corrupt gzip data (header crc mismatch)";
			return -1;
		}
		break;
	case H_DONE:
		break;
	}
	z->step = next_step(z, z->step);
	z->got = 0;
	return 0;
}

/* The message for ISA-L's refusal of the block's data, in zlib's words:
 * which code was missing follows from which of the block's codes are not
 * complete (deflate_header.h). */
static const char *isal_reason(const struct isal_inflater *z, int ret)
{
	switch (ret) {
	case ISAL_INVALID_LOOKBACK:
		return "corrupt gzip data (invalid distance too far back)";
	case ISAL_INVALID_SYMBOL:
		if (!z->block.dist_partial)
			return "corrupt gzip data (invalid literal/length code)";
		if (!z->block.lit_partial)
			return "corrupt gzip data (invalid distance code)";
		return "corrupt gzip data (invalid literal/length or distance code)";
	case ISAL_INVALID_BLOCK:
		return "corrupt gzip data (invalid block)";
	default:
		return "corrupt gzip data";
	}
}

/*
 * Before ISA-L reads the next block header: its first bit moves into
 * ISA-L's bit buffer (one byte of input loaded there if it is empty), the
 * block's BFINAL is kept and set, and the log of the header's bytes starts
 * with the bits ISA-L already holds.  0, or 1 when input is needed first.
 */
static int arm(struct isal_inflater *z, const unsigned char **in,
	       size_t *in_len)
{
	struct inflate_state *st = &z->st;
	unsigned have;
	unsigned __int128 bits;

	if (st->read_in_length <= 0) {
		if (!*in_len)
			return 1;
		st->read_in = **in;
		st->read_in_length = 8;
		(*in)++;
		(*in_len)--;
		z->taken++;
	}
	have = (unsigned)st->read_in_length;
	if (have < 64)
		st->read_in &= (1ull << have) - 1;
	z->log_skip = (8 - have % 8) % 8;
	bits = (unsigned __int128)st->read_in << z->log_skip;
	z->log_len = (z->log_skip + have) / 8;
	for (size_t i = 0; i < z->log_len; i++)
		z->log[i] = (unsigned char)(bits >> (8 * i));
	z->logged_to = z->taken;
	/* Until the header is judged, ISA-L's refusal names either code. */
	z->block = (struct gh_dh_block){ .lit_partial = 1, .dist_partial = 1 };
	z->last = (unsigned)(st->read_in & 1);
	st->read_in |= 1;
	z->armed = true;
	z->judged = false;
	return 0;
}

/* Adds to the header's log what of *in it lacks. */
static void log_input(struct isal_inflater *z, const unsigned char *in,
		      size_t in_len)
{
	size_t from = (size_t)(z->logged_to - z->taken), n;

	if (from >= in_len || z->log_len == sizeof(z->log))
		return;
	n = in_len - from;
	if (n > sizeof(z->log) - z->log_len)
		n = sizeof(z->log) - z->log_len;
	memcpy(z->log + z->log_len, in + from, n);
	z->log_len += n;
	z->logged_to += n;
}

/* Judges the logged header: 0 when zlib takes it or it is not whole yet,
 * -1 with *why when zlib refuses it. */
static int judge(struct isal_inflater *z, const char **why)
{
	struct gh_dh_block block;

	switch (gh_dh_judge(z->log, z->log_len, z->log_skip, &block)) {
	case GH_DH_OK:
		/* The block's own last bit, not the one set for ISA-L. */
		block.last = z->last;
		z->block = block;
		z->judged = true;
		return 0;
	case GH_DH_MORE:
		return 0;
	case GH_DH_BAD:
	default:
		snprintf(z->message, sizeof(z->message),
			 "corrupt gzip data (%s)", block.why);
		*why = z->message;
		return -1;
	}
}

/*
 * After a block that was not the member's last ended (ISA-L finished, as
 * at a stream's end): keeps the history as isal_inflate() keeps it between
 * calls (the end of a stream is the one place it does not), and has ISA-L
 * read the next header.  `produced`: bytes this call wrote.
 */
static void next_block(struct isal_inflater *z, uint32_t produced)
{
	struct inflate_state *st = &z->st;

	if (st->tmp_out_valid == st->tmp_out_processed &&
	    produced >= ISAL_DEF_HIST_SIZE) {
		memcpy(st->tmp_out_buffer, st->next_out - ISAL_DEF_HIST_SIZE,
		       ISAL_DEF_HIST_SIZE);
		st->tmp_out_valid = ISAL_DEF_HIST_SIZE;
		st->tmp_out_processed = ISAL_DEF_HIST_SIZE;
	} else if (st->tmp_out_processed >= ISAL_DEF_HIST_SIZE) {
		int32_t shift = st->tmp_out_valid - ISAL_DEF_HIST_SIZE;

		if (shift > st->tmp_out_processed)
			shift = st->tmp_out_processed;
		memmove(st->tmp_out_buffer, st->tmp_out_buffer + shift,
			(size_t)(st->tmp_out_valid - shift));
		st->tmp_out_valid -= shift;
		st->tmp_out_processed -= shift;
	}
	st->block_state = ISAL_BLOCK_NEW_HDR;
	st->bfinal = 0;
	z->armed = false;
}

/* Decodes deflate data; 1 when it has ended, 0 to go on, -1 on an error. */
static int deflate_part(struct isal_inflater *z, const unsigned char **in,
			size_t *in_len, unsigned char **out, size_t *out_len,
			const char **why)
{
	for (;;) {
		uint32_t in_now, out_now, produced, took;
		int ret;

		if (!*out_len)
			return 0;
		if (!z->armed && z->st.block_state == ISAL_BLOCK_NEW_HDR &&
		    arm(z, in, in_len))
			return 0;
		if (z->armed && !z->judged) {
			log_input(z, *in, *in_len);
			if (z->log_len == sizeof(z->log) && judge(z, why))
				return -1;
		}
		in_now = *in_len > GH_INFLATE_STEP_MAX ? GH_INFLATE_STEP_MAX
						       : (uint32_t)*in_len;
		out_now = *out_len > GH_INFLATE_STEP_MAX ? GH_INFLATE_STEP_MAX
							 : (uint32_t)*out_len;
		z->st.next_in = (uint8_t *)*in;
		z->st.avail_in = in_now;
		z->st.next_out = *out;
		z->st.avail_out = out_now;
		ret = isal_inflate(&z->st);
		produced = out_now - z->st.avail_out;
		took = in_now - z->st.avail_in;
		*in += took;
		*in_len -= took;
		z->taken += took;
		*out += produced;
		*out_len -= produced;
		z->out_len += produced;
		/* The header is whole in the log once ISA-L has read it. */
		if (z->armed && !z->judged &&
		    (ret != ISAL_DECOMP_OK ||
		     (z->st.block_state != ISAL_BLOCK_NEW_HDR &&
		      z->st.block_state != ISAL_BLOCK_HDR)) &&
		    judge(z, why))
			return -1;
		if (ret != ISAL_DECOMP_OK) {
			*why = isal_reason(z, ret);
			return -1;
		}
		if (z->st.block_state != ISAL_BLOCK_FINISH)
			return 0;
		if (!z->last) {
			next_block(z, produced);
			continue;
		}
		/* Give back the whole bytes read ahead past the deflate data. */
		size_t ahead = (size_t)(z->st.read_in_length > 0 ?
					z->st.read_in_length / 8 : 0);
		*in -= ahead;
		*in_len += ahead;
		return 1;
	}
}

static enum gh_inflate_status isal_step(struct gh_inflater *inf,
					const unsigned char **in,
					size_t *in_len, unsigned char **out,
					size_t *out_len, const char **why)
{
	struct isal_inflater *z = (struct isal_inflater *)inf;

	for (;;) {
		switch (z->part) {
		case IN_HEADER:
			while (*in_len && z->step != H_DONE) {
				if (header_byte(z, **in, why))
					return GH_INFLATE_ERROR;
				(*in)++;
				(*in_len)--;
			}
			if (z->step != H_DONE)
				return GH_INFLATE_MORE;
			z->part = IN_DEFLATE;
			break;
		case IN_DEFLATE: {
			int ended = deflate_part(z, in, in_len, out, out_len, why);

			if (ended < 0)
				return GH_INFLATE_ERROR;
			if (!ended)
				return GH_INFLATE_MORE;
			z->part = IN_TRAILER;
			z->got = 0;
			break;
		}
		case IN_TRAILER:
			while (*in_len && z->got < sizeof(z->trailer)) {
				z->trailer[z->got++] = **in;
				(*in)++;
				(*in_len)--;
			}
			if (z->got < sizeof(z->trailer))
				return GH_INFLATE_MORE;
			if (le32(z->trailer) != z->st.crc) {
				*why = "corrupt gzip data (incorrect data check)";
				return GH_INFLATE_ERROR;
			}
			if (le32(z->trailer + 4) != z->out_len) {
				*why = "corrupt gzip data (incorrect length check)";
				return GH_INFLATE_ERROR;
			}
			return GH_INFLATE_MEMBER_END;
		}
	}
}

static int isal_reset(struct gh_inflater *inf)
{
	struct isal_inflater *z = (struct isal_inflater *)inf;

	isal_inflate_reset(&z->st);
	z->st.crc_flag = ISAL_GZIP_NO_HDR;
	z->part = IN_HEADER;
	z->step = H_FIXED;
	z->got = 0;
	z->header_crc = crc32(0, NULL, 0);
	z->out_len = 0;
	z->armed = false;
	z->judged = false;
	z->taken = 0;
	return 0;
}

static void isal_free(struct gh_inflater *inf)
{
	free(inf);
}

struct gh_inflater *gh_inflater_isal_new(void)
{
	struct isal_inflater *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	isal_inflate_init(&z->st);
	isal_reset(&z->base);
	z->base.name = "isa-l";
	z->base.step = isal_step;
	z->base.reset = isal_reset;
	z->base.free = isal_free;
	return &z->base;
}
