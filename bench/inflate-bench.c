/* inflate-bench.c - one core's gzip decoding rate, compressed data already
 * in memory: gpuhist's marked decoder (deflate_marked.c, what each task of
 * the parallel path runs), the same followed by what a task does with its
 * symbols (narrowing them to bytes and the CRC-32), and the serial path's
 * engines, ISA-L (when built with it) and zlib, through gpuhist's own
 * inflaters (inflate_isal.c, inflate_zlib.c).  bench/run's gzip case runs
 * it on its one-member file: cores times the marked decoder's rate is the
 * ceiling of the parallel path, whatever the chain between tasks costs.
 * Usage: bench/inflate-bench FILE.gz [MiB]
 *        (decodes FILE.gz from its start until MiB of output, default 256,
 *        or to its end if that comes first; 0: to its end)
 * Prints: "# ..." notes, then rows "tool<TAB>seconds<TAB>GB/s" (GB/s: 1e9
 * bytes of output a second), best of 3 after an untimed run whose output
 * every tool must agree on (CRC-32 of the first bytes all of them wrote).
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "decode/crc32.h"
#include "decode/deflate_marked.h"
#include "decode/inflate.h"

#define RUNS 3
/* Output the decoders write before it is thrown away (or resolved): the
 * parallel path's OUT_SYMBOLS, and as many bytes for the serial engines. */
#define OUT_SYMBOLS ((uint64_t)8 << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What one run decoded: its output bytes, and the CRC-32 of the first
 * `check` of them when asked for (check > 0). */
struct result {
	uint64_t bytes;
	uint64_t check;
	uint32_t crc;
	const char *why;        /* non-NULL: the data was refused */
};

/* Where the resolving runs' CRC-32s go, so that none is optimised away. */
static volatile uint32_t sink;

/* Adds the part of p[0..n) (output bytes from `at` on) that falls in the
 * first r->check bytes to the CRC. */
static void check_crc(struct result *r, uint64_t at, const unsigned char *p,
		      uint64_t n)
{
	if (at < r->check)
		r->crc = gh_crc32(r->crc, p, r->check - at < n ? r->check - at : n);
}

struct bufs {
	uint16_t *sym;          /* OUT_SYMBOLS + GH_DM_SLACK symbols */
	unsigned char *bytes;   /* OUT_SYMBOLS bytes */
	unsigned char map[GH_DM_MAP_BYTES];
};

/*
 * The marked decoder from the first member's header, as task 0 of the
 * parallel path starts: the window is all markers, output goes to 8M
 * symbols, and each time they fill the last GH_WINDOW become the window.
 * With `resolve_too`, each buffer is also narrowed into bytes and its
 * CRC-32 taken, as a task does before handing the bytes on.
 */
static struct result marked(const unsigned char *gz, uint64_t len,
			    uint64_t limit, bool resolve_too, uint64_t check,
			    struct bufs *b)
{
	struct gh_dm_input in = { .data = gz, .len = len, .base = 0,
				  .at_eof = true };
	struct gh_dm dm = { 0 };
	struct result r = { .check = check };
	enum gh_dm_status st;
	uint32_t crc = 0;

	for (unsigned k = 0; k < GH_WINDOW; k++)
		b->sym[k] = (uint16_t)(256 + k);
	if (gh_dm_start(&dm, &in, 0, GH_DM_AT_MEMBER, b->sym, OUT_SYMBOLS, 0,
			UINT64_MAX)) {
		r.why = "out of memory";
		return r;
	}
	for (;;) {
		st = gh_dm_run(&dm);
		if (st != GH_DM_FULL && st != GH_DM_END) {
			r.why = dm.why ? dm.why : "the decoder stopped early";
			break;
		}
		uint64_t n = dm.pos - GH_WINDOW;

		if (resolve_too || check) {
			gh_dm_resolve(dm.out + GH_WINDOW, n, b->map, b->bytes);
			if (resolve_too)
				crc = gh_crc32(crc, b->bytes, n);
			check_crc(&r, r.bytes, b->bytes, n);
		}
		r.bytes += n;
		if (st == GH_DM_END || (limit && r.bytes >= limit))
			break;
		gh_dm_flushed(&dm);
	}
	gh_dm_end(&dm);
	sink ^= crc;
	return r;
}

/* One of the serial path's engines, every member from the start, into an
 * 8 MiB buffer that is overwritten each time it fills. */
static struct result serial(struct gh_inflater *inf, const unsigned char *gz,
			    uint64_t len, uint64_t limit, uint64_t check,
			    struct bufs *b)
{
	const unsigned char *in = gz;
	size_t in_len = len;
	struct result r = { .check = check };

	if (inf->reset(inf)) {
		r.why = "reset failed";
		return r;
	}
	for (;;) {
		unsigned char *out = b->bytes;
		size_t room = OUT_SYMBOLS;
		enum gh_inflate_status st = GH_INFLATE_MORE;

		/* Fills the buffer, or ends a member. */
		while (room && st == GH_INFLATE_MORE) {
			size_t had_in = in_len, had_room = room;

			st = inf->step(inf, &in, &in_len, &out, &room, &r.why);
			if (st == GH_INFLATE_MORE && in_len == had_in &&
			    room == had_room) {
				r.why = "truncated gzip data";
				st = GH_INFLATE_ERROR;
			}
		}
		uint64_t n = OUT_SYMBOLS - room;

		if (check)
			check_crc(&r, r.bytes, b->bytes, n);
		r.bytes += n;
		if (st == GH_INFLATE_ERROR)
			return r;
		if (limit && r.bytes >= limit)
			return r;
		if (st == GH_INFLATE_MEMBER_END) {
			if (!in_len)
				return r;
			if (inf->reset(inf)) {
				r.why = "reset failed";
				return r;
			}
		}
	}
}

enum tool { MARKED, MARKED_RESOLVE, ISAL, ZLIB, N_TOOLS };

static const char *names[N_TOOLS] = {
	"marked decoder, symbols only",
	"marked decoder + narrow + CRC-32",     /* what a task does */
	"isa-l (isal_inflate)",                 /* the serial path's engine */
	"zlib (inflate)",
};

static struct result run_tool(enum tool tool, struct gh_inflater *inf[],
			      const unsigned char *gz, uint64_t len,
			      uint64_t limit, uint64_t check, struct bufs *b)
{
	switch (tool) {
	case MARKED:
	case MARKED_RESOLVE:
		return marked(gz, len, limit, tool == MARKED_RESOLVE, check, b);
	default:
		return serial(inf[tool], gz, len, limit, check, b);
	}
}

static unsigned char *read_file(const char *path, uint64_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	uint64_t cap = 0, n = 0;
	size_t got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			unsigned char *q = realloc(p, cap = cap ? 2 * cap
							       : 1 << 24);

			if (!q) {
				free(p);
				fclose(f);
				return NULL;
			}
			p = q;
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return p;
}

int main(int argc, char **argv)
{
	uint64_t mib = argc > 2 ? strtoull(argv[2], NULL, 10) : 256;
	uint64_t limit = mib << 20, len = 0, check = 0;
	struct gh_inflater *inf[N_TOOLS] = { 0 };
	struct bufs b;
	unsigned char *gz;
	uint32_t want_crc = 0;
	bool have_want = false;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: inflate-bench FILE.gz [MiB]\n");
		return 2;
	}
	gz = read_file(argv[1], &len);
	if (!gz || !len) {
		fprintf(stderr, "inflate-bench: %s: nothing read\n", argv[1]);
		return 1;
	}
	b.sym = malloc((OUT_SYMBOLS + GH_DM_SLACK) * sizeof(*b.sym));
	b.bytes = malloc(OUT_SYMBOLS);
	inf[ZLIB] = gh_inflater_zlib_new();
#ifdef HAVE_ISAL
	inf[ISAL] = gh_inflater_isal_new();
	if (!inf[ISAL])
		return 1;
#endif
	if (!b.sym || !b.bytes || !inf[ZLIB]) {
		fprintf(stderr, "inflate-bench: out of memory\n");
		return 1;
	}
	for (unsigned v = 0; v < 256; v++)
		b.map[v] = (unsigned char)v;
	memset(b.map + 256, 0, GH_WINDOW);
	/* Every tool writes at least min(limit, the whole output) bytes: the
	 * first run finds how many, and the CRC of those is compared. */
	{
		struct result r = run_tool(ZLIB, inf, gz, len, limit, 0, &b);

		if (r.why) {
			fprintf(stderr, "inflate-bench: %s: zlib: %s\n", argv[1],
				r.why);
			return 1;
		}
		check = limit && limit < r.bytes ? limit : r.bytes;
	}
	printf("# inflate-bench: %s (%llu bytes) decoded from the start to "
	       "%llu bytes of output or more, in memory, one thread, best of %d "
	       "after a checked run; output buffers of %llu Mi symbols or bytes\n",
	       argv[1], (unsigned long long)len, (unsigned long long)check,
	       RUNS, (unsigned long long)(OUT_SYMBOLS >> 20));
	for (int tool = 0; tool < N_TOOLS; tool++) {
		struct result r;
		double best = 0;

		if (tool == ISAL && !inf[ISAL]) {
			printf("# %s: not built with ISA-L\n", names[tool]);
			continue;
		}
		r = run_tool(tool, inf, gz, len, limit, check, &b);
		if (r.why) {
			fprintf(stderr, "inflate-bench: %s: %s: %s\n", argv[1],
				names[tool], r.why);
			return 1;
		}
		if (r.bytes < check) {
			fprintf(stderr, "inflate-bench: %s: %s: %llu bytes, "
				"fewer than %llu\n", argv[1], names[tool],
				(unsigned long long)r.bytes,
				(unsigned long long)check);
			return 1;
		}
		if (have_want && r.crc != want_crc) {
			fprintf(stderr, "inflate-bench: %s: %s: output differs "
				"from the other tools'\n", argv[1], names[tool]);
			return 1;
		}
		want_crc = r.crc;
		have_want = true;
		for (int k = 0; k < RUNS; k++) {
			double t = now();

			r = run_tool(tool, inf, gz, len, limit, 0, &b);
			t = now() - t;
			if (r.why) {
				fprintf(stderr, "inflate-bench: %s: %s: %s\n",
					argv[1], names[tool], r.why);
				return 1;
			}
			double rate = r.bytes / t / 1e9;

			if (rate > best)
				best = rate;
		}
		printf("%s\t%.6f\t%.3f\n", names[tool], r.bytes / best / 1e9,
		       best);
	}
	for (int tool = 0; tool < N_TOOLS; tool++)
		if (inf[tool])
			inf[tool]->free(inf[tool]);
	free(b.sym);
	free(b.bytes);
	free(gz);
	return 0;
}
