/* read_at.h - all of a span of a file by pread(), for the parallel decoders */
#ifndef GH_READ_AT_H
#define GH_READ_AT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

/* Reads len bytes at offset, all of them; false when it cannot (an error,
 * or the file ends first: cut short while it was decoded). */
static inline bool gh_read_at(int fd, void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

#endif
