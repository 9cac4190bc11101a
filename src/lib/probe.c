/* probe.c - what kind of input a path is, from its type and first bytes,
 * and which compressed formats this build decodes */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats.h"
#include "gpuhist.h"
#include "unpack.h"

enum gpuhist_kind gpuhist_probe(const char *path, int raw, uint64_t *size)
{
	unsigned char magic[GH_MAGIC_MAX];
	struct stat st;
	bool packed = false;
	ssize_t n;
	int fd;

	if (size)
		*size = 0;
	if (!path)
		return GPUHIST_KIND_UNREADABLE;
	if (!strcmp(path, "-"))
		return GPUHIST_KIND_STREAM;
	if (stat(path, &st) != 0)
		return GPUHIST_KIND_UNREADABLE;
	if (S_ISDIR(st.st_mode))
		return GPUHIST_KIND_DIRECTORY;
	if (!S_ISREG(st.st_mode))
		return GPUHIST_KIND_STREAM;     /* a FIFO or a device */
	if (size)
		*size = (uint64_t)st.st_size;
	if (raw)
		return GPUHIST_KIND_FILE;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return GPUHIST_KIND_UNREADABLE;
	n = pread(fd, magic, sizeof(magic), 0);
	if (n > 0)
		packed = gh_is_gzip(magic, (size_t)n) ||
			 gh_packed_format(magic, (size_t)n) >= 0;
	close(fd);
	return packed ? GPUHIST_KIND_COMPRESSED : GPUHIST_KIND_FILE;
}

void gpuhist_decoders(char *buf, size_t len)
{
	static const enum gh_packed packed[] = { GH_PACKED_ZSTD, GH_PACKED_XZ,
						 GH_PACKED_BZIP2 };
	size_t used;

	if (!len)
		return;
#ifdef HAVE_ISAL
	snprintf(buf, len, "gzip (ISA-L, zlib)");
#else
	snprintf(buf, len, "gzip (zlib)");
#endif
	for (size_t i = 0; i < sizeof(packed) / sizeof(packed[0]); i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, ", %s%s",
			 gh_packed_name(packed[i]),
			 gh_packed_built(packed[i]) ? "" : " (not built in)");
	}
}
