/* run.c - the one run layer: operands counted by libgpuhist and reported
 *
 * gh_run() is the whole of an ordinary run: open a counter, start its
 * backend, count the operands (several at once, results in operand
 * order), report each, then the total.  The MPI mode (mpi_run.c) plans
 * and reduces around the same pieces: gh_run_open(), gh_run_start(),
 * gh_run_count() on its share, gh_run_close().
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "follow.h"
#include "report_values.h"
#include "msg.h"
#include "operands.h"
#include "run.h"

int gh_run_open(struct gh_run *run, struct gh_options *opts)
{
	char why[256];

	run->opts = opts;
	gh_progress_init(&run->progress, opts);
	gh_view_init(&run->view, opts);
	opts->lib.progress = gh_progress_update;
	opts->lib.progress_ctx = &run->progress;
	if (gpuhist_open(&run->counter, &opts->lib, why, sizeof(why))) {
		gh_msg("%s", why);
		return -1;
	}
	return 0;
}

int gh_run_start(struct gh_run *run, const struct gpuhist_input *list, int n)
{
	if (gpuhist_start(run->counter, list, n)) {
		gh_msg("%s", gpuhist_message(run->counter));
		return -1;
	}
	return 0;
}

/* What one gh_run_count() hands on. */
struct count {
	struct gh_run *run;
	gh_sink_fn sink;
	void *ctx;
	int failed;
};

static void said_and_sunk(void *ctx, const struct gpuhist_result *r)
{
	struct count *cn = ctx;

	gh_msg_lines(r->messages);
	if (r->totals)
		gh_progress_clear(&cn->run->progress);
	else
		cn->failed++;
	cn->sink(cn->ctx, r);
}

int gh_run_count(struct gh_run *run, const struct gpuhist_input *list, int n,
		 gh_sink_fn sink, void *ctx)
{
	struct count cn = { run, sink, ctx, 0 };
	int status = gpuhist_count(run->counter, list, n, said_and_sunk, &cn);

	if (status == GPUHIST_ERR_BACKEND) {     /* nothing was reported */
		gh_msg("%s", gpuhist_message(run->counter));
		return -1;
	}
	if (status != GPUHIST_OK && status != GPUHIST_ERR_INPUT) {
		/* No input may be missing from a result --merge takes. */
		gh_msg("%s", gpuhist_message(run->counter));
		gh_report_run_failed(&run->report,
				     gpuhist_message(run->counter));
		return n;
	}
	return cn.failed;
}

/* An entry of --files0-from that names no input: said, and reported as
 * an input that failed. */
static void bad_operand(struct gh_run *run, const char *name, const char *why)
{
	char line[GH_MSG_LINE + 2];

	gh_msg("%s", why);
	snprintf(line, sizeof(line), "%s\n", why);
	gh_report_failed(&run->report, name, line);
}

/* Reports a counted input, or one that failed. */
static void report_result(void *ctx, const struct gpuhist_result *r)
{
	struct gh_report *report = ctx;

	if (r->totals)
		gh_report_input(report, r->name, r->totals, r->chars,
				r->stream, r->tokens);
	else                        /* a failed input adds nothing */
		gh_report_failed(report, r->name, r->messages);
}

/* Reads one json result into m through the library; says why not, and
 * keeps it for json's "error" in messages. */
static int merge_read(struct gh_run *run, const char *name,
		      struct gpuhist_merge *m, char *messages, size_t len)
{
	int status = gpuhist_merge_json(&run->opts->lib, name, m);

	gh_msg_capture(messages, len);
	if (status != GPUHIST_OK)
		gh_msg_lines(m->message);
	gh_msg_capture(NULL, 0);
	gh_msg_print(messages);
	return status == GPUHIST_OK ? 0 : -1;
}

/* --merge of a tokens view: one json result's tokens added into the
 * report; 0, or -1 (said). */
static int merge_tokens_one(struct gh_run *run, const char *name,
			    struct gpuhist_merge *m)
{
	const struct gpuhist_options *lib = &run->opts->lib;
	char messages[1024];
	int ret;

	m->tokens = gpuhist_token_sum_new(lib->memory,
					  lib->temporary_directory);
	if (!m->tokens) {
		gh_msg("%s: out of memory", name);
		gh_report_failed(&run->report, name, "");
		gpuhist_values_free(m->values);
		return -1;
	}
	/* A tokens result has no histogram: its bytes read stand in bin 0,
	 * which the tokens views show only as bytes read. */
	ret = merge_read(run, name, m, messages, sizeof(messages));
	if (ret)
		gh_report_failed(&run->report, name, messages);
	else
		ret = gh_report_input(&run->report, name, m->totals, NULL,
				      NULL, gpuhist_token_sum_end(m->tokens));
	gpuhist_token_sum_free(m->tokens);
	gpuhist_values_free(m->values);         /* (values per interval's) */
	return ret;
}

/* --merge of the values view: one json result's numbers added into the
 * report; 0, or -1 (said). */
static int merge_values_one(struct gh_run *run, const char *name,
			    struct gpuhist_merge *m)
{
	char messages[1024];
	int ret;

	m->values = gh_report_values_of(&run->report, name, NULL, NULL, 0);
	if (!m->values) {
		gh_report_failed(&run->report, name, "");
		return -1;
	}
	/* Per interval: each interval's buckets and summary come as
	 * tokens, which the report reads an interval at a time; m->values
	 * checks the buckets' bounds. */
	if (run->opts->lib.per)
		return merge_tokens_one(run, name, m);
	ret = merge_read(run, name, m, messages, sizeof(messages));
	if (ret)
		gh_report_failed(&run->report, name, messages);
	else
		ret = gh_report_values_input(&run->report, name, m->totals[0],
					     m->values);
	gpuhist_values_free(m->values);
	return ret;
}

/* --merge: one json result added into the report; 0, or -1 (said). */
static int merge_one(struct gh_run *run, const char *name)
{
	struct gpuhist_merge *m = calloc(1, sizeof(*m));
	struct gpuhist_chars chars;
	char messages[1024];
	int ret;

	if (!m) {
		gh_msg_capture(messages, sizeof(messages));
		gh_msg("%s: out of memory", name);
		gh_msg_capture(NULL, 0);
		gh_msg_print(messages);
		gh_report_failed(&run->report, name, messages);
		return -1;
	}
	m->struct_size = sizeof(*m);
	if (run->opts->values) {
		ret = merge_values_one(run, name, m);
	} else if (run->opts->lib.tokens) {
		ret = merge_tokens_one(run, name, m);
	} else {
		gpuhist_chars_init(&chars);
		m->sum = run->report.total;
		m->chars = run->opts->chars ? &chars : NULL;
		ret = merge_read(run, name, m, messages, sizeof(messages));
		if (ret)
			gh_report_failed(&run->report, name, messages);
		else
			ret = gh_report_input(&run->report, name, m->totals,
					      &chars, m->stream_known
					      ? &m->stream : NULL, NULL);
		gpuhist_chars_free(&chars);
	}
	free(m);
	return ret;
}

int gh_run_merge(struct gh_run *run)
{
	struct gh_operands ops;
	const char *name;
	char why[GH_MSG_LINE];
	int failed = 0, got;

	if (gh_operands_open(&ops, run->opts))
		return 1;
	while ((got = gh_operands_next(&ops, &name, why, sizeof(why))) != 0) {
		if (got == -2) {
			gh_report_run_failed(&run->report, gh_msg_last());
			failed++;
			break;
		}
		if (got < 0) {
			bad_operand(run, name, why);
			failed++;
		} else if (merge_one(run, name)) {
			failed++;
		}
	}
	if (gh_operands_close(&ops)) {
		gh_report_run_failed(&run->report, gh_msg_last());
		failed++;
	}
	return failed;
}

int gh_run_close(struct gh_run *run, const char *who, bool wait)
{
	struct gpuhist_summary s, t;

	gh_progress_clear(&run->progress);
	if (!run->counter)
		return 0;
	gpuhist_summarize(run->counter, &s);
	/* --backend=gpu may have counted everything on the CPU while its GPU
	 * started: -v waits for the GPU, to say which device it was (the
	 * figures are taken before the wait). */
	if (run->opts->verbose && s.backend[0] &&
	    run->opts->lib.backend == GPUHIST_BACKEND_GPU) {
		gpuhist_wait(run->counter);
		gpuhist_summarize(run->counter, &t);
		s.backend = t.backend;
	}
	if (run->opts->verbose && s.backend[0]) {    /* it counted */
		double after = s.seconds - s.startup;

		/* The start-up is the backend's as a whole, so it goes with
		 * the figures, not after a detail that may end in "no GPU was
		 * started". */
		/* How each compressed input was decoded came with it. */
		gh_msg("%s%s", who, s.backend);
		gh_msg("%s%llu bytes in %.3f s, %.2f GB/s; backend start-up %.3f s; after start-up %.3f s, %.2f GB/s",
		       who, (unsigned long long)s.bytes, s.seconds,
		       s.seconds > 0 ? (double)s.bytes / s.seconds / 1e9 : 0.0,
		       s.startup, after,
		       after > 0 ? (double)s.bytes / after / 1e9 : 0.0);
	}
	if (wait)
		gpuhist_wait(run->counter);
	int left_running = gpuhist_free(run->counter);

	run->counter = NULL;
	return left_running;
}

/* Operands counted together: their names, copied, and the inputs. */
#define GH_RUN_BATCH 1024
struct batch {
	struct gpuhist_input list[GH_RUN_BATCH];
	char *names[GH_RUN_BATCH];
	int n;
};

static void batch_clear(struct batch *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->names[i]);
	b->n = 0;
}

/* Counts the operands, GH_RUN_BATCH at a time, into run->report; how
 * many failed, or -1 when nothing could be counted (said, and nothing
 * printed). */
static int count_operands(struct gh_run *run, struct batch *b)
{
	struct gh_operands ops;
	const char *name;
	char why[GH_MSG_LINE];
	bool begun = false, more = true;
	int failed = 0, got;
	/* Why the run failed as a whole, for json's document (the report
	 * begins with the first count). */
	char whole[GH_MSG_LINE] = "";

	if (gh_operands_open(&ops, run->opts))
		return -1;
	while (more) {
		/* Entries that name no input wait with the batch, so that
		 * every input is reported in order. */
		int bad[GH_RUN_BATCH], n_bad = 0;
		char *bad_why[GH_RUN_BATCH];

		while (b->n < GH_RUN_BATCH &&
		       (got = gh_operands_next(&ops, &name, why,
					       sizeof(why))) != 0) {
			if (got == -2) {
				snprintf(whole, sizeof(whole), "%s",
					 gh_msg_last());
				failed++;
				more = false;
				break;
			}
			b->names[b->n] = strdup(name);
			bad_why[n_bad] = got < 0 ? strdup(why) : NULL;
			if (!b->names[b->n] || (got < 0 && !bad_why[n_bad])) {
				free(b->names[b->n]);
				free(bad_why[n_bad]);
				gh_msg("out of memory");
				snprintf(whole, sizeof(whole), "out of memory");
				failed++;
				more = false;
				break;
			}
			if (got < 0)
				bad[n_bad++] = b->n;
			b->list[b->n].type = GPUHIST_INPUT_PATH;
			b->list[b->n].name = b->names[b->n];
			b->n++;
		}
		if (b->n < GH_RUN_BATCH)
			more = false;
		/* The first count starts the backend: under --backend=gpu
		 * the CPU counts while the GPU starts, and the report's head
		 * waits for a first result (nothing is printed if the GPU
		 * does not start). */
		if (!begun) {
			gh_report_begin(&run->report, stdout, run->opts,
					&run->view);
			begun = true;
		}
		if (whole[0])
			gh_report_run_failed(&run->report, whole);
		/* Counted in runs between the bad entries. */
		int from = 0;

		for (int k = 0; k <= n_bad; k++) {
			int to = k < n_bad ? bad[k] : b->n;

			got = gh_run_count(run, b->list + from, to - from,
					   report_result, &run->report);
			if (got < 0) {          /* the backend cannot count */
				for (int i = k; i < n_bad; i++)
					free(bad_why[i]);
				batch_clear(b);
				gh_operands_close(&ops);
				return -1;
			}
			failed += got;
			if (k < n_bad) {
				bad_operand(run, b->names[to], bad_why[k]);
				free(bad_why[k]);
				failed++;
			}
			from = to + 1;
		}
		batch_clear(b);
	}
	if (gh_operands_close(&ops)) {
		gh_report_run_failed(&run->report, gh_msg_last());
		failed++;
	}
	return failed;
}

int gh_run(struct gh_options *opts)
{
	struct gh_run run = { 0 };
	struct batch *batch = NULL;
	int failed, status = EXIT_SUCCESS;

	if (gh_run_open(&run, opts))
		return EXIT_FAILURE;
	if (opts->merge) {
		gh_report_begin(&run.report, stdout, opts, &run.view);
		failed = gh_run_merge(&run);
	} else if (opts->follow) {
		/* Its own blocks: the report's stays empty. */
		failed = gh_follow(&run);
		if (failed < 0) {
			gh_run_close(&run, "", false);
			return EXIT_FAILURE;
		}
		run.report.snapshot = true;
		run.report.out = stdout;
		run.report.opts = opts;
		run.report.headed = true;
	} else {
		batch = calloc(1, sizeof(*batch));
		failed = batch ? count_operands(&run, batch) : -1;
		if (!batch)
			gh_msg("out of memory");
		if (failed < 0) {
			free(batch);
			gh_run_close(&run, "", false);
			return EXIT_FAILURE;
		}
	}
	if (failed)
		status = EXIT_FAILURE;
	gh_progress_clear(&run.progress);
	gh_report_end(&run.report);
	if (run.report.failed)
		status = EXIT_FAILURE;

	int leave_now = gh_run_close(&run, "", false);

	free(batch);
	if (gh_close_stdout())
		status = EXIT_FAILURE;
	if (leave_now)          /* a GPU still starting, not needed after all */
		_exit(status);
	return status;
}
