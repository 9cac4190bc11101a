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

#include "count.h"
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
	return 0;
}

/* Room for the decoded output; more is not known here. */
#define OUT_MAX ((size_t)1 << 20)

int gh_fuzz_packed_totals(int kind, const unsigned char *p, size_t len,
			  uint64_t *totals)
{
	unsigned char *out = malloc(OUT_MAX);
	size_t got = 0;
	int ret = -2;

	if (!out)
		return -2;
	switch (kind) {
#ifdef HAVE_ZSTD
	case 1: {
		ZSTD_DCtx *d = ZSTD_createDCtx();
		size_t n;

		if (!d)
			break;
		ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
		n = ZSTD_decompressDCtx(d, out, OUT_MAX, p, len);
		ZSTD_freeDCtx(d);
		if (ZSTD_isError(n))
			ret = ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall
			      ? -3 : -1;
		else {
			got = n;
			ret = 0;
		}
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
	return ret;
}
