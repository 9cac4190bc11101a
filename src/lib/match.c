/* match.c - the lines an input is counted by: PCRE2 patterns (JIT
 * compiled where PCRE2 can) tried on each line of what the source gives,
 * the kept lines handed on whole and in order (match.h) */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "tokens/blank_field.h"

#ifdef HAVE_PCRE2
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* What the source is read in, at least (a longer line grows it). */
#define STAGE_BYTES ((size_t)4 << 20)

struct gh_match {
	pcre2_code *keep, *drop;        /* match, exclude (NULL: none) */
	int field;                      /* 0: the line; N: its Nth field */
	int separator;                  /* the fields' byte, -1: blanks */
};

struct gh_lines {
	const struct gh_match *m;
	pcre2_match_data *keep_md, *drop_md;
	pcre2_match_context *ctx;
	pcre2_jit_stack *stack;
	unsigned char *stage;           /* what the source gave, not yet */
	size_t room, start, end;        /* looked at: [start, end) */
	size_t emit, emit_end;          /* a kept line partly handed on */
	bool eof;
	uint64_t seen, kept;
	char why[160];
};

const char *gh_match_engine(void)
{
	static char text[64];
	char version[32] = "";
	uint32_t jit = 0;

	pcre2_config(PCRE2_CONFIG_VERSION, version);
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	snprintf(text, sizeof(text), "PCRE2 %.24s%s", version,
		 jit ? ", JIT" : "");
	return text;
}

/* One pattern compiled, JIT too where it can; NULL with why set. */
static pcre2_code *compile(const char *what, const char *pattern,
			   bool caseless, char *why, size_t why_len)
{
	int err;
	PCRE2_SIZE at;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern,
					 PCRE2_ZERO_TERMINATED,
					 caseless ? PCRE2_CASELESS : 0, &err,
					 &at, NULL);

	if (!code) {
		PCRE2_UCHAR text[120];

		pcre2_get_error_message(err, text, sizeof(text));
		snprintf(why, why_len, "%s: invalid pattern '%s': %s at offset %zu",
			 what, pattern, (const char *)text, (size_t)at);
		return NULL;
	}
	pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);   /* else interpreted */
	return code;
}

struct gh_match *gh_match_new(const struct gpuhist_options *opts, char *why,
			      size_t why_len)
{
	struct gh_match *m;

	why[0] = '\0';
	if (!opts->match && !opts->exclude)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	m->field = opts->match_field;
	m->separator = opts->separator;
	if ((opts->match &&
	     !(m->keep = compile("match", opts->match, opts->match_caseless,
				 why, why_len))) ||
	    (opts->exclude &&
	     !(m->drop = compile("exclude", opts->exclude,
				 opts->match_caseless, why, why_len)))) {
		gh_match_free(m);
		return NULL;
	}
	return m;
}

void gh_match_free(struct gh_match *m)
{
	if (!m)
		return;
	pcre2_code_free(m->keep);
	pcre2_code_free(m->drop);
	free(m);
}

struct gh_lines *gh_lines_new(const struct gh_match *m)
{
	struct gh_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->m = m;
	l->ctx = pcre2_match_context_create(NULL);
	/* JIT's default stack is 32 KiB; a pattern that recurses deep
	 * gets up to 1 MiB before it fails the input. */
	l->stack = pcre2_jit_stack_create(32 << 10, 1 << 20, NULL);
	if (l->ctx && l->stack)
		pcre2_jit_stack_assign(l->ctx, NULL, l->stack);
	if (m->keep)
		l->keep_md = pcre2_match_data_create_from_pattern(m->keep,
								  NULL);
	if (m->drop)
		l->drop_md = pcre2_match_data_create_from_pattern(m->drop,
								  NULL);
	if (!l->ctx || !l->stack || (m->keep && !l->keep_md) ||
	    (m->drop && !l->drop_md)) {
		gh_lines_free(l);
		return NULL;
	}
	return l;
}

void gh_lines_free(struct gh_lines *l)
{
	if (!l)
		return;
	pcre2_match_data_free(l->keep_md);
	pcre2_match_data_free(l->drop_md);
	pcre2_jit_stack_free(l->stack);
	pcre2_match_context_free(l->ctx);
	free(l->stage);
	free(l);
}

/* Whether code matches p[0..len): 1, 0, or -1 (why set). */
static int matches(struct gh_lines *l, const pcre2_code *code,
		   pcre2_match_data *md, const unsigned char *p, size_t len)
{
	int rc = pcre2_match(code, (PCRE2_SPTR)p, len, 0, 0, md, l->ctx);

	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	PCRE2_UCHAR text[120];

	pcre2_get_error_message(rc, text, sizeof(text));
	snprintf(l->why, sizeof(l->why), "matching a line failed: %s",
		 (const char *)text);
	return -1;
}

/* Field m->field of the line p[0..*len): where it starts, its length in
 * *len ("" where the line has fewer). */
static const unsigned char *field_of(const struct gh_match *m,
				     const unsigned char *p, size_t *len)
{
	const unsigned char *from, *to;

	if (gh_line_field(p, p + *len, m->field, m->separator, &from, &to)) {
		*len = (size_t)(to - from);
		return from;
	}
	*len = 0;
	return p;
}

/* Whether the line p[0..len) (its \n left out) is kept: 1, 0 or -1. */
static int kept(struct gh_lines *l, const unsigned char *p, size_t len)
{
	int k = 1;

	if (l->m->field)
		p = field_of(l->m, p, &len);
	if (l->m->keep)
		k = matches(l, l->m->keep, l->keep_md, p, len);
	if (k == 1 && l->m->drop) {
		k = matches(l, l->m->drop, l->drop_md, p, len);
		if (k >= 0)
			k = !k;
	}
	return k;
}

/* Reads more of the source after what is left to look at, moved to the
 * front (the stage doubled where a line fills it): 0, or -1 (*why set
 * where it is ours). */
static int refill(struct gh_lines *l, struct gh_source *src, const char **why)
{
	int64_t got;

	if (l->start) {
		memmove(l->stage, l->stage + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	/* The stage is taken at the first read (gh_lines_filter needs
	 * none), and doubled where a line fills it. */
	if (l->end == l->room) {
		size_t room = l->room ? 2 * l->room : STAGE_BYTES;
		unsigned char *more = realloc(l->stage, room);

		if (!more) {
			*why = "out of memory for a line";
			return -1;
		}
		l->stage = more;
		l->room = room;
	}
	got = gh_source_fill(src, l->stage + l->end, l->room - l->end);
	if (got < 0)
		return -1;
	if (!got)
		l->eof = true;
	l->end += (size_t)got;
	return 0;
}

int64_t gh_lines_fill(struct gh_lines *l, struct gh_source *src,
		      unsigned char *out, uint64_t cap, const char **why)
{
	uint64_t n = 0;

	*why = NULL;
	for (;;) {
		if (l->emit < l->emit_end) {
			size_t take = l->emit_end - l->emit;

			if (take > cap - n)
				take = (size_t)(cap - n);
			memcpy(out + n, l->stage + l->emit, take);
			n += take;
			l->emit += take;
			if (l->emit < l->emit_end)
				return (int64_t)n;      /* out is full */
		}
		/* (No stage before the first read: nothing to look at.) */
		const unsigned char *p = l->stage ? l->stage + l->start : NULL;
		const unsigned char *nl = l->start < l->end
					  ? memchr(p, '\n', l->end - l->start)
					  : NULL;
		size_t len, whole;

		if (nl) {
			len = (size_t)(nl - p);
			whole = len + 1;
		} else if (l->eof && l->start < l->end) {
			len = whole = l->end - l->start;    /* no \n at its end */
		} else if (l->eof) {
			return (int64_t)n;
		} else {
			/* A pipe's bytes go on as they come. */
			if (n)
				return (int64_t)n;
			if (refill(l, src, why))
				return -1;
			continue;
		}
		int k = kept(l, p, len);

		if (k < 0) {
			*why = l->why;
			return -1;
		}
		l->seen++;
		if (k) {
			l->kept++;
			l->emit = l->start;
			l->emit_end = l->start + whole;
		}
		l->start += whole;
	}
}

int64_t gh_lines_filter(struct gh_lines *l, const unsigned char *p,
			size_t len, unsigned char *out, const char **why)
{
	size_t at = 0, n = 0;

	while (at < len) {
		const unsigned char *nl = memchr(p + at, '\n', len - at);
		size_t line = nl ? (size_t)(nl - (p + at)) : len - at;
		size_t whole = nl ? line + 1 : line;
		int k = kept(l, p + at, line);

		if (k < 0) {
			*why = l->why;
			return -1;
		}
		l->seen++;
		if (k) {
			l->kept++;
			memcpy(out + n, p + at, whole);
			n += whole;
		}
		at += whole;
	}
	return (int64_t)n;
}

void gh_lines_tally(const struct gh_lines *l, uint64_t *seen, uint64_t *kept)
{
	*seen = l->seen;
	*kept = l->kept;
}

#else   /* no PCRE2 */

const char *gh_match_engine(void)
{
	return NULL;
}

struct gh_match *gh_match_new(const struct gpuhist_options *opts, char *why,
			      size_t why_len)
{
	why[0] = '\0';
	if (opts->match || opts->exclude)
		snprintf(why, why_len,
			 "this libgpuhist cannot match lines: built without PCRE2");
	return NULL;
}

void gh_match_free(struct gh_match *m)
{
	(void)m;
}

struct gh_lines *gh_lines_new(const struct gh_match *m)
{
	(void)m;
	return NULL;
}

void gh_lines_free(struct gh_lines *l)
{
	(void)l;
}

int64_t gh_lines_fill(struct gh_lines *l, struct gh_source *src,
		      unsigned char *out, uint64_t cap, const char **why)
{
	(void)l, (void)src, (void)out, (void)cap;
	*why = "built without PCRE2";
	return -1;
}

int64_t gh_lines_filter(struct gh_lines *l, const unsigned char *p,
			size_t len, unsigned char *out, const char **why)
{
	(void)l, (void)p, (void)len, (void)out;
	*why = "built without PCRE2";
	return -1;
}

void gh_lines_tally(const struct gh_lines *l, uint64_t *seen, uint64_t *kept)
{
	(void)l;
	*seen = *kept = 0;
}

#endif
