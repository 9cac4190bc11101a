/* main.c - gpuhist: character frequencies of text and gzip streams
 *
 * Design.  Data flows one way:
 *
 *	input source -> chunks -> backend (GPU or CPU) -> 256 totals
 *		-> view -> report
 *
 * Library and command.  Everything up to the 256 totals is libgpuhist
 * (src/lib/, behind the one public header src/gpuhist.h); the view, the
 * report, the progress meter, the messages and the options are the
 * command's (src/cli/), which includes gpuhist.h and nothing else of the
 * library.  The library never prints: what it says of an input comes back
 * with that input's result as lines "NAME: reason", which run.c prints as
 * "gpuhist: NAME: reason".  This file parses, then dispatches: to the one
 * run layer (run.c: open a counter, start its backend, count the operands,
 * report each, then the total), or under mpirun to mpi_run.c, which plans
 * and reduces around the same run layer.
 *
 * The library's own map (src/lib/README) says how an input reaches the
 * backend: sources and their decoders, chunks the backend owns, the
 * pipeline's threads and the locks they take.
 *
 * Counters.  Every input is counted into 256 unsigned 64-bit totals (on
 * the device, for the GPU backend), fetched once when the input ends.
 * Kernels and CPU loops count into 32-bit private tables over pieces small
 * enough never to wrap (--chunk-size is at most 2 GiB for that reason,
 * checked against the kernel's limit at compile time), and add them into
 * the 64-bit totals.  Views (view.c) fold the 256 totals into printed
 * bins; --merge reads 256 totals back from earlier json results.  Each
 * view gives its block as rows and figures, and block.c's one writer per
 * format prints it: a view never writes a format.
 *
 * Failure.  An input that fails (open, read, decode, or the backend) is
 * named on stderr, its partial totals are dropped, and the run goes on; the
 * exit status is then 1.  --backend=gpu fails when no GPU is usable,
 * before anything is written.
 *
 * Choosing.  --backend=auto (lib/backend/backend_auto.c) counts on the CPU and
 * starts a GPU beside it, in a thread of its own, only where that pays: at
 * once for regular files of 512 MiB a thread, and for streams once the CPU
 * falls behind.  Chunks go to the GPU once it is ready, and an input's
 * totals are the sum of both parts.  No GPU, or one that fails, leaves the
 * CPU counting.
 *
 * Threads and locks: the library's (src/lib/README), and the command's
 * own: msg.c's stderr lock, taken by the progress meter (so under the
 * pipeline's lock: pipeline, then stderr) and by messages.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "merge_view.h"
#include "mpi_run.h"
#include "msg.h"
#include "options.h"
#include "run.h"
#include "version.h"

/*
 * Descriptors 0, 1 and 2 that were closed when the program started get
 * /dev/null, opened the wrong way round (as gnulib's stdopen does), so that
 * no file opened later takes their place: reading a closed stdin (operand
 * "-") still fails with EBADF, and so does writing a closed stdout.  -1 if
 * one could not be filled.
 */
static int fill_std_fds(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		/* The lowest free descriptor: fd itself. */
		if (open("/dev/null", fd == STDIN_FILENO ? O_WRONLY
							 : O_RDONLY) != fd)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct gh_options opts;
	/* Under mpirun, the first rank alone says what the command line
	 * asks for (help, version, usage errors), not N ranks N times. */
	bool quiet = gh_mpi_launched() && !gh_mpi_first_rank();

	if (fill_std_fds()) {
		gh_msg_errno("/dev/null");
		return EXIT_FAILURE;
	}
	switch (gh_options_parse(argc, argv, &opts, quiet)) {
	case GH_PARSE_HELP:
		if (!quiet)
			gh_options_help();
		return gh_close_stdout() ? EXIT_FAILURE : EXIT_SUCCESS;
	case GH_PARSE_VERSION:
		if (!quiet)
			gh_print_version(opts.verbose);
		return gh_close_stdout() ? EXIT_FAILURE : EXIT_SUCCESS;
	case GH_PARSE_USAGE:
		if (quiet)
			gh_mpi_refused();
		return 2;
	case GH_PARSE_RUN:
		break;
	}
	gh_merge_view_adopt(&opts);
	if (gh_mpi_launched() && opts.follow) {
		/* One growing file: nothing to share among ranks. */
		if (quiet)
			gh_mpi_refused();
		else
			gh_msg("option --follow cannot be used under mpirun");
		return 2;
	}
	if (gh_mpi_launched()) {
		opts.lib.tokens_top = 0;        /* the ranks' rows are summed */
		return gh_mpi_main(&opts);
	}
	gh_options_one_top(&opts);
	return gh_run(&opts);
}
