#!/usr/bin/env bash
# tfq inspect --index, --index-beside and --check-index as scripts use them: DALI's tfrecord2idx
# format byte for byte, the access-point index beside gzip/zlib files, and stale indexes found.
source "$(dirname "$0")/lib.sh"
data="$TFQ_SOURCE_DIR/testdata/flowers.jsonl"
expect_exit 0 "$TFQ" convert "$data" -o "$WORK/f.tfrecord" --quiet
expect_exit 0 "$TFQ" convert "$data" -o "$WORK/f.tfrecord.gz" --quiet
expect_exit 0 "$TFQ" convert "$data" -o "$WORK/f.tfrecord.zz" --quiet

# --index prints what DALI's tools/tfrecord2idx writes (its walk, in Python, here); a compressed
# file gives the offsets of its uncompressed stream, the same numbers.
/usr/bin/python3 - "$WORK/f.tfrecord" "$WORK/dali.idx" <<'PY'
import struct, sys
f, idx = open(sys.argv[1], "rb"), open(sys.argv[2], "w")
while True:
    current = f.tell()
    byte_len = f.read(8)
    if len(byte_len) == 0:
        break
    f.read(4)
    proto_len = struct.unpack("q", byte_len)[0]
    f.read(proto_len)
    f.read(4)
    idx.write(str(current) + " " + str(f.tell() - current) + "\n")
PY
for f in f.tfrecord f.tfrecord.gz f.tfrecord.zz; do
  expect_exit 0 "$TFQ" inspect --index "$WORK/$f"
  checks=$((checks + 1)); cmp -s "$WORK/out" "$WORK/dali.idx" || fail "--index $f differs from tfrecord2idx's"
done

# --index-beside: FILE.idx for every input, FILE.tfqgzidx (access points) for compressed ones.
expect_exit 0 "$TFQ" inspect --index-beside --json "$WORK/f.tfrecord" "$WORK/f.tfrecord.gz" "$WORK/f.tfrecord.zz"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "--index-beside --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True, d
files = {f["path"].rsplit("/", 1)[1]: f for f in d["files"]}
assert files["f.tfrecord"]["records"] == 60 and files["f.tfrecord"]["access_points"] is None, files
assert files["f.tfrecord.gz"]["access_points"].endswith("f.tfrecord.gz.tfqgzidx"), files
assert files["f.tfrecord.zz"]["index"].endswith("f.tfrecord.zz.idx"), files
PY
for f in f.tfrecord f.tfrecord.gz f.tfrecord.zz; do
  checks=$((checks + 1)); cmp -s "$WORK/$f.idx" "$WORK/dali.idx" || fail "$f.idx differs from tfrecord2idx's"
done
checks=$((checks + 1)); [[ -s "$WORK/f.tfrecord.gz.tfqgzidx" && -s "$WORK/f.tfrecord.zz.tfqgzidx" && ! -e "$WORK/f.tfrecord.tfqgzidx" ]] \
  || fail "access-point indexes: $(ls "$WORK")"
checks=$((checks + 1)); [[ -z $(ls -A "$WORK" | grep tfq-partial) ]] || fail "temporaries left: $(ls -A "$WORK")"

# --check-index: OK while they match.
expect_exit 0 "$TFQ" inspect --check-index "$WORK/f.tfrecord" "$WORK/f.tfrecord.gz" "$WORK/f.tfrecord.zz"
expect_stdout "OK: the indexes of 3 files match"
expect_exit 0 "$TFQ" inspect --check-index --json "$WORK/f.tfrecord.gz"
expect_stdout_contains '"ok":true'

# Appended to: exit 3 naming the index and the first record it lacks.
cat "$WORK/f.tfrecord" "$WORK/f.tfrecord" > "$WORK/twice"; mv "$WORK/twice" "$WORK/f.tfrecord"
expect_exit 3 "$TFQ" inspect --check-index "$WORK/f.tfrecord" "$WORK/f.tfrecord.gz"
expect_stderr_contains "f.tfrecord.idx: record 60: the index lists 60 records, the file has 120"
expect_stderr_contains "FAILED: the indexes of 1 of 2 files do not match"
# A record changed in size: the first mismatching record is named.
expect_exit 0 "$TFQ" inspect --index-beside "$WORK/f.tfrecord"
/usr/bin/python3 - "$WORK/f.tfrecord.idx" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
o1, s1 = map(int, lines[1].split()); o2, s2 = map(int, lines[2].split())
lines[1] = f"{o1} {s1 + 1}"; lines[2] = f"{o2 + 1} {s2 - 1}"
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
expect_exit 3 "$TFQ" inspect --check-index --json "$WORK/f.tfrecord"
expect_stdout_contains '"ok":false'
expect_stderr_contains "f.tfrecord.idx: record 1: the index says byte"

# Recompressed (same records, other gzip bytes): the .idx still matches, the access points do not.
gzip -dc "$WORK/f.tfrecord.gz" | gzip -9 > "$WORK/re.gz"; mv "$WORK/re.gz" "$WORK/f.tfrecord.gz"
expect_exit 3 "$TFQ" inspect --check-index "$WORK/f.tfrecord.gz"
expect_stderr_contains "f.tfrecord.gz.tfqgzidx: stale"
# Damaged or missing access points.
expect_exit 0 "$TFQ" inspect --index-beside "$WORK/f.tfrecord.gz"
flip_byte "$WORK/f.tfrecord.gz.tfqgzidx" 40
expect_exit 3 "$TFQ" inspect --check-index "$WORK/f.tfrecord.gz"
expect_stderr_contains "f.tfrecord.gz.tfqgzidx: not a usable access-point index (checksum mismatch"
rm "$WORK/f.tfrecord.gz.tfqgzidx" "$WORK/f.tfrecord.zz.idx"
expect_exit 3 "$TFQ" inspect --check-index "$WORK/f.tfrecord.gz" "$WORK/f.tfrecord.zz"
expect_stderr_contains "f.tfrecord.gz.tfqgzidx: missing (write it with tfq inspect --index-beside)"
expect_stderr_contains "f.tfrecord.zz.idx: missing"

# A file whose framing is broken has no index: exit 3 with the record and offset.
cp "$WORK/f.tfrecord.zz" "$WORK/keep.zz"
"$TFQ" convert "$data" -o "$WORK/bad.tfrecord" --quiet
flip_byte "$WORK/bad.tfrecord" 200   # the second record's length
expect_exit 3 "$TFQ" inspect --index-beside "$WORK/bad.tfrecord"
expect_stderr_contains "bad.tfrecord: record 1 (byte 195): length CRC mismatch"
checks=$((checks + 1)); [[ ! -e "$WORK/bad.tfrecord.idx" ]] || fail "an index was written for a broken file"

# One mode at a time.
expect_exit 2 "$TFQ" inspect --check-index --index "$WORK/f.tfrecord"
finish
