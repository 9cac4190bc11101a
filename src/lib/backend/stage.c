/* stage.c - chunks that hold what readers fill while a GPU starts
 *
 * Under auto, the words or lines of one large input go to the GPU alone
 * (choose.c), and its start takes 0.25-0.45 s.  Readers and decoders used
 * to wait for it, idle.  The stage lends them chunks of plain host memory
 * meanwhile, named as owned by a backend that counts tokens itself, so
 * the views cut their ends as they would for the GPU; filled chunks are
 * held, in no order, until backend_auto.c takes each, copies it into a
 * chunk of the GPU (or of the CPU, where the GPU did not start) and
 * submits it there: the starter, and readers as they ask for chunks, so
 * that the copies run side by side.  Its memory is one mapping of `room`
 * bytes, touched only as chunks are lent (in huge pages where the kernel
 * gives them), and given back once every chunk has been copied.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "stage.h"

/* Chunks a stage holds at most (a room past it is cut). */
#define MOST_SLOTS (1 << 20)

struct stage_slot {
	struct gh_chunk chunk;
	int input;
	uint64_t len;
};

struct gh_stage {
	struct gh_backend base;         /* what its chunks name */
	unsigned char *mem;             /* n_slots chunks; NULL once given back */
	size_t mem_bytes;
	struct stage_slot *slots;
	int n_slots;
	pthread_mutex_t lock;           /* guards the rest */
	pthread_cond_t held_one;        /* a chunk came back */
	int lent;                       /* slots lent so far (never again) */
	int out;                        /* lent and not yet back */
	int *held, n_held;              /* back with bytes, to be taken */
	int n_taken;
	int copying;                    /* taken, not yet gh_stage_copied() */
	bool closed;
	uint64_t bytes;                 /* held in all */
	int chunks;
};

struct gh_stage *gh_stage_new(const struct gpuhist_options *opts,
			      uint64_t chunk_bytes, uint64_t room)
{
	struct gh_stage *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->n_slots = room / chunk_bytes > MOST_SLOTS ? MOST_SLOTS
						     : (int)(room / chunk_bytes);
	s->mem_bytes = (size_t)s->n_slots * chunk_bytes;
	s->slots = calloc((size_t)s->n_slots, sizeof(*s->slots));
	s->held = calloc((size_t)s->n_slots, sizeof(*s->held));
	s->mem = mmap(NULL, s->mem_bytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!s->n_slots || !s->slots || !s->held || s->mem == MAP_FAILED) {
		if (s->mem != MAP_FAILED && s->mem)
			munmap(s->mem, s->mem_bytes);
		free(s->slots);
		free(s->held);
		free(s);
		return NULL;
	}
#ifdef MADV_HUGEPAGE
	madvise(s->mem, s->mem_bytes, MADV_HUGEPAGE);
#endif
	s->base.name = "stage";
	s->base.chunk_bytes = chunk_bytes;
	s->base.chars = opts->chars;
	s->base.stats = opts->stats;
	s->base.tokens = opts->tokens != 0;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->held_one, NULL);
	return s;
}

const struct gh_backend *gh_stage_backend(const struct gh_stage *s)
{
	return &s->base;
}

struct gh_chunk *gh_stage_lend(struct gh_stage *s)
{
	struct stage_slot *slot = NULL;

	pthread_mutex_lock(&s->lock);
	if (!s->closed && s->lent < s->n_slots) {
		slot = &s->slots[s->lent];
		slot->chunk.data = s->mem + (size_t)s->lent *
					    s->base.chunk_bytes;
		slot->chunk.backend = &s->base;
		slot->chunk.slot = s->lent++;
		s->out++;
	}
	pthread_mutex_unlock(&s->lock);
	return slot ? &slot->chunk : NULL;
}

/* Whether every chunk lent has come back, been taken and been copied
 * (s->lock held). */
static bool emptied(const struct gh_stage *s)
{
	return s->closed && !s->out && s->n_taken == s->n_held &&
	       !s->copying;
}

/* Once emptied, the memory goes back at once, not at the run's end
 * (s->lock held). */
static void give_back_if_emptied(struct gh_stage *s)
{
	if (emptied(s) && s->mem) {
		munmap(s->mem, s->mem_bytes);
		s->mem = NULL;
	}
}

void gh_stage_hold(struct gh_stage *s, struct gh_chunk *c, int input,
		   uint64_t len)
{
	struct stage_slot *slot = &s->slots[c->slot];

	pthread_mutex_lock(&s->lock);
	s->out--;
	if (len) {
		slot->input = input;
		slot->len = len;
		s->held[s->n_held++] = c->slot;
		s->bytes += len;
		s->chunks++;
	}
	give_back_if_emptied(s);
	pthread_cond_broadcast(&s->held_one);
	pthread_mutex_unlock(&s->lock);
}

void gh_stage_close(struct gh_stage *s)
{
	pthread_mutex_lock(&s->lock);
	s->closed = true;
	give_back_if_emptied(s);
	pthread_mutex_unlock(&s->lock);
}

struct gh_chunk *gh_stage_take(struct gh_stage *s, bool wait, int *input,
			       uint64_t *len)
{
	struct stage_slot *slot = NULL;

	pthread_mutex_lock(&s->lock);
	while (wait && s->n_taken == s->n_held && s->out > 0)
		pthread_cond_wait(&s->held_one, &s->lock);
	if (s->closed && s->n_taken < s->n_held) {
		slot = &s->slots[s->held[s->n_taken++]];
		s->copying++;
		*input = slot->input;
		*len = slot->len;
	}
	pthread_mutex_unlock(&s->lock);
	return slot ? &slot->chunk : NULL;
}

void gh_stage_copied(struct gh_stage *s)
{
	pthread_mutex_lock(&s->lock);
	s->copying--;
	give_back_if_emptied(s);
	pthread_mutex_unlock(&s->lock);
}

struct gh_stage_state gh_stage_state(struct gh_stage *s)
{
	struct gh_stage_state st;

	pthread_mutex_lock(&s->lock);
	st.emptied = emptied(s);
	st.lent = s->lent;
	st.waiting = s->n_held - s->n_taken;
	st.chunks = s->chunks;
	st.bytes = s->bytes;
	pthread_mutex_unlock(&s->lock);
	return st;
}

void gh_stage_free(struct gh_stage *s)
{
	if (!s)
		return;
	if (s->mem)
		munmap(s->mem, s->mem_bytes);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->held_one);
	free(s->slots);
	free(s->held);
	free(s);
}
