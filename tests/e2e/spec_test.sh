#!/usr/bin/env bash
# `tfq inspect --spec FORMAT` and `--validate SCHEMA` as a user's script runs them: each format
# checked by what reads it (Python evaluated against stand-ins for tf.io, tfq and DALI that record
# the calls; JSON parsed; the TFDV schema parsed by Google's protobuf against tensorflow_metadata's
# schema.proto), and seeded damage reported exactly, record and byte included.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
FIXTURES=$TFQ_SOURCE_DIR/tests/fixtures/tensorflow_metadata
W=$WORK

# Three records: label (dense scalar), xy (dense [2]), tags (ragged 1..2 values).
cat > "$W/rows.jsonl" <<'ROWS'
{"label": [1], "xy": [0.5, 0.25], "tags": ["a"]}
{"label": [2], "xy": [1.5, 0.75], "tags": ["a", "b"]}
{"label": [0], "xy": [1.0, 0.5], "tags": ["b"]}
ROWS
"$TFQ" convert "$W/rows.jsonl" -o "$W/good.tfrecord" 2>/dev/null || die "convert failed"

# Stand-ins that record what each spec asks for: tensorflow (tf.io), tfq, nvidia.dali.tfrecord.
mkdir -p "$W/stubs/tensorflow" "$W/stubs/tfq" "$W/stubs/nvidia/dali"
cat > "$W/stubs/tensorflow/__init__.py" <<'PYSTUB'
import types
int64, float32, string = "tf.int64", "tf.float32", "tf.string"
def _rec(name):
    return lambda *a, **k: (name,) + a + tuple(sorted(k.items()))
io = types.SimpleNamespace(**{n: _rec(n) for n in
    ("FixedLenFeature", "VarLenFeature", "RaggedFeature", "FixedLenSequenceFeature")})
PYSTUB
cat > "$W/stubs/tfq/__init__.py" <<'PYSTUB'
def FixedLen(dtype, shape=(), default=None): return ("FixedLen", dtype, shape)
def VarLen(dtype): return ("VarLen", dtype)
PYSTUB
touch "$W/stubs/nvidia/__init__.py" "$W/stubs/nvidia/dali/__init__.py"
cat > "$W/stubs/nvidia/dali/tfrecord.py" <<'PYSTUB'
int64, float32, string = "tfrec.int64", "tfrec.float32", "tfrec.string"
def FixedLenFeature(shape, dtype, default_value): return ("FixedLenFeature", shape, dtype, default_value)
def VarLenFeature(dtype, default_value): return ("VarLenFeature", dtype, default_value)
PYSTUB

# eval_spec FILE EXPECTED_REPR: runs the spec with the stand-ins, compares repr of its dicts.
eval_spec() {
  checks=$((checks + 1))
  local got
  got=$(PYTHONPATH="$W/stubs" $PY -c '
import sys
ns = {}
exec(open(sys.argv[1]).read(), ns)
print(repr({k: ns[k] for k in ("features", "context_features", "sequence_features") if k in ns}))
' "$1" 2>&1) || { fail "spec $1 did not evaluate: $got"; return; }
  [[ "$got" == "$2" ]] || fail "spec $1 evaluated to $got, expected $2"
}

expect_exit 0 "$TFQ" inspect -q --spec tf "$W/good.tfrecord"
expect_stderr_empty
cp "$W/out" "$W/spec_tf.py"
eval_spec "$W/spec_tf.py" "{'features': {'label': ('FixedLenFeature', [], 'tf.int64'), 'tags': ('RaggedFeature', 'tf.string'), 'xy': ('FixedLenFeature', [2], 'tf.float32')}}"

expect_exit 0 "$TFQ" inspect -q --spec tfq "$W/good.tfrecord"
cp "$W/out" "$W/spec_tfq.py"
eval_spec "$W/spec_tfq.py" "{'features': {'label': ('FixedLen', 'int64', ()), 'tags': ('VarLen', 'bytes'), 'xy': ('FixedLen', 'float32', (2,))}}"

expect_exit 0 "$TFQ" inspect -q --spec dali "$W/good.tfrecord"
cp "$W/out" "$W/spec_dali.py"
eval_spec "$W/spec_dali.py" "{'features': {'label': ('FixedLenFeature', [], 'tfrec.int64', 0), 'tags': ('VarLenFeature', 'tfrec.string', ''), 'xy': ('FixedLenFeature', [2], 'tfrec.float32', 0.0)}}"

# tfds: features.json as TFDS writes it (FeaturesDict of Tensor, shape dimensions as strings).
expect_exit 0 "$TFQ" inspect -q --spec tfds "$W/good.tfrecord"
checks=$((checks + 1))
$PY - "$W/out" <<'PYCHECK' || fail "--spec tfds structure"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["pythonClassName"] == "tensorflow_datasets.core.features.features_dict.FeaturesDict", j
f = j["featuresDict"]["features"]
assert sorted(f) == ["label", "tags", "xy"], f
for v in f.values():
    assert v["pythonClassName"] == "tensorflow_datasets.core.features.tensor_feature.Tensor"
    assert set(v["tensor"]) == {"shape", "dtype", "encoding"} and v["tensor"]["encoding"] == "none"
assert f["label"]["tensor"] == {"shape": {}, "dtype": "int64", "encoding": "none"}
assert f["xy"]["tensor"]["shape"] == {"dimensions": ["2"]} and f["xy"]["tensor"]["dtype"] == "float32"
assert f["tags"]["tensor"]["shape"] == {"dimensions": ["-1"]} and f["tags"]["tensor"]["dtype"] == "string"
PYCHECK

# tfdv: parsed by Google's protobuf against tensorflow_metadata's schema.proto.
if ! command -v protoc >/dev/null || ! $PY -c 'import google.protobuf' 2>/dev/null; then
  die "protoc and python3-protobuf are needed (scripts/install-deps.sh --test)"
fi
mkdir -p "$W/pb"
protoc -I "$FIXTURES" -I /usr/include --python_out="$W/pb" \
  "$FIXTURES"/tensorflow_metadata/proto/v0/{schema,path,derived_feature}.proto || die "protoc failed"
# check_tfdv SCHEMA [EXPECTED_SUMMARY]: parses it as a Schema; prints name:type:shape-or-count.
check_tfdv() {
  checks=$((checks + 1))
  local got
  got=$(PYTHONPATH="$W/pb" $PY - "$1" <<'PYCHECK' 2>&1
import sys
from google.protobuf import text_format
from tensorflow_metadata.proto.v0 import schema_pb2
s = text_format.Parse(open(sys.argv[1]).read(), schema_pb2.Schema())
out = []
for f in s.feature:
    kind = schema_pb2.FeatureType.Name(f.type)
    size = ("shape=" + "x".join(str(d.size) for d in f.shape.dim)) if f.HasField("shape") else \
           ("count=%d..%d" % (f.value_count.min, f.value_count.max))
    out.append("%s:%s:%s" % (f.name, kind, size))
print(" ".join(out))
PYCHECK
) || { fail "$1 is not a tensorflow_metadata Schema: $got"; return; }
  [[ -z "${2:-}" || "$got" == "$2" ]] || fail "$1 parsed as '$got', expected '$2'"
}
expect_exit 0 "$TFQ" inspect -q --spec tfdv "$W/good.tfrecord"
cp "$W/out" "$W/schema.pbtxt"
check_tfdv "$W/schema.pbtxt" "label:INT:shape=1 tags:BYTES:count=1..2 xy:FLOAT:shape=2"

# --validate: the records the schema came from match it.
expect_exit 0 "$TFQ" inspect -q --validate "$W/schema.pbtxt" "$W/good.tfrecord"
expect_stdout "OK: 3 records in 1 file match $W/schema.pbtxt"

# Seeded damage: record 1 loses label, record 2's label becomes float, record 3's xy grows, and
# record 4 is good. Each is reported once, with its record and byte offset.
cat > "$W/damaged.jsonl" <<'ROWS'
{"label": [1], "xy": [0.5, 0.25], "tags": ["a"]}
{"xy": [1.5, 0.75], "tags": ["a", "b"]}
{"label": [0.5], "xy": [1.0, 0.5], "tags": ["b"]}
{"label": [2], "xy": [1.0, 0.5, 0.75], "tags": ["b"]}
{"label": [0], "xy": [1.0, 0.5], "tags": ["a", "b", "c"]}
ROWS
"$TFQ" convert "$W/damaged.jsonl" -o "$W/damaged.tfrecord" 2>/dev/null || die "convert failed"
mapfile -t offsets < <("$TFQ" inspect -q --index "$W/damaged.tfrecord" | cut -d' ' -f1)
D=$W/damaged.tfrecord
expect_exit 3 "$TFQ" inspect -q --validate "$W/schema.pbtxt" "$D"
expect_stdout "$D: record 1 (byte ${offsets[1]}): SCHEMA_MISSING_COLUMN: feature 'label': absent; presence min_fraction is 1.0
$D: record 2 (byte ${offsets[2]}): UNEXPECTED_DATA_TYPE: feature 'label': expected INT, got float
$D: record 3 (byte ${offsets[3]}): INVALID_FEATURE_SHAPE: feature 'xy': 3 values; the shape asks for 2
$D: record 4 (byte ${offsets[4]}): FEATURE_TYPE_HIGH_NUMBER_VALUES: feature 'tags': 3 values; value_count max is 2"
expect_stderr_contains "FAILED: 4 anomalies in 5 records"

expect_exit 3 "$TFQ" inspect -q --validate "$W/schema.pbtxt" --json "$D"
checks=$((checks + 1))
$PY - "$W/out" "$D" "${offsets[1]}" <<'PYCHECK' || fail "--validate --json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["ok"] is False and j["records"] == 5 and j["anomalies"] == 4, j
assert j["anomaly_counts"] == {"SCHEMA_MISSING_COLUMN": 1, "UNEXPECTED_DATA_TYPE": 1,
                               "INVALID_FEATURE_SHAPE": 1, "FEATURE_TYPE_HIGH_NUMBER_VALUES": 1}, j
first = j["listed"][0]
assert first == {"anomaly": "SCHEMA_MISSING_COLUMN", "feature": "label",
                 "detail": "absent; presence min_fraction is 1.0", "file": sys.argv[2],
                 "record": 1, "byte": int(sys.argv[3])}, first
PYCHECK

# --max-errors bounds the lines; the rest are counted.
expect_exit 3 "$TFQ" inspect -q --validate "$W/schema.pbtxt" --max-errors 1 "$D"
expect_stdout "$D: record 1 (byte ${offsets[1]}): SCHEMA_MISSING_COLUMN: feature 'label': absent; presence min_fraction is 1.0
3 more anomalies not listed (4 in all; --max-errors sets how many are)"

# Usage errors: an unknown format, a schema that does not parse, both modes at once.
expect_exit 2 "$TFQ" inspect -q --spec protobuf "$W/good.tfrecord"
expect_stderr_contains "tfq: error: --spec: unknown spec format 'protobuf': use tf, tfq, tfdv, dali or tfds"
printf 'feature {\n  name: "a"\n  type: TEXT\n}\n' > "$W/bad.pbtxt"
expect_exit 2 "$TFQ" inspect -q --validate "$W/bad.pbtxt" "$W/good.tfrecord"
expect_stderr_contains "tfq: error: --validate: $W/bad.pbtxt: line 3: unknown type 'TEXT'"
expect_exit 2 "$TFQ" inspect -q --spec tf --validate "$W/schema.pbtxt" "$W/good.tfrecord"
expect_exit 1 "$TFQ" inspect -q --validate "$W/missing.pbtxt" "$W/good.tfrecord"
expect_stderr_contains "tfq: error: --validate: $W/missing.pbtxt"

# Two kinds in one feature: no spec, the feature named.
printf '{"x": [1]}\n{"x": [1.5]}\n' > "$W/mixed.jsonl"
"$TFQ" convert "$W/mixed.jsonl" -o "$W/mixed.tfrecord" 2>/dev/null || die "convert failed"
expect_exit 3 "$TFQ" inspect -q --spec tf "$W/mixed.tfrecord"
expect_stderr_contains "tfq: error: feature 'x' holds values of more than one kind (float and int64) in the 2 records looked at"

# A damaged record: no spec from part of the data.
cp "$W/good.tfrecord" "$W/crc.tfrecord"
flip_byte "$W/crc.tfrecord" 20
expect_exit 3 "$TFQ" inspect -q --spec tf "$W/crc.tfrecord"
expect_stderr_contains "no spec printed"

# The corpus: every Example file gives a tfdv spec that protobuf parses and that its own records
# match; the SequenceExample file gives tf and tfdv specs, and a clear refusal for dali.
if have_shared; then
  C=$SHARED/corpus
  for f in "$C"/tfx/csv_example_gen/Split-train/data_tfrecord-00000-of-00012.gz \
           "$C"/tfrecorder/train-00000-of-00001.tfrecord.gz "$C"/dareblopy/test-small-r00.tfrecords \
           "$C"/tft/sequence_example/data_tfrecord.gz; do
    [[ -f "$f" ]] || continue
    expect_exit 0 "$TFQ" inspect -q --spec tfdv "$f"
    cp "$W/out" "$W/corpus.pbtxt"
    check_tfdv "$W/corpus.pbtxt"
    expect_exit 0 "$TFQ" inspect -q --validate "$W/corpus.pbtxt" "$f"
    expect_stdout_contains "OK: "
    expect_exit 0 "$TFQ" inspect -q --spec tf "$f"
    cp "$W/out" "$W/corpus_tf.py"
    checks=$((checks + 1))
    PYTHONPATH="$W/stubs" $PY -c 'exec(open(__import__("sys").argv[1]).read())' "$W/corpus_tf.py" \
      || fail "--spec tf of $f does not evaluate"
  done
  # docs/specs.md shows this output.
  expect_exit 0 "$TFQ" inspect -q --spec tf "$C/tfrecorder/train-00000-of-00001.tfrecord.gz"
  expect_stdout '# Inferred by tfq inspect --spec from 2 records (docs/specs.md).
import tensorflow as tf

features = {
    "image": tf.io.FixedLenFeature([], tf.string),
    "image_channels": tf.io.FixedLenFeature([], tf.int64),
    "image_height": tf.io.FixedLenFeature([], tf.int64),
    "image_name": tf.io.FixedLenFeature([], tf.string),
    "image_width": tf.io.FixedLenFeature([], tf.int64),
    "label": tf.io.FixedLenFeature([], tf.int64),
    "split": tf.io.FixedLenFeature([], tf.string),
}'
  # The tfrecorder schema.pbtxt shipped with its data checks that data.
  expect_exit 0 "$TFQ" inspect -q --validate "$C/tfrecorder/schema.pbtxt" "$C/tfrecorder/train-00000-of-00001.tfrecord.gz"
  expect_stdout "OK: 2 records in 1 file match $C/tfrecorder/schema.pbtxt"
  expect_exit 3 "$TFQ" inspect -q --spec dali "$C/tft/sequence_example/data_tfrecord.gz"
  expect_stderr_contains "tf.train.SequenceExamples, which this format cannot describe"
else
  echo "note: $SHARED/corpus is absent: corpus checks skipped"
fi

echo "spec_test: $checks checks, $failures failures"
((failures == 0))
