#!/usr/bin/env bash
# Runs two skilllint binaries over the same inputs and fails on the first output that differs:
# what a change that must not change behaviour (a re-layering, a refactor) is checked with.
#   scripts/compare-outputs.sh OLD_BIN NEW_BIN [FOLDER...]
# Every folder of tests/fixtures/<CODE>/{fires,clean} is linted with `--select ALL` in every
# format, and `tools` in every format; each FOLDER given (a corpus, a real repository) is linted
# in every format with the default and the full selection, and its `tools` and a `diff --dirs`
# of the folder against itself (and, in a git repository, of its last commit) are compared too. Standard output, standard error and the exit
# code of both runs must match byte for byte (the time each run took is not compared).
# FIXTURES=0 skips the fixture folders.
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: compare-outputs.sh OLD_BIN NEW_BIN [FOLDER...]}
new=${2:?usage: compare-outputs.sh OLD_BIN NEW_BIN [FOLDER...]}
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0
differ=0
compare() { # ARGS... : runs both binaries with ARGS, from the current folder
    runs=$((runs + 1))
    "$old" "$@" >"$work/old.out" 2>"$work/old.err"
    echo "exit $?" >>"$work/old.out"
    "$new" "$@" >"$work/new.out" 2>"$work/new.err"
    echo "exit $?" >>"$work/new.out"
    if ! cmp -s "$work/old.out" "$work/new.out" || ! cmp -s "$work/old.err" "$work/new.err"; then
        differ=$((differ + 1))
        echo "DIFFERS: skilllint $*"
        diff <(cat "$work/old.out" "$work/old.err") <(cat "$work/new.out" "$work/new.err") | head -20
    fi
}
formats="full concise json github sarif"
fixture_dirs=()
[ "${FIXTURES:-1}" = 0 ] || fixture_dirs=(tests/fixtures/*/fires tests/fixtures/*/clean)
for dir in "${fixture_dirs[@]}"; do
    [ -d "$dir" ] || continue
    for format in $formats; do
        compare --select ALL --format "$format" --threads 2 "$dir"
    done
    for format in full json markdown; do
        compare tools --format "$format" "$dir"
    done
done
for folder in "$@"; do
    for format in $formats; do
        compare --format "$format" "$folder"
        compare --select ALL --format "$format" "$folder"
    done
    compare --statistics "$folder"
    compare --show-settings "$folder"
    for format in full json markdown; do
        compare tools --format "$format" "$folder"
        compare diff --dirs "$folder" "$folder" --format "$format"
        # A git repository: its last commit, read from the object database.
        if [ -d "$folder/.git" ]; then
            compare diff --repo "$folder" HEAD~1 HEAD --format "$format"
        fi
    done
done
echo "$runs runs compared, $differ differ"
[ "$differ" -eq 0 ]
