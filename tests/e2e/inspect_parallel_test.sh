#!/usr/bin/env bash
# `tfq inspect --threads N` (--count, --verify, --stats, the summary) prints what --threads 1
# prints, byte for byte, and exits the same: files over 32 MiB are read as 16 MiB stretches in
# parallel, so damage in several stretches of several files checks that the first failure named
# (file, record index, byte offset) and every later one come out as a serial read finds them.
source "$(dirname "$0")/lib.sh"

# one.tfrecord: 2000 Examples of 10-3000 bytes; big.tfrecord: it repeated to about 45 MB.
/usr/bin/python3 - "$WORK" <<'PY'
import json, random, sys
random.seed(3)
with open(sys.argv[1] + "/rows.jsonl", "w") as f:
    for i in range(2000):
        f.write(json.dumps({"id": [i], "score": [random.random() * 100],
                            "text": ["w%d" % random.randint(0, 50)],
                            "blob": ["x" * random.randint(10, 3000)]}) + "\n")
PY
"$TFQ" convert "$WORK/rows.jsonl" -o "$WORK/one.tfrecord" -q || die "cannot make the input"
/usr/bin/python3 - "$WORK" <<'PY'
import gzip, struct, sys
w = sys.argv[1]
one = open(w + "/one.tfrecord", "rb").read()
data = one * 15
open(w + "/big.tfrecord", "wb").write(data)
open(w + "/one.tfrecord.gz", "wb").write(gzip.compress(one))
starts, o = [], 0
while o < len(data):
    starts.append(o); o += struct.unpack("<Q", data[o:o + 8])[0] + 16
def record_at(pos):  # index and offset of the first record at or after pos
    i = next(i for i, s in enumerate(starts) if s >= pos)
    return i, starts[i]
# dmg1: payload bytes flipped in four stretches (data CRC mismatches, the framing intact).
a = bytearray(data)
first = None
for mib in (5, 20, 35, 40):
    i, s = record_at(mib << 20); a[s + 20] ^= 1
    first = first or (i, s)
open(w + "/dmg1.tfrecord", "wb").write(a)
open(w + "/first_failure", "w").write("dmg1.tfrecord: record %d (byte %d): data CRC mismatch" % first)
# dmg2: a payload byte at 18 MiB, a length CRC at 30 MiB (the end of the reading), one after it.
b = bytearray(data)
for mib, at in ((18, 15), (30, 9), (38, 15)):
    i, s = record_at(mib << 20); b[s + at] ^= 1
open(w + "/dmg2.tfrecord", "wb").write(b)
open(w + "/cut.tfrecord", "wb").write(data[:(33 << 20) + 5])  # ends inside a record
PY
cd "$WORK" || die "no work dir"
# gzip files with access points beside them (--index-beside), one damaged inside its deflate
# data after its index was written (the index's fingerprint covers only the file's size and
# ends): each is cut into stretches at its access points, checked against its trailer, and says
# what a serial read says (the damaged one is read again whole).
gzip -nc big.tfrecord > big.tfrecord.gz && gzip -nc dmg1.tfrecord > dmg1.tfrecord.gz &&
  cp big.tfrecord.gz deflate.tfrecord.gz || die "gzip failed"
"$TFQ" inspect --index-beside big.tfrecord.gz dmg1.tfrecord.gz deflate.tfrecord.gz || die "no index"
flip_byte deflate.tfrecord.gz $(( $(stat -c %s deflate.tfrecord.gz) / 2 ))
# gzip files tfq wrote, without an index: cut at the points their header announces
# (io/blocked_gzip.h); a copy damaged inside its deflate data and one whose trailer's size is off
# by 2^16 (points found, sums that disagree with the trailer) are read again whole.
"$TFQ" shard big.tfrecord -o tq --shards 1 -c gzip -q && mv tq-00000-of-00001 tq.tfrecord.gz || die "no tfq gzip"
cp tq.tfrecord.gz tqdeflate.tfrecord.gz && flip_byte tqdeflate.tfrecord.gz $(( $(stat -c %s tq.tfrecord.gz) / 3 ))
cp tq.tfrecord.gz tqsize.tfrecord.gz && flip_byte tqsize.tfrecord.gz $(( $(stat -c %s tq.tfrecord.gz) - 2 ))
# Thread counts compared with --threads 1; under ASan ($sanitized, lib.sh) only 4, which cuts the
# most (the Release pass checks 2 as well).
thread_counts=(2 4)
((sanitized)) && thread_counts=(4)
inputs=(one.tfrecord dmg1.tfrecord one.tfrecord.gz dmg2.tfrecord cut.tfrecord big.tfrecord
        big.tfrecord.gz dmg1.tfrecord.gz deflate.tfrecord.gz tq.tfrecord.gz tqdeflate.tfrecord.gz
        tqsize.tfrecord.gz)

# The first failure a serial read meets, named as it names it.
expect_exit 3 "$TFQ" inspect --verify --threads 1 "${inputs[@]}"
first_line=$(head -n 1 err)
checks=$((checks + 1))
[[ $first_line == "tfq: error: $(cat first_failure)"* ]] ||
  fail "the first problem line was '$first_line', expected 'tfq: error: $(cat first_failure) ...'"
expect_stderr_contains "dmg2.tfrecord: 2 damaged records"
expect_stderr_contains "cut.tfrecord: 1 damaged record"
expect_stderr_contains "dmg1.tfrecord.gz: record $(cut -d' ' -f3 first_failure) (byte"
expect_stderr_contains "  deflate.tfrecord.gz: "  # damaged one way or another
expect_stderr_contains "  tqdeflate.tfrecord.gz: "
expect_stderr_contains "  tqsize.tfrecord.gz: "

for mode in "--verify" "--verify --json" "--verify --max-errors 2" "--count" "--count --json" \
            "--stats --json" "--json" "" "--spec tfq"; do
  # shellcheck disable=SC2086
  run "$TFQ" inspect $mode --threads 1 "${inputs[@]}"
  cp out serial.out; cp err serial.err; serial_code=$code
  for threads in "${thread_counts[@]}"; do
    # shellcheck disable=SC2086
    expect_exit "$serial_code" "$TFQ" inspect $mode --threads "$threads" "${inputs[@]}"
    checks=$((checks + 2))
    cmp -s out serial.out || fail "inspect $mode --threads $threads: stdout differs from --threads 1"
    cmp -s err serial.err || fail "inspect $mode --threads $threads: stderr differs from --threads 1: $(diff serial.err err | head -c 600)"
  done
done

# gzip files another writer made, without an index: a lone one (or fewer files than threads,
# where the cut cannot change the output) is inflated once, by whichever thread needs the next
# bytes, and checked and parsed in stretches on every thread; one whose trailer's CRC is off is
# read again whole, as a serial read reads it.
gzip -nc dmg1.tfrecord > foreign.tfrecord.gz && gzip -nc big.tfrecord > fclean.tfrecord.gz &&
  cp fclean.tfrecord.gz fcrc.tfrecord.gz || die "gzip failed"
flip_byte fcrc.tfrecord.gz $(( $(stat -c %s fcrc.tfrecord.gz) - 6 ))
# zlib, as TensorFlow's ZLIB option writes it (no length in its trailer: cut by a guess).
/usr/bin/python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(open("dmg1.tfrecord", "rb").read(), 6))' \
  > foreign.tfrecord.zz || die "zlib failed"
# A TFDV schema that every record breaks (a FLOAT feature declared INT), for --validate to list
# anomalies naming records in every stretch.
"$TFQ" inspect -q --spec tfdv one.tfrecord > schema.pbtxt || die "no schema"
/usr/bin/python3 - schema.pbtxt <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text, n = re.subn(r'(name: "score"\n  type: )FLOAT', r'\1INT', text)
assert n == 1, "no score feature in the schema"
open(sys.argv[1], "w").write(text)
PY
validate=("--validate schema.pbtxt --max-errors 5" "--validate schema.pbtxt --json --max-errors 3000")
for set in foreign.tfrecord.gz fclean.tfrecord.gz fcrc.tfrecord.gz foreign.tfrecord.zz \
           "foreign.tfrecord.gz fclean.tfrecord.gz" "big.tfrecord dmg1.tfrecord"; do
  modes=("--verify" "--verify --json" "--stats --json" "--json" "--spec tf" "${validate[@]}")
  # The uncompressed pair only for --validate: the other modes cover it in the loop above.
  [[ $set == "big.tfrecord dmg1.tfrecord" ]] && modes=("${validate[@]}")
  for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086
    run "$TFQ" inspect $mode --threads 1 $set
    cp out serial.out; cp err serial.err; serial_code=$code
    for threads in "${thread_counts[@]}"; do
      # shellcheck disable=SC2086
      expect_exit "$serial_code" "$TFQ" inspect $mode --threads "$threads" $set
      checks=$((checks + 2))
      cmp -s out serial.out || fail "inspect $mode --threads $threads $set: stdout differs from --threads 1"
      cmp -s err serial.err || fail "inspect $mode --threads $threads $set: stderr differs: $(diff serial.err err | head -c 600)"
    done
  done
done
expect_exit 0 "$TFQ" inspect --verify --threads 2 fclean.tfrecord.gz
expect_stdout_contains "OK: 30000 records"
expect_exit 3 "$TFQ" inspect --verify --threads 2 fcrc.tfrecord.gz
expect_stderr_contains "incorrect data check"

# --spec over clean files cut into stretches: the spec one serial pass infers.
expect_exit 0 "$TFQ" inspect -q --spec tfq --threads 1 big.tfrecord fclean.tfrecord.gz
cp out spec1.out
expect_exit 0 "$TFQ" inspect -q --spec tfq --threads 4 big.tfrecord fclean.tfrecord.gz
cmp -s out spec1.out || fail "--spec --threads 4 differs from --threads 1"
checks=$((checks + 1))

# Clean files: the same counts for any thread count, and the default (every core) agrees.
expect_exit 0 "$TFQ" inspect --count --threads 3 big.tfrecord one.tfrecord big.tfrecord.gz tq.tfrecord.gz
expect_stdout 92000
expect_exit 0 "$TFQ" inspect --count big.tfrecord one.tfrecord big.tfrecord.gz tq.tfrecord.gz
expect_stdout 92000
expect_exit 2 "$TFQ" inspect --count --threads 0 big.tfrecord
finish
