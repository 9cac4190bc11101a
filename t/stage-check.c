/* stage-check.c - TAP test: the stage (backend/stage.c) that holds what
 * decoders fill while a GPU starts, without a GPU: threads lend, fill and
 * hold its chunks (some given back unused) until its room is spent, and
 * takers copy them out side by side; every byte held comes out once, to
 * the input that held it; takers that wait get the chunk still lent, one
 * that does not gets nothing till then; nothing is lent once it is
 * closed; and it is emptied only after the last copy. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/stage.h"

#define CHUNK 4096
#define SLOTS 64
#define FILLERS 8
#define TAKERS 4
#define INPUTS 3

static int test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

static struct gh_stage *stage;

/* What was held and what was taken: bytes and a sum of them, an input. */
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t held_bytes[INPUTS], held_sum[INPUTS];
static uint64_t taken_bytes[INPUTS], taken_sum[INPUTS];
static int bad_chunks;

static void tally(uint64_t *bytes, uint64_t *sum, int input,
		  const unsigned char *p, uint64_t len)
{
	uint64_t s = 0;

	for (uint64_t i = 0; i < len; i++)
		s += p[i] * (i + 1);
	pthread_mutex_lock(&tally_lock);
	bytes[input] += len;
	sum[input] += s;
	pthread_mutex_unlock(&tally_lock);
}

static void *fill(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u;
	struct gh_chunk *c;

	while ((c = gh_stage_lend(stage))) {
		int input = rand_r(&seed) % INPUTS;
		uint64_t len = rand_r(&seed) % 5 ? 1 + rand_r(&seed) % CHUNK : 0;

		for (uint64_t i = 0; i < len; i++)
			c->data[i] = (unsigned char)rand_r(&seed);
		/* The fields the views set travel with the bytes. */
		c->tok_from = len / 3;
		c->tok_to = len;
		if (len)
			tally(held_bytes, held_sum, input, c->data, len);
		gh_stage_hold(stage, c, input, len);
	}
	return NULL;
}

static void *take(void *arg)
{
	int wait = arg != NULL, input;
	uint64_t len;
	struct gh_chunk *c;
	unsigned char copy[CHUNK];

	while ((c = gh_stage_take(stage, wait, &input, &len)) || !wait) {
		if (!c) {
			if (gh_stage_state(stage).emptied)
				break;
			sched_yield();
			continue;
		}
		memcpy(copy, c->data, len);
		if (input < 0 || input >= INPUTS || len > CHUNK ||
		    c->tok_from != len / 3 || c->tok_to != len)
			__atomic_add_fetch(&bad_chunks, 1, __ATOMIC_RELAXED);
		else
			tally(taken_bytes, taken_sum, input, copy, len);
		gh_stage_copied(stage);
	}
	return NULL;
}

int main(void)
{
	struct gpuhist_options opts = { .tokens = GPUHIST_TOKENS_WORDS };
	pthread_t fillers[FILLERS], takers[TAKERS];
	struct gh_chunk *late, *got;
	const struct timespec ms50 = { 0, 50000000 };
	int input = -1, same = 1, chunks = 0;
	uint64_t len = 0, all = 0;

	printf("1..11\n");
	stage = gh_stage_new(&opts, CHUNK, (uint64_t)SLOTS * CHUNK + 100);
	ok(stage && gh_stage_backend(stage)->chunk_bytes == CHUNK &&
	   gh_stage_backend(stage)->tokens,
	   "a stage of 64 chunks, named as a backend that counts tokens");
	if (!stage)
		return 1;

	/* One chunk kept back, held only after a taker waits for it. */
	late = gh_stage_lend(stage);
	for (int i = 0; i < FILLERS; i++)
		pthread_create(&fillers[i], NULL, fill, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < FILLERS; i++)
		pthread_join(fillers[i], NULL);
	ok(!gh_stage_lend(stage), "its room spent, it lends no more");
	gh_stage_close(stage);
	ok(!gh_stage_state(stage).emptied,
	   "closed with a chunk still lent: not emptied");

	for (int i = 0; i < TAKERS; i++)
		pthread_create(&takers[i], NULL, take, (void *)1);
	nanosleep(&ms50, NULL);
	memset(late->data, 7, 100);
	late->tok_from = 100 / 3;
	late->tok_to = 100;
	tally(held_bytes, held_sum, 1, late->data, 100);
	gh_stage_hold(stage, late, 1, 100);
	for (int i = 0; i < TAKERS; i++)
		pthread_join(takers[i], NULL);

	for (int i = 0; i < INPUTS; i++) {
		same &= held_bytes[i] == taken_bytes[i] &&
			held_sum[i] == taken_sum[i];
		all += held_bytes[i];
	}
	ok(!bad_chunks, "every chunk taken names its input, length and cut");
	ok(same && all > 0,
	   "each input's bytes came out once, as held, by four takers at once, waiting for the last");
	ok(gh_stage_state(stage).bytes == all, "its bytes: every byte held");
	chunks = gh_stage_state(stage).chunks;
	ok(chunks > 0 && chunks <= SLOTS,
	   "its chunks: the chunks held with bytes, 64 at most");
	ok(gh_stage_state(stage).emptied, "every chunk copied: emptied");
	got = gh_stage_take(stage, 1, &input, &len);
	ok(!got && !gh_stage_lend(stage),
	   "emptied: nothing to take, and nothing lent, even waiting");
	gh_stage_free(stage);

	/* Without waiting: nothing while the one chunk is lent, then it. */
	stage = gh_stage_new(&opts, CHUNK, CHUNK);
	late = gh_stage_lend(stage);
	gh_stage_close(stage);
	got = gh_stage_take(stage, 0, &input, &len);
	ok(late && !got, "a take that does not wait: none while a chunk is lent");
	late->data[0] = 'x';
	gh_stage_hold(stage, late, 2, 1);
	got = gh_stage_take(stage, 0, &input, &len);
	ok(got && got->data[0] == 'x' && input == 2 && len == 1,
	   "... then the chunk, once held");
	gh_stage_copied(stage);
	gh_stage_free(stage);
	return 0;
}
