/* fail-pread.c - an LD_PRELOAD shim for the tests: the first pread() of a
 * file whose name holds "gpuhist-sort" (the rows' sorted runs,
 * token_runs.c) fails with EIO, as a disk that cannot be read back;
 * every other read is the real one.  Built by the test that uses it:
 *	cc -shared -fPIC -o fail-pread.so t/fail-pread.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failed;

ssize_t pread(int fd, void *buf, size_t n, off_t at)
{
	static ssize_t (*real)(int, void *, size_t, off_t);
	char link[64], name[4096];
	ssize_t len;
	int no = 0;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t, off_t))
			dlsym(RTLD_NEXT, "pread");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = __atomic_load_n(&failed, __ATOMIC_RELAXED) ? -1
	      : readlink(link, name, sizeof(name) - 1);
	if (len > 0) {
		name[len] = '\0';
		if (strstr(name, "gpuhist-sort") &&
		    __atomic_compare_exchange_n(&failed, &no, 1, false,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			errno = EIO;
			return -1;
		}
	}
	return real(fd, buf, n, at);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t at)
{
	return pread(fd, buf, n, at);
}
