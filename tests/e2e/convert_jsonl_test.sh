#!/usr/bin/env bash
# tfq convert between JSON lines and TFRecord through the real binary: natural JSON (one value,
# booleans), typed lists and exact round trips of empty lists, what is refused (duplicate keys,
# integers that float32 would round, keys that would merge) with its exit code, and lines built
# to be slow (many keys), which must stay linear.
source "$(dirname "$0")/lib.sh"
W=$WORK
GEN=("$TFQ_SOURCE_DIR/tests/e2e/hostile_gen.py")

# expect_file FILE TEXT: FILE holds exactly TEXT (printf %b escapes).
expect_file() {
  checks=$((checks + 1))
  local want; want=$(printf '%b' "$2"; echo x); want=${want%x}
  local got; got=$(cat "$1"; echo x); got=${got%x}
  [[ "$got" == "$want" ]] || fail "$1 is $(printf %q "$got"), expected $(printf %q "$want")"
}
# expect_same A B: the two files are byte for byte equal.
expect_same() {
  checks=$((checks + 1))
  cmp -s "$1" "$2" || fail "$1 and $2 differ"
}

# --- Natural JSON: one value is a one-value list, booleans are int64 0/1 ----------------------
printf '{"id": 1, "name": "a", "w": 0.5, "ok": true, "bad": false, "flags": [true, 0, 2]}\n' > "$W/natural.jsonl"
expect_exit 0 "$TFQ" convert "$W/natural.jsonl" -o "$W/natural.tfrecord" --quiet
expect_exit 0 "$TFQ" convert "$W/natural.tfrecord" -o "$W/natural.out.jsonl" --format flat --quiet
expect_file "$W/natural.out.jsonl" '{"id":[1],"name":["a"],"w":[0.5],"ok":[1],"bad":[0],"flags":[1,0,2]}\n'
# A .gz output name is gzip-compressed, as for CSV, and reads back as the same records.
expect_exit 0 "$TFQ" convert "$W/natural.tfrecord" -o "$W/natural.out.jsonl.gz" --quiet
checks=$((checks + 1))
gzip -t "$W/natural.out.jsonl.gz" 2>/dev/null || fail "natural.out.jsonl.gz is not gzip"
expect_exit 0 "$TFQ" convert "$W/natural.out.jsonl.gz" -o "$W/natural.again.tfrecord" --quiet
expect_same "$W/natural.tfrecord" "$W/natural.again.tfrecord"

# --- Empty int64/float lists and NaN-only float lists survive TFRecord -> flat -> TFRecord -----
printf '%s\n' \
  '{"features":{"feature":{"i":{"int64List":{}},"f":{"floatList":{}},"b":{"bytesList":{}},"n":{"floatList":{"value":["NaN","Infinity"]}},"v":{"int64List":{"value":["3"]}}}}}' \
  > "$W/empty.jsonl"
expect_exit 0 "$TFQ" convert "$W/empty.jsonl" -o "$W/empty.tfrecord" --quiet
expect_exit 0 "$TFQ" convert "$W/empty.tfrecord" -o "$W/empty.flat.jsonl" --format flat --quiet
expect_file "$W/empty.flat.jsonl" '{"i":{"int64":[]},"f":{"float":[]},"b":[],"n":{"float":["NaN","Infinity"]},"v":[3]}\n'
expect_exit 0 "$TFQ" convert "$W/empty.flat.jsonl" -o "$W/empty.again.tfrecord" --quiet
expect_same "$W/empty.tfrecord" "$W/empty.again.tfrecord"
# A SequenceExample's steps take typed lists too.
printf '{"context":{"n":{"int64":[]}},"feature_lists":{"t":[[1],{"float":[]},[]]}}\n' > "$W/seq.jsonl"
expect_exit 0 "$TFQ" convert "$W/seq.jsonl" -o "$W/seq.tfrecord" --sequence --quiet
expect_exit 0 "$TFQ" convert "$W/seq.tfrecord" -o "$W/seq.out.jsonl" --sequence --format flat --quiet
expect_file "$W/seq.out.jsonl" '{"context":{"n":{"int64":[]}},"feature_lists":{"t":[[1],{"float":[]},[]]}}\n'

# --- Refused: exit 3 naming the line --------------------------------------------------------
printf '{"a":[1]}\n{"a":[1],"b":[2],"a":[3]}\n' > "$W/dup.jsonl"
expect_exit 3 "$TFQ" convert "$W/dup.jsonl" -o "$W/dup.tfrecord" --quiet
expect_stderr_contains "dup.jsonl: line 2: duplicate key \"a\""
printf '{"features":{"feature":{"x":{"int64List":{"value":["1"]}},"x":{"int64List":{}}}}}\n' > "$W/dup2.jsonl"
expect_exit 3 "$TFQ" convert "$W/dup2.jsonl" -o "$W/dup2.tfrecord" --quiet
expect_stderr_contains 'dup2.jsonl: line 1: duplicate key "x" in ["features"]["feature"]'
printf '{"w":[0.5]}\n{"w":[16777217, 0.5]}\n' > "$W/inexact.jsonl"
expect_exit 3 "$TFQ" convert "$W/inexact.jsonl" -o "$W/inexact.tfrecord" --quiet
expect_stderr_contains 'inexact.jsonl: line 2: ["w"][0]: the integer 16777217 in a float list is not exactly a float32'
printf '{"w":[16777216, 0.5, 16777217.0]}\n' > "$W/exact.jsonl"  # exact, or written as a float: fine
expect_exit 0 "$TFQ" convert "$W/exact.jsonl" -o "$W/exact.tfrecord" --quiet

# --- Keys that would merge in JSON: exit 3 naming the file, record and keys -------------------
python3 "${GEN[@]}" example utf8-collision > "$W/collide.tfrecord"
for form in flat proto-json; do
  expect_exit 3 "$TFQ" convert "$W/collide.tfrecord" -o "$W/collide.jsonl" --format $form --quiet
  expect_stderr_contains 'collide.tfrecord: record 1: feature keys "a\xff" and "a\xfe" both print as the JSON key "a'
done

# --- Many keys in one line: linear (quadratic took 75 s for 200,000 keys) ---------------------
python3 "${GEN[@]}" jsonl-many-keys 200000 flat > "$W/keys.jsonl"
expect_exit 0 "$TFQ" convert "$W/keys.jsonl" -o "$W/keys.tfrecord" --quiet
python3 "${GEN[@]}" jsonl-many-keys 200000 proto > "$W/pkeys.jsonl"
expect_exit 0 "$TFQ" convert "$W/pkeys.jsonl" -o "$W/pkeys.tfrecord" --quiet
expect_same "$W/keys.tfrecord" "$W/pkeys.tfrecord"

# --- Threads: several chunks of lines give the same bytes for any --threads, both ways, and the
# first bad line in input order is the one named (a later one may fail first in time) ----------
python3 -c '
import json
for i in range(40000):
    print(json.dumps({"id": [i], "name": ["row %d" % i], "w": [i * 0.25]}))
    if i % 997 == 0: print("   ")' > "$W/many.jsonl"
for t in 1 2 3; do
  expect_exit 0 "$TFQ" convert "$W/many.jsonl" -o "$W/many-$t.tfrecord" --shards 2 --threads $t --quiet
  expect_exit 0 "$TFQ" convert "$W/many-$t.tfrecord-00000-of-00002" -o "$W/many-$t.jsonl" --format flat --threads $t --quiet
done
for t in 2 3; do
  expect_same "$W/many-1.tfrecord-00000-of-00002" "$W/many-$t.tfrecord-00000-of-00002"
  expect_same "$W/many-1.tfrecord-00001-of-00002" "$W/many-$t.tfrecord-00001-of-00002"
  expect_same "$W/many-1.jsonl" "$W/many-$t.jsonl"
done
{ head -n 30000 "$W/many.jsonl"; echo '{bad'; tail -n +30001 "$W/many.jsonl"; echo '{worse'; } > "$W/late.jsonl"
expect_exit 3 "$TFQ" convert "$W/late.jsonl" -o "$W/late.tfrecord" --threads 2 --quiet
expect_stderr_contains 'late.jsonl: line 30001: not valid JSON'

finish
