/* json_key.h - the value at a key of a line read as JSON, for the tokens'
 * key view (GPUHIST_TOKENS_KEY): json-c parses the line strictly, the
 * path is followed member by member, and the value is given as jq -r
 * prints it (gpuhist.h says how) */
#ifndef GH_TOKENS_JSON_KEY_H
#define GH_TOKENS_JSON_KEY_H

#include <stddef.h>
#include <stdint.h>

/* The unit of a line that is not JSON: a byte no JSON text's value holds
 * (json-c refuses text that is not UTF-8, and writes only UTF-8). */
#define GH_JSON_NOT_JSON "\xff"

struct gh_json_path;
struct gh_json_reader;

/* The path ".a.b" (names after dots, a name in double quotes as jq's
 * ."a.b"; "." alone: the whole value), or NULL with why said (a path
 * that is not one, out of memory, a library built without json-c). */
struct gh_json_path *gh_json_path_new(const char *path, char *why,
				      size_t why_len);
void gh_json_path_free(struct gh_json_path *path);

/* One thread's parser for path (which outlives it); NULL when out of
 * memory. */
struct gh_json_reader *gh_json_reader_new(const struct gh_json_path *path);
void gh_json_reader_free(struct gh_json_reader *r);

/* The value at the path of line [p, p + len): *out and *out_len, living
 * until the reader's next call.  0, or -1 when out of memory. */
int gh_json_value(struct gh_json_reader *r, const unsigned char *p,
		  uint64_t len, const unsigned char **out, size_t *out_len);

#endif
