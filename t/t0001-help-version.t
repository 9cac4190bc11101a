#!/bin/sh
# t0001-help-version.t - --help and --version: stdout, exit 0, every option
. "${T_SRCDIR:-$(dirname "$0")}/lib.sh"

plan 10

run_gh --help
is "--help exits 0" "$rc" 0
like "--help starts with a usage line on stdout" "$(head -1 "$TMP/out")" \
	'^Usage: gpuhist \[OPTION\]\.\.\. \[FILE\]\.\.\.$'
is "--help prints nothing on stderr" "$err" ""

missing=
for opt in --width --ignore-case --bytes --classes --format --raw --merge \
	--verbose --progress --no-progress --backend --device --chunk-size \
	--streams --threads --help --version -w -i -b -c -f -v -h -V; do
	grep -Eq -- "(^| )$opt([ =,]|$)" "$TMP/out" || missing="$missing $opt"
done
is "--help names every option" "$missing" ""
like "--help explains the exit status" "$(cat "$TMP/out")" \
	'^Exit status: 0 if every input was counted, 1 if'

cp "$TMP/out" "$TMP/help"
run_gh -h
same_file "-h prints the same as --help" "$TMP/out" "$TMP/help"

run_gh --version
is "--version exits 0" "$rc" 0
like "--version prints the name and version" "$(cat "$TMP/out")" \
	'^gpuhist [0-9]+\.[0-9]+\.[0-9]+$'

version=$(cat "$TMP/out")
run_gh --version -v
is "--version -v exits 0 and starts with the version line" \
	"$rc:$(head -1 "$TMP/out")" "0:$version"
like "--version -v adds the CUDA runtime (or says there is none)" \
	"$(cat "$TMP/out")" \
	'^(CUDA runtime [0-9]+\.[0-9]+|GPU backend unusable: this gpuhist was built without CUDA$)'
