#!/bin/sh
# t0011-library-install.t - libgpuhist installed into a scratch DESTDIR:
# the README's "Use it from C" example builds against it with pkg-config,
# shared and static, and counts what gpuhist counts; the shared library
# exports only gpuhist_* under its symbol version; the README's "Use it
# from Python" example runs with the installed module
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"
need_cmd pkg-config
need_cmd gzip
need_cmd nm
[ -n "${ABS_BUILDDIR:-}" ] || skip_all "run by make check (ABS_BUILDDIR)"
CC=${CC:-cc}

plan 9

dest=$TMP/dest
if ${MAKE:-make} -C "$ABS_BUILDDIR" install DESTDIR="$dest" \
	>"$TMP/install.log" 2>&1; then
	ok 0 "make install DESTDIR=... installs"
else
	ok 1 "make install DESTDIR=... installs"
	tail -5 "$TMP/install.log" | sed 's/^/# /'
fi
pc=$(find "$dest" -name gpuhist.pc | head -1)
export PKG_CONFIG_PATH="${pc%/*}" PKG_CONFIG_SYSROOT_DIR="$dest"
libdir=$(pkg-config --variable=libdir gpuhist)
is "gpuhist.pc, gpuhist.h and man 3 gpuhist are installed" \
	"$(pkg-config --modversion gpuhist):$(find "$dest" -name gpuhist.h | wc -l):$(find "$dest" -name gpuhist.3 | wc -l)" \
	"$("$GPUHIST" --version | sed 's/.* //'):1:1"

# The example, as the README shows it.
sed -n '/^## Use it from C/,/^## /p' "$T_SRCDIR/../README.md" |
	sed -n '/^```c$/,/^```$/p' | sed '1d;$d' >"$TMP/bytes.c"
gen log 2000000 | gzip -c >"$TMP/log.gz"
"$GPUHIST" -b -f tsv "$TMP/log.gz" | awk -F'\t' 'NR > 1 && $3 != 0 {
	print $2 "\t" $3 }' >"$TMP/want"

# built with the test build's compiler and flags (a sanitizer build's too)
if [ -f "$libdir/libgpuhist.so" ]; then
	if $CC ${CFLAGS:-} "$TMP/bytes.c" -o "$TMP/bytes" ${LDFLAGS:-} \
		$(pkg-config --cflags --libs gpuhist) 2>"$TMP/cc.err"; then
		ok 0 "the README's example builds with pkg-config --cflags --libs"
	else
		ok 1 "the README's example builds with pkg-config --cflags --libs"
		sed 's/^/# /' "$TMP/cc.err" | head -10
	fi
	LD_LIBRARY_PATH="$libdir" "$TMP/bytes" "$TMP/log.gz" >"$TMP/got"
	same_file "the shared build counts what gpuhist -b counts" \
		"$TMP/got" "$TMP/want"
	nm -D --defined-only "$libdir/libgpuhist.so" |
		awk '$2 == "T" { print $3 }' >"$TMP/symbols"
	is "libgpuhist.so exports gpuhist_* alone, as GPUHIST_0.2" \
		"$(grep -vc '^gpuhist_[a-z0-9_]*@@GPUHIST_0\.2$' "$TMP/symbols"):$(grep -c . "$TMP/symbols")" \
		"0:$(grep -v typedef "$T_SRCDIR/../src/gpuhist.h" | grep -c '^[a-z].*gpuhist_[a-z0-9_]*(')"
else
	skip "the shared build" "built with --disable-shared"
	skip "the shared build counts" "built with --disable-shared"
	skip "the exported symbols" "built with --disable-shared"
fi

# The sysroot above is this test's: a library directory of gpuhist's own
# dependencies (nvCOMP's, CUDA's) is where it is, not under it.
static_dirs() {
	local w
	for w in $(pkg-config --static --libs-only-L --libs-only-other gpuhist); do
		case $w in
		-L"$dest"/*) [ -d "${w#-L}" ] || w=-L${w#-L"$dest"} ;;
		esac
		printf '%s\n' "$w"
	done
}
if $CC ${CFLAGS:-} "$TMP/bytes.c" -o "$TMP/bytes-static" ${LDFLAGS:-} \
	$(pkg-config --cflags gpuhist) "$libdir/libgpuhist.a" \
	$(static_dirs) \
	$(pkg-config --static --libs-only-l gpuhist | sed 's/-lgpuhist//') \
	2>"$TMP/cc.err"; then
	"$TMP/bytes-static" "$TMP/log.gz" >"$TMP/got"
	same_file "linked statically (pkg-config --static), it counts the same" \
		"$TMP/got" "$TMP/want"
else
	ok 1 "linked statically (pkg-config --static), it counts the same"
	sed 's/^/# /' "$TMP/cc.err" | head -10
fi

# man gpuhist_open and the like: every function the header declares is
# in man 3's NAME and has an installed page that shows gpuhist(3).
man3=$(find "$dest" -name gpuhist.3 | head -1)
missing=
for f in $(grep -o 'gpuhist_[a-z_0-9]*(' "$T_SRCDIR/../src/gpuhist.h" |
	   tr -d '(' | sort -u); do
	sed -n '/^\.SH NAME/,/^\.SH/p' "$T_SRCDIR/../man/gpuhist.3" |
		grep -q "\\<$f\\>" || missing="$missing $f(NAME)"
	[ "$(cat "${man3%/*}/$f.3" 2>/dev/null)" = ".so man3/gpuhist.3" ] ||
		missing="$missing $f(page)"
done
is "every function of gpuhist.h is named in man 3 and has a page of its own" \
	"$missing" ""
is "gpuhist.pc gives the project's URL" \
	"$(sed -n 's/^URL: //p' "$pc")" \
	"https://github.com/gpuhist/gpuhist"

# The Python example, as the README shows it, with the module installed
# (found by PYTHONPATH in the scratch DESTDIR) and the library found by
# the dynamic linker (LD_LIBRARY_PATH, as ldconfig would find it).
module=$(find "$dest" -name gpuhist.py | head -1)
if [ -z "$module" ]; then
	skip "the README's Python example" "the Python module is not built"
elif [ ! -f "$libdir/libgpuhist.so.1" ]; then
	skip "the README's Python example" "built with --disable-shared"
else
	sed -n '/^## Use it from Python/,/^## /p' "$T_SRCDIR/../README.md" |
		sed -n '/^```python$/,/^```$/p' | sed '1d;$d' >"$TMP/lines.py"
	PYTHONPATH=${module%/*} LD_LIBRARY_PATH=$libdir \
		python3 "$TMP/lines.py" "$TMP/log.gz" >"$TMP/got" 2>&1
	is "the README's Python example, installed: the lines gzip -dc | wc -l counts, three characters" \
		"$(head -1 "$TMP/got"):$(wc -l <"$TMP/got" | tr -d ' ')" \
		"lines $(gzip -dc "$TMP/log.gz" | wc -l | tr -d ' '):4"
fi
