#!/usr/bin/env bash
# Hostile inputs (docs/limits.md): every one gets a clear error naming the problem and the flag
# that changes the limit, the documented exit code, and stays within a memory and time bound.
# Inputs are generated here by hostile_gen.py (standard library only), the big ones streamed
# through pipes; nothing large is stored in the repository.
source "$(dirname "$0")/lib.sh"
GEN=(/usr/bin/python3 "$TFQ_SOURCE_DIR/tests/e2e/hostile_gen.py")
PIPELINE="$(dirname "$TFQ")/examples/pipeline_example"
[[ -x /usr/bin/time ]] || { echo "SKIP: GNU time (/usr/bin/time) is not installed"; exit 77; }
gen() { "${GEN[@]}" "$@"; }
# Under AddressSanitizer ($sanitized, lib.sh) the exit codes and messages are still checked, the
# RSS bounds and ulimit -v are not, the time bounds are stretched, and the JSON lines of many tiny
# values are 1 MiB instead of 16 (the same code, a sixteenth of the time).

# bounded MB SECONDS WANT_EXIT CMD...: runs CMD under timeout and GNU time, stdout and stderr in
# $WORK/out and $WORK/err as run does; checks the exit code, the wall time and the peak RSS, and
# prints what was measured (the numbers docs/limits.md quotes).
bounded() {
  local mb=$1 secs=$2 want=$3; shift 3
  ((sanitized)) && secs=$((secs * 10)) mb=1000000
  /usr/bin/time -f '%M %e' -o "$WORK/time" timeout "$secs" "$@" >"$WORK/out" 2>"$WORK/err"
  code=$?
  local rss_kb elapsed
  read -r rss_kb elapsed < <(tail -n 1 "$WORK/time")
  echo "  exit $code, peak RSS $((rss_kb / 1024)) MB, ${elapsed} s: ${*:1:4}"
  checks=$((checks + 3))
  [[ $code != 124 ]] || fail "'$*' took longer than ${secs} s"
  [[ $code == "$want" ]] || fail "'$*' exited $code, expected $want; stderr: $(head -c 600 "$WORK/err")"
  ((rss_kb / 1024 <= mb)) || fail "'$*' peaked at $((rss_kb / 1024)) MB of RSS, over ${mb} MB"
}

# under_vm MB CMD...: runs CMD with its virtual memory capped: a claimed length that were
# allocated would fail with std::bad_alloc (an abort), not the clean error checked next.
under_vm() {
  local mb=$1; shift
  ((sanitized)) && { run "$@"; return; }
  run bash -c 'ulimit -v $(($1 * 1024)); shift; exec "$@"' _ "$mb" "$@"
}

# --- TFRecord lengths with a verifying length CRC ------------------------------------------------
echo "TFRecord lengths"
gen tfrecord-length 18446744073709551615 > "$WORK/len-max.tfrecord"
gen tfrecord-length $(((1 << 30) + 1)) > "$WORK/len-over.tfrecord"
gen tfrecord-length $(((1 << 30) - 16)) > "$WORK/len-under.tfrecord"
for f in len-max len-over; do
  in="$WORK/$f.tfrecord"
  for mode in --count --verify --records --stats ""; do
    bounded 64 10 3 "$TFQ" inspect $mode "$in"
    expect_stderr_contains "$in: record 0 (byte 0): record length"
    expect_stderr_contains "exceeds the cap of 1073741824 bytes (raise it with --max-record-size"
  done
  mkdir -p "$WORK/sh-$f" "$WORK/su-$f"
  bounded 64 10 3 "$TFQ" shard "$in" -o "$WORK/sh-$f/part" --shards 2
  expect_stderr_contains "exceeds the cap of 1073741824 bytes"
  bounded 64 10 3 "$TFQ" shuffle "$in" -o "$WORK/su-$f/part" --shards 2 --seed 1
  expect_stderr_contains "exceeds the cap of 1073741824 bytes"
  bounded 64 10 3 "$TFQ" convert "$in" -o "$WORK/$f.jsonl"
  expect_stderr_contains "exceeds the cap of 1073741824 bytes"
  bounded 64 10 3 "$TFQ" convert "$in" -o "$WORK/$f.csv" --select k
  expect_stderr_contains "exceeds the cap of 1073741824 bytes"
  bounded 64 10 3 "$TFQ" convert - --from tfrecord -o "$WORK/$f-stdin.jsonl" < "$in"
  expect_stderr_contains "<stdin>: record 0 (byte 0): record length"
  if [[ -x "$PIPELINE" ]]; then
    bounded 64 10 3 "$PIPELINE" "$in"
    expect_stderr_contains "exceeds the cap of 1073741824 bytes"
  fi
done
# The cap is the flag's: lowered, a small record is refused; raised, the claim is believed and
# the short file is reported as cut short, still without allocating the claimed 1 GiB.
expect_exit 3 "$TFQ" inspect --count --max-record-size 1KiB "$WORK/len-over.tfrecord"
expect_stderr_contains "exceeds the cap of 1024 bytes"
for f in len-under len-over; do
  for cmd in "inspect --records" "inspect --verify" "convert --from tfrecord -o $WORK/u.jsonl"; do
    under_vm 400 "$TFQ" $cmd --max-record-size 2GiB "$WORK/$f.tfrecord"
    checks=$((checks + 1))
    [[ $code == 3 ]] || fail "$cmd on $f under ulimit -v: exit $code, $(head -c 300 "$WORK/err")"
    expect_stderr_contains "truncated payload: the stream ends 16 bytes into a"
  done
done

# --- --resync over fake headers -----------------------------------------------------------------
# After a bad header, 8 MB of fake headers (one every 12 bytes, length CRC verifying, data CRC not)
# whose records all end at the end of the file, or each 12 bytes after the one before: checking
# each candidate's data CRC by reading its whole claimed record took 178 s for 7.7 MB; every
# mode must stay linear (about a second).
echo "--resync traps"
gen tfrecord-resync-trap 8 end > "$WORK/trap-end.tfrecord"
gen tfrecord-resync-trap 8 half > "$WORK/trap-half.tfrecord"
for f in trap-end trap-half; do
  in="$WORK/$f.tfrecord"
  for mode in --verify --count ""; do
    bounded 100 10 3 "$TFQ" inspect $mode --resync "$in"
    expect_stderr_contains "$in: record 0 (byte 0): bad record header; skipped 8388600 bytes to the end of the stream without finding another record"
  done
  bounded 100 10 3 "$TFQ" inspect --verify --resync - < "$in"
  expect_stderr_contains "<stdin>: record 0 (byte 0): bad record header; skipped 8388600 bytes"
done

# --- Decompression bombs -------------------------------------------------------------------------
# Each kind stops at the default ratio (100x beyond the first 16 MiB) within 10 s and bounded
# memory, the slow kinds included: tiny records and rows, each parsed (and converted) as it comes.
# With the old 1 GiB allowance the converters parsed a gigabyte first: 100 s for a CSV of rows
# "1", 115 s for JSON lines, 12 s to convert tiny TFRecords.
echo "decompression bombs"
gen tfrecord-gzip-bomb 4 > "$WORK/bomb.tfrecord.gz"         # 4 GiB of 1 MiB records in ~4 MB
gen tfrecord-gzip-bomb 4 30 > "$WORK/tiny.tfrecord.gz"      # 4 GiB of 30-byte records, ~400:1
gen tfrecord-zlib-bomb 1.5 > "$WORK/bomb.tfrecord.zz"       # one zlib stream, ~230:1
gen tfrecord-zlib-bomb 1.5 30 > "$WORK/tiny.tfrecord.zz"
gen tfrecord-gzip-bomb 0.25 > "$WORK/small.tfrecord.gz"     # 256 MiB
gen tfrecord-gzip-bomb 0.0146484375 > "$WORK/under.tfrecord.gz"  # 15 MiB: under the allowance
gen text-gzip-bomb a 4 > "$WORK/blank.csv.gz"               # blank lines: skipped, nothing written
gen text-gzip-bomb a 4 1 > "$WORK/rows.csv.gz"              # rows "1": a record each
gen text-gzip-bomb '{"a":[1]}' 4 > "$WORK/blank.jsonl.gz"
gen text-gzip-bomb '{"a":[1]}' 4 '{"a":[1]}' > "$WORK/rows.jsonl.gz"
ls -l "$WORK"/*.gz "$WORK"/*.zz | awk '{print "  " $5 " bytes: " $9}'
bomb_message="expands to more than 100 times its compressed size"
for f in bomb.tfrecord.gz tiny.tfrecord.gz bomb.tfrecord.zz tiny.tfrecord.zz; do
  in="$WORK/$f"
  format=gzip
  [[ $f == *.zz ]] && format=zlib
  for cmd in "inspect --count" "inspect --verify" "inspect"; do
    bounded 64 10 1 "$TFQ" $cmd "$in"
    expect_stderr_contains "$in: $format data $bomb_message"
    expect_stderr_contains "raise the limit with --max-decompressed"
  done
  bounded 64 10 1 "$TFQ" convert "$in" --to csv -o /dev/null --select k
  expect_stderr_contains "$in: $format data $bomb_message"
  bounded 64 10 1 "$TFQ" convert "$in" --to jsonl -o /dev/null
  expect_stderr_contains "$in: $format data $bomb_message"
  # Commands that write what they read are given a scratch folder: the records are genuine,
  # only their number is hostile.
  mkdir -p "$WORK/bomb-shards" "$WORK/bomb-shuffled"
  bounded 200 10 1 "$TFQ" shard "$in" -o "$WORK/bomb-shards/part" --shards 2
  expect_stderr_contains "$bomb_message"
  bounded 400 10 1 "$TFQ" shuffle "$in" -o "$WORK/bomb-shuffled/part" --shards 2 --seed 1 --memory 256MiB
  expect_stderr_contains "$bomb_message"
  rm -rf "$WORK/bomb-shards" "$WORK/bomb-shuffled"
  if [[ -x "$PIPELINE" ]]; then
    # The pipeline's read-ahead and batches hold whole records (up to 1 MiB each here): its
    # memory is its buffers' (docs/pipeline.md), not the bomb's.
    bounded 1500 10 1 "$PIPELINE" "$in"
    expect_stderr_contains "$bomb_message"
  fi
done
# CSV and JSON lines are read compressed as gzip only (.csv.gz, .tsv.gz, .jsonl.gz). A gigabyte
# of empty lines is a billion lines: stepped over a buffer at a time, not one by one. The rows
# bomb's memory is the pipeline's for tiny rows (framed records of the chunks in flight).
for f in blank.csv.gz rows.csv.gz blank.jsonl.gz rows.jsonl.gz; do
  mb=64
  [[ $f == rows.csv.gz ]] && mb=400
  bounded $mb 10 1 "$TFQ" convert "$WORK/$f" -o "$WORK/bomb-out.tfrecord"
  expect_stderr_contains "$WORK/$f: gzip data $bomb_message"
  [[ ! -e "$WORK/bomb-out.tfrecord" ]] || fail "$f: the refused conversion left its output"
done
# A total instead of the ratio; a ratio that lets a very compressible file through; and a file
# under the allowance is read whole whatever its ratio (1000:1 here).
bounded 64 10 1 "$TFQ" inspect --count --max-decompressed 8MiB "$WORK/bomb.tfrecord.gz"
expect_stderr_contains "gzip data expands to more than the limit of 8.0 MiB"
expect_exit 1 "$TFQ" inspect --count "$WORK/small.tfrecord.gz"
expect_stderr_contains "$bomb_message (16.2 MiB from"
expect_exit 0 "$TFQ" inspect --count --max-decompressed 2000x "$WORK/small.tfrecord.gz"
expect_stdout 256
expect_exit 0 "$TFQ" inspect --count "$WORK/under.tfrecord.gz"
expect_stdout 15
expect_exit 2 "$TFQ" inspect --count --max-decompressed lots "$WORK/small.tfrecord.gz"
expect_stderr_contains "--max-decompressed"

# --- CSV ---------------------------------------------------------------------------------------------
echo "CSV"
# A row beyond the limit costs the limit: the row is gathered once, a piece at a time.
bounded 100 60 1 "$TFQ" convert - --from csv -o "$WORK/big-field.tfrecord" < <(gen csv-big-field 1000000000)
expect_stderr_contains "<stdin>: line 2: a record longer than 67108864 bytes, the limit that bounds memory; raise it with --max-row-size"
bounded 40 60 1 "$TFQ" convert - --from csv --max-row-size 16MiB -o "$WORK/big-field.tfrecord" < <(gen csv-big-field 1000000000)
expect_stderr_contains "a record longer than 16777216 bytes"
# Rows of 63 MiB, just within the limit (docs/limits.md): one takes about twice its size (the row
# and its record; 132 MiB measured, 194 MiB before the chunker gathered long rows itself), plus
# the unescaped copy of a quoted field with doubled quotes (153 MiB). Several take about three
# times (195 MiB; 447 MiB before), as the first two are held while the schema is inferred.
long_row=$((63 << 20))
for threads in 1 4; do
  bounded 150 60 0 "$TFQ" convert - --from csv --threads $threads -o "$WORK/long.tfrecord" < <(gen csv-long-rows 1 $long_row)
  bounded 175 60 0 "$TFQ" convert - --from csv --threads $threads -o "$WORK/long.tfrecord" < <(gen csv-long-rows 1 $long_row quoted)
  bounded 215 60 0 "$TFQ" convert - --from csv --threads $threads -o "$WORK/long.tfrecord" < <(gen csv-long-rows 4 $long_row)
  expect_exit 0 "$TFQ" inspect --count "$WORK/long.tfrecord"
  expect_stdout 4
done
rm -f "$WORK/long.tfrecord"
gen csv-many-columns 5000000 row > "$WORK/wide-row.csv"
bounded 400 30 3 "$TFQ" convert "$WORK/wide-row.csv" -o "$WORK/wide-row.tfrecord"
expect_stderr_contains "$WORK/wide-row.csv: line 2"
# A header of a million columns (9 MB): each column costs memory in every thread, so the count
# is limited before any per-column state exists.
gen csv-many-columns 1000000 header > "$WORK/wide-header.csv"
bounded 600 30 1 "$TFQ" convert "$WORK/wide-header.csv" -o "$WORK/wide-header.tfrecord"
expect_stderr_contains "$WORK/wide-header.csv: line 1: 1000000 columns, more than the limit of 100000"
expect_stderr_contains "raise it with --max-columns"
printf 'a,b,a\n1,2,3\n' > "$WORK/dup.csv"
expect_exit 3 "$TFQ" convert "$WORK/dup.csv" -o "$WORK/dup.tfrecord"
expect_stderr_contains 'the column name "a" appears twice; rename one with --columns'

# --- JSON lines ------------------------------------------------------------------------------------
echo "JSON lines"
gen jsonl-deep 1000000 > "$WORK/deep.jsonl"
bounded 64 10 3 "$TFQ" convert "$WORK/deep.jsonl" -o "$WORK/deep.tfrecord"
expect_stderr_contains "$WORK/deep.jsonl: line 1: JSON nested deeper than 64 levels"
bounded 400 60 1 "$TFQ" convert - --from jsonl -o "$WORK/long.tfrecord" < <(gen jsonl-long-line 1000000000)
expect_stderr_contains "<stdin>: line 1 is longer than 16777216 bytes, the limit that bounds memory; raise it with --max-row-size"
# Many tiny values, one line just under the default --max-row-size (16 MiB), in every form: a
# line takes at most about 10 times its length (docs/limits.md; 85-150 MB measured). Parsed
# into an nlohmann tree and then an Example, the same lines took 219-908 MB (64 MiB of "" took
# 2.7 GB).
tiny_line() {  # MB VALUE HEAD TAIL [tfq flags...]: one line of VALUEs filling 16 MiB
  local mb=$1 value=$2 head=$3 tail=$4 line=16777216; shift 4
  ((sanitized)) && line=1048576
  local count=$(((line - 1 - ${#head} - ${#tail}) / (${#value} + 1)))
  bounded "$mb" 60 0 "$TFQ" convert - --from jsonl "$@" -o "$WORK/tiny.tfrecord" \
    < <(gen jsonl-many-values "$count" "$value" "$head" "$tail")
  expect_stderr_contains "wrote 1 records"
}
tiny_line 180 '""' '{"x":[' ']}'
tiny_line 180 '0' '{"x":[' ']}'
tiny_line 180 '0.5' '{"x":[' ']}'
tiny_line 180 '{"base64":""}' '{"x":[' ']}'
tiny_line 180 '0' '{"x":{"float":[' ']}}'
tiny_line 180 '""' '{"features":{"feature":{"x":{"bytesList":{"value":[' ']}}}}}'
tiny_line 180 '"0"' '{"features":{"feature":{"x":{"int64List":{"value":[' ']}}}}}'
tiny_line 180 '[]' '{"feature_lists":{"x":[' ']}}' --sequence
tiny_line 180 '{}' '{"featureLists":{"featureList":{"x":{"feature":[' ']}}}}' --sequence
tiny_line 180 '{"int64List":{}}' '{"context":{"feature":{"c":{}}},"feature_lists":{"feature_list":{"x":{"feature":[' ']}}}}' --sequence
# Many keys, flat and proto-json (about 15 MB each; 1 MB under ASan).
keys_divisor=1
((sanitized)) && keys_divisor=16
bounded 180 60 0 "$TFQ" convert - --from jsonl -o "$WORK/tiny.tfrecord" < <(gen jsonl-many-keys $((800000 / keys_divisor)) flat)
bounded 180 60 0 "$TFQ" convert - --from jsonl -o "$WORK/tiny.tfrecord" < <(gen jsonl-many-keys $((370000 / keys_divisor)) proto)
bounded 64 10 1 "$TFQ" convert - --from jsonl -o "$WORK/tiny.tfrecord" < <(gen jsonl-many-values 22000000 '""')
expect_stderr_contains "line 1 is longer than 16777216 bytes, the limit that bounds memory"
printf '{"x":[1e999999]}\n' > "$WORK/bignum.jsonl"
expect_exit 3 "$TFQ" convert "$WORK/bignum.jsonl" -o "$WORK/bignum.tfrecord"
expect_stderr_contains "$WORK/bignum.jsonl: line 1"
printf '{"x":[123456789012345678901234567890]}\n' > "$WORK/bigint.jsonl"
expect_exit 3 "$TFQ" convert "$WORK/bigint.jsonl" -o "$WORK/bigint.tfrecord"
expect_stderr_contains "$WORK/bigint.jsonl: line 1: the integer 123456789012345678901234567890 at byte 6 does not fit in 64 bits"
printf '{"x":[18446744073709551615]}\n' > "$WORK/uint.jsonl"
expect_exit 3 "$TFQ" convert "$WORK/uint.jsonl" -o "$WORK/uint.tfrecord"
expect_stderr_contains "$WORK/uint.jsonl: line 1"
printf '{"x":["\xff\xfe"]}\n' > "$WORK/utf8.jsonl"
expect_exit 3 "$TFQ" convert "$WORK/utf8.jsonl" -o "$WORK/utf8.tfrecord"
expect_stderr_contains "$WORK/utf8.jsonl: line 1: not valid JSON"

# --- Example wire format -------------------------------------------------------------------------
echo "Example wire format"
for kind in huge-length overlong-varint nested-length; do
  gen example "$kind" > "$WORK/ex-$kind.tfrecord"
  bounded 64 10 3 "$TFQ" inspect --verify "$WORK/ex-$kind.tfrecord"
  expect_stderr_contains "$WORK/ex-$kind.tfrecord: record 1"
  bounded 64 10 3 "$TFQ" convert "$WORK/ex-$kind.tfrecord" -o "$WORK/ex-$kind.jsonl"
  expect_stderr_contains "$WORK/ex-$kind.tfrecord: record 1"
done
# 100,000 nested submessages under an unknown field: skipped by length, never recursed into.
gen example deep > "$WORK/ex-deep.tfrecord"
bounded 64 10 0 "$TFQ" inspect --verify "$WORK/ex-deep.tfrecord"
bounded 64 10 0 "$TFQ" inspect --records "$WORK/ex-deep.tfrecord"
bounded 64 10 0 "$TFQ" convert "$WORK/ex-deep.tfrecord" -o "$WORK/ex-deep.jsonl"

# 200,000 distinct feature names: the summary and --stats track the first 10,000 (--max-features)
# and pool the rest, so memory stays bounded (1 GB and more without the cap).
gen example-many-keys 200000 > "$WORK/many-keys.tfrecord"
for mode in --stats ""; do
  bounded 150 30 0 "$TFQ" inspect $mode --json "$WORK/many-keys.tfrecord"
  expect_stdout_contains '"features_over_cap":{'
  expect_stdout_contains '"occurrences":190000'
done

# --- Images ------------------------------------------------------------------------------------------
echo "images"
mkdir -p "$WORK/imgs/a"
gen png 8 8 full > "$WORK/imgs/a/good.png"
gen jpeg-huge 65000 65000 > "$WORK/imgs/a/huge.jpg"
gen jpeg-scans 5000 > "$WORK/imgs/a/scans.jpg"
head -c 300 "$WORK/imgs/a/scans.jpg" > "$WORK/imgs/a/truncated.jpg"
gen png 65000 65000 header > "$WORK/imgs/a/huge.png"
gen png 10000 10000 full > "$WORK/imgs/a/bomb.png"   # 100 MB of pixels in ~100 KB
gen png 300 300 truncated > "$WORK/imgs/a/truncated.png"
bounded 600 60 5 "$TFQ" convert "$WORK/imgs" -o "$WORK/imgs-out/train" --size 32x32 --max-pixels 50000000
expect_stderr_contains "huge.jpg: JPEG of 65000x65000 pixels"
expect_stderr_contains "over the limit of 50000000 pixels"
expect_stderr_contains "huge.png: PNG of 65000x65000 pixels is over the limit of 50000000 pixels"
expect_stderr_contains "bomb.png: PNG of 10000x10000 pixels is over the limit"
expect_stderr_contains "scans.jpg: JPEG has more than 500 scans"
expect_stderr_contains "truncated.jpg: "
expect_stderr_contains "truncated.png: truncated PNG"
# Within the pixel limit the PNG bomb decodes: its memory is bounded by the pixels it declares.
rm "$WORK/imgs/a/huge.jpg" "$WORK/imgs/a/huge.png" "$WORK/imgs/a/scans.jpg" "$WORK/imgs/a/truncated."*
bounded 800 60 0 "$TFQ" convert "$WORK/imgs" -o "$WORK/imgs-out2/train" --size 32x32 --threads 1

finish
