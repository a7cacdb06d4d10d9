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
expect_exit 0 "$TFQ" inspect --verify "$WORK/flowers.tfrecord"
expect_stdout "OK: 60 records in 1 file, every CRC verified"

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

# --max-features: later names are pooled into one entry that still counts, and the output says so.
expect_exit 0 "$TFQ" inspect --max-features 2 "$WORK/flowers.tfrecord"
expect_stdout_contains "  (other names)  "
expect_stdout_contains "more than 2 names (--max-features):"
expect_exit 0 "$TFQ" inspect --stats --json --max-features 2 "$WORK/flowers.tfrecord"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "--stats --max-features 2"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["features"]) == 2, list(d["features"])
over = d["features_over_cap"]
assert over["max_features"] == 2 and over["occurrences"] > 0, over
PY
expect_exit 0 "$TFQ" inspect --stats --json "$WORK/flowers.tfrecord"
expect_stdout_contains '"features":{'
checks=$((checks + 1)); ! grep -q over_cap "$WORK/out" || fail "over_cap without reaching the cap"
expect_exit 2 "$TFQ" inspect --max-features 0 "$WORK/flowers.tfrecord"

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

# A SequenceExample file read without --sequence: found from its feature_lists, said once, read right.
printf '%s\n' '{"context":{"id":[1]},"feature_lists":{"tok":[[1,2],[3]]}}' \
               '{"context":{"id":[2]},"feature_lists":{"tok":[[4]]}}' > "$WORK/seq.jsonl"
expect_exit 0 "$TFQ" convert "$WORK/seq.jsonl" --sequence -o "$WORK/seq.tfrecord" --quiet
expect_exit 0 "$TFQ" inspect --records --format flat "$WORK/seq.tfrecord"
expect_stdout '{"context":{"id":[1]},"feature_lists":{"tok":[[1,2],[3]]}}
{"context":{"id":[2]},"feature_lists":{"tok":[[4]]}}'
expect_stderr_contains "tfq: warning: $WORK/seq.tfrecord: record 0 (byte 0) is a tf.train.SequenceExample (it has feature_lists): reading the records as SequenceExamples from here on"
checks=$((checks + 1)); [[ $(wc -l < "$WORK/err") == 1 ]] || fail "the SequenceExample note was not said once: $(cat "$WORK/err")"
expect_exit 0 "$TFQ" inspect --json "$WORK/seq.tfrecord"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "summary of a SequenceExample file without --sequence"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["message"] == "SequenceExample" and d["parsed_records"] == 2, d
assert d["schema"]["feature_lists"]["tok"]["steps_total"] == 3, d["schema"]
assert d["schema"]["context"]["id"]["present_in"] == 2, d["schema"]
PY
expect_exit 0 "$TFQ" inspect --stats --json "$WORK/seq.tfrecord"
expect_stdout_contains '"feature_lists":{"tok":'
expect_exit 0 "$TFQ" inspect --verify "$WORK/seq.tfrecord"

# Payloads that are not Examples, though their bytes parse as unknown fields: invalid data (exit 3)
# named by record and offset, never an empty {} and exit 0. --format raw prints any payload.
/usr/bin/python3 - "$WORK/other.tfrecord" <<'PY'
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("gen", os.environ["TFQ_SOURCE_DIR"] + "/tests/e2e/hostile_gen.py")
gen = importlib.util.module_from_spec(spec); spec.loader.exec_module(gen)
with open(sys.argv[1], "wb") as f:
    f.write(gen.record(b"\x18\x01\x22\x03abc") + gen.record(b"") + gen.record(b"\x10\x07"))
PY
for mode in --records --stats "" --verify; do
  expect_exit 3 "$TFQ" inspect $mode "$WORK/other.tfrecord"
  expect_stderr_contains "tfq: error: $WORK/other.tfrecord: record 0 (byte 0): not a tf.train.Example or SequenceExample"
  expect_stderr_contains "tfq: error: $WORK/other.tfrecord: record 2 (byte 39): not a tf.train.Example or SequenceExample"
done
expect_exit 3 "$TFQ" inspect --records "$WORK/other.tfrecord"
expect_stdout "{}"   # the empty record is an empty Example
expect_exit 0 "$TFQ" inspect --records --format raw "$WORK/other.tfrecord"
expect_stdout "GAEiA2FiYw==

EAc="
expect_exit 0 "$TFQ" inspect --records --format raw --skip 2 "$WORK/flowers.tfrecord"
checks=$((checks + 1)); [[ $(wc -l < "$WORK/out") == 58 ]] || fail "--format raw printed $(wc -l < "$WORK/out") lines"
expect_exit 2 "$TFQ" inspect --records --format yaml "$WORK/flowers.tfrecord"

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

# --verify reports every damaged record of every file, one line each, and counts them.
# Offsets of the records of flowers.tfrecord, from its framing.
offsets=($(/usr/bin/python3 - "$WORK/flowers.tfrecord" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off = 0
while off < len(d):
    print(off)
    off += struct.unpack("<Q", d[off:off + 8])[0] + 16
PY
))
cp "$WORK/flowers.tfrecord" "$WORK/bad3.tfrecord"
for i in 0 2 6; do flip_byte "$WORK/bad3.tfrecord" $(( ${offsets[$i]} + 20 )); done
expect_exit 3 "$TFQ" inspect --verify "$WORK/bad3.tfrecord" "$WORK/flowers.tfrecord"
expect_stdout ""
for i in 0 2 6; do
  expect_stderr_contains "tfq: error: $WORK/bad3.tfrecord: record $i (byte ${offsets[$i]}): data CRC mismatch"
done
expect_stderr_contains "FAILED: 3 damaged records in 1 of 2 files (117 good records read)"
expect_stderr_contains "  $WORK/bad3.tfrecord: 3 damaged records, 57 good records"
checks=$((checks + 1)); [[ $(grep -c "data CRC mismatch" "$WORK/err") == 3 ]] || fail "--verify listed $(grep -c "data CRC mismatch" "$WORK/err") damaged records, not 3"
# The next files are read too, and the cap on lines says what it left out.
expect_exit 3 "$TFQ" inspect --verify --max-errors 1 "$WORK/bad3.tfrecord" "$WORK/bad.tfrecord"
checks=$((checks + 1)); [[ $(grep -c "data CRC mismatch" "$WORK/err") == 1 ]] || fail "--max-errors 1 listed $(grep -c "data CRC mismatch" "$WORK/err")"
expect_stderr_contains "tfq: error: 3 more problems not listed (4 in all; --max-errors sets how many are)"
expect_stderr_contains "FAILED: 4 damaged records in 2 of 2 files (116 good records read)"
expect_exit 3 "$TFQ" inspect --verify --json "$WORK/bad3.tfrecord" "$WORK/flowers.tfrecord"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "--verify --json damaged counts"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False and d["damaged_records"] == 3 and d["records"] == 117, d
assert [f["damaged_records"] for f in d["per_file"]] == [3, 0], d["per_file"]
assert d["per_file"][0]["rest_unread"] is False
PY
# A damaged header hides the rest of the file unless --resync: the file's lines say so.
cp "$WORK/flowers.tfrecord" "$WORK/hdr.tfrecord"
flip_byte "$WORK/hdr.tfrecord" $(( ${offsets[2]} + 9 ))   # the length's CRC
expect_exit 3 "$TFQ" inspect --verify "$WORK/hdr.tfrecord"
expect_stderr_contains "tfq: error: $WORK/hdr.tfrecord: record 2 (byte ${offsets[2]}): length CRC mismatch"
expect_stderr_contains "the rest of the file was not read (--resync scans on for the next valid record)"
expect_stderr_contains "FAILED: 1 damaged record in 1 file (2 good records read)"
expect_stderr_contains "$WORK/hdr.tfrecord: 1 damaged record, 2 good records; a damaged header ended the reading: the rest of the file was not read (--resync scans on)"
expect_exit 3 "$TFQ" inspect --verify --json "$WORK/hdr.tfrecord"
expect_stdout_contains '"rest_unread":true'
# --count --resync passes the damaged header like --verify --resync: reported, counted, exit 3.
skipped_bytes=$(( ${offsets[3]} - ${offsets[2]} ))
expect_exit 3 "$TFQ" inspect --count --resync "$WORK/hdr.tfrecord"
expect_stdout "59"
expect_stderr_contains "tfq: error: $WORK/hdr.tfrecord: record 2 (byte ${offsets[2]}): bad record header; skipped $skipped_bytes bytes to the next valid record at byte ${offsets[3]}"
expect_exit 3 "$TFQ" inspect --count --resync --json "$WORK/hdr.tfrecord"
expect_stdout_contains "\"resync_bytes\":$skipped_bytes"
expect_stdout_contains '"damaged_records":1'
expect_exit 3 "$TFQ" inspect --verify --resync "$WORK/hdr.tfrecord"
expect_stderr_contains "bad record header; skipped $skipped_bytes bytes"
expect_stderr_contains "$skipped_bytes bytes skipped by --resync"

# Truncation: a cut file is exit 3, never a silent clean end.
head -c -5 "$WORK/flowers.tfrecord" > "$WORK/cut.tfrecord"
expect_exit 3 "$TFQ" inspect --count "$WORK/cut.tfrecord"
expect_stderr_contains "truncated payload"
head -c -7 "$WORK/flowers.tfrecord.gz" > "$WORK/cut.tfrecord.gz"
expect_exit 3 "$TFQ" inspect --count "$WORK/cut.tfrecord.gz"
expect_stderr_contains "truncated"

# A file large enough for --count to walk it on several threads (tfrecord/parallel_count.h):
# 66 MiB of one repeated 3 KiB record. The count and the first problem's record index and offset
# must be what one reader walking from byte 0 finds, whatever the CPUs.
head -c 3000 /dev/urandom | base64 -w0 | sed 's/.*/{"blob": ["&"]}/' > "$WORK/one.jsonl"
expect_exit 0 "$TFQ" convert "$WORK/one.jsonl" -o "$WORK/one.tfrecord" --quiet
/usr/bin/python3 - "$WORK/one.tfrecord" "$WORK/big.tfrecord" <<'PY'
import sys
one = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as f:
    f.write(one * ((66 << 20) // len(one)))
PY
one_bytes=$(stat -c %s "$WORK/one.tfrecord")
big_records=$(( (66 << 20) / one_bytes ))
expect_exit 0 "$TFQ" inspect --count "$WORK/big.tfrecord"
expect_stdout "$big_records"
expect_exit 0 taskset -c 0 "$TFQ" inspect --count "$WORK/big.tfrecord"
expect_stdout "$big_records"
bad_index=$(( big_records * 3 / 4 ))
cp "$WORK/big.tfrecord" "$WORK/big-bad.tfrecord"
flip_byte "$WORK/big-bad.tfrecord" $(( bad_index * one_bytes + 9 ))   # the length's CRC
expect_exit 3 "$TFQ" inspect --count "$WORK/big-bad.tfrecord"
expect_stderr_contains "big-bad.tfrecord: record $bad_index (byte $(( bad_index * one_bytes ))): length CRC mismatch"
head -c -5 "$WORK/big.tfrecord" > "$WORK/big-cut.tfrecord"
expect_exit 3 "$TFQ" inspect --count "$WORK/big-cut.tfrecord"
expect_stderr_contains "big-cut.tfrecord: record $(( big_records - 1 )) (byte $(( (big_records - 1) * one_bytes ))): truncated payload"
rm -f "$WORK"/big*.tfrecord

# A gzip file read as plain names the compression it looks like.
expect_exit 3 "$TFQ" inspect --count -c none "$WORK/flowers.tfrecord.gz"
expect_stderr_contains "looks GZIP-compressed"

# Usage errors are exit 2; a missing file is exit 1 and names the path.
expect_exit 2 "$TFQ" inspect --count --verify "$WORK/flowers.tfrecord"
expect_exit 2 "$TFQ" inspect --bogus-flag "$WORK/flowers.tfrecord"
expect_exit 2 "$TFQ" inspect -c brotli "$WORK/flowers.tfrecord"
expect_exit 1 "$TFQ" inspect --count "$WORK/missing.tfrecord"
expect_stderr_contains "missing.tfrecord"
expect_stdout ""   # n=$(tfq inspect --count f) must not read 0
expect_exit 1 "$TFQ" inspect --count "$WORK/flowers.tfrecord" "$WORK/missing.tfrecord"
expect_stdout ""
expect_exit 1 "$TFQ" inspect --count --json "$WORK/missing.tfrecord" "$WORK/flowers.tfrecord"
expect_stdout ""   # a missing path is named before anything is read
# A path that exists but cannot be read as a file (here a folder) is listed with its error.
mkdir -p "$WORK/adir"
expect_exit 2 "$TFQ" inspect --count --json "$WORK/adir" "$WORK/flowers.tfrecord"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "--count --json with an unreadable input"
import json, sys
d = json.load(open(sys.argv[1]))
unreadable, read = d["files"]
assert "records" not in unreadable and "is a directory" in unreadable["error"], unreadable
assert read["records"] == 60 and d["records"] == 60, d
PY
expect_exit 2 "$TFQ" inspect --json "$WORK/adir" "$WORK/flowers.tfrecord"
expect_stdout_contains '{"error":"'"$WORK"'/adir: is a directory","path":"'"$WORK"'/adir"}'
expect_exit 1 "$TFQ" inspect "$WORK/missing.tfrecord"   # no empty summary, just the error
expect_stderr_contains "missing.tfrecord: No such file or directory"
expect_stdout ""
expect_exit 1 "$TFQ" inspect --verify "$WORK/missing.tfrecord"
expect_stderr_contains "missing.tfrecord: No such file or directory"
expect_exit 3 "$TFQ" inspect --verify "$data"   # a JSON file is not a TFRecord file
expect_stderr_contains "is this a TFRecord file?"

finish
