#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine (run as root: it installs what it needs).
#  1. Release build: unit tests (doctest), end-to-end tests (the tfq binary run as a shell script
#     would) and conformance tests against ../shared (skipped, with a message, where it is absent).
#  2. AddressSanitizer + UndefinedBehaviorSanitizer build: the unit and end-to-end tests again;
#     any sanitizer report fails the run.
#  3. ThreadSanitizer build: the tests of the multithreaded parts (docs/reliability.md).
#  4. Fuzzing (clang, libFuzzer): each target of tests/fuzz for TFQ_FUZZ_SECONDS (default 30).
# Environment: TFQ_SHARED_DIR overrides where ../shared is; JOBS the build parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
jobs=${JOBS:-$(nproc)}

echo "== Release build and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== ASan + UBSan build and tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTFQ_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j"$jobs" -L "unit|e2e"

echo "== ThreadSanitizer build: the multithreaded parts"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTFQ_SANITIZE=thread >/dev/null
tsan_targets=(tfq_pipeline_test tfq_convert_test tfq_reshard_test tfq_imageset_test tfq_io_test)
cmake --build build-tsan -j"$jobs" --target "${tsan_targets[@]}"
# The record pipeline, the CSV converter's worker threads, reshard's writer lanes, the image
# converter's reader and writer threads, the read-ahead stream and the interrupt-cleanup table.
# OMP_THREAD_LIMIT=1: gcc's libgomp is not built with TSan, which then cannot see how it starts
# the OpenMP region's threads and reports what they share as races; with one OpenMP thread the
# hand-offs to the reader and writer threads are still checked.
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 OMP_THREAD_LIMIT=1 ctest --test-dir build-tsan --output-on-failure -j"$jobs" -R "^unit\.(pipeline|convert|reshard|imageset|io)$"

echo "== Fuzzing: every libFuzzer target for a short while (scripts/fuzz.sh; TFQ_FUZZ_SECONDS each)"
TFQ_FUZZ_SECONDS=${TFQ_FUZZ_SECONDS:-30} bash scripts/fuzz.sh
