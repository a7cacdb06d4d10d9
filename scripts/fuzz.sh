#!/usr/bin/env bash
# Fuzzing (docs/fuzzing.md): builds the libFuzzer targets of tests/fuzz with clang, ASan and UBSan
# in build-fuzz, makes seed corpora, and runs each target for TFQ_FUZZ_SECONDS seconds (default
# 30), TFQ_FUZZ_PARALLEL at a time (default: one per core). Fails on any crash, sanitizer report,
# leak, timeout or out-of-memory, printing where the reproducer was written.
#
# Environment:
#   TFQ_FUZZ_SECONDS  seconds per target (default 30)
#   TFQ_FUZZ_TARGETS  space-separated subset of the targets (default: all)
#   TFQ_FUZZ_PARALLEL how many targets fuzz at once (default: the number of cores)
#   TFQ_SHARED_DIR    the shared corpus/images/csv folder (default ../shared; skipped if absent)
#   JOBS              build parallelism
# Corpora grow in build-fuzz/corpus/<target> and are reused by the next run; reproducers land in
# build-fuzz/artifacts/<target>/. To fix one, minimise it (see docs/fuzzing.md) and commit it as
# tests/fuzz/regressions/<target>/<name>: the replay test of every build then keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${TFQ_FUZZ_SECONDS:-30}
jobs=${JOBS:-$(nproc)}
shared=${TFQ_SHARED_DIR:-../shared}
read -r -a targets <<<"${TFQ_FUZZ_TARGETS:-tfrecord_reader example_decode example_columns jsonl_read csv_read image_convert}"
build=build-fuzz

echo "== Fuzz build (clang, libFuzzer, ASan + UBSan) in $build"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_C_FLAGS="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
  -DTFQ_FUZZ=ON -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 >/dev/null
cmake --build "$build" -j"$jobs" --target "${targets[@]/#/tfq_fuzz_}"

echo "== Seed corpora"
tfq_bin=""
[[ -x build/tfq ]] && tfq_bin=build/tfq  # the Release build of scripts/test.sh, if there is one
python3 scripts/fuzz_seeds.py --shared "$shared" --tfq "$tfq_bin" --out "$build/seeds"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# fuzz_one TARGET: one fuzzing run; its report goes to $build/fuzz-TARGET.result, printed in
# target order once every run has ended.
fuzz_one() {
  local target=$1 corpus=$build/corpus/$1 artifacts=$build/artifacts/$1/ log=$build/fuzz-$1.log
  local result=$build/fuzz-$1.result start
  mkdir -p "$corpus" "$artifacts"
  start=$(date +%s)
  if "$build/tests/fuzz/tfq_fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
       -detect_leaks=1 -print_final_stats=1 -artifact_prefix="$artifacts" \
       "$corpus" "$build/seeds/$target" >"$log" 2>&1; then
    echo "   ok: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') runs in" \
         "$(($(date +%s) - start))s, corpus $(find "$corpus" -type f | wc -l) inputs" >"$result"
  else
    {
      echo "   FAILED: $target. Last lines of $log:"
      grep -E 'ERROR|SUMMARY|fuzz check failed|Test unit written|^artifact_prefix' "$log" | tail -20 || tail -30 "$log"
      echo "   reproducer: $(grep -o 'Test unit written to .*' "$log" | tail -1 | sed 's/Test unit written to //')"
      echo "   replay with: $build/tests/fuzz/tfq_fuzz_$target <reproducer>"
    } >"$result"
  fi
}

# The targets run side by side, TFQ_FUZZ_PARALLEL at a time (default: one per core); each fuzzer
# is a single process, so on N cores N of them take the time of one.
parallel=${TFQ_FUZZ_PARALLEL:-$(nproc)}
echo "== Fuzzing ${targets[*]} for ${seconds}s each, $parallel at a time (logs: $build/fuzz-<target>.log)"
running=0
for target in "${targets[@]}"; do
  rm -f "$build/fuzz-$target.result"
  if ((running >= parallel)); then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait
failed=()
for target in "${targets[@]}"; do
  echo "== $target"
  cat "$build/fuzz-$target.result" 2>/dev/null || echo "   FAILED: $target left no report"
  grep -q "^   ok:" "$build/fuzz-$target.result" 2>/dev/null || failed+=("$target")
done
if ((${#failed[@]})); then
  echo "fuzz: FAILED: ${failed[*]}"
  exit 1
fi
echo "fuzz: all targets ran ${seconds}s without a finding"
