#!/usr/bin/env bash
# A real full disk: a 2 MiB tmpfs receives outputs of several MB. `tfq convert`, `tfq shard` and
# `tfq shuffle` must exit 1 with "PATH: disk full", and leave the file system as they found it:
# no output under a final name, no temporary. Mounting needs root (or a user namespace); where
# it is refused (an unprivileged container) the test is skipped (exit 77) and says why. The
# unit tests (tests/*/fault_injection_test.cc) cover the same paths without a mount.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reshard_lib.sh"
PY=/usr/bin/python3
FULL="$WORK/full"
mkdir -p "$FULL"
if ! mount -t tmpfs -o size=2m tfq-disk-full-test "$FULL" 2>"$WORK/mount-err"; then
  echo "SKIP: cannot mount a 2 MiB tmpfs on $FULL ($(cat "$WORK/mount-err")); run as root, outside a restricted container"
  exit 77
fi
trap 'umount "$FULL" 2>/dev/null; rm -rf "$WORK"' EXIT

# ~6 MB of records: three times what fits.
make_write_failure_inputs

# disk_full CMD...: CMD fails with exit 1 and "disk full" naming a path on the tmpfs, and the
# tmpfs is empty afterwards.
disk_full() {
  expect_exit 1 "$@"
  expect_stderr_contains "tfq: error: $FULL/"
  expect_stderr_contains "disk full"
  expect_empty_dir "$FULL"
}

disk_full "$TFQ" convert "$WORK/rows.jsonl" -o "$FULL/out.tfrecord" -q
disk_full "$TFQ" convert "$WORK/rows.jsonl" -o "$FULL/p" --shards 3 -q
disk_full "$TFQ" convert "$WORK/table.csv" -o "$FULL/out.tfrecord" --threads 2 -q
disk_full "$TFQ" convert "$WORK/table.csv" -o "$FULL/p" --shards 4 --threads 2 -q
disk_full "$TFQ" convert "$WORK/in.tfrecord" -o "$FULL/out.jsonl" -q
disk_full "$TFQ" convert "$WORK/in.tfrecord" -o "$FULL/out.csv" -q
disk_full "$TFQ" shard "$WORK/in.tfrecord" -o "$FULL/p" --shards 3 -q
disk_full "$TFQ" shard "$WORK/in.tfrecord" -o "$FULL/p" --shard-size 1MB --contiguous -q
disk_full "$TFQ" shuffle "$WORK/in.tfrecord" -o "$FULL/p" --shards 2 --seed 1 -q
# The bucket file on the full disk, the output elsewhere.
mkdir -p "$WORK/spill-out"
big=()
for i in 1 2 3 4 5; do big+=("$WORK/in.tfrecord"); done  # 30 MB in: more than 24 MiB of memory
# The shuffle checks the free space of its temporary directory first and refuses at once.
expect_exit 1 "$TFQ" shuffle "${big[@]}" -o "$WORK/spill-out/p" --seed 1 --memory 24MiB --method buckets --tmp-dir "$FULL" -q
expect_stderr_contains "temporary space in $FULL but only"
expect_empty_dir "$FULL"
expect_empty_dir "$WORK/spill-out"
expect_exit 1 "$TFQ" shuffle "${big[@]}" -o "$FULL/p" --seed 1 --memory 24MiB --method buckets -q
expect_stderr_contains "temporary space in $FULL but only"
expect_empty_dir "$FULL"
# What auto picks for these small records (rescan) writes no temporary file: the output fills it.
disk_full "$TFQ" shuffle "${big[@]}" -o "$FULL/p" --seed 1 --memory 24MiB -q

# Images, when the generator is built.
gen="$(dirname "$TFQ")/examples/make_image_folder"
if [[ -x $gen ]]; then
  "$gen" "$WORK/imgs" --classes 2 --per-class 20 >/dev/null
  disk_full "$TFQ" convert "$WORK/imgs" -o "$FULL/img" --shards 2 --size 200x200 --format raw -q
fi

# And the same commands succeed once there is room (the failure was the disk, nothing else).
mkdir -p "$WORK/ok"
expect_exit 0 "$TFQ" shard "$WORK/in.tfrecord" -o "$WORK/ok/p" --shards 3 -q
finish
