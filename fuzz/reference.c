/* reference.c - the fuzz harnesses' reference: a gzip stream decoded by zlib */
#include <string.h>
#include <zlib.h>

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
