#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine (run as root: it installs what it needs).
#  1. Release build: unit tests (doctest), end-to-end tests (the tfq binary run as a shell script
#     would) and conformance tests against ../shared (skipped, with a message, where it is absent);
#     then the Python package, installed with pip into a fresh venv and tested with pytest.
#  2. AddressSanitizer + UndefinedBehaviorSanitizer build: the unit and end-to-end tests again;
#     any sanitizer report fails the run.
#  3. ThreadSanitizer build: the tests of the multithreaded parts (docs/reliability.md).
#  4. Fuzzing (clang, libFuzzer): each target of tests/fuzz for TFQ_FUZZ_SECONDS (default 20 in the suite).
# Environment: TFQ_SHARED_DIR overrides where ../shared is; JOBS the build parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
suite_start=$(date +%s)
stage_start=$suite_start
stage_times=()
# stage NAME: closes the stage before it (its time is printed at once and in the closing table).
stage() {
  local now; now=$(date +%s)
  if [[ -n ${stage_name:-} ]]; then
    stage_times+=("$(printf '%5d s  %s' $((now - stage_start)) "$stage_name")")
    echo "   ($stage_name: $((now - stage_start)) s)"
  fi
  stage_name=$1
  stage_start=$now
  [[ -n $1 ]] && echo "== $1"
  return 0
}
stage "Dependencies"
bash scripts/install-deps.sh --test
jobs=${JOBS:-$(nproc)}
# Every build here is a unity build (CMake folds each target's sources into a few translation
# units): on 2 cores it compiles in about a third of the time, so the suite fits its 20 minutes.
# It also keeps file-scope names unique within a target (a twin helper no longer compiles);
# developers' default builds stay one unit per file, which keeps each file's includes honest.
unity=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16)

stage "Release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFQ_BUILD_TESTS=ON "${unity[@]}" >/dev/null  # ON: scripts/demo.sh leaves it OFF
cmake --build build -j"$jobs"
stage "Release tests: unit, end-to-end, conformance"
ctest --no-tests=error --test-dir build --output-on-failure -j"$jobs"
stage "Python package: pip install into a fresh venv, pytest (scripts/test-python.sh)"
bash scripts/test-python.sh

stage "ASan + UBSan build (what the tests run: target tfq_tests)"
# Debug (assertions on) at -O1 with line tables (-g1): the sanitizers' advice for usable speed, and
# enough for their stack traces to name file and line; -O0 -g made the tests and links slow.
sanitizer_flags=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" "-DCMAKE_C_FLAGS_DEBUG=-O1 -g1")
# float-cast-overflow: gcc's -fsanitize=undefined leaves it out (clang's includes it); a float too
# big for the integer it is cast to is undefined behaviour (one reached a JSON lines error message).
cmake -S . -B build-asan -G Ninja "${sanitizer_flags[@]}" "${unity[@]}" \
  -DTFQ_SANITIZE=address,undefined,float-cast-overflow >/dev/null
cmake --build build-asan -j"$jobs" --target tfq_tests
stage "ASan + UBSan tests: unit and end-to-end"
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --no-tests=error --test-dir build-asan --output-on-failure -j"$jobs" -L "unit|e2e"

stage "ThreadSanitizer build: the multithreaded parts"
cmake -S . -B build-tsan -G Ninja "${sanitizer_flags[@]}" "${unity[@]}" -DTFQ_SANITIZE=thread >/dev/null
tsan_targets=(tfq_pipeline_test tfq_convert_test tfq_reshard_test tfq_imageset_test tfq_io_test tfq_tfrecord_test tfq_inspect_test)
cmake --build build-tsan -j"$jobs" --target "${tsan_targets[@]}"
stage "ThreadSanitizer tests"
# The record pipeline, the ordered map of every conversion (CSV, JSON lines, images, TFRecord to
# text), reshard's writer lanes, the read-ahead stream, the interrupt-cleanup table, RecordFile's
# concurrent Get and inspect's parallel scan (single-threaded heavy cases are left to ASan:
# TFQ_TSAN_SKIPPED_CASES in tests/CMakeLists.txt).
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --no-tests=error --test-dir build-tsan --output-on-failure -j"$jobs" -R "^unit\.(pipeline|convert|reshard|imageset|io|tfrecord|inspect)$"

stage "Fuzzing: every libFuzzer target for a short while (scripts/fuzz.sh; TFQ_FUZZ_SECONDS each)"
TFQ_FUZZ_SECONDS=${TFQ_FUZZ_SECONDS:-20} bash scripts/fuzz.sh
stage ""
echo "== Time per stage ($(nproc) cores)"
printf '%s\n' "${stage_times[@]}"
echo "$(printf '%5d s' $(($(date +%s) - suite_start)))  in all"
