#!/usr/bin/env bash
# tfq shard as scripts use it: every mode, shard names, compression both ways, the checksum line,
# exit codes, and that no temporary survives success, failure, SIGINT/SIGTERM (or SIGKILL, for
# long: the next run removes what a killed run left).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reshard_lib.sh"

mkdir -p "$WORK/in" "$WORK/o"
make_rows "$WORK/a.jsonl" 0 100
make_rows "$WORK/b.jsonl" 100 250
make_rows "$WORK/c.jsonl" 250 300
for f in a b c; do
  "$TFQ" convert "$WORK/$f.jsonl" -o "$WORK/in/$f.tfrecord" -q || die "convert $f"
  "$TFQ" convert "$WORK/$f.jsonl" -o "$WORK/in/$f.tfrecord.gz" -q || die "convert $f.gz"
done
plain=("$WORK/in/a.tfrecord" "$WORK/in/b.tfrecord" "$WORK/in/c.tfrecord")
gz=("$WORK/in/a.tfrecord.gz" "$WORK/in/b.tfrecord.gz" "$WORK/in/c.tfrecord.gz")

# Round-robin (the default): record j in shard j % N; the summary proves every record landed once.
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/rr" --shards 4
expect_stderr_contains "tfq: shard: 300 records in, 300 out in 4 shards (round-robin); checksum in 0x"
checks=$((checks + 1))
grep -qE 'checksum in (0x[0-9a-f]{16}) = out \1;' "$WORK/err" || fail "checksums differ: $(cat "$WORK/err")"
checks=$((checks + 1))
[[ $(ls "$WORK/o") == $'rr-00000-of-00004\nrr-00001-of-00004\nrr-00002-of-00004\nrr-00003-of-00004' ]] ||
  fail "round-robin names: $(ls -A "$WORK/o")"
checks=$((checks + 1)); [[ $(count "$WORK"/o/rr-*) == 300 ]] || fail "round-robin count"
checks=$((checks + 1)); [[ $(ids "$WORK/o/rr-00001-of-00004" | head -4 | tr '\n' ' ') == "1 5 9 13 " ]] ||
  fail "round-robin order: $(ids "$WORK/o/rr-00001-of-00004" | head -4)"
expect_no_temporaries "$WORK/o"

# --json for scripts: the same facts, machine-readable.
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/js" --shards 2 --json
expect_stderr_empty
checks=$((checks + 1))
[[ $(json_field records_in) == 300 && $(json_field records_out) == 300 && $(json_field checksum_ok) == True &&
   $(json_field checksum_in) == $(json_field checksum_out) ]] || fail "--json: $(cat "$WORK/o")"
sum_plain=$(json_field checksum_in)

# Compressed inputs hold the same records: the same checksum. Output compression is independent.
expect_exit 0 "$TFQ" shard "${gz[@]}" -o "$WORK/o/gz" --shards 2 --suffix .tfrecord.gz --json
checks=$((checks + 1)); [[ $(json_field checksum_in) == "$sum_plain" ]] || fail "gzip inputs changed the checksum"
checks=$((checks + 1))
[[ $(head -c 2 "$WORK/o/gz-00000-of-00002.tfrecord.gz" | od -An -tx1 | tr -d ' ') == 1f8b ]] ||
  fail "--suffix .gz did not gzip the output"
expect_exit 0 "$TFQ" shard "$WORK"/o/gz-* -o "$WORK/o/plain" --shards 1 -c none -q
checks=$((checks + 1)); [[ $(head -c 2 "$WORK/o/plain-00000-of-00001" | od -An -tx1 | tr -d ' ') != 1f8b ]] ||
  fail "-c none still compressed"
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/zz" --shards 1 -c zlib -q
checks=$((checks + 1)); [[ $(count "$WORK/o/zz-00000-of-00001") == 300 ]] || fail "zlib output count"

# Contiguous: consecutive runs of near-equal size.
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/ct" --shards 3 --contiguous -q
checks=$((checks + 1))
[[ $(count "$WORK/o/ct-00000-of-00003") == 100 && $(ids "$WORK/o/ct-00001-of-00003" | head -1) == 100 ]] ||
  fail "contiguous split"

# --records-per-shard and --suffix: ceil(300 / 70) = 5 shards.
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/k" --records-per-shard 70 --contiguous --suffix .tfrecord -q
checks=$((checks + 1))
[[ -f "$WORK/o/k-00004-of-00005.tfrecord" && $(count "$WORK/o/k-00004-of-00005.tfrecord") == 20 ]] ||
  fail "--records-per-shard: $(ls "$WORK/o" | grep '^k-')"

# --shard-size: contiguous shards never exceed it; round-robin divides the total.
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/sz" --shard-size 4KB --contiguous -q
checks=$((checks + 1))
big=$(find "$WORK/o" -name 'sz-*' -size +4000c | head -1)
[[ -z "$big" && $(count "$WORK"/o/sz-*) == 300 ]] || fail "--shard-size 4KB: $big"
expect_exit 0 "$TFQ" shard "${gz[@]}" -o "$WORK/o/szr" --shard-size 8KiB -q
checks=$((checks + 1)); [[ $(count "$WORK"/o/szr-*) == 300 ]] || fail "--shard-size round-robin count"

# --index i --num-shards n: exactly what tf.data's shard(n, i) would read.
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/o/w" --index 2 --num-shards 3
expect_stderr_contains "300 records in (100 selected), 100 out in 1 shard"
checks=$((checks + 1)); [[ $(ls "$WORK/o" | grep '^w-') == "w-00002-of-00003" ]] || fail "--index wrote $(ls "$WORK/o" | grep '^w-')"
checks=$((checks + 1)); [[ $(ids "$WORK/o/w-00002-of-00003" | head -3 | tr '\n' ' ') == "2 5 8 " ]] || fail "--index order"

# Globs and standard input.
expect_exit 0 "$TFQ" shard "$WORK/in/*.tfrecord" -o "$WORK/o/glob" --shards 1 -q
checks=$((checks + 1)); [[ $(count "$WORK/o/glob-00000-of-00001") == 300 ]] || fail "glob input"
run sh -c "\"$TFQ\" shard - -o \"$WORK/o/stdin\" --shards 2 -q < \"$WORK/in/b.tfrecord.gz\""
checks=$((checks + 1)); [[ $code == 0 && $(count "$WORK"/o/stdin-*) == 150 ]] || fail "stdin: $code $(cat "$WORK/err")"
expect_exit 2 "$TFQ" shard - -o "$WORK/o/stdin2" --shards 2 --contiguous < "$WORK/in/a.tfrecord"
expect_stderr_contains "cannot read standard input"
expect_no_temporaries "$WORK/o"

# Usage errors: exit 2, nothing written.
mkdir -p "$WORK/u"
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x"
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --shards 2 --records-per-shard 5
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --index 1
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --index 3 --num-shards 3
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --index 0 --num-shards 3 --contiguous
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --shards 2 -c brotli
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --shard-size lots
expect_exit 2 "$TFQ" shard "${plain[@]}" -o "$WORK/u/" --shards 2
expect_exit 2 "$TFQ" shard "${plain[@]}" --shards 2
expect_exit 1 "$TFQ" shard "$WORK/in/missing.tfrecord" -o "$WORK/u/x" --shards 2
expect_stderr_contains "missing.tfrecord"
expect_empty_dir "$WORK/u"

# Absurd numbers: each a usage error naming its flag, at once, and nothing written. CLI11 reads
# "-1" into an unsigned option as 2^64 - 1 (--shards -1 --contiguous once ran forever) and a
# number beyond 2^64 - 1 as that. Shard names have five digits: at most 99999 shards.
huge=18446744073709551616
for v in -1 0 100000 "$huge" 1.5 abc 1e3 ""; do
  expect_usage_error "--shards" "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --shards "$v" --contiguous
  expect_usage_error "--shards" "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --shards "$v"
done
for v in -1 0 "$huge" 2.5 x; do
  expect_usage_error "--records-per-shard" "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --records-per-shard "$v"
done
for v in -1 99999 "$huge" x; do
  expect_usage_error "--index" "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --index "$v" --num-shards 99999
done
for v in -1 0 100000 "$huge" x; do
  expect_usage_error "--num-shards" "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --index 0 --num-shards "$v"
done
for v in -1 0 1e99 16EiB "$huge" x; do
  expect_usage_error "--shard-size" "$TFQ" shard "${plain[@]}" -o "$WORK/u/x" --shard-size "$v"
done
# Counts and sizes that make more shards than names can number: 100 001 records of about 60
# bytes (6 MB).
make_rows "$WORK/many.jsonl" 0 100001
"$TFQ" convert "$WORK/many.jsonl" -o "$WORK/in/many.tfrecord" -q || die "convert many"
rm -f "$WORK/many.jsonl"
expect_usage_error "--records-per-shard 1 makes 100001 shards" "$TFQ" shard "$WORK/in/many.tfrecord" -o "$WORK/u/x" --records-per-shard 1
expect_stderr_contains "shard names number at most 99999; give a larger one"
expect_usage_error "--shard-size 16 bytes makes 373278 shards" "$TFQ" shard "$WORK/in/many.tfrecord" -o "$WORK/u/x" --shard-size 16
expect_empty_dir "$WORK/u"
# At the ends of the ranges the same flags work.
mkdir -p "$WORK/ends"
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/ends/x" --records-per-shard 18446744073709551615 -q
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$WORK/ends/y" --index 99998 --num-shards 99999 -q
checks=$((checks + 1)); [[ $(ls "$WORK/ends") == $'x-00000-of-00001\ny-99998-of-99999' ]] || fail "range ends: $(ls "$WORK/ends")"

# Corrupt input: exit 3 naming file and record; no output and no temporary, in every mode.
mkdir -p "$WORK/bad" "$WORK/c"
cp "${plain[@]}" "$WORK/bad/"
flip_byte "$WORK/bad/b.tfrecord" 3020  # a payload byte of record 53
for mode in "--shards 3" "--shards 3 --contiguous" "--records-per-shard 50 --contiguous" "--index 1 --num-shards 2"; do
  # shellcheck disable=SC2086
  expect_exit 3 "$TFQ" shard "$WORK/bad/a.tfrecord" "$WORK/bad/b.tfrecord" -o "$WORK/c/x" $mode
  expect_stderr_contains "b.tfrecord: record"
  expect_empty_dir "$WORK/c"
done
# --skip-corrupt: the bad record is dropped, reported, and the checksum covers the rest; the exit
# code says data was dropped (3), as in every command.
expect_exit 3 "$TFQ" shard "$WORK/bad/a.tfrecord" "$WORK/bad/b.tfrecord" -o "$WORK/c/x" --shards 2 --skip-corrupt
expect_stderr_contains "dropped 1 corrupt records"
expect_stderr_contains "249 records in, 249 out"

# Interrupted runs: SIGINT and SIGTERM arrive while tfq waits for input on a FIFO, with every
# shard already open. Nothing may remain: no final name, no temporary.
has_partials() { compgen -G "$1/.tfq-partial.*" >/dev/null; }
interrupt() {
  local sig=$1 dir="$WORK/int-$1"
  mkdir -p "$dir"
  rm -f "$WORK/fifo" && mkfifo "$WORK/fifo"
  set -m  # job control: the background tfq gets default signal handling (not SIGINT ignored)
  "$TFQ" shard "$WORK/fifo" -o "$dir/p" --shards 3 -q 2>"$WORK/int-err" &
  local pid=$!
  set +m
  exec 3>"$WORK/fifo"
  cat "$WORK/in/a.tfrecord" >&3
  checks=$((checks + 1))
  wait_for 10 has_partials "$dir" || fail "no shard was open before SIG$sig"
  kill -s "$sig" "$pid"
  wait "$pid"
  local status=$?
  exec 3>&-
  checks=$((checks + 1))
  [[ $status == $((128 + $(kill -l "$sig"))) ]] || fail "SIG$sig: exit status $status; $(cat "$WORK/int-err")"
  expect_empty_dir "$dir"
}
interrupt INT
interrupt TERM

# SIGKILL cannot be handled: the staged shards stay, under hidden names; the next run of the
# same job removes them and says so.
dir="$WORK/int-KILL"
mkdir -p "$dir"
rm -f "$WORK/fifo" && mkfifo "$WORK/fifo"
"$TFQ" shard "$WORK/fifo" -o "$dir/p" --shards 3 -q &
pid=$!
exec 3>"$WORK/fifo"
cat "$WORK/in/a.tfrecord" >&3
checks=$((checks + 1)); wait_for 10 has_partials "$dir" || fail "no shard open before SIGKILL"
kill -s KILL "$pid"
wait "$pid" 2>/dev/null
exec 3>&-
checks=$((checks + 1)); has_partials "$dir" || fail "SIGKILL left nothing (test is not testing)"
expect_exit 0 "$TFQ" shard "${plain[@]}" -o "$dir/p" --shards 3
expect_stderr_contains "left by an earlier run that was killed"
expect_no_temporaries "$dir"
checks=$((checks + 1)); [[ $(count "$dir"/p-*) == 300 ]] || fail "rerun after SIGKILL"

finish
