/* mpi_run.c - gpuhist as one rank of `mpirun -np N gpuhist ...`
 *
 * Started by an MPI launcher, every rank parses the same command line and
 * then works through the operands in batches of GH_MPI_BATCH, so memory
 * does not grow with their number:
 *
 *  - Rank 0 draws up the batch's plan and broadcasts it.  A plain regular
 *    file of at least GH_MPI_SPLIT_MIN bytes is split into N byte ranges,
 *    one a rank (a histogram does not care where bytes were counted).
 *    Anything else is counted whole by one rank: standard input, FIFOs and
 *    devices by rank 0, since that is where mpirun sends standard input;
 *    files, gzip ones included, by the rank with the fewest bytes so far.
 *  - Every rank counts its share with the ordinary pipeline and backend:
 *    the GPU of its local rank on its node (unless --device or --devices
 *    names one), or the CPU where none is usable.  A rank prints the
 *    messages of the inputs it fails on itself.
 *  - The 256 totals of every operand are summed into rank 0 (MPI_Reduce,
 *    MPI_SUM on 64-bit integers: exact), and so is a flag that some rank
 *    failed on it (MPI_MAX), with the messages of the lowest rank that
 *    failed on it.  Rank 0 reports the batch in operand order, counting
 *    nothing of an operand that failed anywhere (json gives it its error),
 *    exactly as one process would have reported it.
 *
 * The exit status is agreed (MPI_Allreduce, MPI_MAX), so every rank exits
 * with the one a single process would have.  Only the calling thread makes
 * MPI calls, between counting batches (MPI_THREAD_FUNNELED).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mpi.h>

#include "backend.h"
#include "merge.h"
#include "mpi_run.h"
#include "msg.h"
#include "pipeline.h"
#include "report.h"
#include "view.h"

/* Operands planned, counted and reduced together. */
#define GH_MPI_BATCH 256
/* Plain files at least this large are shared among the ranks in byte
 * ranges; smaller ones are not worth a read each. */
#define GH_MPI_SPLIT_MIN ((uint64_t)64 << 20)
/* Range boundaries fall on pages, so no two ranks read one page. */
#define GH_MPI_RANGE_ALIGN ((uint64_t)4096)

#define OWNER_SPLIT (-1)        /* the operand is split among all ranks */

/* An operand's messages, sent to rank 0 for json's "error". */
#define GH_MPI_MESSAGES 1024

/* This rank, its place in the job, and the one run it counts. */
struct rank_run {
	struct gh_options *opts;
	int rank, size;
	char who[48];               /* "rank 1 of 3: ", for -v */
	struct gh_run run;
	struct gh_report report;
	struct gh_view view;
	uint64_t *load;             /* rank 0: bytes planned for each rank */
	/* one batch: */
	int owner[GH_MPI_BATCH];    /* a rank, or OWNER_SPLIT */
	uint64_t size_of[GH_MPI_BATCH];   /* a split operand's bytes */
	int failed[GH_MPI_BATCH], any_failed[GH_MPI_BATCH];
	uint64_t (*totals)[256];    /* this rank's, GH_MPI_BATCH of them */
	uint64_t (*sums)[256];      /* rank 0: all ranks' */
	char (*messages)[GH_MPI_MESSAGES];        /* this rank's failures' */
	char (*first_messages)[GH_MPI_MESSAGES];  /* rank 0: the lowest
						   * failed rank's */
	MPI_Datatype messages_type;
	MPI_Op first_op;
	struct gh_input list[GH_MPI_BATCH];
	int index_of[GH_MPI_BATCH]; /* list[i] is operand first + index_of[i] */
};

/* The first of the launchers' variables that is set, or NULL. */
static const char *launcher_env(const char *const names[])
{
	for (int i = 0; names[i]; i++) {
		const char *v = getenv(names[i]);

		if (v && *v)
			return v;
	}
	return NULL;
}

/* Open MPI's, then MPICH's (Hydra, PMI) and PMIx's names. */
static const char *const size_vars[] = {
	"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", NULL
};
static const char *const rank_vars[] = {
	"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", NULL
};

bool gh_mpi_launched(void)
{
	return launcher_env(size_vars) != NULL;
}

enum gh_parse_result gh_mpi_parse_options(int argc, char **argv,
					  struct gh_options *opts)
{
	const char *rank = launcher_env(rank_vars);
	enum gh_parse_result result;
	int saved_out, saved_err, null_fd;

	if (!rank || !strcmp(rank, "0"))
		return gh_options_parse(argc, argv, opts);
	/* Another rank: the same parse, silently; rank 0 says it once. */
	fflush(stdout);
	saved_out = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	null_fd = open("/dev/null", O_WRONLY);
	if (saved_out < 0 || saved_err < 0 || null_fd < 0) {
		result = gh_options_parse(argc, argv, opts);
	} else {
		dup2(null_fd, STDOUT_FILENO);
		dup2(null_fd, STDERR_FILENO);
		result = gh_options_parse(argc, argv, opts);
		fflush(stdout);
		dup2(saved_out, STDOUT_FILENO);
		dup2(saved_err, STDERR_FILENO);
	}
	if (null_fd >= 0)
		close(null_fd);
	if (saved_out >= 0)
		close(saved_out);
	if (saved_err >= 0)
		close(saved_err);
	/* mpirun ends the whole job as soon as a rank exits with an error,
	 * and rank 0's message could be lost with it (2 runs in 40): a rank
	 * that only echoes rank 0's refusal leaves a moment later. */
	if (result == GH_PARSE_USAGE)
		usleep(300 * 1000);
	return result;
}

/* Whether NAME starts with gzip's magic bytes. */
static bool looks_gzip(const char *name)
{
	unsigned char magic[2];
	int fd = open(name, O_RDONLY);
	bool gz = false;

	if (fd >= 0) {
		gz = pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
		     magic[1] == 0x8b;
		close(fd);
	}
	return gz;
}

/* Rank 0: who counts operand `name`, the least loaded rank for a whole
 * file; *bytes gets a split operand's size. */
static int plan_one(struct rank_run *rr, const char *name, uint64_t *bytes)
{
	struct stat st;
	int least = 0;

	*bytes = 0;
	if (!strcmp(name, "-") || stat(name, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return 0;       /* stdin, streams, and what will fail */
	if (rr->size > 1 && (uint64_t)st.st_size >= GH_MPI_SPLIT_MIN &&
	    (rr->opts->raw || !looks_gzip(name))) {
		*bytes = (uint64_t)st.st_size;
		for (int r = 0; r < rr->size; r++)
			rr->load[r] += *bytes / (uint64_t)rr->size;
		return OWNER_SPLIT;
	}
	for (int r = 1; r < rr->size; r++)
		if (rr->load[r] < rr->load[least])
			least = r;
	rr->load[least] += (uint64_t)st.st_size;
	return least;
}

/* Where rank r's range of a split operand of `bytes` begins (r = size: the
 * end): floor(bytes * r / size), down to a page boundary. */
static uint64_t range_bound(uint64_t bytes, int r, int size)
{
	uint64_t q = bytes / (uint64_t)size, rem = bytes % (uint64_t)size;
	uint64_t at = q * (uint64_t)r + rem * (uint64_t)r / (uint64_t)size;

	return r == size ? bytes : at - at % GH_MPI_RANGE_ALIGN;
}

/* Plans operands [first, first + n) on rank 0, broadcasts the plan, and
 * fills this rank's list; returns its length. */
static int plan_batch(struct rank_run *rr, int first, int n)
{
	int k = 0;

	if (rr->rank == 0)
		for (int i = 0; i < n; i++)
			rr->owner[i] = plan_one(rr, rr->opts->operands[first + i],
						&rr->size_of[i]);
	MPI_Bcast(rr->owner, n, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(rr->size_of, n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	for (int i = 0; i < n; i++) {
		struct gh_input *in = &rr->list[k];

		memset(in, 0, sizeof(*in));
		in->name = rr->opts->operands[first + i];
		if (rr->owner[i] == OWNER_SPLIT) {
			uint64_t lo = range_bound(rr->size_of[i], rr->rank,
						  rr->size);
			uint64_t hi = range_bound(rr->size_of[i], rr->rank + 1,
						  rr->size);

			if (hi == lo)
				continue;
			in->ranged = true;
			in->start = lo;
			in->len = hi - lo;
		} else if (rr->owner[i] != rr->rank) {
			continue;
		}
		rr->index_of[k++] = i;
	}
	return k;
}

static void keep_totals(void *ctx, int index, const char *name,
			const uint64_t *totals, const char *messages)
{
	struct rank_run *rr = ctx;
	int i = rr->index_of[index];

	(void)name;
	if (totals) {
		memcpy(rr->totals[i], totals, sizeof(rr->totals[i]));
	} else {
		rr->failed[i] = 1;
		snprintf(rr->messages[i], sizeof(rr->messages[i]), "%s",
			 messages ? messages : "");
	}
}

/* MPI_Op: an operand's messages from the lowest rank that has any (not
 * commutative, so MPI applies it in rank order: in is the lower ranks'). */
static void first_messages(void *in, void *inout, int *len,
			   MPI_Datatype *type)
{
	char (*from)[GH_MPI_MESSAGES] = in, (*to)[GH_MPI_MESSAGES] = inout;

	(void)type;
	for (int i = 0; i < *len; i++)
		if (from[i][0])
			memcpy(to[i], from[i], GH_MPI_MESSAGES);
}

/* Counts, reduces and (rank 0) reports operands [first, first + n);
 * returns how many of them failed. */
static int run_batch(struct rank_run *rr, int first, int n, int k)
{
	int failed = 0, some_failed = 0;

	memset(rr->failed, 0, sizeof(rr->failed));
	memset(rr->totals, 0, (size_t)n * sizeof(rr->totals[0]));
	memset(rr->messages, 0, (size_t)n * sizeof(rr->messages[0]));
	gh_count_inputs(&rr->run, rr->list, k, keep_totals, rr);
	MPI_Reduce(rr->totals, rr->sums, n * 256, MPI_UINT64_T, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	MPI_Allreduce(rr->failed, rr->any_failed, n, MPI_INT, MPI_MAX,
		      MPI_COMM_WORLD);
	for (int i = 0; i < n; i++)
		some_failed |= rr->any_failed[i];
	if (some_failed)
		MPI_Reduce(rr->messages, rr->first_messages, n,
			   rr->messages_type, rr->first_op, 0, MPI_COMM_WORLD);
	for (int i = 0; rr->rank == 0 && i < n; i++) {
		if (rr->any_failed[i]) {
			failed++;
			gh_report_failed(&rr->report,
					 rr->opts->operands[first + i],
					 rr->first_messages[i]);
		} else
			gh_report_input(&rr->report, rr->opts->operands[first + i],
					rr->sums[i]);
	}
	return failed;
}

/* This rank's local rank on its node, which picks its GPU. */
static int node_rank(void)
{
	MPI_Comm node;
	int local = 0;

	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_rank(node, &local);
		MPI_Comm_free(&node);
	}
	return local;
}

/* Opens this rank's backend, sized by its share of the first batch;
 * 0 when every rank has one, else -1 on all of them. */
static int open_backends(struct rank_run *rr, int k)
{
	struct gh_options *opts = rr->opts;
	bool streams;
	uint64_t bytes = gh_inputs_bytes(rr->list, k, &streams);
	int ok, all_ok;

	if (opts->backend != GH_BACKEND_CPU && !opts->n_devices &&
	    !opts->all_devices) {
		int local = node_rank(), n = gh_gpu_device_count(NULL, 0);

		if (n > 0) {
			opts->devices[0] = local % n;
			opts->n_devices = 1;
		}
	}
	rr->run.backend = gh_backend_choose(opts, bytes, streams);
	rr->run.backend_ready = gh_now();
	ok = rr->run.backend != NULL;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return all_ok ? 0 : -1;
}

/* Counts every operand across the ranks, rank 0 reporting them; how many
 * failed (on rank 0), or -1 when some rank had no backend, before anything
 * is reported. */
static int count_shared(struct rank_run *rr)
{
	int n_ops = rr->opts->n_operands, failed = 0;

	for (int first = 0; first < n_ops; first += GH_MPI_BATCH) {
		int n = n_ops - first < GH_MPI_BATCH ? n_ops - first
						     : GH_MPI_BATCH;
		int k = plan_batch(rr, first, n);

		if (first == 0) {
			if (open_backends(rr, k))
				return -1;
			if (rr->rank == 0)
				gh_report_begin(&rr->report, stdout, rr->opts,
						&rr->view);
		}
		failed += run_batch(rr, first, n, k);
	}
	return failed;
}

/* --merge needs no counting: rank 0 alone adds the results up. */
static int merge_on_rank0(struct rank_run *rr)
{
	int failed = 0;

	if (rr->rank == 0)
		gh_report_begin(&rr->report, stdout, rr->opts, &rr->view);
	for (int i = 0; rr->rank == 0 && i < rr->opts->n_operands; i++) {
		const char *name = rr->opts->operands[i];
		uint64_t totals[256];

		gh_msg_capture(rr->messages[0], sizeof(rr->messages[0]));
		int ret = gh_merge_read(name, rr->report.total, totals);

		gh_msg_capture(NULL, 0);
		gh_msg_print(rr->messages[0]);
		if (ret) {
			failed++;
			gh_report_failed(&rr->report, name, rr->messages[0]);
		} else {
			gh_report_input(&rr->report, name, totals);
		}
	}
	return failed;
}

static int run_rank(struct rank_run *rr)
{
	struct gh_options *opts = rr->opts;
	int failed, status = EXIT_SUCCESS;

	if (rr->rank != 0)
		opts->progress = GH_PROGRESS_OFF;   /* rank 0's terminal only */
	rr->run.opts = opts;
	gh_progress_init(&rr->run.progress, opts);
	gh_view_init(&rr->view, opts);
	rr->totals = calloc(GH_MPI_BATCH, sizeof(*rr->totals));
	rr->sums = calloc(GH_MPI_BATCH, sizeof(*rr->sums));
	rr->load = calloc((size_t)rr->size, sizeof(*rr->load));
	rr->messages = calloc(GH_MPI_BATCH, sizeof(*rr->messages));
	rr->first_messages = calloc(GH_MPI_BATCH, sizeof(*rr->first_messages));
	if (!rr->totals || !rr->sums || !rr->load || !rr->messages ||
	    !rr->first_messages) {
		gh_msg("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
	}
	/* Rank 0 alone writes the report. */
	if (opts->merge) {
		failed = merge_on_rank0(rr);
	} else {
		failed = count_shared(rr);
		if (failed < 0)
			return EXIT_FAILURE;
	}
	gh_progress_clear(&rr->run.progress);
	if (rr->rank == 0)
		gh_report_end(&rr->report);
	if (failed)
		status = EXIT_FAILURE;
	if (opts->verbose && rr->run.backend)
		gh_run_summary(&rr->run, rr->who);
	return status;
}

int gh_mpi_main(struct gh_options *opts)
{
	struct rank_run *rr = calloc(1, sizeof(*rr));
	int provided, status, agreed;

	if (!rr) {
		gh_msg("out of memory");
		return EXIT_FAILURE;
	}
	MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rr->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &rr->size);
	snprintf(rr->who, sizeof(rr->who), "rank %d of %d: ", rr->rank,
		 rr->size);
	rr->opts = opts;
	MPI_Type_contiguous(GH_MPI_MESSAGES, MPI_CHAR, &rr->messages_type);
	MPI_Type_commit(&rr->messages_type);
	MPI_Op_create(first_messages, 0, &rr->first_op);
	status = run_rank(rr);
	/* Settled first, so no GPU is still starting when MPI ends. */
	if (rr->run.backend && rr->run.backend->settle)
		rr->run.backend->settle(rr->run.backend, true);
	if (rr->run.backend)
		rr->run.backend->destroy(rr->run.backend);
	if (gh_close_stdout())
		status = EXIT_FAILURE;
	MPI_Allreduce(&status, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Op_free(&rr->first_op);
	MPI_Type_free(&rr->messages_type);
	MPI_Finalize();
	free(rr->messages);
	free(rr->first_messages);
	free(rr->totals);
	free(rr->sums);
	free(rr->load);
	free(rr);
	return agreed;
}
