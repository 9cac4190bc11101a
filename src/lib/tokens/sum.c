/* sum.c - the public face of counts.c: a result's tokens read in parts
 * (gpuhist_tokens_each) and where its commonest were picked, and sums
 * of token counts (gpuhist_token_sum_*),
 * which the command's total and --merge use; and a tokens view's name
 * (gpuhist_view_name) */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "counts.h"
#include "gpuhist.h"

/* Units added at once. */
#define BATCH 1024

struct gpuhist_token_sum {
	struct gh_counts *counts;
	struct gh_unit batch[BATCH];
	int n;
	bool ended;
	const struct gpuhist_tokens *result;
	const char *why;
};

int gpuhist_tokens_each(const struct gpuhist_tokens *tokens,
			int (*fn)(void *ctx, const struct gpuhist_tokens *part),
			void *ctx)
{
	int ret = gh_counts_each(gh_counts_of(tokens), fn, ctx);

	return ret == GH_COUNTS_UNREAD ? GPUHIST_ERR_INPUT : ret;
}

const char *gpuhist_tokens_message(const struct gpuhist_tokens *tokens)
{
	return gh_counts_error(gh_counts_of(tokens));
}

const char *gpuhist_tokens_picked_on(const struct gpuhist_tokens *tokens)
{
	return gh_counts_picked_on(gh_counts_of(tokens));
}

gpuhist_token_sum *gpuhist_token_sum_new(uint64_t memory,
					 const char *temporary_directory)
{
	gpuhist_token_sum *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->counts = gh_counts_new(memory, temporary_directory);
	if (!s->counts) {
		free(s);
		return NULL;
	}
	return s;
}

void gpuhist_token_sum_free(gpuhist_token_sum *s)
{
	if (!s)
		return;
	gh_counts_free(s->counts);
	free(s);
}

/* Adds what is batched: the batch's bytes live until then. */
static int flush(gpuhist_token_sum *s)
{
	int ret = s->n ? gh_counts_add(s->counts, s->batch, s->n) : 0;

	s->n = 0;
	if (ret)
		s->why = gh_counts_error(s->counts);
	return ret;
}

int gpuhist_token_sum_add(gpuhist_token_sum *s, const void *bytes, size_t len,
			  uint64_t count)
{
	struct gh_unit u = { bytes, len, 0, count };

	if (s->ended) {
		s->why = "tokens added to a sum that has ended";
		return -1;
	}
	if (!count)
		return 0;
	if (gh_counts_add(s->counts, &u, 1)) {
		s->why = gh_counts_error(s->counts);
		return -1;
	}
	return 0;
}

/* A part's tokens added in batches (they live while the part does). */
static int add_part(void *ctx, const struct gpuhist_tokens *part)
{
	gpuhist_token_sum *s = ctx;

	for (size_t i = 0; i < part->distinct; i++) {
		const struct gpuhist_token *t = &part->token[i];

		s->batch[s->n++] = (struct gh_unit){ t->bytes, t->len, 0,
						     t->count };
		if (s->n == BATCH && flush(s))
			return -1;
	}
	return flush(s);
}

int gpuhist_token_sum_add_tokens(gpuhist_token_sum *s,
				 const struct gpuhist_tokens *tokens)
{
	int ret;

	if (s->ended) {
		s->why = "tokens added to a sum that has ended";
		return -1;
	}
	ret = gh_counts_each(gh_counts_of(tokens), add_part, s);
	if (ret && !s->why)
		s->why = gh_counts_error(gh_counts_of(tokens));
	return ret ? -1 : 0;
}

const struct gpuhist_tokens *gpuhist_token_sum_end(gpuhist_token_sum *s)
{
	if (!s->ended) {
		s->ended = true;
		if (gh_counts_end(s->counts, 0, &s->result)) {
			s->why = gh_counts_error(s->counts);
			s->result = NULL;
		}
	}
	return s->result;
}

const char *gpuhist_token_sum_message(const gpuhist_token_sum *s)
{
	return s->why ? s->why : "out of memory";
}

const char *gpuhist_view_name(const struct gpuhist_options *opts)
{
	switch (opts->tokens) {
	case GPUHIST_TOKENS_WORDS: return "words";
	case GPUHIST_TOKENS_LINES: return "lines";
	case GPUHIST_TOKENS_KEY: return "key";
	case GPUHIST_TOKENS_PER: return "per";
	case GPUHIST_TOKENS_BYTES: return "bytes";
	case GPUHIST_TOKENS_CHARS: return "chars";
	case GPUHIST_TOKENS_FIELD:
		return opts->n_fields > 1 ? "fields" : "field";
	default: return "bytes";
	}
}
