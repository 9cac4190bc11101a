/* crc32.h - the CRC-32 of gzip over a buffer: ISA-L's when built, else zlib's
 *
 * Chained like zlib's crc32(): gh_crc32(gh_crc32(0, a, m), b, n) is the CRC
 * of a then b.  ISA-L's folding version runs several times zlib's speed, and
 * the parallel gzip decoder checks every byte it decodes with it.
 */
#ifndef GH_CRC32_H
#define GH_CRC32_H

#include <stdint.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#endif

static inline uint32_t gh_crc32(uint32_t crc, const unsigned char *p,
				uint64_t n)
{
#ifdef HAVE_ISAL
	return crc32_gzip_refl(crc, p, n);
#else
	while (n) {
		uInt part = n > (1u << 30) ? 1u << 30 : (uInt)n;

		crc = (uint32_t)crc32(crc, p, part);
		p += part;
		n -= part;
	}
	return crc;
#endif
}

#endif
