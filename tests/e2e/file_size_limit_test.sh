#!/usr/bin/env bash
# A file-size limit (`ulimit -f`, RLIMIT_FSIZE; batch schedulers set it): a write beyond it fails
# with EFBIG instead of killing tfq with SIGXFSZ (which main() ignores). `tfq convert`, `tfq shard`
# and `tfq shuffle` must exit 1 with "PATH: file too large for this process's file-size limit
# (ulimit -f)" and leave the output folder as they found it, as on a full disk (disk_full_test.sh).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reshard_lib.sh"
PY=/usr/bin/python3
OUT="$WORK/out-dir"
mkdir -p "$OUT"

# ~6 MB of records and a 6 MB table; the limit is 2 MiB.
make_write_failure_inputs

# too_large CMD...: CMD, run under `ulimit -f 2048` (KiB), fails with exit 1 (not 153, killed by
# SIGXFSZ) naming a path in $OUT (or $where), and $OUT is empty afterwards.
too_large() {
  expect_exit 1 bash -c 'ulimit -f 2048 && exec "$@"' _ "$@"
  expect_stderr_contains "tfq: error: ${where:-$OUT/}"
  expect_stderr_contains ": file too large for this process's file-size limit (ulimit -f)"
  expect_empty_dir "$OUT"
}

too_large "$TFQ" convert "$WORK/rows.jsonl" -o "$OUT/out.tfrecord" -q
too_large "$TFQ" convert "$WORK/rows.jsonl" -o "$OUT/p" --shards 2 -q
too_large "$TFQ" convert "$WORK/table.csv" -o "$OUT/out.tfrecord" --threads 2 -q
too_large "$TFQ" convert "$WORK/table.csv" -o "$OUT/p" --shards 2 --threads 2 -q
too_large "$TFQ" convert "$WORK/in.tfrecord" -o "$OUT/out.jsonl" -q
too_large "$TFQ" convert "$WORK/in.tfrecord" -o "$OUT/out.csv" -q
too_large "$TFQ" shard "$WORK/in.tfrecord" -o "$OUT/p" --shards 2 -q
too_large "$TFQ" shard "$WORK/in.tfrecord" -o "$OUT/p" --shard-size 4MB --contiguous -q
too_large "$TFQ" shuffle "$WORK/in.tfrecord" -o "$OUT/p" --shards 2 --seed 1 -q
# The shuffle's bucket file beyond the limit (the output would fit): the temporary is named and
# removed.
big=()
for i in 1 2 3 4 5; do big+=("$WORK/in.tfrecord"); done  # 30 MB in: more than 24 MiB of memory
where="temporary file in $OUT" too_large "$TFQ" shuffle "${big[@]}" -o "$OUT/p" --shards 20 --seed 1 --memory 24MiB --method buckets --tmp-dir "$OUT" -q

# Images, when the generator is built.
gen="$(dirname "$TFQ")/examples/make_image_folder"
if [[ -x $gen ]]; then
  "$gen" "$WORK/imgs" --classes 2 --per-class 20 >/dev/null
  too_large "$TFQ" convert "$WORK/imgs" -o "$OUT/img" --shards 2 --size 200x200 --format raw -q
fi

# Under the limit, the same commands succeed.
expect_exit 0 bash -c 'ulimit -f 20480 && exec "$@"' _ "$TFQ" shard "$WORK/in.tfrecord" -o "$WORK/ok/p" --shards 2 -q
finish
