/* mpi_run.c - gpuhist as one rank of `mpirun -np N gpuhist ...`
 *
 * Started by an MPI launcher, every rank parses the same command line and
 * then works through the operands in batches of GH_MPI_BATCH, so memory
 * does not grow with their number:
 *
 *  - Rank 0 reads each batch's names (the operands, or --files0-from's
 *    list: a file, or standard input, which mpirun gives rank 0) and
 *    broadcasts them, with the entries of the list that name no input.
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
 *    MPI_SUM on 64-bit integers: exact); with --stats its stream sums,
 *    each range's joined to the next (mpi_views.c), and with -m its code
 *    points, gathered from every rank; and so is a flag that some rank
 *    failed on it (MPI_MAX), with the messages of the lowest rank that
 *    failed on it.  Rank 0 reports the batch in operand order, counting
 *    nothing of an operand that failed anywhere (json gives it its error),
 *    exactly as one process would have reported it.
 *
 * The exit status is agreed (MPI_Allreduce, MPI_MAX), so every rank exits
 * with the one a single process would have.  Only the calling thread makes
 * MPI calls, between counting batches (MPI_THREAD_FUNNELED).
 *
 * This is a planner and a reducer around the run layer (run.c): each rank
 * counts with gh_run_count() as a single process does, and rank 0 reports
 * through the same report.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_run.h"

#ifdef HAVE_MPI
#include <mpi.h>

#include "mpi_tokens.h"
#include "mpi_views.h"
#include "msg.h"
#include "operands.h"
#include "run.h"

/* Operands planned, counted and reduced together. */
#define GH_MPI_BATCH 256
/* Plain files at least this large are shared among the ranks in byte
 * ranges; smaller ones are not worth a read each. */
#define GH_MPI_SPLIT_MIN ((uint64_t)64 << 20)

#define OWNER_SPLIT (-1)        /* the operand is split among all ranks */
#define OWNER_NONE (-2)         /* an entry that names no input */

_Static_assert(sizeof(struct gpuhist_stream) == 3 * sizeof(uint64_t),
	       "stream sums reduce as three 64-bit integers");

/* An operand's messages, sent to rank 0 for json's "error". */
#define GH_MPI_MESSAGES 1024

/* This rank, its place in the job, and the one run it counts. */
struct rank_run {
	struct gh_options *opts;
	int rank, size;
	char who[48];               /* "rank 1 of 3: ", for -v */
	struct gh_run run;          /* its counter, meter and report */
	bool started;               /* its backend has started */
	uint64_t *load;             /* rank 0: bytes planned for each rank */
	/* one batch: */
	int owner[GH_MPI_BATCH];    /* a rank, or OWNER_SPLIT */
	uint64_t size_of[GH_MPI_BATCH];   /* a split operand's bytes */
	uint64_t lo[GH_MPI_BATCH], hi[GH_MPI_BATCH];    /* this rank's range */
	int failed[GH_MPI_BATCH], any_failed[GH_MPI_BATCH];
	uint64_t (*totals)[256];    /* this rank's, GH_MPI_BATCH of them */
	uint64_t (*sums)[256];      /* rank 0: all ranks' */
	/* --stats: this rank's stream sums, and rank 0's of all ranks; -m:
	 * this rank's code points (rank 0: all ranks'). */
	struct gpuhist_stream stream[GH_MPI_BATCH], stream_sums[GH_MPI_BATCH];
	struct gpuhist_chars chars[GH_MPI_BATCH];
	gpuhist_token_sum *tokens[GH_MPI_BATCH];  /* a tokens view: the
						   * operands' (rank 0: all) */
	char (*messages)[GH_MPI_MESSAGES];        /* this rank's failures' */
	char (*first_messages)[GH_MPI_MESSAGES];  /* rank 0: the lowest
						   * failed rank's */
	MPI_Datatype messages_type;
	MPI_Op first_op;
	struct gpuhist_input list[GH_MPI_BATCH];
	int index_of[GH_MPI_BATCH]; /* list[i] is the batch's index_of[i]th */
	/* The batch's names, as rank 0 read and broadcast them: each entry
	 * a flag byte (1: it names no input), its name and, for such an
	 * entry, why, each ended by a NUL, in packed[]. */
	const char *name[GH_MPI_BATCH];
	const char *bad_why[GH_MPI_BATCH];  /* NULL: a name to count */
	char *packed;
	size_t packed_len, packed_room;
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

bool gh_mpi_first_rank(void)
{
	const char *rank = launcher_env(rank_vars);

	return !rank || !strcmp(rank, "0");
}

void gh_mpi_refused(void)
{
	usleep(300 * 1000);
}

/* Rank 0: who counts operand `name`, the least loaded rank for a whole
 * file; *bytes gets a split operand's size. */
static int plan_one(struct rank_run *rr, const char *name, uint64_t *bytes)
{
	uint64_t size;
	enum gpuhist_kind kind = gpuhist_probe(name, rr->opts->lib.raw, &size);
	int least = 0;

	*bytes = 0;
	if (kind != GPUHIST_KIND_FILE && kind != GPUHIST_KIND_COMPRESSED)
		return 0;       /* stdin, streams, and what will fail */
	/* Tokens cross any place a file could be cut: counted whole. */
	if (rr->size > 1 && size >= GH_MPI_SPLIT_MIN &&
	    kind == GPUHIST_KIND_FILE && !rr->opts->lib.tokens &&
	    !rr->opts->lib.match && !rr->opts->lib.exclude) {
		*bytes = size;
		for (int r = 0; r < rr->size; r++)
			rr->load[r] += *bytes / (uint64_t)rr->size;
		return OWNER_SPLIT;
	}
	for (int r = 1; r < rr->size; r++)
		if (rr->load[r] < rr->load[least])
			least = r;
	rr->load[least] += size;
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

/* Plans the batch's n names on rank 0, broadcasts the plan, and fills
 * this rank's list; returns its length. */
static int plan_batch(struct rank_run *rr, int n)
{
	int k = 0;

	if (rr->rank == 0)
		for (int i = 0; i < n; i++)
			rr->owner[i] = rr->bad_why[i] ? OWNER_NONE
				       : plan_one(rr, rr->name[i],
						  &rr->size_of[i]);
	MPI_Bcast(rr->owner, n, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(rr->size_of, n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	for (int i = 0; i < n; i++) {
		struct gpuhist_input *in = &rr->list[k];

		memset(in, 0, sizeof(*in));
		in->type = GPUHIST_INPUT_PATH;
		in->name = rr->name[i];
		if (rr->owner[i] == OWNER_SPLIT) {
			uint64_t lo = range_bound(rr->size_of[i], rr->rank,
						  rr->size);
			uint64_t hi = range_bound(rr->size_of[i], rr->rank + 1,
						  rr->size);

			if (hi == lo)
				continue;
			in->offset = lo;
			in->length = hi - lo;
			rr->lo[i] = lo;
			rr->hi[i] = hi;
		} else if (rr->owner[i] != rr->rank) {
			continue;
		}
		rr->index_of[k++] = i;
	}
	return k;
}

/* Copies an operand's tokens into a sum of its own; true, or false when
 * out of memory or a spill failed. */
static bool keep_tokens(struct rank_run *rr, int i,
			const struct gpuhist_tokens *tk)
{
	const struct gpuhist_options *lib = &rr->opts->lib;

	gpuhist_token_sum_free(rr->tokens[i]);
	rr->tokens[i] = gpuhist_token_sum_new(lib->memory,
					      lib->temporary_directory);
	return rr->tokens[i] &&
	       !gpuhist_token_sum_add_tokens(rr->tokens[i], tk) &&
	       gpuhist_token_sum_end(rr->tokens[i]);
}

static void keep_totals(void *ctx, const struct gpuhist_result *r)
{
	struct rank_run *rr = ctx;
	int i = rr->index_of[r->index];

	if (r->totals) {
		memcpy(rr->totals[i], r->totals, sizeof(rr->totals[i]));
		rr->failed[i] = 0;
		rr->messages[i][0] = '\0';
		if (r->stream) {
			rr->stream[i] = *r->stream;
			/* A range of a split file: its join, not its wrap. */
			if (rr->owner[i] == OWNER_SPLIT &&
			    gh_mpi_join_range(r->name, rr->lo[i], rr->hi[i],
					      rr->size_of[i], &rr->stream[i])) {
				rr->failed[i] = 1;
				snprintf(rr->messages[i], sizeof(rr->messages[i]),
					 "%s: %s\n", r->name, strerror(errno));
				gh_msg("%s: %s", r->name, strerror(errno));
			}
		}
		if (r->chars &&
		    gpuhist_chars_merge(&rr->chars[i], r->chars)) {
			rr->failed[i] = 1;
			snprintf(rr->messages[i], sizeof(rr->messages[i]),
				 "%s: out of memory\n", r->name);
			gh_msg("%s: out of memory", r->name);
		}
		/* Tokens outlive the result as a copy, for rank 0. */
		if (r->tokens && !keep_tokens(rr, i, r->tokens)) {
			rr->failed[i] = 1;
			snprintf(rr->messages[i], sizeof(rr->messages[i]),
				 "%s: %s\n", r->name,
				 rr->tokens[i]
				 ? gpuhist_token_sum_message(rr->tokens[i])
				 : "out of memory");
			gh_msg("%s", rr->messages[i]);
		}
	} else {
		rr->failed[i] = 1;
		snprintf(rr->messages[i], sizeof(rr->messages[i]), "%s",
			 r->messages);
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

/* Counts, reduces and (rank 0) reports the batch's n names; returns how
 * many of them failed. */
static int run_batch(struct rank_run *rr, int n, int k)
{
	int failed = 0, some_failed = 0;

	memset(rr->failed, 0, sizeof(rr->failed));
	memset(rr->totals, 0, (size_t)n * sizeof(rr->totals[0]));
	memset(rr->messages, 0, (size_t)n * sizeof(rr->messages[0]));
	/* This rank's share fails unless its result says otherwise: a count
	 * that could not run at all (no thread) hands back no result. */
	for (int j = 0; j < k; j++) {
		rr->failed[rr->index_of[j]] = 1;
		snprintf(rr->messages[rr->index_of[j]], GH_MPI_MESSAGES,
			 "%s: not counted\n", rr->list[j].name);
	}
	memset(rr->stream, 0, (size_t)n * sizeof(rr->stream[0]));
	for (int i = 0; i < n; i++)
		gpuhist_chars_init(&rr->chars[i]);
	gh_run_count(&rr->run, rr->list, k, keep_totals, rr);
	MPI_Reduce(rr->totals, rr->sums, n * 256, MPI_UINT64_T, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (rr->opts->stats)
		MPI_Reduce(rr->stream, rr->stream_sums, n * 3, MPI_UINT64_T,
			   MPI_SUM, 0, MPI_COMM_WORLD);
	if (rr->opts->chars &&
	    gh_mpi_gather_chars(rr->chars, n, rr->rank, rr->size)) {
		gh_msg("a rank ran out of memory for code points");
		for (int i = 0; i < n; i++)
			rr->failed[i] = 1;
	}
	/* An operand whose tokens did not all reach rank 0 fails (said). */
	if (rr->opts->lib.tokens) {
		gh_mpi_send_tokens(rr->tokens, rr->owner, n, rr->rank,
				   &rr->opts->lib, rr->failed);
		for (int i = 0; i < n; i++)
			if (rr->failed[i] && !rr->messages[i][0])
				snprintf(rr->messages[i], GH_MPI_MESSAGES,
					 "%s: its tokens did not all reach rank 0\n",
					 rr->name[i]);
	}
	MPI_Allreduce(rr->failed, rr->any_failed, n, MPI_INT, MPI_MAX,
		      MPI_COMM_WORLD);
	for (int i = 0; i < n; i++)
		some_failed |= rr->any_failed[i];
	if (some_failed)
		MPI_Reduce(rr->messages, rr->first_messages, n,
			   rr->messages_type, rr->first_op, 0, MPI_COMM_WORLD);
	for (int i = 0; rr->rank == 0 && i < n; i++) {
		if (rr->bad_why[i]) {
			/* As one process says and reports it (run.c). */
			char line[GH_MSG_LINE + 2];

			gh_msg("%s", rr->bad_why[i]);
			snprintf(line, sizeof(line), "%s\n", rr->bad_why[i]);
			gh_report_failed(&rr->run.report, rr->name[i], line);
			failed++;
		} else if (rr->any_failed[i]) {
			failed++;
			gh_report_failed(&rr->run.report, rr->name[i],
					 rr->first_messages[i]);
		} else
			gh_report_input(&rr->run.report, rr->name[i],
					rr->sums[i],
					rr->opts->chars ? &rr->chars[i] : NULL,
					rr->opts->stats ? &rr->stream_sums[i]
							: NULL,
					rr->tokens[i]
					? gpuhist_token_sum_end(rr->tokens[i])
					: NULL);
	}
	for (int i = 0; i < n; i++) {
		gpuhist_chars_free(&rr->chars[i]);
		gpuhist_token_sum_free(rr->tokens[i]);
		rr->tokens[i] = NULL;
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

/* Starts this rank's backend, sized by its share of the first batch;
 * 0 when every rank has one, else -1 on all of them. */
static int open_backends(struct rank_run *rr, int k)
{
	int ok, all_ok;

	ok = !gh_run_start(&rr->run, rr->list, k);
	rr->started = ok;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return all_ok ? 0 : -1;
}

/* Adds len bytes at p to rank 0's packed batch; false when out of memory
 * (or past what one broadcast carries). */
static bool pack(struct rank_run *rr, const void *p, size_t len)
{
	if (rr->packed_len + len > rr->packed_room) {
		size_t room = 2 * (rr->packed_len + len) + 4096;
		char *grown = room < (size_t)1 << 30 ? realloc(rr->packed, room)
						      : NULL;

		if (!grown)
			return false;
		rr->packed = grown;
		rr->packed_room = room;
	}
	memcpy(rr->packed + rr->packed_len, p, len);
	rr->packed_len += len;
	return true;
}

/*
 * The next batch of names on every rank: rank 0 reads up to GH_MPI_BATCH
 * entries from ops and broadcasts them; returns how many.  *whole gets, on rank 0, why the run failed as a whole (the
 * list could not be read, or memory ran out), "" else; *last whether this
 * is the last batch.
 */
static int next_batch(struct rank_run *rr, struct gh_operands *ops,
		      char *whole, size_t whole_len, bool *last)
{
	/* n, the packed bytes, and whether more may follow. */
	unsigned long long head[3] = { 0, 0, 0 };

	if (rr->rank == 0) {
		const char *name;
		char why[GH_MSG_LINE];
		int got = 1, n = 0;

		rr->packed_len = 0;
		while (n < GH_MPI_BATCH &&
		       (got = gh_operands_next(ops, &name, why,
					       sizeof(why))) != 0) {
			char flag = got < 0;

			if (got == -2) {
				snprintf(whole, whole_len, "%s", gh_msg_last());
				break;
			}
			if (!pack(rr, &flag, 1) ||
			    !pack(rr, name, strlen(name) + 1) ||
			    (flag && !pack(rr, why, strlen(why) + 1))) {
				gh_msg("out of memory");
				snprintf(whole, whole_len, "out of memory");
				got = -2;
				break;
			}
			n++;
		}
		head[0] = (unsigned long long)n;
		head[1] = rr->packed_len;
		/* More may follow after a full batch, whether its last entry
		 * named an input (1) or not (-1); not after the end (0) or a
		 * failure (-2). */
		head[2] = (got == 1 || got == -1) && n == GH_MPI_BATCH;
	}
	MPI_Bcast(head, 3, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	if (rr->rank != 0) {
		if (head[1] > rr->packed_room) {
			free(rr->packed);
			rr->packed = malloc(head[1]);
			rr->packed_room = rr->packed ? head[1] : 0;
			if (!rr->packed) {
				gh_msg("out of memory");
				MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
			}
		}
		rr->packed_len = head[1];
	}
	if (head[1])
		MPI_Bcast(rr->packed, (int)head[1], MPI_CHAR, 0,
			  MPI_COMM_WORLD);
	const char *at = rr->packed;

	for (unsigned long long i = 0; i < head[0]; i++) {
		bool bad = *at++;

		rr->name[i] = at;
		at += strlen(at) + 1;
		rr->bad_why[i] = NULL;
		if (bad) {
			rr->bad_why[i] = at;
			at += strlen(at) + 1;
		}
	}
	*last = !head[2];
	return (int)head[0];
}

/* Counts every operand across the ranks, rank 0 reporting them; how many
 * failed (on rank 0), or -1 when some rank had no backend, or the list of
 * names could not be opened, before anything is reported. */
static int count_shared(struct rank_run *rr)
{
	struct gh_operands ops;
	char whole[GH_MSG_LINE] = "";
	int failed = 0, opened = 1;
	bool last = false;

	/* Rank 0 alone reads the names (standard input is its own). */
	if (rr->rank == 0)
		opened = !gh_operands_open(&ops, rr->opts);
	MPI_Bcast(&opened, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!opened)
		return -1;
	for (bool first = true; !last; first = false) {
		int n = next_batch(rr, &ops, whole, sizeof(whole), &last);
		int k = plan_batch(rr, n);

		if (first) {
			if (open_backends(rr, k)) {
				if (rr->rank == 0)
					gh_operands_close(&ops);
				return -1;
			}
			if (rr->rank == 0)
				gh_report_begin(&rr->run.report, stdout,
						rr->opts, &rr->run.view);
		}
		failed += run_batch(rr, n, k);
	}
	if (rr->rank == 0) {
		if (whole[0]) {
			gh_report_run_failed(&rr->run.report, whole);
			failed++;
		}
		if (gh_operands_close(&ops)) {
			gh_report_run_failed(&rr->run.report, gh_msg_last());
			failed++;
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
	/* The GPU of this rank's local rank on its node, unless named. */
	if (opts->lib.backend != GPUHIST_BACKEND_CPU && !opts->lib.n_devices &&
	    !opts->lib.all_devices) {
		int local = node_rank(), n = gpuhist_gpu_count(NULL, 0);

		if (n > 0) {
			opts->lib.devices[0] = local % n;
			opts->lib.n_devices = 1;
		}
	}
	if (gh_run_open(&rr->run, opts))
		MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
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
	/* Rank 0 alone writes the report; --merge needs no counting, so
	 * rank 0 alone adds the results up. */
	if (opts->merge) {
		failed = 0;
		if (rr->rank == 0) {
			gh_report_begin(&rr->run.report, stdout, opts,
					&rr->run.view);
			failed = gh_run_merge(&rr->run);
		}
	} else {
		failed = count_shared(rr);
		if (failed < 0)
			return EXIT_FAILURE;
	}
	gh_progress_clear(&rr->run.progress);
	if (rr->rank == 0)
		gh_report_end(&rr->run.report);
	if (failed)
		status = EXIT_FAILURE;
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
	/* Waited for, so no GPU is still starting when MPI ends. */
	gh_run_close(&rr->run, rr->who, true);
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
	free(rr->packed);
	free(rr);
	return agreed;
}
#else /* no MPI: never launched by mpirun */
bool gh_mpi_launched(void)
{
	return false;
}

bool gh_mpi_first_rank(void)
{
	return true;
}

void gh_mpi_refused(void)
{
}

int gh_mpi_main(struct gh_options *opts)
{
	(void)opts;
	return EXIT_FAILURE;
}
#endif
