"""tfq.Writer and encode_example: each Python value to its Feature kind, atomic files, errors."""

import gzip
import os

import numpy as np
import pytest

import tfq
from conftest import write_examples


def test_round_trip_each_value_kind(tmp_path):
    row = {
        "int": 7, "bool": True, "float": 0.5, "bytes": b"ab\x00\x00", "str": "h\u00e9",
        "ints": [1, -2, 2**63 - 1], "floats": [1, 2.5], "strs": ["a", b"b"], "empty": [],
        "tuple": (3, 4), "np_int": np.int32(5), "np_float": np.float64(0.25),
        "np_2d": np.arange(6, dtype=np.int16).reshape(2, 3), "np_f64": np.array([0.1, 0.2]),
        "np_bytes": np.array([b"x", b"yz"]), "np_str": np.array(["u", "vw"]),
        "np_obj": np.array([b"\x00", b"p\x00"], dtype=object), "np_bool": np.array([True, False]),
        "np_scalars": [np.int64(1), np.int64(2)],
    }
    path = write_examples(tmp_path / "kinds.tfrecord", [row])
    got = tfq.parse_example(tfq.encode_example(row))
    assert tfq.count(path) == 1
    assert got["int"].dtype == np.int64 and got["int"].tolist() == [7]
    assert got["bool"].tolist() == [1]
    assert got["float"].dtype == np.float32 and got["float"].tolist() == [0.5]
    assert got["bytes"].dtype == object and got["bytes"].tolist() == [b"ab\x00\x00"]
    assert got["str"].tolist() == ["h\u00e9".encode()]
    assert got["ints"].tolist() == [1, -2, 2**63 - 1]
    assert got["floats"].dtype == np.float32 and got["floats"].tolist() == [1.0, 2.5]
    assert got["strs"].tolist() == [b"a", b"b"]
    assert got["empty"].size == 0  # a Feature with no kind: an empty list of any dtype
    assert got["tuple"].tolist() == [3, 4]
    assert got["np_int"].tolist() == [5] and got["np_float"].tolist() == [0.25]
    assert got["np_2d"].tolist() == [0, 1, 2, 3, 4, 5]  # flattened in C order
    assert got["np_f64"].dtype == np.float32
    np.testing.assert_array_equal(got["np_f64"], np.array([0.1, 0.2], dtype=np.float32))
    assert got["np_bytes"].tolist() == [b"x", b"yz"]
    assert got["np_str"].tolist() == [b"u", b"vw"]
    assert got["np_obj"].tolist() == [b"\x00", b"p\x00"]
    assert got["np_bool"].tolist() == [1, 0]
    assert got["np_scalars"].tolist() == [1, 2]


def test_file_appears_only_on_clean_close(tmp_path):
    path = tmp_path / "out.tfrecord"
    w = tfq.Writer(path)
    w.write({"a": 1})
    assert not path.exists()  # a hidden temporary until close
    w.close()
    assert path.exists() and tfq.count(str(path)) == 1
    assert w.closed and w.records_written == 1
    w.close()  # idempotent


def test_exception_in_with_block_leaves_no_file(tmp_path):
    path = tmp_path / "out.tfrecord"
    with pytest.raises(RuntimeError):
        with tfq.Writer(path) as w:
            w.write({"a": 1})
            raise RuntimeError("boom")
    assert os.listdir(tmp_path) == []  # neither the file nor its temporary


def test_writer_dropped_without_close_leaves_no_file(tmp_path):
    w = tfq.Writer(tmp_path / "out.tfrecord")
    w.write({"a": 1})
    del w
    assert os.listdir(tmp_path) == []


def test_gzip_from_extension_and_explicit(tmp_path):
    by_ext = write_examples(tmp_path / "a.tfrecord.gz", [{"a": 1}] * 3)
    with open(by_ext, "rb") as f:
        assert f.read(2) == b"\x1f\x8b"
    gzip.decompress(open(by_ext, "rb").read())  # a valid gzip stream
    explicit = write_examples(tmp_path / "b.tfrecord", [{"a": 1}] * 3, compression="gzip")
    assert open(explicit, "rb").read(2) == b"\x1f\x8b"
    assert tfq.count([by_ext, explicit]) == 6
    plain = write_examples(tmp_path / "c.gz", [{"a": 1}], compression="none")
    assert open(plain, "rb").read(2) != b"\x1f\x8b"


def test_compressing_threads_write_the_same_bytes(tmp_path):
    # About 2 MB of text-like records: several 256 KiB blocks, compressed on 1 and 3 threads.
    rows = [{"id": i, "text": ("row %d of the table, " % i) * (20 + i % 30)} for i in range(4000)]
    outs = []
    for threads in (1, 3):
        path = tmp_path / f"t{threads}.tfrecord.gz"
        with tfq.Writer(path, threads=threads) as w:
            for row in rows:
                w.write(row)
        outs.append(open(path, "rb").read())
    assert outs[0] == outs[1]
    assert len(gzip.decompress(outs[0])) > 1 << 20
    assert tfq.count(str(tmp_path / "t3.tfrecord.gz")) == 4000
    with pytest.raises(ValueError, match="threads must be at least 1"):
        tfq.Writer(tmp_path / "bad.tfrecord.gz", threads=0)


def test_write_record_writes_bytes_as_they_are(tmp_path):
    path = tmp_path / "raw.tfrecord"
    with tfq.Writer(path) as w:
        w.write_record(tfq.encode_example({"a": 3}))
    ds = tfq.Dataset(str(path), batch_size=1, features={"a": tfq.FixedLen("int64")})
    assert [b["a"].tolist() for b in ds] == [[3]]


@pytest.mark.parametrize("value, error, message", [
    (None, TypeError, "feature 'k': None is not a Feature value"),
    ({"x": 1}, TypeError, "feature 'k': a value of type dict is not a Feature value"),
    ([1, "a"], TypeError, "feature 'k': a list must hold ints, floats, or bytes/str"),
    ([1, None], TypeError, "feature 'k': a list must hold ints"),
    (2**63, ValueError, "feature 'k': 9223372036854775808 is outside the int64 range"),
    ([0, -2**64], ValueError, "is outside the int64 range"),
    (np.array([2**64 - 1], dtype=np.uint64), ValueError, "a uint64 value is outside the int64 range"),
    (np.array([1j]), TypeError, "a NumPy array of dtype complex128 has no Feature kind"),
])
def test_bad_values_name_file_record_and_feature(tmp_path, value, error, message):
    path = tmp_path / "bad.tfrecord"
    with tfq.Writer(path) as w:
        w.write({"k": 1})
        with pytest.raises(error) as e:
            w.write({"k": value})
    assert message in str(e.value)
    assert str(e.value).startswith(f"{path}: record 1: ")
    assert tfq.count(str(path)) == 1  # the bad record was not written


def test_bad_arguments(tmp_path):
    with tfq.Writer(tmp_path / "x.tfrecord") as w:
        with pytest.raises(TypeError, match="write takes a dict"):
            w.write([1, 2])
        with pytest.raises(TypeError, match="feature names are str, not int"):
            w.write({1: 2})
    with pytest.raises(ValueError, match="the writer is closed"):
        w.write({"a": 1})
    with pytest.raises(tfq.InvalidArgumentError):
        tfq.Writer(tmp_path / "y.tfrecord", compression="bzip2")


def test_unwritable_path_is_an_os_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(OSError) as e:
        tfq.Writer(blocker / "sub" / "x.tfrecord")
    assert str(blocker) in str(e.value)
    assert isinstance(e.value, tfq.Error)
