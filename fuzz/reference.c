/* reference.c - the fuzz harnesses' reference: gzip decoded by zlib, zstd,
 * xz and bzip2 by their libraries' one-shot calls */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif
#ifdef HAVE_XZ
#include <lzma.h>
#endif
#ifdef HAVE_BZIP2
#include <bzlib.h>
#endif

#ifdef HAVE_LZ4
#include <lz4.h>
#include <lz4frame.h>
#endif

#include "backend/cpu/count.h"
#include "reference.h"

int gh_fuzz_zlib_totals(const unsigned char *p, size_t len, uint64_t *totals)
{
	static _Thread_local unsigned char out[1 << 16];
	z_stream zs;
	size_t pos = 0;
	int z, ret;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		return -2;
	for (;;) {
		zs.next_in = (unsigned char *)p + pos;
		zs.avail_in = (uInt)(len - pos);
		do {
			zs.next_out = out;
			zs.avail_out = sizeof(out);
			z = inflate(&zs, Z_NO_FLUSH);
			gh_count_bytes_simple(out, sizeof(out) - zs.avail_out,
					      totals);
		} while (z == Z_OK);
		if (z != Z_STREAM_END) {
			ret = -1;               /* corrupt or truncated */
			break;
		}
		pos = len - zs.avail_in;
		if (len - pos >= 2 && p[pos] == 0x1f && p[pos + 1] == 0x8b) {
			if (inflateReset(&zs) != Z_OK) {
				ret = -2;
				break;
			}
			continue;
		}
		while (pos < len && p[pos] == 0)
			pos++;
		ret = pos == len ? 0 : -1;      /* else trailing garbage */
		break;
	}
	inflateEnd(&zs);
	return ret;
}

int gh_fuzz_packed_kind(const unsigned char *p, size_t len)
{
	if (len >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd)
		return 1;
	if (len >= 4 && (p[0] >> 4) == 5 && p[1] == 0x2a && p[2] == 0x4d &&
	    p[3] == 0x18)
		return 1;               /* a skippable frame */
	if (len >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
		return 2;
	if (len >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' &&
	    p[3] >= '1' && p[3] <= '9')
		return 3;
	if (len >= 4 && (!memcmp(p, "\x04\x22\x4d\x18", 4) ||
			 !memcmp(p, "\x02\x21\x4c\x18", 4)))
		return 4;
	return 0;
}

#ifdef HAVE_LZ4
static uint32_t le32(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* lz4 as lz4 -dc decodes it, the whole input at once: frames (liblz4's
 * frame decoder, skippable frames too) and legacy frames block by block,
 * until the input ends between frames; anything else refused. */
static int lz4_totals(const unsigned char *p, size_t len, unsigned char *out,
		      size_t out_max, size_t *got)
{
	const uint32_t legacy = 0x184C2102u;
	const size_t block = (size_t)8 << 20;
	size_t pos = 0;

	while (pos < len) {
		if (len - pos < 4)
			return -1;
		uint32_t magic = le32(p + pos);

		if (magic == legacy) {
			unsigned char *tmp = malloc(block);
			int ret = 0;

			if (!tmp)
				return -2;
			for (pos += 4; pos < len && !ret;) {
				uint32_t bs;

				if (len - pos < 4) {
					ret = -1;
					break;
				}
				bs = le32(p + pos);
				if (bs == legacy ||
				    bs > (uint32_t)LZ4_COMPRESSBOUND(block))
					break;  /* the next frame's magic */
				pos += 4;
				if (len - pos < bs) {
					ret = -1;
					break;
				}
				int n = LZ4_decompress_safe((const char *)p + pos,
							    (char *)tmp, (int)bs,
							    (int)block);
				if (n <= 0)
					ret = -1;
				else if (*got + (size_t)n > out_max)
					ret = -3;
				else
					memcpy(out + *got, tmp, (size_t)n);
				*got += n > 0 ? (size_t)n : 0;
				pos += bs;
			}
			free(tmp);
			if (ret)
				return ret;
			continue;
		}
		if (magic != 0x184D2204u && (magic & 0xfffffff0u) != 0x184D2A50u)
			return -1;
		LZ4F_dctx *d;
		size_t r = 1;

		if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
			return -2;
		while (r) {
			size_t src = len - pos, dst = out_max - *got;

			r = LZ4F_decompress(d, out + *got, &dst, p + pos, &src,
					    NULL);
			pos += src;
			*got += dst;
			if (LZ4F_isError(r) || (r && pos == len && dst == 0 &&
						*got < out_max))
				break;
			if (r && *got == out_max) {
				LZ4F_freeDecompressionContext(d);
				return -3;
			}
		}
		LZ4F_freeDecompressionContext(d);
		if (r)
			return -1;      /* corrupt, or truncated */
	}
	return 0;
}
#endif

/* Room for the decoded output; more is not known here. */
#define OUT_MAX ((size_t)1 << 20)

int gh_fuzz_packed_totals(int kind, const unsigned char *p, size_t len,
			  uint64_t *totals)
{
	unsigned char *out = malloc(OUT_MAX);
	size_t got = 0;
	int ret = -2;
	const unsigned char *rest = NULL;   /* zstd: another format after */
	size_t rest_len = 0;

	if (!out)
		return -2;
	switch (kind) {
#ifdef HAVE_ZSTD
	case 1: {
		/* Streamed as zstd -dc streams it (one-shot decoding takes
		 * blocks larger than the frame's window, which zstd -dc
		 * refuses): all the input, 128 KiB of output at a time. */
		ZSTD_DCtx *d = ZSTD_createDCtx();
		ZSTD_inBuffer in = { p, len, 0 };
		size_t n = 1;           /* 0: between frames */

		if (!d)
			break;
		ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
		ret = 0;
		for (;;) {
			/* Between frames, gzip, xz or lz4 data: zstd -dc goes
			 * on to it, and so does the reference, with its own. */
			const unsigned char *at = p + in.pos;
			size_t left = len - in.pos;

			if (n == 0 && left >= 4 &&
			    ((at[0] == 0x1f && at[1] == 0x8b) ||
			     (left >= 6 && !memcmp(at, "\xfd" "7zXZ\0", 6)) ||
			     !memcmp(at, "\x04\x22\x4d\x18", 4))) {
				rest = at;
				rest_len = left;
				break;
			}
			size_t room = OUT_MAX - got;
			ZSTD_outBuffer ob = { out + got,
					      room < 131072 ? room : 131072, 0 };

			n = ZSTD_decompressStream(d, &ob, &in);
			got += ob.pos;
			if (ZSTD_isError(n)) {
				ret = -1;
				break;
			}
			if (in.pos == in.size && ob.pos < ob.size)
				break;          /* all taken, all given out */
			if (got == OUT_MAX) {
				ret = -3;
				break;
			}
		}
		if (!ret && n != 0)
			ret = -1;               /* the input ends inside a frame */
		ZSTD_freeDCtx(d);
		break;
	}
#endif
#ifdef HAVE_XZ
	case 2: {
		uint64_t memlimit = UINT64_MAX;
		size_t in_pos = 0;
		lzma_ret r = lzma_stream_buffer_decode(&memlimit,
						       LZMA_CONCATENATED, NULL,
						       p, &in_pos, len, out,
						       &got, OUT_MAX);

		ret = r == LZMA_OK ? 0
		      : r == LZMA_BUF_ERROR && got == OUT_MAX ? -3 : -1;
		break;
	}
#endif
#ifdef HAVE_LZ4
	case 4:
		ret = lz4_totals(p, len, out, OUT_MAX, &got);
		break;
#endif
#ifdef HAVE_BZIP2
	case 3: {
		/* Stream after stream; after the first, what does not begin
		 * with a stream's magic is trailing garbage, ignored. */
		size_t pos = 0;
		int streams = 0;

		ret = 0;
		while (pos < len) {
			bz_stream bz;
			int r;

			memset(&bz, 0, sizeof(bz));
			if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK) {
				ret = -2;
				break;
			}
			bz.next_in = (char *)p + pos;
			bz.avail_in = (unsigned)(len - pos);
			bz.next_out = (char *)out + got;
			bz.avail_out = (unsigned)(OUT_MAX - got);
			r = BZ2_bzDecompress(&bz);
			got = OUT_MAX - bz.avail_out;
			pos = len - bz.avail_in;
			BZ2_bzDecompressEnd(&bz);
			if (r == BZ_STREAM_END) {
				streams++;
				continue;
			}
			if (r == BZ_DATA_ERROR_MAGIC && streams)
				break;          /* trailing garbage */
			ret = r == BZ_OK && !bz.avail_out ? -3 : -1;
			break;
		}
		break;
	}
#endif
	default:
		break;
	}
	if (ret == 0)
		gh_count_bytes_simple(out, got, totals);
	free(out);
	if (ret == 0 && rest) {
		int kind = gh_fuzz_packed_kind(rest, rest_len);

		ret = kind ? gh_fuzz_packed_totals(kind, rest, rest_len, totals)
			   : gh_fuzz_zlib_totals(rest, rest_len, totals);
	}
	return ret;
}
