/* tokens.c - one input's tokens counted exactly, as byte strings
 *
 * A unit is what the view counts: a word (a maximal run of bytes that are
 * not space, tab, CR or LF), a line (without its newline; a last line
 * without one counts too), a key of several fields (key.h), a line's
 * interval of time (timestamp.h), a byte (each of a line's, its newline
 * with it: the byte views per interval), a character (each of a line's
 * as UTF-8 decodes it: -m per interval), or a line's Nth field (fields are runs of
 * bytes that are not space or tab, leading ones skipped, as awk's default;
 * or, with a separator byte, what lies between separators, as cut -d and
 * awk -F; a line with fewer fields counts the empty string, as awk's $N
 * does).  With the per option beside another view, each unit is grouped
 * by its line's interval: "2026-11-27T10:00:00Z\tunit" (a label never
 * holds a tab); words are then cut line by line.
 *
 * The counts are counts.c's (held in memory up to the memory option,
 * spilled past it).  Chunks are cut in batches: the units are found
 * outside any lock and added a batch at once, so that threads cutting
 * chunks of one input seldom wait for each other.
 * Each chunk's two ends are kept (a chunk with no boundary at all is kept
 * whole) until the chunks before it have come, then joined with them in
 * order, so that what is held is the chunks that came early and the unit
 * being joined, however long the input.  A chunk's place is its piece
 * (a parallel decoder's frame, member, region or block, numbered from 0
 * in the input's order; an input read in order is piece 0) and its start
 * in the piece; a piece's length comes when it ends (gh_tokens_end_piece),
 * so a decoder need not know where a piece lies in the output before it
 * is decoded (pzstd's frames say no size).
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "blank_field.h"
#include "gh_utf8.h"
#include "counts.h"
#include "json_key.h"
#include "key.h"
#include "local.h"
#include "timestamp.h"
#include "tokens.h"

/* What a chunk leaves at its ends. */
struct chunk_ends {
	uint64_t major, start, len;     /* its piece, where in it, its bytes */
	bool boundless;                 /* no boundary: all of it in `lead` */
	unsigned char *lead, *trail;    /* before the first boundary, after
					 * the last one */
	uint64_t lead_len, trail_len;
};

/* A piece that ended after len bytes. */
struct piece_end {
	uint64_t major, len;
};

struct gh_tokens {
	int view;                       /* GPUHIST_TOKENS_* */
	int field;                      /* GPUHIST_TOKENS_FIELD: 1, 2, ... */
	int separator;                  /* its byte, or -1: runs of blanks */
	struct gh_key key;              /* several fields (key.n), or none */
	struct gh_json_path *json;      /* GPUHIST_TOKENS_KEY: its path */
	bool per;                       /* the per option: by interval */
	bool grouped;                   /* ... another view's units, each
					 * after its line's label and a tab */
	struct gh_time_rule time;       /* ... how a line's time is read */
	struct gh_json_path *time_json; /* ... at a key of JSON, or NULL */
	struct gh_counts *counts;
	const uint64_t *top;            /* the options' tokens_top, read at
					 * the end (a count of several
					 * inputs sets it to 0) */
	pthread_mutex_t lock;           /* the ends, and `failed` */
	struct chunk_ends *ends;        /* come before their turn */
	uint64_t n_ends, cap_ends;
	uint64_t joined_major;          /* the piece being joined, */
	uint64_t joined_at;             /* ... its bytes joined so far */
	uint64_t joined;                /* the input's bytes joined */
	struct piece_end *piece_ends;   /* pieces ended, not yet joined to */
	uint64_t n_piece_ends, cap_piece_ends;
	unsigned char *carry;           /* the unit being joined */
	uint64_t carry_len, carry_cap;
	bool failed;                    /* out of memory while cutting */
	const char *why;                /* of a failure, where not counts' */
	_Atomic bool host_inside;       /* the host counted a chunk's inside */
	bool closed;                    /* the last unit counted early
					 * (gh_tokens_take_held) */
};

static bool is_word_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The first separator in [p, end), or end: 16 bytes a step (a word's end
 * is then one compare, not one a byte: a tenth of -t's time on the dev
 * VM went to the byte loop, bench/NOTES.md). */
static const unsigned char *word_end(const unsigned char *p,
				     const unsigned char *end)
{
#if defined(__SSE2__)
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	const __m128i cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n');

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, sp),
				     _mm_cmpeq_epi8(v, tab)),
			_mm_or_si128(_mm_cmpeq_epi8(v, cr),
				     _mm_cmpeq_epi8(v, lf)));
		unsigned bits = (unsigned)_mm_movemask_epi8(m);

		if (bits)
			return p + __builtin_ctz(bits);
		p += 16;
	}
#endif
	while (p < end && !is_word_sep(*p))
		p++;
	return p;
}

/* ---- units ---- */

/* Where a chunk's keys of several fields are written: blocks that never
 * move, let go once the chunk's local table has handed its units on. */
#define KEY_BLOCK ((uint64_t)64 << 10)

struct key_block {
	struct key_block *next;
	unsigned char bytes[];
};

struct key_room {
	struct key_block *blocks;
	unsigned char *at;
	uint64_t left;
	/* --per: the last interval's label, written in a block (a log's
	 * lines come in time order: most lines reuse it) */
	const unsigned char *last_label;
	int64_t last_start;
	struct gh_json_reader *time_json;       /* the time key's reader */
};

/* Room for need bytes at r->at; false when out of memory. */
static bool key_room_take(struct key_room *r, uint64_t need)
{
	uint64_t size = need > KEY_BLOCK ? need : KEY_BLOCK;
	struct key_block *b;

	if (need <= r->left)
		return true;
	b = malloc(sizeof(*b) + size);
	if (!b)
		return false;
	b->next = r->blocks;
	r->blocks = b;
	r->at = b->bytes;
	r->left = size;
	return true;
}

static void key_room_free(struct key_room *r)
{
	while (r->blocks) {
		struct key_block *next = r->blocks->next;

		free(r->blocks);
		r->blocks = next;
	}
	r->at = NULL;
	r->left = 0;
	r->last_label = NULL;
}

/* The label of line [p, p + len)'s interval and a tab after it, in
 * *label (GH_TIME_LABEL + 1 bytes, or those of GROUP_NONE), written in
 * room where it is not the last line's; false when out of memory. */
#define GROUP_NONE GH_TIME_NONE "\t"

static bool line_label(const struct gh_tokens *t, const unsigned char *p,
		       uint64_t len, struct key_room *room,
		       const unsigned char **label, uint64_t *label_len)
{
	int64_t when, start;

	if (room->time_json) {
		const unsigned char *value;
		size_t n;

		if (gh_json_value(room->time_json, p, len, &value, &n))
			return false;
		if (!gh_time_of_text(&t->time, value, n, &when))
			goto no_time;
	} else if (!gh_time_of_line(&t->time, p, len, &when)) {
		goto no_time;
	}
	/* Most lines fall in the last line's interval. */
	if (room->last_label && when >= room->last_start &&
	    when - room->last_start < t->time.per) {
		*label = room->last_label;
		*label_len = GH_TIME_LABEL + 1;
		return true;
	}
	start = gh_time_start(&t->time, when);
	if (!room->last_label || start != room->last_start) {
		if (!key_room_take(room, GH_TIME_LABEL + 1))
			return false;
		if (!gh_time_label(start, room->at))
			goto no_time;
		room->at[GH_TIME_LABEL] = '\t';
		room->last_label = room->at;
		room->last_start = start;
		room->at += GH_TIME_LABEL + 1;
		room->left -= GH_TIME_LABEL + 1;
	}
	*label = room->last_label;
	*label_len = GH_TIME_LABEL + 1;
	return true;
no_time:
	*label = (const unsigned char *)GROUP_NONE;
	*label_len = sizeof(GROUP_NONE) - 1;
	return true;
}

/* The unit of len bytes at p after prefix (a line's label and tab),
 * written in room; false when out of memory. */
static bool prefixed_unit(struct key_room *room, const unsigned char *prefix,
			  uint64_t prefix_len, const unsigned char *p,
			  uint64_t len, struct gh_unit *u)
{
	if (!prefix_len && !len) {
		*u = (struct gh_unit){ (const unsigned char *)"", 0, 0, 1 };
		return true;
	}
	if (!key_room_take(room, prefix_len + len))
		return false;
	if (prefix_len)
		memcpy(room->at, prefix, prefix_len);
	if (len)
		memcpy(room->at + prefix_len, p, len);
	u->p = room->at;
	u->len = prefix_len + len;
	u->n = 1;
	room->at += u->len;
	room->left -= u->len;
	return true;
}

/* The unit of a key (of several fields, or of JSON with json, a reader of
 * t's path) of line [p, p + len) after prefix (prefix_len bytes: a line's
 * label and tab, or none), or of the per view a line's interval label;
 * written in room; false when out of memory. */
static bool key_unit(const struct gh_tokens *t, struct gh_json_reader *json,
		     const unsigned char *p, uint64_t len,
		     const unsigned char *prefix, uint64_t prefix_len,
		     struct key_room *room, struct gh_unit *u)
{
	const unsigned char *value;
	size_t n;

	u->n = 1;
	if (t->per && !t->grouped) {
		if (!line_label(t, p, len, room, &u->p, &u->len))
			return false;
		u->len--;               /* without its tab */
		return true;
	}
	if (json) {
		if (gh_json_value(json, p, len, &value, &n))
			return false;
		return prefixed_unit(room, prefix, prefix_len, value, n, u);
	}
	n = gh_key_length(&t->key, p, p + len);
	if (!n && !prefix_len) {
		u->p = (const unsigned char *)"";
		u->len = 0;
		return true;
	}
	if (!key_room_take(room, prefix_len + n))
		return false;
	if (prefix_len)
		memcpy(room->at, prefix, prefix_len);
	gh_line_key(&t->key, p, p + len, room->at + prefix_len);
	u->p = room->at;
	u->len = prefix_len + n;
	room->at += u->len;
	room->left -= u->len;
	return true;
}

/* The unit a whole line makes: itself, or its field (not a key of
 * several: key_unit). */
static void line_unit(const struct gh_tokens *t, const unsigned char *p,
		      uint64_t len, struct gh_unit *u)
{
	const unsigned char *from, *to;

	u->p = p;
	u->len = len;
	u->n = 1;
	if (t->view != GPUHIST_TOKENS_FIELD)
		return;
	if (gh_line_field(p, p + len, t->field, t->separator, &from, &to)) {
		u->p = from;
		u->len = (uint64_t)(to - from);
		return;
	}
	u->len = 0;                     /* no such field: "" */
}

/* Where a line's units go: a chunk's local table, or the counts. */
struct unit_sink {
	struct gh_local *local;
	struct gh_counts *counts;
};

static int sink_add(struct unit_sink *s, struct gh_unit *u)
{
	if (!s->local)
		return gh_counts_add(s->counts, u, 1);
	return u->n == 1 ? gh_local_add(s->local, u->p, u->len)
			 : gh_local_add_n(s->local, u->p, u->len, u->n);
}

/* Adds the byte values of p[0..len) to n (the byte views' own counter,
 * backend/cpu/count.c, is a layer above). */
static void add_bytes(const unsigned char *p, uint64_t len, uint64_t n[256])
{
	if (len < 4096) {               /* a line, or a few */
		for (uint64_t i = 0; i < len; i++)
			n[p[i]]++;
		return;
	}
	/* Four counters a byte value: the adds of equal bytes in a row do
	 * not wait for each other; each at most 2^28 a round. */
	uint32_t part[4][256];

	while (len) {
		uint64_t step = len < ((uint64_t)1 << 30) ? len
						      : (uint64_t)1 << 30;
		uint64_t i = 0;

		memset(part, 0, sizeof(part));
		for (; i + 4 <= step; i += 4) {
			part[0][p[i]]++;
			part[1][p[i + 1]]++;
			part[2][p[i + 2]]++;
			part[3][p[i + 3]]++;
		}
		for (; i < step; i++)
			part[0][p[i]]++;
		for (int c = 0; c < 256; c++)
			n[c] += (uint64_t)part[0][c] + part[1][c] + part[2][c] +
				part[3][c];
		p += step;
		len -= step;
	}
}

/* The chars view's: the characters of [p, p + len) by gh_utf8.h's rule,
 * ASCII and the bytes of ill-formed sequences added to n (as the bytes
 * view's, a unit of one byte each), each well-formed sequence handed on
 * as a unit of its 2..4 bytes after label.  0, or -1 when out of
 * memory. */
static int add_chars(const unsigned char *p, uint64_t len, uint64_t n[256],
		     const unsigned char *label, uint64_t label_len,
		     struct key_room *room, struct unit_sink *sink)
{
	const unsigned char *end = p + len;

	while (p < end) {
		const unsigned char *q = p;
		struct gh_unit u;
		uint32_t cp;
		int k;

		while (q < end && *q < 0x80)
			q++;
		add_bytes(p, (uint64_t)(q - p), n);
		if (q == end)
			break;
		k = gh_utf8_sequence(q, (uint64_t)(end - q), &cp);
		if (!k) {
			n[*q]++;        /* an ill-formed sequence's byte */
			p = q + 1;
			continue;
		}
		if (!prefixed_unit(room, label, label_len, q, (uint64_t)k, &u))
			return -1;
		u.n = 1;
		if (sink_add(sink, &u))
			return -1;
		p = q + k;
	}
	return 0;
}

/* The bytes view's units: the byte values of [p, p + len), and one
 * newline more with `newline`, handed on a unit a value after label (the
 * per option's label and tab, or none); n, 256 counts, is left zero.
 * With chars, the chars view's (add_chars).  0, or -1 when out of
 * memory. */
static int hand_bytes(uint64_t n[256], const unsigned char *label,
		      uint64_t label_len, const unsigned char *p,
		      uint64_t len, bool newline, bool chars,
		      struct key_room *room, struct unit_sink *sink)
{
	int ret = 0;

	if (!chars)
		add_bytes(p, len, n);
	else if (add_chars(p, len, n, label, label_len, room, sink))
		return -1;
	n['\n'] += newline;
	for (int c = 0; c < 256; c++) {
		unsigned char b = (unsigned char)c;
		struct gh_unit u;

		if (!n[c] || ret)
			continue;
		if (!prefixed_unit(room, label, label_len, &b, 1, &u)) {
			ret = -1;
		} else {
			u.n = n[c];
			ret = sink_add(sink, &u);
		}
	}
	memset(n, 0, 256 * sizeof(*n));
	return ret;
}

/* Counts the units of line [p, p + len) grouped by its interval (the per
 * option beside another view); 0, or -1 when out of memory. */
static int grouped_line(const struct gh_tokens *t, struct gh_json_reader *json,
			const unsigned char *p, uint64_t len,
			struct key_room *room, struct unit_sink *sink)
{
	const unsigned char *label, *end = p + len;
	uint64_t label_len;
	struct gh_unit u;

	if (!line_label(t, p, len, room, &label, &label_len))
		return -1;
	if (t->view == GPUHIST_TOKENS_WORDS) {
		while (p < end) {
			while (p < end && is_word_sep(*p))
				p++;
			const unsigned char *from = p;

			p = word_end(p, end);
			if (p == from)
				break;
			if (!prefixed_unit(room, label, label_len, from,
					   (uint64_t)(p - from), &u) ||
			    sink_add(sink, &u))
				return -1;
		}
		return 0;
	}
	if (t->key.n || json) {
		if (!key_unit(t, json, p, len, label, label_len, room, &u))
			return -1;
	} else {
		struct gh_unit plain;

		line_unit(t, p, len, &plain);
		if (!prefixed_unit(room, label, label_len, plain.p, plain.len,
				   &u))
			return -1;
	}
	return sink_add(sink, &u);
}

/* The bytes and chars views' count_inside: the lines of [p, end) (each ending with
 * its newline), by the per option's interval (lines of one in a row
 * handed on at once) or all at once, into l, ended here. */
static int count_bytes_inside(struct gh_tokens *t, const unsigned char *p,
			      const unsigned char *end, struct gh_local *l)
{
	struct key_room room = { 0 };
	struct unit_sink sink = { l, NULL };
	uint64_t n[256] = { 0 };
	bool chars = t->view == GPUHIST_TOKENS_CHARS;
	const unsigned char *from = p, *run_label = NULL;
	uint64_t run_len = 0;
	int ret = 0;

	room.time_json = t->time_json ? gh_json_reader_new(t->time_json)
				      : NULL;
	if (t->time_json && !room.time_json)
		ret = -1;
	while (!ret && t->per && p < end) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *label;
		uint64_t label_len;

		if (!line_label(t, p, (uint64_t)(nl - p), &room, &label,
				&label_len)) {
			ret = -1;
		} else if (label != run_label || label_len != run_len) {
			if (p > from)
				ret = hand_bytes(n, run_label, run_len, from,
						 (uint64_t)(p - from), false,
						 chars, &room, &sink);
			from = p;
			run_label = label;
			run_len = label_len;
		}
		p = nl + 1;
	}
	/* The last run, or (without per) every line. */
	if (!ret && end > from)
		ret = hand_bytes(n, run_label, run_len, from,
				 (uint64_t)(end - from), false, chars, &room,
				 &sink);
	/* The local table points into the room until its end. */
	if (gh_local_end(l))
		ret = -1;
	key_room_free(&room);
	gh_json_reader_free(room.time_json);
	return ret;
}

/* The bytes and chars views' count_joined: line [p, p + len), and its newline
 * where one follows. */
static int count_joined_bytes(struct gh_tokens *t, const unsigned char *p,
			      uint64_t len, bool newline)
{
	struct key_room room = { 0 };
	struct unit_sink sink = { NULL, t->counts };
	uint64_t n[256] = { 0 };
	const unsigned char *label = NULL;
	uint64_t label_len = 0;
	int ret = 0;

	room.time_json = t->time_json ? gh_json_reader_new(t->time_json)
				      : NULL;
	if (t->time_json && !room.time_json)
		ret = -1;
	if (!ret && t->per &&
	    !line_label(t, p, len, &room, &label, &label_len))
		ret = -1;
	if (!ret)
		ret = hand_bytes(n, label, label_len, p, len, newline,
				 t->view == GPUHIST_TOKENS_CHARS, &room, &sink);
	key_room_free(&room);
	gh_json_reader_free(room.time_json);
	return ret;
}

/* Counts the units wholly inside [p, end), which begins just after a
 * boundary and ends with one: added up in a local table first. */
static int count_inside(struct gh_tokens *t, const unsigned char *p,
			const unsigned char *end)
{
	struct gh_local l;
	int ret = 0;

	if (gh_local_begin(&l, t->counts, (uint64_t)(end - p)))
		return -1;
	if (t->view == GPUHIST_TOKENS_BYTES ||
	    t->view == GPUHIST_TOKENS_CHARS)
		return count_bytes_inside(t, p, end, &l);
	if (t->view == GPUHIST_TOKENS_WORDS && !t->per) {
		while (p < end && !ret) {
			while (p < end && is_word_sep(*p))
				p++;
			const unsigned char *from = p;

			p = word_end(p, end);
			if (p == from)
				break;
			ret = gh_local_add(&l, from, (uint64_t)(p - from));
		}
	} else if (t->key.n || t->json || t->per) {
		struct key_room room = { 0 };
		struct gh_json_reader *json = t->json
			? gh_json_reader_new(t->json) : NULL;

		room.time_json = t->time_json
				 ? gh_json_reader_new(t->time_json) : NULL;
		if ((t->json && !json) || (t->time_json && !room.time_json))
			ret = -1;
		/* The per view: a run of lines of one interval (its label
		 * written once: the same bytes) is added at once. */
		struct gh_unit run = { NULL, 0, 0, 0 };

		while (p < end && !ret) {
			const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
			struct gh_unit u;

			if (t->per && !t->grouped) {
				if (!key_unit(t, json, p, (uint64_t)(nl - p),
					      NULL, 0, &room, &u)) {
					ret = -1;
				} else if (u.p == run.p && u.len == run.len) {
					run.n++;
				} else {
					if (run.n)
						ret = gh_local_add_n(&l, run.p,
								     run.len,
								     run.n);
					run = u;
				}
			} else if (t->grouped) {
				struct unit_sink sink = { &l, NULL };

				ret = grouped_line(t, json, p,
						   (uint64_t)(nl - p), &room,
						   &sink);
			} else if (!key_unit(t, json, p, (uint64_t)(nl - p),
					     NULL, 0, &room, &u)) {
				ret = -1;
			} else {
				ret = gh_local_add(&l, u.p, u.len);
			}
			p = nl + 1;
		}
		if (!ret && run.n)
			ret = gh_local_add_n(&l, run.p, run.len, run.n);
		/* The local table points into the room until its end. */
		if (gh_local_end(&l))
			ret = -1;
		key_room_free(&room);
		gh_json_reader_free(json);
		gh_json_reader_free(room.time_json);
		return ret;
	} else {
		while (p < end && !ret) {
			const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
			struct gh_unit u;

			line_unit(t, p, (uint64_t)(nl - p), &u);
			ret = gh_local_add(&l, u.p, u.len);
			p = nl + 1;
		}
	}
	if (gh_local_end(&l))
		ret = -1;
	return ret;
}

static bool is_boundary(const struct gh_tokens *t, unsigned char c)
{
	return t->view == GPUHIST_TOKENS_WORDS && !t->per ? is_word_sep(c)
							 : c == '\n';
}

static unsigned char *copy_of(const unsigned char *p, uint64_t len)
{
	unsigned char *c = malloc(len ? len : 1);

	if (c)
		memcpy(c, p, len);
	return c;
}

/* Notes a failure, which gh_tokens_end then reports. */
static void mark_failed(struct gh_tokens *t)
{
	pthread_mutex_lock(&t->lock);
	t->failed = true;
	pthread_mutex_unlock(&t->lock);
}

/* ---- joining the ends, in order ---- */

/* Counts a unit made of joined ends. */
static int count_joined(struct gh_tokens *t, const unsigned char *p,
			uint64_t len, bool last)
{
	struct gh_unit u;

	if (!p)
		p = (const unsigned char *)"";  /* nothing was joined */
	if (t->view == GPUHIST_TOKENS_BYTES ||
	    t->view == GPUHIST_TOKENS_CHARS)
		return last && !len ? 0 : count_joined_bytes(t, p, len, !last);
	if (t->view == GPUHIST_TOKENS_WORDS && !t->per) {
		if (!len)
			return 0;
		u = (struct gh_unit){ p, len, 0, 1 };
	} else {
		if (last && !len)
			return 0;       /* the input ended with a newline */
		if (t->key.n || t->json || t->per) {
			struct key_room room = {
				.time_json = t->time_json
					? gh_json_reader_new(t->time_json)
					: NULL };
			struct gh_json_reader *json = t->json
				? gh_json_reader_new(t->json) : NULL;
			int ret = -1;

			struct unit_sink sink = { NULL, t->counts };

			if ((t->json && !json) ||
			    (t->time_json && !room.time_json))
				;
			else if (t->grouped)
				ret = grouped_line(t, json, p, len, &room,
						   &sink);
			else if (key_unit(t, json, p, len, NULL, 0, &room,
					  &u))
				ret = gh_counts_add(t->counts, &u, 1);
			key_room_free(&room);
			gh_json_reader_free(json);
			gh_json_reader_free(room.time_json);
			return ret;
		}
		line_unit(t, p, len, &u);
	}
	return gh_counts_add(t->counts, &u, 1);
}

/* Appends len bytes to the unit being joined. */
static int append(unsigned char **buf, uint64_t *have, uint64_t *cap,
		  const unsigned char *p, uint64_t len)
{
	if (!len)
		return 0;
	if (*have + len > *cap) {
		uint64_t c = *cap ? 2 * *cap : 4096;

		while (c < *have + len)
			c *= 2;
		unsigned char *b = realloc(*buf, c);

		if (!b)
			return -1;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *have, p, len);
	*have += len;
	return 0;
}

/* A carry grown for a long unit (a line of hundreds of MB) is let go once
 * that unit is counted, rather than held to the end beside the counts. */
#define CARRY_KEPT ((uint64_t)1 << 20)

static void release_long_carry(struct gh_tokens *t)
{
	if (t->carry_cap > CARRY_KEPT) {
		free(t->carry);
		t->carry = NULL;
		t->carry_cap = 0;
	}
}

/* Whether the piece being joined has ended there, all of it joined: then
 * the next piece's turn has come (true). */
static bool piece_done(struct gh_tokens *t)
{
	for (uint64_t k = 0; k < t->n_piece_ends; k++)
		if (t->piece_ends[k].major == t->joined_major &&
		    t->piece_ends[k].len == t->joined_at) {
			t->piece_ends[k] = t->piece_ends[--t->n_piece_ends];
			t->joined_major++;
			t->joined_at = 0;
			return true;
		}
	return false;
}

/* Joins, with t->lock held, every chunk whose turn has come; 0, or -1
 * when out of memory. */
static int join_ready(struct gh_tokens *t)
{
	for (;;) {
		uint64_t i = 0;

		while (i < t->n_ends &&
		       (t->ends[i].major != t->joined_major ||
			t->ends[i].start != t->joined_at))
			i++;
		if (i == t->n_ends) {
			if (piece_done(t))
				continue;
			return 0;
		}
		struct chunk_ends e = t->ends[i];
		int ret;

		t->ends[i] = t->ends[--t->n_ends];
		t->joined_at += e.len;
		t->joined += e.len;
		ret = append(&t->carry, &t->carry_len, &t->carry_cap, e.lead,
			     e.lead_len);
		if (!ret && !e.boundless) {
			ret = count_joined(t, t->carry, t->carry_len, false);
			t->carry_len = 0;
			release_long_carry(t);
			if (!ret)
				ret = append(&t->carry, &t->carry_len,
					     &t->carry_cap, e.trail,
					     e.trail_len);
		}
		free(e.lead);
		free(e.trail);
		if (ret)
			return -1;
	}
}

/* Where the inside of len bytes at p lies: *first, its first boundary
 * (len: there is none), *last, just after its last one. */
static void find_ends(const struct gh_tokens *t, const unsigned char *p,
		      uint64_t len, uint64_t *first, uint64_t *last)
{
	*first = 0;
	*last = len;
	while (*first < len && !is_boundary(t, p[*first]))
		(*first)++;
	if (*first < len)
		while (!is_boundary(t, p[*last - 1]))
			(*last)--;
}

/* Keeps the ends of the chunk of len bytes at p, piece major's from
 * start on, whose inside is [first, last) (first == len: none), and
 * joins those whose turn has come; 0, or -1 when out of memory. */
static int keep_ends(struct gh_tokens *t, const unsigned char *p,
		     uint64_t len, uint64_t major, uint64_t start,
		     uint64_t first, uint64_t last)
{
	struct chunk_ends e = { .major = major, .start = start, .len = len };

	if (first == len) {
		e.boundless = true;
		e.lead_len = len;
	} else {
		e.lead_len = first;
		e.trail_len = len - last;
	}
	e.lead = copy_of(p, e.lead_len);
	e.trail = copy_of(p + len - e.trail_len, e.trail_len);
	if (!e.lead || !e.trail)
		goto nomem;
	pthread_mutex_lock(&t->lock);
	if (t->n_ends == t->cap_ends) {
		uint64_t cap = t->cap_ends ? 2 * t->cap_ends : 64;
		struct chunk_ends *ends = realloc(t->ends, cap * sizeof(*ends));

		if (!ends) {
			pthread_mutex_unlock(&t->lock);
			goto nomem;
		}
		t->ends = ends;
		t->cap_ends = cap;
	}
	t->ends[t->n_ends++] = e;
	if (join_ready(t))
		t->failed = true;
	pthread_mutex_unlock(&t->lock);
	return t->failed ? -1 : 0;
nomem:
	free(e.lead);
	free(e.trail);
	mark_failed(t);
	return -1;
}

int gh_tokens_cut(struct gh_tokens *t, const unsigned char *p, uint64_t len,
		  uint64_t major, uint64_t start)
{
	uint64_t from, to;

	if (gh_tokens_cut_ends(t, p, len, major, start, &from, &to))
		return -1;
	return gh_tokens_count_inside(t, p, from, to);
}

int gh_tokens_cut_ends(struct gh_tokens *t, const unsigned char *p,
		       uint64_t len, uint64_t major, uint64_t start,
		       uint64_t *from, uint64_t *to)
{
	uint64_t first, last;

	*from = *to = 0;
	if (!len)
		return 0;
	find_ends(t, p, len, &first, &last);
	/* Words: the inside starts at the first separator; lines, after the
	 * first newline. */
	if (first < len) {
		*from = first + (t->view != GPUHIST_TOKENS_WORDS || t->per);
		*to = last;
	}
	return keep_ends(t, p, len, major, start, first, last);
}

int gh_tokens_end_piece(struct gh_tokens *t, uint64_t major, uint64_t len)
{
	pthread_mutex_lock(&t->lock);
	if (t->n_piece_ends == t->cap_piece_ends) {
		uint64_t cap = t->cap_piece_ends ? 2 * t->cap_piece_ends : 64;
		struct piece_end *pe = realloc(t->piece_ends,
					       cap * sizeof(*pe));

		if (!pe) {
			t->failed = true;
			pthread_mutex_unlock(&t->lock);
			return -1;
		}
		t->piece_ends = pe;
		t->cap_piece_ends = cap;
	}
	t->piece_ends[t->n_piece_ends++] = (struct piece_end){ major, len };
	if (join_ready(t))
		t->failed = true;
	pthread_mutex_unlock(&t->lock);
	return t->failed ? -1 : 0;
}

void gh_tokens_inside_on_host(struct gh_tokens *t)
{
	atomic_store(&t->host_inside, true);
}

int gh_tokens_count_inside(struct gh_tokens *t, const unsigned char *p,
			   uint64_t from, uint64_t to)
{
	if (from < to)
		gh_tokens_inside_on_host(t);
	if (from < to && count_inside(t, p + from, p + to)) {
		mark_failed(t);
		return -1;
	}
	return 0;
}

int gh_tokens_add(struct gh_tokens *t, struct gh_unit *units, int n)
{
	if (gh_counts_add_hashed(t->counts, units, n)) {
		mark_failed(t);
		return -1;
	}
	return 0;
}

int gh_tokens_reserve(struct gh_tokens *t, unsigned k, uint64_t units,
		      uint64_t bytes)
{
	if (gh_counts_reserve(t->counts, k, units, bytes)) {
		mark_failed(t);
		return -1;
	}
	return 0;
}

int gh_tokens_adopt(struct gh_tokens *t, struct gh_adopted *a)
{
	return gh_counts_adopt(t->counts, a);
}

bool gh_tokens_may_adopt(struct gh_tokens *t, uint64_t bytes,
			 uint64_t distinct)
{
	return gh_counts_may_adopt(t->counts, bytes, distinct);
}

int gh_tokens_end(struct gh_tokens *t, uint64_t bytes,
		  const struct gpuhist_tokens **out)
{
	/* Every chunk joined (none left waiting for a gap), to the end. */
	if (t->failed || join_ready(t))
		return -1;
	if (t->n_ends || t->joined != bytes) {
		t->why = "its tokens did not join up (an internal error)";
		return -1;
	}
	int ret = t->closed ? 0
			    : count_joined(t, t->carry, t->carry_len, true);

	t->carry_len = 0;
	release_long_carry(t);
	if (ret || gh_counts_end(t->counts,
				 __atomic_load_n(t->top, __ATOMIC_RELAXED),
				 out)) {
		t->why = gh_counts_error(t->counts);
		return -1;
	}
	return 0;
}

const char *gh_tokens_error(const struct gh_tokens *t)
{
	return t->why ? t->why : gh_counts_error(t->counts);
}

/* ---- life ---- */

struct gh_tokens *gh_tokens_new(const struct gpuhist_options *opts)
{
	struct gh_tokens *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->view = opts->tokens;
	t->field = opts->field;
	t->separator = opts->separator;
	if (opts->tokens == GPUHIST_TOKENS_FIELD && opts->n_fields > 1) {
		t->key.n = opts->n_fields;
		memcpy(t->key.field, opts->fields, sizeof(t->key.field));
		t->key.separator = opts->separator;
	}
	if (opts->per) {
		time_t now = time(NULL);
		struct tm tm;

		t->per = true;
		t->grouped = opts->tokens != GPUHIST_TOKENS_PER;
		t->time = (struct gh_time_rule){
			opts->per, opts->time_field, opts->separator,
			opts->year ? opts->year
				   : gmtime_r(&now, &tm) ? tm.tm_year + 1900
							 : 1970,
			opts->time_format };
		if (opts->time_key &&
		    !(t->time_json = gh_json_path_new(opts->time_key, NULL,
						       0))) {
			free(t);
			return NULL;    /* gpuhist_open took the path: memory */
		}
	}
		if (opts->tokens == GPUHIST_TOKENS_KEY &&
	    !(t->json = gh_json_path_new(opts->key, NULL, 0))) {
		gh_json_path_free(t->time_json);
		free(t);
		return NULL;    /* gpuhist_open took the path: memory */
	}
	t->top = &opts->tokens_top;
	t->counts = gh_counts_new(opts->memory, opts->temporary_directory);
	if (!t->counts) {
		gh_json_path_free(t->json);
		gh_json_path_free(t->time_json);
		free(t);
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

void gh_tokens_reset(struct gh_tokens *t)
{
	for (uint64_t i = 0; i < t->n_ends; i++) {
		free(t->ends[i].lead);
		free(t->ends[i].trail);
	}
	t->n_ends = 0;
	t->n_piece_ends = 0;
	t->joined_major = 0;
	t->joined_at = 0;
	t->joined = 0;
	t->carry_len = 0;
	gh_counts_reset(t->counts);
	t->failed = false;
	t->why = NULL;
	atomic_store(&t->host_inside, false);
	t->closed = false;
}

int gh_tokens_take_held(struct gh_tokens *t, uint64_t max_len,
			unsigned char **recs, uint64_t **offs, uint64_t *n,
			uint64_t *bytes)
{
	*recs = NULL;
	*offs = NULL;
	*n = *bytes = 0;
	/* Chunks whose insides the host counted may still be counting
	 * (auto's CPU); ends not yet joined have a gap before them. */
	if (t->failed || t->closed || t->n_ends ||
	    atomic_load(&t->host_inside))
		return 1;
	/* Every chunk is in: the unit being joined is the input's last. */
	int ret = count_joined(t, t->carry, t->carry_len, true);

	t->carry_len = 0;
	release_long_carry(t);
	t->closed = true;
	if (ret) {
		t->why = gh_counts_error(t->counts);
		mark_failed(t);
		return -1;
	}
	return gh_counts_held(t->counts, max_len, recs, offs, n, bytes);
}

void gh_tokens_drop_held(struct gh_tokens *t)
{
	gh_counts_drop_held(t->counts);
}

void gh_tokens_free(struct gh_tokens *t)
{
	if (!t)
		return;
	gh_tokens_reset(t);
	pthread_mutex_destroy(&t->lock);
	gh_counts_free(t->counts);
	gh_json_path_free(t->json);
	gh_json_path_free(t->time_json);
	free(t->ends);
	free(t->piece_ends);
	free(t->carry);
	free(t);
}
