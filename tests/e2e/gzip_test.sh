#!/usr/bin/env bash
# gzip/zlib output as a user meets it: TensorFlow-readable (the protobuf oracle in ../shared reads
# every file tfq writes), the same bytes for any --threads (convert, shard, shuffle: the blocks of
# src/io/deflater.h compressed on several threads), the encoder rule seen from outside (text-heavy
# records: zlib 6, within 0.5% of one unbroken zlib 6 stream; numeric ones: ISA-L, at most 5%
# larger than zlib 6, where tfq was built with ISA-L), multi-member input, and `tfq --version`
# naming the library.
source "$(dirname "$0")/lib.sh"
skip_without_shared
PY=/usr/bin/python3
ORACLE="$SHARED/oracle/tfrecord_oracle.py"

expect_exit 0 "$TFQ" --version
expect_stdout_contains "(gzip: "
isal=0; grep -q "(gzip: isa-l " "$WORK/out" && isal=1

# Two tables: text-heavy rows (the CSV corpus) and numeric rows (ints and floats).
cp "$SHARED/csv/airports.csv" "$WORK/text.csv"
$PY - "$WORK/numbers.csv" <<'PY'
import random, sys
r = random.Random(5)
with open(sys.argv[1], "w") as f:
    f.write("id,a,b,c,x,y\n")
    for i in range(60000):
        f.write("%d,%d,%d,%d,%.6f,%.6f\n" % (i, r.randrange(1000), r.randrange(10**6), r.randrange(2),
                                            r.random(), r.gauss(0, 1)))
PY

for t in text numbers; do
  expect_exit 0 "$TFQ" convert "$WORK/$t.csv" -o "$WORK/$t.tfrecord" --quiet
  for n in 1 2; do
    expect_exit 0 "$TFQ" convert "$WORK/$t.csv" -o "$WORK/$t.$n.tfrecord.gz" --threads $n --quiet
    expect_exit 0 "$TFQ" convert "$WORK/$t.csv" -o "$WORK/$t.$n.tfrecord.zz" --threads $n --quiet
  done
  for ext in gz zz; do
    checks=$((checks + 1))
    cmp -s "$WORK/$t.1.tfrecord.$ext" "$WORK/$t.2.tfrecord.$ext" || fail "$t .$ext: --threads 1 and 2 wrote different bytes"
    # TensorFlow-readable: the oracle (Python's zlib and protobuf) decodes the same Examples. Not
    # under ASan ($sanitized, lib.sh): the oracle's time is Python's, and the Release pass checks it.
    ((sanitized)) && continue
    [[ -f $WORK/$t.oracle ]] || $PY "$ORACLE" "$WORK/$t.tfrecord" > "$WORK/$t.oracle"
    checks=$((checks + 1))
    cmp -s "$WORK/$t.oracle" <($PY "$ORACLE" "$WORK/$t.1.tfrecord.$ext") ||
      fail "$t .$ext: the oracle reads different Examples than from the uncompressed file"
  done
  expect_exit 0 "$TFQ" inspect --verify "$WORK/$t.1.tfrecord.gz" "$WORK/$t.1.tfrecord.zz"
done

# The encoder rule, against zlib 6 with TensorFlow's parameters (Python's zlib is the same zlib).
$PY - "$WORK" "$isal" <<'PY' || fail "encoder choice"
import sys, zlib
w, isal = sys.argv[1], sys.argv[2] == "1"
def zlib6(data, bits):
    c = zlib.compressobj(6, zlib.DEFLATED, bits, 9)
    return c.compress(data) + c.flush()
for t in ("text", "numbers"):
    plain = open(f"{w}/{t}.tfrecord", "rb").read()
    for ext, bits in (("gz", 31), ("zz", 15)):
        got = open(f"{w}/{t}.1.tfrecord.{ext}", "rb").read()
        ref = zlib6(plain, bits)
        # The header marks the fastest method (ISA-L, as zlib marks level 1) or the default one.
        fast = got[8] == 4 if ext == "gz" else got[1] >> 6 == 0
        print(f"{t} .{ext}: {len(got)} bytes, zlib 6 {len(ref)}, ratio {len(got) / len(ref):.4f}, fast {fast}")
        assert zlib.decompress(got, bits) == plain, f"{t}.{ext}: zlib does not read it back"
        if t == "text" or not isal:
            assert not fast, f"{t}.{ext}: not zlib 6"
            assert len(got) <= 1.005 * len(ref), f"{t}.{ext}: more than 0.5% larger than one zlib 6 stream"
        else:
            assert fast, f"{t}.{ext}: zlib 6 where ISA-L was expected"
            assert len(got) <= 1.05 * len(ref), f"{t}.{ext}: more than 5% larger than zlib 6"
PY

# Images (incompressible JPEG payloads): same bytes for any --threads, oracle-readable.
for n in 1 2; do
  expect_exit 0 "$TFQ" convert "$SHARED/images/imagenet" -o "$WORK/img$n" --shards 2 --suffix .tfrecord.gz \
    --threads $n --quiet
done
for s in 00000 00001; do
  checks=$((checks + 1))
  cmp -s "$WORK/img1-$s-of-00002.tfrecord.gz" "$WORK/img2-$s-of-00002.tfrecord.gz" || fail "image shard $s differs by --threads"
done
# One shard is enough for the oracle (10 s of Python protobuf each), and none under ASan.
if ((!sanitized)); then
  checks=$((checks + 1))
  $PY "$ORACLE" --summary "$WORK/img1-00000-of-00002.tfrecord.gz" >/dev/null || fail "the oracle cannot read image shard 00000"
fi

# shard and shuffle compress their shards on --threads threads: the same bytes for any count.
cat "$WORK/numbers.tfrecord" "$WORK/text.tfrecord" "$WORK/numbers.tfrecord" > "$WORK/mix.tfrecord"
for n in 1 2; do
  expect_exit 0 "$TFQ" shard "$WORK/mix.tfrecord" -o "$WORK/sh$n/part" --shards 2 -c gzip --threads $n --quiet
  expect_exit 0 "$TFQ" shuffle "$WORK/mix.tfrecord" -o "$WORK/su$n/part" --shards 2 -c zlib --seed 3 --threads $n --quiet
done
for s in 00000 00001; do
  for d in sh su; do
    checks=$((checks + 1))
    cmp -s "$WORK/${d}1/part-$s-of-00002" "$WORK/${d}2/part-$s-of-00002" || fail "$d shard $s differs by --threads"
    # The oracle (2 s each) on the first shard of each, not under ASan.
    [[ $s == 00000 ]] && ((!sanitized)) || continue
    checks=$((checks + 1))
    $PY "$ORACLE" --summary "$WORK/${d}1/part-$s-of-00002" >/dev/null || fail "the oracle cannot read $d shard $s"
  done
done

# A multi-member file (cat a.gz b.gz) reads as one stream.
cat "$WORK/text.1.tfrecord.gz" "$WORK/numbers.1.tfrecord.gz" > "$WORK/both.tfrecord.gz"
expect_exit 0 "$TFQ" inspect --count "$WORK/text.1.tfrecord.gz"
a=$(cat "$WORK/out")
expect_exit 0 "$TFQ" inspect --count "$WORK/numbers.1.tfrecord.gz"
b=$(cat "$WORK/out")
expect_exit 0 "$TFQ" inspect --count "$WORK/both.tfrecord.gz"
expect_stdout "$((a + b))"

echo "$checks checks, $failures failures"
((failures == 0))
