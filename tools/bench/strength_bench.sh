#!/usr/bin/env bash
# What `gamebatch strength` costs, against its targets, on 2 cores:
#   1. all the mutants of the 118-line willow solution of tests/data/packages/strength-willow as one
#      mutant schema (parse, write, compile) against one compile of it: at most 2x;
#   2. the kill matrix (the schema built, then every mutant on the tests) against the same matrix
#      made the naive way, each mutant a source of its own compiled and run through `gamebatch
#      check` (with its early decisions, as strength stops a mutant at its first kill): at most
#      0.2x. The naive way is timed on a sample of mutants spread over the source (6 before the
#      strength run, 6 after it) and its mean taken for every mutant;
#   3. the whole `strength --fill` of a 20-test copy of that package (sample, 8 small tests, 11
#      large: the draft plan with more of the same), about 300 mutants (--mutants 300): under 5
#      minutes;
#   4. the games' wrong ideas on 10^5 generated cases each, in-process: under 10 s;
#   5. --select's set cover on 1,000 tests x 1,000 candidates: optimal or its bound in under 10 s.
#
#   tools/bench/strength_bench.sh [--quick] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold tools/gamebatch and tools/bench/strength_bench. Prints
# Markdown on stdout (progress on stderr). --quick: one round of 1, a sample of 2 naive mutants,
# 10^4 cases for 4. Nothing is removed until the end. Exits 1 when a run fails or a target is
# missed.
set -euo pipefail
# shellcheck source=tools/bench/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

bench_init 1 "$@"
gamebatch=$build/tools/gamebatch
strength_bench=$build/tools/bench/strength_bench
bench_require_built "$gamebatch" "$strength_bench"
bench_make_scratch
rounds=3 samples=6 cases=100000
((quick)) && rounds=1 samples=1 cases=10000

package=tests/data/packages/strength-willow
source_file=$package/submissions/accepted/willow.cpp

echo "# gamebatch strength"
echo
bench_machine_line
echo
echo "## 1. The mutant schema's compile"
echo
"$strength_bench" compile "$source_file" --rounds "$rounds" || fail_section

# The 20-test package: the draft plan, with 8 small and 11 large tests.
make_package() {
  cp -r "$package" "$1"
  awk '/^count = 2$/ { print "count = 8"; next } /^count = 3$/ { print "count = 11"; next } 1' \
    "$package/gamebatch.toml" >"$1/gamebatch.toml"
  "$gamebatch" build --cache "$1.cache" "$1" >/dev/null 2>"$scratch/build.err" ||
    { cat "$scratch/build.err" >&2; die "the bench package did not build"; }
}
make_package "$scratch/fill"
make_package "$scratch/naive"
files=$(find "$scratch/naive/data" -name '*.in' | wc -l)
mutants=$("$strength_bench" mutant "$source_file" 0)
((mutants > 300)) && mutants=300

# naive_ms K: mutant K alone, compiled and checked on every test; prints the wall milliseconds.
naive_ms() {
  local dir=$scratch/naive-$1 started ended
  mkdir -p "$dir"
  "$strength_bench" mutant "$source_file" "$1" >"$dir/willow.cpp"
  started=$(date +%s%N)
  "$gamebatch" check -p willow --cache "$scratch/naive.cache" -s "$dir/willow.cpp" \
    "$scratch/naive" >"$dir/out.txt" 2>"$dir/err.txt" || true
  ended=$(date +%s%N)
  grep -q "compile: 1 sources: 1 compiled" "$dir/err.txt" ||
    { cat "$dir/err.txt" >&2; die "the naive check of mutant $1 did not compile it"; }
  echo $(((ended - started) / 1000000))
}

# The sample: 2 * samples mutants spread over the source (strength's --mutants 300 spreads its
# own the same way over all of them).
all=$("$strength_bench" mutant "$source_file" 0)
declare -a naive_times=()
for ((i = 0; i < samples; ++i)); do
  naive_times+=("$(naive_ms $((1 + i * all / (2 * samples))))")
done
echo "$bench_name: strength --fill of the 20-test package ($mutants mutants)" >&2
started=$(date +%s%N)
status=0
"$gamebatch" strength --fill --mutants 300 --cache "$scratch/fill.cache" \
  --report "$scratch/fill.json" "$scratch/fill" >"$scratch/fill.out" 2>"$scratch/fill.err" ||
  status=$?
ended=$(date +%s%N)
fill_ms=$(((ended - started) / 1000000))
for ((i = samples; i < 2 * samples; ++i)); do
  naive_times+=("$(naive_ms $((1 + i * all / (2 * samples))))")
done
if ((status > 1)); then
  cat "$scratch/fill.err" >&2
  die "strength --fill exited $status"
fi

# The matrix's phases from the report: the schema built and every candidate on every test.
matrix_ms=$(python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
print(int(1000 * sum(p["seconds"] for p in report["phases"]
                     if p["name"] in ("mutant schemas", "kill matrix"))))' "$scratch/fill.json")
naive_mean=$(printf '%s\n' "${naive_times[@]}" | awk '{ s += $1 } END { printf "%d", s / NR }')
naive_all=$((naive_mean * mutants))
ratio=$(awk -v a="$matrix_ms" -v b="$naive_all" 'BEGIN { printf "%.3f", a / b }')
echo
echo "## 2. The kill matrix against the naive way"
echo
echo "$mutants mutants of willow.cpp on the 20-test package ($files test files: group large holds"
echo "small's too), 2 jobs:"
echo
echo "| way | wall s | vs naive | target |"
echo "|---|---:|---:|---:|"
awk -v ms="$naive_all" -v n="${#naive_times[@]}" -v mean="$naive_mean" -v m="$mutants" \
  'BEGIN { printf "| naive: each mutant compiled and `check` (%d sampled, %.2f s each, x %d) | %.1f | 1.00x | - |\n", n, mean / 1000, m, ms / 1000 }'
awk -v ms="$matrix_ms" -v r="$ratio" \
  'BEGIN { printf "| strength: one schema, every mutant on every test | %.1f | %sx | <= 0.2x |\n", ms / 1000, r }'
awk -v r="$ratio" 'BEGIN { exit !(r > 0.2) }' && failed=1

echo
echo "## 3. The whole strength --fill"
echo
python3 - "$scratch/fill.json" "$fill_ms" "$(head -1 "$scratch/fill.out")" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
seconds = int(sys.argv[2]) / 1000
print(f"`gamebatch strength --fill --mutants 300` of the 20-test package: {seconds:.1f} s "
      f"(target: under 300 s); {len(report['filled'])} tests added.\n")
print("| phase | seconds |\n|---|---:|")
for phase in report["phases"]:
    print(f"| {phase['name']} | {phase['seconds']:.1f} |")
print(f"\n{sys.argv[3]}")
EOF
((fill_ms < 300000)) || failed=1

echo
echo "## 4. The wrong ideas, in-process"
echo
"$strength_bench" ideas --cases "$cases" || fail_section
echo
echo "## 5. --select"
echo
"$strength_bench" select --tests 1000 --candidates 1000 --seconds 10 || fail_section
bench_finish
