#!/usr/bin/env bash
# tfq inspect as shell scripts use it: stdout, stderr and exit codes for good and bad inputs.
source "$(dirname "$0")/lib.sh"
data="$TFQ_SOURCE_DIR/testdata/flowers.jsonl"

# A small dataset written by tfq itself, plain and gzip.
expect_exit 0 "$TFQ" convert "$data" -o "$WORK/flowers.tfrecord" --quiet
expect_stderr_empty
expect_exit 0 "$TFQ" convert "$data" -o "$WORK/flowers.tfrecord.gz" --quiet

# --count: just the number, for $(...) in scripts.
expect_exit 0 "$TFQ" inspect --count "$WORK/flowers.tfrecord"
expect_stdout "60"
expect_exit 0 "$TFQ" inspect --count "$WORK/flowers.tfrecord" "$WORK/flowers.tfrecord.gz"
expect_stdout "120"
expect_exit 0 "$TFQ" inspect --count --json "$WORK/flowers.tfrecord.gz"
expect_stdout_contains '"records":60'

# Standard input.
run sh -c "\"$TFQ\" inspect --count - < \"$WORK/flowers.tfrecord.gz\""
checks=$((checks + 1)); [[ $code == 0 && $(cat "$WORK/out") == 60 ]] || fail "--count from stdin: $code $(cat "$WORK/out")"

# Globs expand in sorted order; a glob matching nothing is an error.
cp "$WORK/flowers.tfrecord" "$WORK/t-00000-of-00002"; cp "$WORK/flowers.tfrecord" "$WORK/t-00001-of-00002"
expect_exit 0 "$TFQ" inspect --count "$WORK/t-*-of-*"
expect_stdout "120"
expect_exit 1 "$TFQ" inspect --count "$WORK/nothing-*-of-*"
expect_stderr_contains "nothing-*-of-*"

# --verify: OK on good data.
expect_exit 0 "$TFQ" inspect --verify "$WORK/flowers.tfrecord" "$WORK/flowers.tfrecord.gz"
expect_stdout_contains "OK: 120 records in 2 files"

# Summary: text and JSON.
expect_exit 0 "$TFQ" inspect "$WORK/flowers.tfrecord"
expect_stdout_contains "records       60"
expect_stdout_contains "petal_length_cm"
expect_exit 0 "$TFQ" inspect --json "$WORK/flowers.tfrecord.gz"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "inspect --json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["records"] == 60, d
f = d["schema"]["features"]
assert f["label"]["kind"] == "int64" and f["label"]["present_in"] == 60, f["label"]
assert f["petal_length_cm"]["kind"] == "float"
assert f["species"]["kind"] == "bytes"
assert f["tags"]["min_count"] == 0 and f["tags"]["max_count"] >= 1
assert d["per_file"][0]["compression"] == "gzip"
PY

# --records: JSON lines; --head/--skip; flat form round-trips through convert.
expect_exit 0 "$TFQ" inspect --records --head 2 --skip 1 "$WORK/flowers.tfrecord"
checks=$((checks + 1)); [[ $(wc -l < "$WORK/out") == 2 ]] || fail "--head 2 printed $(wc -l < "$WORK/out") lines"
expect_stdout_contains '"id":{"int64List":{"value":["1"]}}'
expect_exit 0 "$TFQ" inspect --records "$WORK/flowers.tfrecord"
cp "$WORK/out" "$WORK/records.jsonl"
expect_exit 0 "$TFQ" convert "$WORK/records.jsonl" -o "$WORK/again.tfrecord" --quiet
checks=$((checks + 1)); cmp -s "$WORK/flowers.tfrecord" "$WORK/again.tfrecord" || fail "proto-json round trip is not byte-identical"
expect_exit 0 "$TFQ" inspect --records --format flat --head 1 "$WORK/flowers.tfrecord"
expect_stdout_contains '"species":["setosa"]'

# A closed pipe ends quietly.
run sh -c "\"$TFQ\" inspect --records \"$WORK/flowers.tfrecord\" \"$WORK/flowers.tfrecord\" | head -n 1"
expect_stderr_empty

# --index: DALI format.
expect_exit 0 "$TFQ" inspect --index "$WORK/flowers.tfrecord"
checks=$((checks + 1)); [[ $(head -n 1 "$WORK/out" | cut -d' ' -f1) == 0 && $(wc -l < "$WORK/out") == 60 ]] || fail "index: $(head -n 2 "$WORK/out")"
expect_exit 0 "$TFQ" inspect --index-beside "$WORK/flowers.tfrecord"
checks=$((checks + 1)); [[ -s "$WORK/flowers.tfrecord.idx" ]] || fail "--index-beside wrote no .idx"

# Corruption: a flipped payload byte is exit 3 with file, record and offset.
cp "$WORK/flowers.tfrecord" "$WORK/bad.tfrecord"
flip_byte "$WORK/bad.tfrecord" 20
expect_exit 3 "$TFQ" inspect --verify "$WORK/bad.tfrecord"
expect_stderr_contains "bad.tfrecord: record 0 (byte 0): data CRC mismatch"
expect_exit 3 "$TFQ" inspect --verify --skip-corrupt "$WORK/bad.tfrecord"
expect_stderr_contains "record skipped"
expect_exit 0 "$TFQ" inspect --count "$WORK/bad.tfrecord"
expect_stdout "60"

# Truncation: a cut file is exit 3, never a silent clean end.
head -c -5 "$WORK/flowers.tfrecord" > "$WORK/cut.tfrecord"
expect_exit 3 "$TFQ" inspect --count "$WORK/cut.tfrecord"
expect_stderr_contains "truncated payload"
head -c -7 "$WORK/flowers.tfrecord.gz" > "$WORK/cut.tfrecord.gz"
expect_exit 3 "$TFQ" inspect --count "$WORK/cut.tfrecord.gz"
expect_stderr_contains "truncated"

# A gzip file read as plain names the compression it looks like.
expect_exit 3 "$TFQ" inspect --count -c none "$WORK/flowers.tfrecord.gz"
expect_stderr_contains "looks GZIP-compressed"

# Usage errors are exit 2; a missing file is exit 1 and names the path.
expect_exit 2 "$TFQ" inspect --count --verify "$WORK/flowers.tfrecord"
expect_exit 2 "$TFQ" inspect --bogus-flag "$WORK/flowers.tfrecord"
expect_exit 2 "$TFQ" inspect -c brotli "$WORK/flowers.tfrecord"
expect_exit 1 "$TFQ" inspect --count "$WORK/missing.tfrecord"
expect_stderr_contains "missing.tfrecord"
expect_exit 1 "$TFQ" inspect "$WORK/missing.tfrecord"   # no empty summary, just the error
expect_stderr_contains "missing.tfrecord: No such file or directory"
expect_stdout ""
expect_exit 1 "$TFQ" inspect --verify "$WORK/missing.tfrecord"
expect_stderr_contains "missing.tfrecord: No such file or directory"
expect_exit 3 "$TFQ" inspect --verify "$data"   # a JSON file is not a TFRecord file
expect_stderr_contains "is this a TFRecord file?"

finish
