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
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include "magic.h"
#include "inflate.h"

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

static const char *isal_reason(int ret)
{
	switch (ret) {
	case ISAL_INVALID_BLOCK: return "corrupt gzip data (invalid block)";
	case ISAL_INVALID_SYMBOL: return "corrupt gzip data (invalid code)";
	case ISAL_INVALID_LOOKBACK: return "corrupt gzip data (invalid distance too far back)";
	default: return "corrupt gzip data";
	}
}

/* Decodes deflate data; 1 when it has ended, 0 to go on, -1 on an error. */
static int deflate_part(struct isal_inflater *z, const unsigned char **in,
			size_t *in_len, unsigned char **out, size_t *out_len,
			const char **why)
{
	uint32_t in_now = *in_len > GH_INFLATE_STEP_MAX ? GH_INFLATE_STEP_MAX
						       : (uint32_t)*in_len;
	uint32_t out_now = *out_len > GH_INFLATE_STEP_MAX ? GH_INFLATE_STEP_MAX
							 : (uint32_t)*out_len;
	uint32_t produced;
	int ret;

	z->st.next_in = (uint8_t *)*in;
	z->st.avail_in = in_now;
	z->st.next_out = *out;
	z->st.avail_out = out_now;
	ret = isal_inflate(&z->st);
	produced = out_now - z->st.avail_out;
	*in += in_now - z->st.avail_in;
	*in_len -= in_now - z->st.avail_in;
	*out += produced;
	*out_len -= produced;
	z->out_len += produced;
	if (ret != ISAL_DECOMP_OK) {
		*why = isal_reason(ret);
		return -1;
	}
	if (z->st.block_state != ISAL_BLOCK_FINISH)
		return 0;
	/* Give back the whole bytes read ahead past the deflate data. */
	size_t ahead = (size_t)(z->st.read_in_length > 0 ?
				z->st.read_in_length / 8 : 0);
	*in -= ahead;
	*in_len += ahead;
	return 1;
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
	z->base.lenient = true;
	z->base.step = isal_step;
	z->base.reset = isal_reset;
	z->base.free = isal_free;
	return &z->base;
}
