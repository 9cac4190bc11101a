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
 * Input sources (lib/source.c) open files, descriptors or memory and
 * recognise gzip (lib/gunzip.c) by its first two bytes.  The pipeline
 * (lib/pipeline.c) counts several operands at once and hands their results
 * back in operand order, moving each input into chunks that the backend
 * owns: pinned host memory for the GPU backend, plain memory for the CPU
 * one, so readers write straight into them.  A plain regular file is read
 * by --threads readers at once (pread at chunk offsets; order does not
 * matter to a histogram); a big gzip file is decoded by several threads
 * (lib/gzip_parallel.c); pipes and small gzip are read in order by one.
 * A chunk handed back with submit() is counted asynchronously while readers
 * fill the next ones: on the GPU, copy and kernel on one of several CUDA
 * streams; on the CPU, by a worker pool or by the readers themselves.  The
 * ring of chunks is allocated once, so memory is that ring and a decoder's
 * buffers, never the input's size.
 *
 * Counters.  Every input is counted into 256 unsigned 64-bit totals (on
 * the device, for the GPU backend), fetched once when the input ends.
 * Kernels and CPU loops count into 32-bit private tables over pieces small
 * enough never to wrap (--chunk-size is at most 2 GiB for that reason,
 * checked against the kernel's limit at compile time), and add them into
 * the 64-bit totals.  Views (view.c) fold the 256 totals into printed
 * bins; --merge reads 256 totals back from earlier json results.
 *
 * Failure.  An input that fails (open, read, decode, or the backend) is
 * named on stderr, its partial totals are dropped, and the run goes on; the
 * exit status is then 1.  --backend=gpu fails when no GPU is usable,
 * before anything is written.
 *
 * Choosing.  --backend=auto (lib/backend_auto.c) counts on the CPU and
 * starts a GPU beside it, in a thread of its own, only where that pays: at
 * once for regular files of 512 MiB a thread, and for streams once the CPU
 * falls behind.  Chunks go to the GPU once it is ready, and an input's
 * totals are the sum of both parts.  No GPU, or one that fails, leaves the
 * CPU counting.
 *
 * Threads and locks.  The calling thread runs gpuhist_count(): it waits
 * for results in operand order and calls the progress callback (holding
 * the pipeline's lock, so the callback must not call into the counter)
 * and the result callback (holding none).  Up to 16 input workers each
 * count one input, with reader or decoder threads of their own; the
 * backends run worker pools (CPU) or nothing (GPU: CUDA streams), and auto
 * a thread that starts the GPU.  Locks, each held briefly and never
 * across a read or a wait for a chunk (condition waits release them):
 *  - pipeline: one lock for its jobs (which operand runs, which is done);
 *  - gzip_parallel: one lock for the chain of regions;
 *  - the CPU backend: one lock for its ring, queue and per-input totals;
 *  - the GPU backend: one lock for its free queue and its error;
 *  - auto: one lock for its statistics, its error and the GPU's input ids,
 *    and it alone nests: it calls the GPU's begin() under it (so an input
 *    gets one GPU id however many readers race there), so the order is
 *    auto, then GPU; no backend calls back into auto or the pipeline;
 *  - the command: msg.c's stderr lock, taken by the progress meter (so
 *    under the pipeline's lock: pipeline, then stderr) and by messages.
 * Totals of an input are summed under its backend's lock, or on the device;
 * counters of progress (bytes, offsets) are atomics.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

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
	if (gh_mpi_launched()) {
		if (opts.files0_from) {
			if (!quiet)
				gh_msg("--files0-from is not supported under mpirun; give the names as operands");
			return 2;
		}
		if (opts.chars) {
			/* The ranks reduce 256 byte totals, not code points. */
			if (!quiet)
				gh_msg("-m is not supported under mpirun; count with -f json on each host and add the results up with --merge -m");
			return 2;
		}
		if (opts.stats) {
			/* pi and the serial correlation need each input as
			 * one stream, which the ranks split. */
			if (!quiet)
				gh_msg("--stats is not supported under mpirun; count with -f json --stats on each host and add the results up with --merge --stats");
			return 2;
		}
		return gh_mpi_main(&opts);
	}
	return gh_run(&opts);
}
