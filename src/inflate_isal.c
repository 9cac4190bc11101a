/* inflate_isal.c - one gzip member at a time with ISA-L's igzip (when built)
 *
 * With crc_flag ISAL_GZIP, isal_inflate() parses the member's header and
 * checks its trailer (CRC-32 and length).  It loads input ahead into a bit
 * buffer, so at a member's end the whole bytes still in that buffer belong
 * to what follows and are handed back by moving *in back over them.
 */
#include <stdlib.h>

#include <isa-l/igzip_lib.h>

#include "inflate.h"

struct isal_inflater {
	struct gh_inflater base;        /* first: callers see only this */
	struct inflate_state st;
};

static const char *isal_reason(int ret)
{
	switch (ret) {
	case ISAL_INVALID_BLOCK: return "corrupt gzip data (invalid block)";
	case ISAL_INVALID_SYMBOL: return "corrupt gzip data (invalid code)";
	case ISAL_INVALID_LOOKBACK: return "corrupt gzip data (invalid distance too far back)";
	case ISAL_INVALID_WRAPPER: return "corrupt gzip data (incorrect header)";
	case ISAL_UNSUPPORTED_METHOD: return "corrupt gzip data (unknown compression method)";
	case ISAL_INCORRECT_CHECKSUM: return "corrupt gzip data (incorrect data check or length)";
	case ISAL_NEED_DICT: return "corrupt gzip data (needs a dictionary)";
	default: return "corrupt gzip data";
	}
}

static enum gh_inflate_status isal_step(struct gh_inflater *inf,
					const unsigned char **in,
					size_t *in_len, unsigned char **out,
					size_t *out_len, const char **why)
{
	struct isal_inflater *z = (struct isal_inflater *)inf;
	uint32_t in_now = *in_len > (1u << 30) ? (1u << 30) : (uint32_t)*in_len;
	uint32_t out_now = *out_len > (1u << 30) ? (1u << 30) : (uint32_t)*out_len;
	int ret;

	z->st.next_in = (uint8_t *)*in;
	z->st.avail_in = in_now;
	z->st.next_out = *out;
	z->st.avail_out = out_now;
	ret = isal_inflate(&z->st);
	*in += in_now - z->st.avail_in;
	*in_len -= in_now - z->st.avail_in;
	*out += out_now - z->st.avail_out;
	*out_len -= out_now - z->st.avail_out;
	if (ret != ISAL_DECOMP_OK) {
		*why = isal_reason(ret);
		return GH_INFLATE_ERROR;
	}
	if (z->st.block_state != ISAL_BLOCK_FINISH)
		return GH_INFLATE_MORE;
	/* Give back the whole bytes read ahead past the member's end. */
	size_t ahead = (size_t)(z->st.read_in_length > 0 ?
				z->st.read_in_length / 8 : 0);
	*in -= ahead;
	*in_len += ahead;
	return GH_INFLATE_MEMBER_END;
}

static int isal_reset(struct gh_inflater *inf)
{
	struct isal_inflater *z = (struct isal_inflater *)inf;

	isal_inflate_reset(&z->st);
	z->st.crc_flag = ISAL_GZIP;
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
	z->st.crc_flag = ISAL_GZIP;
	z->base.name = "isa-l";
	z->base.step = isal_step;
	z->base.reset = isal_reset;
	z->base.free = isal_free;
	return &z->base;
}
