"""Values against Google's protobuf decode (../shared/oracle): real corpus files and generated
Examples. Skipped where ../shared or python3-protobuf is absent."""

import base64
import gzip
import json
import math
import os
import random

import numpy as np
import pytest

import tfq
from conftest import write_examples

KIND_OF_LIST = {"int64List": "int64", "floatList": "float32", "bytesList": "bytes"}


def corpus_files(shared_dir):
    """(path, oracle jsonl.gz, summary) of every file the oracle reads as tf.train.Example."""
    out = []
    with open(os.path.join(shared_dir, "oracle", "corpus_modes.tsv")) as f:
        for line in f:
            name, mode = line.split()
            path = os.path.join(shared_dir, "corpus", name)
            if mode == "example" and os.path.exists(path + ".oracle.proto.jsonl.gz"):
                with open(path + ".oracle.summary.json") as s:
                    out.append((path, path + ".oracle.proto.jsonl.gz", json.load(s)))
    return out


def oracle_value(kind, value):
    """One value of the protobuf JSON mapping as tfq hands it out."""
    if kind == "int64":
        return int(value)
    if kind == "bytes":
        return base64.b64decode(value)
    if isinstance(value, str):  # "NaN", "Infinity", "-Infinity"
        return float(value.replace("Infinity", "inf"))
    return float(np.float32(value))


def same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def test_corpus_values_match_the_oracle(shared_dir):
    files = corpus_files(shared_dir)
    assert len(files) >= 10
    for path, oracle_path, summary in files:
        features = {name: tfq.VarLen({"int64": "int64", "float": "float32", "bytes": "bytes"}[f["kind"]])
                    for name, f in summary["features"].items() if f["kind"] in ("int64", "float", "bytes")}
        rows = {name: [] for name in features}
        for batch in tfq.Dataset(path, batch_size=17, cycle_length=1, features=features):
            for name in features:
                rows[name].extend(batch[name].to_list())
        with gzip.open(oracle_path, "rt") as f:
            expected = [json.loads(line)["features"].get("feature", {}) for line in f]
        assert tfq.count(path) == summary["records"] == len(expected), path
        for name, spec in features.items():
            assert len(rows[name]) == len(expected), (path, name)
            for i, record in enumerate(expected):
                lists = record.get(name, {})
                want = [oracle_value(spec.dtype, v) for kind, lst in lists.items()
                        if KIND_OF_LIST[kind] == spec.dtype for v in lst.get("value", [])]
                got = rows[name][i]
                assert len(got) == len(want) and all(map(same, got, want)), (path, name, i)


def test_corpus_inferred_features_follow_the_oracle_summary(shared_dir):
    for path, _, summary in corpus_files(shared_dir):
        if summary["records"] == 0:
            with pytest.raises(tfq.InvalidDataError, match="no records to infer the features from"):
                tfq.infer_features(path)
            continue
        inferred = tfq.infer_features(path, max_records=summary["records"])
        expected = {}
        for name, f in sorted(summary["features"].items()):
            if f["kind"] not in ("int64", "float", "bytes"):
                continue
            dtype = {"float": "float32"}.get(f["kind"], f["kind"])
            dense = f["present_in"] == summary["records"] and f["min_count"] == f["max_count"] >= 1
            expected[name] = (tfq.FixedLen(dtype, () if f["max_count"] == 1 else (f["max_count"],))
                              if dense else tfq.VarLen(dtype))
        assert inferred == expected, path


def random_feature(pb, rng):
    feature = pb.Feature()
    kind = rng.choice(["int64", "float", "bytes", "none"])
    n = rng.choice([0, 1, 2, 5, 40])
    if kind == "int64":
        feature.int64_list.value.extend(rng.choice([0, 1, -1, 2**63 - 1, -2**63, rng.getrandbits(40)])
                                        for _ in range(n))
    elif kind == "float":
        feature.float_list.value.extend(
            rng.choice([0.0, -0.0, 1.5, float("inf"), float("nan"), rng.uniform(-1e30, 1e30)]) for _ in range(n))
    elif kind == "bytes":
        feature.bytes_list.value.extend(bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 3, 300])))
                                        + rng.choice([b"", b"\x00", b"\x00\x00"]) for _ in range(n))
    return feature


def as_python(feature):
    """A protobuf Feature as (kind, values) in tfq's terms."""
    which = feature.WhichOneof("kind")
    if which == "int64_list":
        return "int64", list(feature.int64_list.value)
    if which == "float_list":
        return "float32", [float(np.float32(v)) for v in feature.float_list.value]
    if which == "bytes_list":
        return "bytes", list(feature.bytes_list.value)
    return "none", []


def tfq_as_python(array):
    kind = {np.dtype(np.int64): "int64", np.dtype(np.float32): "float32"}.get(array.dtype, "bytes")
    values = array.tolist()
    return kind, values


def test_parse_example_matches_protobuf_on_generated_examples(oracle):
    rng = random.Random(7)
    pb = oracle.example_pb2
    for _ in range(300):
        example = pb.Example()
        for k in range(rng.choice([0, 1, 3, 12])):
            example.features.feature[f"f{k}"].CopyFrom(random_feature(pb, rng))
        got = tfq.parse_example(example.SerializeToString())
        assert sorted(got) == sorted(example.features.feature)
        for key, feature in example.features.feature.items():
            kind, want = as_python(feature)
            got_kind, values = tfq_as_python(got[key])
            assert got_kind == kind or (kind == "none" and values == [])
            assert len(values) == len(want) and all(map(same, values, want))


def test_encoded_examples_parse_with_protobuf(oracle, tmp_path):
    rng = random.Random(8)
    pb = oracle.example_pb2
    rows = []
    for _ in range(200):
        row = {}
        for k in range(rng.choice([0, 1, 4])):
            kind, values = as_python(random_feature(pb, rng))
            if kind == "none":
                values = []
            elif kind == "float32":
                values = np.array(values, dtype=np.float32)
            row[f"k{k}"] = values
        rows.append(row)
    path = write_examples(tmp_path / "gen.tfrecord", rows)
    with open(path, "rb") as f:
        payloads = [bytes(p) for _, p, _ in oracle.iter_records(f.read())]
    assert len(payloads) == len(rows)
    for row, payload in zip(rows, payloads):
        example = pb.Example.FromString(payload)
        assert sorted(example.features.feature) == sorted(row)
        for key, values in row.items():
            kind, want = as_python(example.features.feature[key])
            is_array = isinstance(values, np.ndarray)
            values = values.tolist() if is_array else list(values)
            assert len(want) == len(values) and all(map(same, want, values)), key
            if is_array:
                assert kind == "float32"  # an array's dtype gives the kind, even when empty
            elif not values:
                assert kind == "none"  # an empty list is written as a Feature with no kind
