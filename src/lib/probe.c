/* probe.c - what kind of input a path is, from its type and first bytes,
 * and which compressed formats this build decodes */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode/formats.h"
#include "gpuhist.h"

enum gpuhist_kind gpuhist_probe(const char *path, int raw, uint64_t *size)
{
	unsigned char magic[GH_MAGIC_MAX];
	struct stat st;
	const struct gh_format *f = NULL;
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
		f = gh_format_of(magic, (size_t)n);
	close(fd);
	/* What this build does not decode is counted as it is. */
	return f && f->decoder ? GPUHIST_KIND_COMPRESSED : GPUHIST_KIND_FILE;
}

void gpuhist_decoders(char *buf, size_t len)
{
	const struct gh_format *f;
	size_t used;

	if (!len)
		return;
	*buf = 0;
	for (int i = 0; (f = gh_format_row(i)); i++) {
		if (!f->optional)
			continue;
		const char *what = f->decoder ? f->decoder->engines
				   : "not built in";

		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
			 f->name);
		used = strlen(buf);
		if (what)
			snprintf(buf + used, len - used, " (%s)", what);
	}
}
