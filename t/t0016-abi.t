#!/bin/sh
# t0016-abi.t - the structures a program fills in can grow: a program
# built with a newer header (a field added at the end of struct
# gpuhist_options and of struct gpuhist_input, as the header says new
# fields go) runs against this library: fields it leaves zero are taken,
# its input array is stepped through by its own struct_size, and a field
# this library does not know that is set is refused, never read as
# something else; options not made by gpuhist_options_init() are refused
# (issue "libgpuhist 0.2", item 1)
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd gzip
[ -n "${ABS_BUILDDIR:-}" ] || skip_all "run by make check (ABS_BUILDDIR)"
[ -f "$ABS_BUILDDIR/.libs/libgpuhist.so" ] ||
	skip_all "no shared libgpuhist in the build (--disable-shared)"
CC=${CC:-cc}

plan 8

cd "$TMP" || exit 1
mkdir newer
# The header of a "0.3" that adds one field to each structure.
sed 's|^\t/\* Fields added after 0.2 go here, last. \*/$|\tint future;|' \
	"$T_SRCDIR/../src/gpuhist.h" >newer/gpuhist.h
is "the newer header adds a field to both structures" \
	"$(grep -c '^	int future;$' newer/gpuhist.h)" 2

cat >abi.c <<'PROG'
/* Counts files with the options and inputs of newer/gpuhist.h. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpuhist.h"

static void print(void *ctx, const struct gpuhist_result *r)
{
	(void)ctx;
	if (!r->totals) {
		printf("%s failed\n", r->name);
		return;
	}
	for (int v = 0; v < 256; v++)
		if (r->totals[v])
			printf("%s %d %llu\n", r->name, v,
			       (unsigned long long)r->totals[v]);
}

int main(int argc, char **argv)
{
	struct gpuhist_options o;
	struct gpuhist_input in[3];
	gpuhist_counter *c;
	char why[512];
	int status;

	gpuhist_options_init(&o);
	o.backend = GPUHIST_BACKEND_CPU;
	if (!strcmp(argv[1], "future-option"))
		o.future = 1;
	if (!strcmp(argv[1], "uninitialised"))
		memset(&o, 0, sizeof(o));
	if (!strcmp(argv[1], "as-0.2")) {
		/* A 0.2 program's options, in memory whose bytes past them
		 * are anything (here all ones): none of those may be read. */
		size_t old = offsetof(struct gpuhist_options,
				      temporary_directory) + sizeof(char *);

		memset(&o, 0xff, sizeof(o));
		gpuhist_options_init_size(&o, old);
		o.backend = GPUHIST_BACKEND_CPU;
	}
	if (!strcmp(argv[1], "before-top")) {
		/* A program built before tokens_top: its options end at
		 * time_format, which is still checked. */
		size_t old = offsetof(struct gpuhist_options, time_format) +
			     sizeof(char *);

		gpuhist_options_init_size(&o, old);
		o.backend = GPUHIST_BACKEND_CPU;
		o.tokens = GPUHIST_TOKENS_PER;
		o.per = 60;
		o.time_format = "";
	}
	if (gpuhist_open(&c, &o, why, sizeof(why)) != GPUHIST_OK) {
		printf("open: %s\n", why);
		return 1;
	}
	memset(in, 0, sizeof(in));
	for (int i = 0; i < 3 && i + 2 < argc; i++) {
		in[i].struct_size = sizeof(in[i]);
		in[i].type = GPUHIST_INPUT_PATH;
		in[i].name = argv[i + 2];
	}
	if (!strcmp(argv[1], "future-input"))
		in[1].future = 7;
	status = gpuhist_count(c, in, argc - 2, print, NULL);
	if (status != GPUHIST_OK)
		printf("count: %s\n", gpuhist_message(c));
	gpuhist_free(c);
	return status != GPUHIST_OK;
}
PROG
if $CC ${CFLAGS:-} -Inewer abi.c -o abi -L"$ABS_BUILDDIR/.libs" -lgpuhist \
	2>cc.err; then
	ok 0 "a program built with the newer header links with this library"
else
	ok 1 "a program built with the newer header links with this library"
	sed 's/^/# /' cc.err | head -10
fi
run() { LD_LIBRARY_PATH="$ABS_BUILDDIR/.libs" ./abi "$@"; }

gen log 100000 >a
gen random 5000 >b
gzip -c a >c.gz
for f in a b c.gz; do
	"$GPUHIST" -b -f tsv "$f" | awk -F '\t' -v f="$f" \
		'NR > 1 && $3 != 0 { print f, $2, $3 }'
done >want
run zero a b c.gz >got
same_file "fields it leaves zero: its three inputs counted as gpuhist counts them" \
	got want
is "a set option this library does not know: refused, naming why" \
	"$(run future-option a; echo "exit $?")" \
	"open: options this libgpuhist ($("$GPUHIST" --version | sed 's/.* //')) does not know are set: the program was built for a newer one
exit 1"
is "a set input field this library does not know: refused, naming the input" \
	"$(run future-input a b c.gz; echo "exit $?")" \
	"count: input 1: fields this libgpuhist ($("$GPUHIST" --version | sed 's/.* //')) does not know are set: the program was built for a newer one
exit 1"
run as-0.2 a b c.gz >got
same_file "a 0.2 program's options, all ones past them: nothing past them read" \
	got want
is "a program built before tokens_top: its empty time_format still refused" \
	"$(run before-top a; echo "exit $?")" \
	"open: time_format empty or longer than 255 bytes
exit 1"
is "options not made by gpuhist_options_init(): refused" \
	"$(run uninitialised a; echo "exit $?")" \
	"open: options not set up by gpuhist_options_init() (struct_size 0)
exit 1"
