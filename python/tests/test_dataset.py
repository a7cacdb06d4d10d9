"""tfq.Dataset: batches, shapes, dtypes, options, shards, inference."""

import numpy as np
import pytest

import tfq
from conftest import NUMBERED_FEATURES, collect, write_examples


def test_batches_have_the_spec_shapes_and_dtypes(numbered):
    batches = list(tfq.Dataset(numbered, batch_size=32, features=NUMBERED_FEATURES))
    assert [len(b["id"]) for b in batches] == [32, 32, 32, 4]
    b = batches[0]
    assert list(b) == ["id", "x", "name"]  # the features' order
    assert b["id"].dtype == np.int64 and b["id"].shape == (32,)
    assert b["x"].dtype == np.float32 and b["x"].shape == (32, 2)
    assert b["name"].dtype == object and b["name"].shape == (32,)
    assert b["id"].tolist() == list(range(32))
    assert b["x"][5].tolist() == [5.0, -5.0]
    assert b["name"][7] == b"r7"


def test_numeric_columns_are_not_copied(numbered):
    b = next(iter(tfq.Dataset(numbered, batch_size=8, features=NUMBERED_FEATURES)))
    for key in ("id", "x"):
        arr = b[key]
        # The array views the pipeline's vector, owned by a capsule (no NumPy-owned copy).
        assert not arr.flags.owndata
        base = arr.base
        while isinstance(base, np.ndarray):
            base = base.base
        assert type(base).__name__ == "PyCapsule"
        assert arr.flags.c_contiguous and arr.flags.writeable


def test_arrays_kept_stay_intact_while_dropped_ones_are_reused(tmp_path):
    """The buffers of dropped arrays go back to the pipeline for later batches; those of arrays
    still held (the array, a view of it, a tensor made from it) must never be written again."""
    rows = [{"id": i, "tokens": list(range(i, i + i % 5))} for i in range(2000)]
    path = write_examples(tmp_path / "r.tfrecord", rows)
    features = {"id": tfq.FixedLen("int64"), "tokens": tfq.VarLen("int64")}
    kept = []
    for n, b in enumerate(tfq.Dataset(path, batch_size=10, features=features, epochs=3)):
        if n % 7 == 0:  # hold some (a view, of the id), drop the rest
            kept.append((n, b["id"][2:], b["tokens"]))
    for n, ids, tokens in kept:
        first = (n * 10) % 2000
        assert ids.tolist() == list(range(first + 2, first + 10))
        assert tokens.to_list() == [list(range(i, i + i % 5)) for i in range(first, first + 10)]


def test_multidimensional_fixed_len_and_default(tmp_path):
    rows = [{"m": list(range(6))}, {}, {"m": [9] * 6}]
    path = write_examples(tmp_path / "m.tfrecord", rows)
    ds = tfq.Dataset(path, batch_size=3, features={"m": tfq.FixedLen("int64", (2, 3), default=-1)})
    (b,) = list(ds)
    assert b["m"].shape == (3, 2, 3)
    assert b["m"][0].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert b["m"][1].tolist() == [[-1] * 3] * 2  # the default, repeated
    full_default = tfq.FixedLen("float32", (2,), default=[0.5, 1.5])
    path2 = write_examples(tmp_path / "d.tfrecord", [{"other": 1}])
    (b2,) = list(tfq.Dataset(path2, batch_size=1, features={"f": full_default}))
    assert b2["f"].tolist() == [[0.5, 1.5]]
    bytes_default = tfq.FixedLen("bytes", default="none")
    (b3,) = list(tfq.Dataset(path2, batch_size=1, features={"s": bytes_default}))
    assert b3["s"].tolist() == [b"none"]


def test_var_len_is_ragged_with_row_splits(tmp_path):
    rows = [{"t": [1, 2, 3]}, {"t": []}, {}, {"t": [4]}]
    path = write_examples(tmp_path / "r.tfrecord", rows)
    (b,) = list(tfq.Dataset(path, batch_size=4, features={"t": tfq.VarLen("int64")}))
    t = b["t"]
    assert isinstance(t, tfq.Ragged)
    assert t.values.dtype == np.int64 and t.values.tolist() == [1, 2, 3, 4]
    assert t.row_splits.dtype == np.int64 and t.row_splits.tolist() == [0, 3, 3, 3, 4]
    assert len(t) == 4 and t[0].tolist() == [1, 2, 3] and t[-1].tolist() == [4]
    assert t.to_list() == [[1, 2, 3], [], [], [4]]


def test_bytes_keep_trailing_zero_bytes(tmp_path):
    values = [b"a\x00", b"\x00\x00", b"", b"z\x00\x00\x00"]
    rows = [{"fixed": v, "ragged": [v, v + b"\x00"]} for v in values]
    path = write_examples(tmp_path / "z.tfrecord", rows)
    ds = tfq.Dataset(path, batch_size=4, features={"fixed": tfq.FixedLen("bytes"),
                                                   "ragged": tfq.VarLen("bytes")})
    (b,) = list(ds)
    assert b["fixed"].dtype == object and b["fixed"].tolist() == values
    assert b["ragged"].values.dtype == object
    assert b["ragged"].to_list() == [[v, v + b"\x00"] for v in values]
    assert all(type(v) is bytes for v in b["ragged"].values)


def test_drop_remainder_and_epochs(numbered):
    ds = tfq.Dataset(numbered, batch_size=32, drop_remainder=True, epochs=2,
                     features={"id": tfq.FixedLen("int64")})
    ids = np.concatenate([b["id"] for b in ds])
    assert len(ids) == 192  # 200 records, batches may span epochs, the short last one dropped
    assert ids[:100].tolist() == list(range(100)) and ids[100:192].tolist() == list(range(92))
    forever = iter(tfq.Dataset(numbered, batch_size=64, epochs=None, features={"id": tfq.FixedLen("int64")}))
    assert sum(len(next(forever)["id"]) for _ in range(10)) == 640
    forever.close()
    assert list(tfq.Dataset(numbered, batch_size=8, epochs=0, features={"id": tfq.FixedLen("int64")})) == []


def test_each_iteration_is_a_fresh_pass(numbered):
    ds = tfq.Dataset(numbered, batch_size=50, features={"id": tfq.FixedLen("int64")})
    first = [b["id"].tolist() for b in ds]
    assert first == [b["id"].tolist() for b in ds]


def test_shuffle_is_seeded_and_keeps_every_record(numbered):
    def ids(**kw):
        return collect(tfq.Dataset(numbered, batch_size=10, features={"id": tfq.FixedLen("int64")},
                                   **kw))["id"].tolist()
    a, b, c = ids(shuffle_buffer=50, seed=1), ids(shuffle_buffer=50, seed=1), ids(shuffle_buffer=50, seed=2)
    assert a == b and a != c
    assert a != list(range(100)) and sorted(a) == list(range(100)) == sorted(c)


def test_files_globs_and_file_shuffle(tmp_path):
    for f in range(4):
        write_examples(tmp_path / f"part-{f}.tfrecord", [{"id": f * 10 + i} for i in range(10)])
    pattern = str(tmp_path / "part-*.tfrecord")
    features = {"id": tfq.FixedLen("int64")}
    it = iter(tfq.Dataset(pattern, batch_size=40, cycle_length=1, features=features))
    assert it.files == [str(tmp_path / f"part-{f}.tfrecord") for f in range(4)]
    assert next(it)["id"].tolist() == list(range(40))
    interleaved = collect(tfq.Dataset(pattern, batch_size=40, cycle_length=4, features=features))["id"]
    assert interleaved[:8].tolist() == [0, 10, 20, 30, 1, 11, 21, 31]  # tf.data's interleave order
    shuffled = collect(tfq.Dataset(pattern, batch_size=40, cycle_length=1, shuffle_files=True, seed=3,
                                   features=features))["id"].tolist()
    assert shuffled != list(range(40)) and sorted(shuffled) == list(range(40))
    assert [shuffled[i] % 10 for i in range(10)] == list(range(10))  # whole files, in file order


@pytest.mark.parametrize("shard_kind", ["record_shard", "file_shard"])
def test_shards_are_disjoint_and_complete(tmp_path, shard_kind):
    for f in range(6):
        write_examples(tmp_path / f"p{f}.tfrecord", [{"id": f * 7 + i} for i in range(7)])
    seen = []
    for index in range(3):
        ds = tfq.Dataset(str(tmp_path / "p*.tfrecord"), batch_size=5, shuffle_buffer=8, seed=4,
                         features={"id": tfq.FixedLen("int64")}, **{shard_kind: (3, index)})
        seen.append(collect(ds)["id"].tolist())
    assert sorted(sum(seen, [])) == list(range(42))


def test_on_error_skip_counts_what_it_dropped(tmp_path):
    good = write_examples(tmp_path / "a.tfrecord", [{"id": i} for i in range(5)])
    bad = write_examples(tmp_path / "b.tfrecord", [{"id": [1, 2]}, {"id": 6}])
    it = iter(tfq.Dataset([good, bad, str(tmp_path / "missing.tfrecord")], batch_size=10,
                          on_error="skip", features={"id": tfq.FixedLen("int64")}))
    assert sorted(collect(it)["id"].tolist()) == [0, 1, 2, 3, 4, 6]
    stats = it.skip_stats
    assert stats["examples_failed"] == 1 and stats["files_failed"] == 1
    assert any("b.tfrecord: record 0 (byte 0): feature 'id': 2 int64 values, expected 1" in m
               for m in stats["messages"])


def test_iterator_close_and_options_that_tune(numbered):
    ds = tfq.Dataset(numbered, batch_size=10, num_threads=1, reader_threads=1, prefetch=1,
                     cycle_length=2, block_length=3, deterministic=True, file_buffer_records=4,
                     file_buffer_bytes=1024, reshuffle_each_epoch=False,
                     features={"id": tfq.FixedLen("int64")})
    it = iter(ds)
    assert next(it)["id"].tolist() == list(range(10))
    it.close()
    assert it.closed
    with pytest.raises(StopIteration):
        next(it)
    nondeterministic = tfq.Dataset(numbered, batch_size=10, deterministic=False,
                                   features={"id": tfq.FixedLen("int64")})
    assert sorted(collect(nondeterministic)["id"].tolist()) == list(range(100))


def test_features_none_infers_them(tmp_path):
    rows = [{"scalar": i, "pair": [0.5, float(i)], "text": "t", "varies": [1] * (i % 3 + 1),
             "sometimes": [i] if i % 2 else [], "rare": b"x" if i == 3 else [], "none": []}
            for i in range(10)]
    path = write_examples(tmp_path / "i.tfrecord", rows)
    features = tfq.infer_features(path)
    assert features == {
        "pair": tfq.FixedLen("float32", (2,)), "rare": tfq.VarLen("bytes"),
        "scalar": tfq.FixedLen("int64"), "sometimes": tfq.VarLen("int64"),
        "text": tfq.FixedLen("bytes"), "varies": tfq.VarLen("int64"),
    }  # "none" holds no list in any record: no dtype to give it
    ds = tfq.Dataset(path, batch_size=10)
    assert ds.features == features
    (b,) = list(ds)
    assert b["scalar"].tolist() == list(range(10)) and b["pair"].shape == (10, 2)
    # Only the first records are looked at: a feature whose count changes later is dense.
    assert tfq.infer_features(path, max_records=1)["varies"] == tfq.FixedLen("int64")
    assert "rare" not in tfq.infer_features(path, max_records=1)  # no list in record 0


def test_inference_refuses_mixed_kinds_and_empty_inputs(tmp_path):
    mixed = write_examples(tmp_path / "m.tfrecord", [{"a": 1}, {"a": 1.5}])
    with pytest.raises(tfq.InvalidDataError, match=r"feature 'a' holds values of more than one kind "
                                                   r"\(float and int64\) in the 2 records looked at: "
                                                   r"give features= explicitly"):
        tfq.Dataset(mixed, batch_size=1)
    empty = write_examples(tmp_path / "e.tfrecord", [])
    with pytest.raises(tfq.InvalidDataError, match=r"no records to infer the features from \(1 file\)"):
        tfq.Dataset(empty, batch_size=1)
