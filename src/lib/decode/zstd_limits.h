/* zstd_limits.h - how libzstd is set up here: the window limit, and
 * zstd's errors in words */
#ifndef GH_ZSTD_LIMITS_H
#define GH_ZSTD_LIMITS_H

/* Largest window a zstd frame may ask for: 2^31 bytes (2 GiB).  zstd -dc
 * stops at 128 MiB unless told --memory; frames above this are refused
 * rather than allocated. */
#define GH_ZSTD_WINDOW_LOG_MAX 31

#ifdef HAVE_ZSTD
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/* A decoding context with the window limit. */
static inline ZSTD_DCtx *gh_zstd_dctx_new(void)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();

	if (d && ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax,
						     GH_ZSTD_WINDOW_LOG_MAX))) {
		ZSTD_freeDCtx(d);
		d = NULL;
	}
	return d;
}

/* Why libzstd refused the data, in the words gzip's messages use. */
static inline const char *gh_zstd_why(size_t err)
{
	switch (ZSTD_getErrorCode(err)) {
	case ZSTD_error_frameParameter_windowTooLarge:
		return "zstd frame needs a window over the 2 GiB limit";
	case ZSTD_error_prefix_unknown:
		return "corrupt zstd data (unknown frame header)";
	case ZSTD_error_checksum_wrong:
		return "corrupt zstd data (checksum mismatch)";
	case ZSTD_error_memory_allocation:
		return "out of memory for a zstd window";
	case ZSTD_error_srcSize_wrong:
		return "unexpected end of file (truncated zstd data)";
	default:
		return "corrupt zstd data";
	}
}
#endif

#endif
