/* probe.c - what kind of input a path is, from its type and first bytes */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats.h"
#include "gpuhist.h"

enum gpuhist_kind gpuhist_probe(const char *path, int raw, uint64_t *size)
{
	unsigned char magic[2];
	struct stat st;
	bool gzip = false;
	int fd;

	if (size)
		*size = 0;
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
	gzip = pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	       gh_is_gzip(magic, sizeof(magic));
	close(fd);
	return gzip ? GPUHIST_KIND_COMPRESSED : GPUHIST_KIND_FILE;
}
