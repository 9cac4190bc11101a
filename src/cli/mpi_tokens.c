/* mpi_tokens.c - the tokens views under mpirun: each operand's tokens,
 * counted whole by one rank, sent to rank 0 (mpi_tokens.h)
 *
 * A token's place in its file decides which unit it belongs to, so a file
 * is not split among the ranks for tokens: the rank with the fewest bytes
 * counts it whole, keeping its tokens in a gpuhist_token_sum (which spills
 * past --memory).  Then, operand by operand, that rank sends them to rank
 * 0 as blocks of records (the count and the length, 8 bytes each, then
 * the bytes), a block of at most GH_MPI_TOKENS_BLOCK unless one token is
 * longer, and an empty block last; rank 0 adds them into a sum of its own,
 * which spills the same way, and reports it as one process would.
 */
#include "config.h"

#ifdef HAVE_MPI
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "mpi_tokens.h"
#include "msg.h"

#define GH_MPI_TOKENS_BLOCK (1 << 20)
#define HEAD (2 * sizeof(uint64_t))

/* The sending side: a block being filled. */
struct sender {
	unsigned char *buf;
	size_t len;
	int tag;
};

static void send_block(struct sender *s, const void *p, size_t len)
{
	MPI_Send(p, (int)len, MPI_BYTE, 0, s->tag, MPI_COMM_WORLD);
}

static int pack_part(void *ctx, const struct gpuhist_tokens *part)
{
	struct sender *s = ctx;

	for (size_t i = 0; i < part->distinct; i++) {
		const struct gpuhist_token *t = &part->token[i];
		uint64_t head[2] = { t->count, t->len };
		size_t need = HEAD + t->len;

		if (s->len + need > GH_MPI_TOKENS_BLOCK && s->len) {
			send_block(s, s->buf, s->len);
			s->len = 0;
		}
		if (need > GH_MPI_TOKENS_BLOCK) {       /* a block of its own */
			unsigned char *big = malloc(need);

			if (!big)
				return -1;
			memcpy(big, head, HEAD);
			memcpy(big + HEAD, t->bytes, t->len);
			send_block(s, big, need);
			free(big);
			continue;
		}
		memcpy(s->buf + s->len, head, HEAD);
		if (t->len)
			memcpy(s->buf + s->len + HEAD, t->bytes, t->len);
		s->len += need;
	}
	return 0;
}

/* The owner of operand i: its tokens, then the empty block; -1 when
 * they could not all be sent (out of memory, or a spilled part unread):
 * rank 0 has then taken part of them, and the operand must fail. */
static int send_tokens(gpuhist_token_sum *sum, int i)
{
	struct sender s = { malloc(GH_MPI_TOKENS_BLOCK), 0, i };
	const struct gpuhist_tokens *tk = sum ? gpuhist_token_sum_end(sum)
					      : NULL;
	int ret = -1;

	if (!tk)
		ret = 0;        /* it failed here already: nothing to send */
	else if (s.buf && !gpuhist_tokens_each(tk, pack_part, &s))
		ret = 0;
	if (!ret && s.len)
		send_block(&s, s.buf, s.len);
	send_block(&s, "", 0);
	free(s.buf);
	return ret;
}

/* Rank 0: operand i's tokens from `from`, into a new sum; NULL when out
 * of memory or a spill failed (said), though every block is taken. */
static gpuhist_token_sum *receive_tokens(int from, int i,
					 const struct gpuhist_options *opts)
{
	gpuhist_token_sum *sum = gpuhist_token_sum_new(opts->memory,
						       opts->temporary_directory);
	unsigned char *buf = NULL;
	size_t cap = 0;
	bool failed = !sum;

	for (;;) {
		MPI_Status st;
		int len;

		MPI_Probe(from, i, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &len);
		if ((size_t)len > cap) {
			unsigned char *b = realloc(buf, (size_t)len);

			if (b) {
				buf = b;
				cap = (size_t)len;
			}
		}
		if ((size_t)len > cap) {        /* taken, and dropped */
			unsigned char drop;

			MPI_Recv(&drop, 0, MPI_BYTE, from, i, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			failed = true;
			continue;
		}
		MPI_Recv(buf, len, MPI_BYTE, from, i, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		if (!len)
			break;
		for (size_t at = 0; !failed && at + HEAD <= (size_t)len;) {
			uint64_t head[2];

			memcpy(head, buf + at, HEAD);
			if (head[1] > (size_t)len - at - HEAD) {
				gh_msg("a rank sent a token block cut short");
				failed = true;
				break;
			}
			if (gpuhist_token_sum_add(sum, buf + at + HEAD,
						  (size_t)head[1], head[0])) {
				gh_msg("%s", gpuhist_token_sum_message(sum));
				failed = true;
			}
			at += HEAD + (size_t)head[1];
		}
	}
	free(buf);
	if (failed || !gpuhist_token_sum_end(sum)) {
		if (sum && !failed)
			gh_msg("%s", gpuhist_token_sum_message(sum));
		gpuhist_token_sum_free(sum);
		return NULL;
	}
	return sum;
}

void gh_mpi_send_tokens(gpuhist_token_sum **sums, const int *owner, int n,
			int rank, const struct gpuhist_options *opts,
			int *failed)
{
	for (int i = 0; i < n; i++) {
		if (owner[i] <= 0)
			continue;       /* rank 0's own, or no input */
		if (rank == owner[i]) {
			if (send_tokens(sums[i], i)) {
				gh_msg("out of memory sending the tokens of an operand to rank 0");
				failed[i] = 1;
			}
		} else if (rank == 0) {
			gpuhist_token_sum_free(sums[i]);
			sums[i] = receive_tokens(owner[i], i, opts);
			if (!sums[i])
				failed[i] = 1;
		}
	}
}
#endif
