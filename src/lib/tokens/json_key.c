/* json_key.c - the value at a key of a line read as JSON (json_key.h)
 *
 * json-c's tokener, reset for each line, in strict mode and checking
 * UTF-8: a line is JSON when the whole of it (blanks and a CR around it
 * allowed) is one JSON text.  Its value at the path is then a string's
 * bytes, or json-c's compact text of the rest (numbers, true, false,
 * null, objects and arrays, '/' not escaped); "null" where a member of
 * the path is missing or what holds it is not an object, as jq's
 * .a.b gives null for a missing one.
 */
#define _GNU_SOURCE 1    /* memmem */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_key.h"

#ifdef HAVE_JSON_C
#include <json-c/json.h>
#include <locale.h>
#endif

/* Names are kept one after another, each ended by a NUL of its own (a
 * name may not hold one). */
struct gh_json_path {
	int n;
	char **name;
	char *bytes;
};

static int say(char *why, size_t len, const char *text, const char *path)
{
	if (why)
		snprintf(why, len, "key '%s': %s", path, text);
	return -1;
}

/* Splits path into its names; 0, or -1 (said). */
static int split_path(struct gh_json_path *k, const char *path, char *why,
		      size_t why_len)
{
	const char *p = path;
	char *to = k->bytes;

	if (*p != '.')
		return say(why, why_len, "a path begins with a dot (.level, .req.status)", path);
	if (!strcmp(path, "."))
		return 0;
	while (*p) {
		if (*p++ != '.')
			return say(why, why_len, "names are joined by dots", path);
		k->name[k->n++] = to;
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				*to++ = *p;
			if (*p++ != '"')
				return say(why, why_len, "a quoted name without its closing quote", path);
		} else {
			for (; *p && *p != '.'; p++) {
				if (*p == '"' || *p == '[' || *p == ']' ||
				    *p == ' ')
					return say(why, why_len, "a name with '\"', '[', ']' or a space is written in quotes (.\"a b\")", path);
				*to++ = *p;
			}
		}
		if (to == k->name[k->n - 1])
			return say(why, why_len, "an empty name", path);
		*to++ = '\0';
	}
	return 0;
}

struct gh_json_path *gh_json_path_new(const char *path, char *why,
				      size_t why_len)
{
#ifdef HAVE_JSON_C
	size_t len = strlen(path);
	struct gh_json_path *k = calloc(1, sizeof(*k));

	if (k) {
		k->name = calloc(len + 1, sizeof(*k->name));
		k->bytes = malloc(len + 1);
	}
	if (!k || !k->name || !k->bytes) {
		gh_json_path_free(k);
		if (why)
			snprintf(why, why_len, "out of memory");
		return NULL;
	}
	if (split_path(k, path, why, why_len)) {
		gh_json_path_free(k);
		return NULL;
	}
	return k;
#else
	(void)path;
	if (why)
		snprintf(why, why_len,
			 "key: this libgpuhist was built without json-c");
	return NULL;
#endif
}

void gh_json_path_free(struct gh_json_path *k)
{
	if (!k)
		return;
	free(k->name);
	free(k->bytes);
	free(k);
}

#ifdef HAVE_JSON_C
/* Nesting json-c follows (its default, 32, refused deeper logs that are
 * JSON); deeper is not JSON. */
#define DEPTH 512

struct gh_json_reader {
	const struct gh_json_path *path;
	struct json_tokener *tok;
	struct json_object *root;       /* the last line's, freed at the next */
	locale_t c;                     /* glibc's static C locale */
};

struct gh_json_reader *gh_json_reader_new(const struct gh_json_path *path)
{
	struct gh_json_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->path = path;
	r->tok = json_tokener_new_ex(DEPTH);
	if (!r->tok) {
		free(r);
		return NULL;
	}
	json_tokener_set_flags(r->tok, JSON_TOKENER_STRICT |
				       JSON_TOKENER_VALIDATE_UTF8);
	r->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (r->c == (locale_t)0) {
		gh_json_reader_free(r);
		return NULL;
	}
	return r;
}

void gh_json_reader_free(struct gh_json_reader *r)
{
	if (!r)
		return;
	json_object_put(r->root);
	if (r->tok)
		json_tokener_free(r->tok);
	if (r->c != (locale_t)0)
		freelocale(r->c);
	free(r);
}

/* Whether o holds NaN, Infinity or -Infinity, which json-c takes even
 * when strict and JSON has not. */
static bool not_a_number_in(struct json_object *o)
{
	const char *text;

	switch (json_object_get_type(o)) {
	case json_type_double:
		text = json_object_to_json_string_ext(o,
						      JSON_C_TO_STRING_PLAIN);
		return text && (text[0] == 'N' || text[0] == 'I' ||
				(text[0] == '-' && text[1] == 'I'));
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (not_a_number_in(json_object_array_get_idx(o, i)))
				return true;
		return false;
	case json_type_object: {
		json_object_object_foreach(o, name, v) {
			(void)name;
			if (not_a_number_in(v))
				return true;
		}
		return false;
	}
	default:
		return false;
	}
}

/* Whether the line may hold json-c's NaN or Infinity (outside a string
 * or in it: the tree then says). */
static bool may_hold_nan(const unsigned char *p, uint64_t len)
{
	return memmem(p, len, "NaN", 3) || memmem(p, len, "Infinity", 8);
}

/* json-c's parse of len bytes at p, the thread in the C locale
 * meanwhile: json-c copies the thread's locale for its numbers at each
 * call, and glibc copies the C locale without its global lock (any
 * other took it twice a line: 16 threads ran 2.8 times one's speed). */
static struct json_object *parse(struct gh_json_reader *r,
				 const unsigned char *p, uint64_t len)
{
	locale_t was = uselocale(r->c);
	struct json_object *o = json_tokener_parse_ex(r->tok, (const char *)p,
						      (int)len);

	uselocale(was);
	return o;
}

/* Whether [p, end) is all blanks (JSON's whitespace). */
static bool blank(const unsigned char *p, const unsigned char *end)
{
	for (; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			return false;
	return true;
}

int gh_json_value(struct gh_json_reader *r, const unsigned char *p,
		  uint64_t len, const unsigned char **out, size_t *out_len)
{
	struct json_object *o;
	const char *text;

	json_object_put(r->root);
	r->root = NULL;
	*out = (const unsigned char *)GH_JSON_NOT_JSON;
	*out_len = 1;
	if (len > 0x7fffffff || blank(p, p + len))
		return 0;
	json_tokener_reset(r->tok);
	r->root = parse(r, p, len);
	/* A number at the line's end (42) waits for more: a NUL ends it. */
	if (!r->root &&
	    json_tokener_get_error(r->tok) == json_tokener_continue) {
		r->root = parse(r, (const unsigned char *)"", 1);
		if (json_tokener_get_error(r->tok) != json_tokener_success)
			return 0;
		goto parsed;    /* NULL: a JSON null */
	}
	if (!r->root) {
		/* json-c gives NULL for a JSON null too. */
		if (json_tokener_get_error(r->tok) != json_tokener_success ||
		    !blank(p + json_tokener_get_parse_end(r->tok), p + len))
			return 0;
	} else if (!blank(p + json_tokener_get_parse_end(r->tok), p + len)) {
		return 0;
	}
parsed:
	if (may_hold_nan(p, len) && not_a_number_in(r->root))
		return 0;
	o = r->root;
	for (int i = 0; i < r->path->n && o; i++)
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, r->path->name[i], &o))
			o = NULL;
	if (json_object_is_type(o, json_type_string)) {
		*out = (const unsigned char *)json_object_get_string(o);
		*out_len = (size_t)json_object_get_string_len(o);
		return 0;
	}
	if (!o) {
		*out = (const unsigned char *)"null";
		*out_len = 4;
		return 0;
	}
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						  JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -1;
	*out = (const unsigned char *)text;
	*out_len = strlen(text);
	return 0;
}
#else
struct gh_json_reader *gh_json_reader_new(const struct gh_json_path *path)
{
	(void)path;
	return NULL;
}

void gh_json_reader_free(struct gh_json_reader *r)
{
	(void)r;
}

int gh_json_value(struct gh_json_reader *r, const unsigned char *p,
		  uint64_t len, const unsigned char **out, size_t *out_len)
{
	(void)r;
	(void)p;
	(void)len;
	(void)out;
	(void)out_len;
	return -1;
}
#endif
