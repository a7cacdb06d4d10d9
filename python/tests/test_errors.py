"""Errors: the C++ Status message (file, record, byte offset) in an exception of the right class."""

import numpy as np
import pytest

import tfq
from tfq import _errors, _tfq
from conftest import write_examples

ID = {"id": tfq.FixedLen("int64")}


@pytest.fixture
def five(tmp_path):
    """A file of 5 records {"id": i}, 31 bytes each framed; returns (path, bytes)."""
    path = write_examples(tmp_path / "five.tfrecord", [{"id": i} for i in range(5)])
    data = open(path, "rb").read()
    assert len(data) == 5 * 31
    return path, data


def damaged(tmp_path, data, name, edit):
    data = bytearray(data)
    edit(data)
    path = tmp_path / name
    path.write_bytes(bytes(data))
    return str(path)


def test_every_status_code_has_an_exception_class():
    for code in _tfq.status_code_names():
        if code == "ok":
            continue
        cls = type(_errors.from_status(code, "m"))
        assert cls.code == code and issubclass(cls, tfq.Error)


def test_data_crc_mismatch_names_file_record_and_byte(tmp_path, five):
    path = damaged(tmp_path, five[1], "crc.tfrecord", lambda d: d.__setitem__(2 * 31 + 14, d[2 * 31 + 14] ^ 1))
    it = iter(tfq.Dataset(path, batch_size=2, features=ID))
    assert next(it)["id"].tolist() == [0, 1]  # what came before the error is delivered
    with pytest.raises(tfq.CorruptionError) as e:
        next(it)
    assert str(e.value).startswith(f"{path}: record 2 (byte 62): data CRC mismatch (stored 0x")
    assert isinstance(e.value, ValueError)


def test_truncated_file(tmp_path, five):
    path = damaged(tmp_path, five[1], "cut.tfrecord", lambda d: d.__delitem__(slice(-3, None)))
    with pytest.raises(tfq.CorruptionError, match=r"cut.tfrecord: record 4 \(byte 124\): truncated payload"):
        list(tfq.Dataset(path, batch_size=2, features=ID))
    with pytest.raises(tfq.CorruptionError, match=r"record 4 \(byte 124\): truncated payload"):
        tfq.count(path)


def test_bad_length_crc(tmp_path, five):
    path = damaged(tmp_path, five[1], "len.tfrecord", lambda d: d.__setitem__(31 + 1, d[31 + 1] ^ 1))
    with pytest.raises(tfq.CorruptionError, match=r"record 1 \(byte 31\): length CRC mismatch"):
        list(tfq.Dataset(path, batch_size=2, features=ID))
    with pytest.raises(tfq.CorruptionError, match=r"record 1 \(byte 31\): length CRC mismatch"):
        tfq.Dataset(path, batch_size=2)  # while inferring the features


def test_missing_files_and_globs(tmp_path):
    missing = str(tmp_path / "nope.tfrecord")
    for call in (lambda: list(tfq.Dataset(missing, batch_size=1, features=ID)),
                 lambda: tfq.Dataset(missing, batch_size=1), lambda: tfq.count(missing)):
        with pytest.raises(FileNotFoundError, match=f"{missing}: No such file or directory"):
            call()
    with pytest.raises(tfq.NotFoundError, match=r"no files match '.*/nope\*.tfrecord'"):
        tfq.count(str(tmp_path / "nope*.tfrecord"))


def test_example_not_matching_the_spec(tmp_path):
    path = write_examples(tmp_path / "m.tfrecord", [{"id": 1}, {"id": [1, 2]}])
    with pytest.raises(tfq.InvalidDataError, match=r"m.tfrecord: record 1 \(byte 31\): feature 'id': "
                                                   r"2 int64 values, expected 1"):
        list(tfq.Dataset(path, batch_size=1, features=ID))
    with pytest.raises(tfq.InvalidDataError, match=r"record 0 \(byte 0\): feature 'id': int64 values, "
                                                   r"expected float"):
        list(tfq.Dataset(path, batch_size=1, features={"id": tfq.FixedLen("float32")}))
    missing = write_examples(tmp_path / "missing.tfrecord", [{"id": 1}, {"other": 3}])
    with pytest.raises(tfq.InvalidDataError, match=r"missing.tfrecord: record 1 \(byte 31\): feature "
                                                   r"'id': missing, and it has no default"):
        list(tfq.Dataset(missing, batch_size=1, features=ID))


def test_not_an_example(tmp_path):
    with tfq.Writer(tmp_path / "junk.tfrecord") as w:
        w.write_record(b"\x0a\x05\x01")
    with pytest.raises(tfq.CorruptionError, match=r"junk.tfrecord: record 0 \(byte 0\): .*past the end"):
        list(tfq.Dataset(str(tmp_path / "junk.tfrecord"), batch_size=1, features=ID))
    with pytest.raises(tfq.CorruptionError, match="not a tf.train.Example: length 5 past the end of the "
                                                  "message at byte 1"):
        tfq.parse_example(b"\x0a\x05\x01")


def test_forced_compression_that_does_not_match(five):
    with pytest.raises(tfq.CorruptionError, match="not gzip data .*: its first bytes look like "
                                                  "uncompressed binary data"):
        list(tfq.Dataset(five[0], batch_size=1, compression="gzip", features=ID))


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(batch_size=0), tfq.InvalidArgumentError, "pipeline: batch_size must be at least 1"),
    (dict(batch_size=1, cycle_length=0), tfq.InvalidArgumentError, "pipeline: cycle_length must be at least 1"),
    (dict(batch_size=1, epochs=-2), tfq.InvalidArgumentError, "pipeline: epochs must be -1 (forever)"),
    (dict(batch_size=1, record_shard=(2, 2)), tfq.InvalidArgumentError,
     "pipeline: record shard index 2 must be less than the count 2"),
    (dict(batch_size=1, record_shard=(2, 0), deterministic=False), tfq.InvalidArgumentError,
     "pipeline: record sharding needs deterministic order"),
    (dict(batch_size=1, compression="bzip2"), tfq.InvalidArgumentError, "bzip2"),
    (dict(batch_size=1, max_decompressed="lots"), tfq.InvalidArgumentError, "lots"),
    (dict(batch_size=1, on_error="ignore"), ValueError, "on_error 'ignore': use \"stop\" or \"skip\""),
    (dict(batch_size=-1), ValueError, "batch_size must not be negative"),
    (dict(batch_size=2.5), TypeError, "batch_size must be an int, not float"),
    (dict(batch_size=1, record_shard=3), TypeError, "record_shard must be a pair"),
    (dict(batch_size=1, features=[("id", "int64")]), TypeError, "features must be a dict"),
    (dict(batch_size=1, features={"id": "int64"}), TypeError, "feature 'id': 'int64' is not a tfq.FixedLen"),
    (dict(batch_size=1, features={"id": tfq.FixedLen("int64", (2,), default=[1, 2, 3])}),
     tfq.InvalidArgumentError, "pipeline: feature 'id': the default has 3 values; give 1 or 2"),
    (dict(batch_size=1, features={"": tfq.VarLen("int64")}), tfq.InvalidArgumentError,
     "pipeline: a feature spec has an empty key"),
    (dict(batch_size=1, rank_balance="pad", features={"__padding__": tfq.FixedLen("int64")}), ValueError,
     "feature '__padding__': the name is reserved for the padding mask of rank_balance=\"pad\""),
    (dict(batch_size=1, bucket_by="t", bucket_boundaries=[2], bucket_batch_sizes=[1, 1],
          features={"t": tfq.VarLen("int64"), "t__lengths": tfq.FixedLen("int64")}), ValueError,
     "feature 't__lengths': the name is reserved for the row lengths of the padded column 't'"),
])
def test_bad_options_raise_at_construction_with_the_core_message(five, kwargs, error, message):
    with pytest.raises(error) as e:
        tfq.Dataset(five[0], **{"features": ID, **kwargs})
    assert message in str(e.value)


@pytest.mark.parametrize("make, message", [
    (lambda: tfq.FixedLen("int32"), "dtype 'int32': use \"int64\", \"float32\" or \"bytes\""),
    (lambda: tfq.VarLen(np.float64), "dtype <class 'numpy.float64'>"),
    (lambda: tfq.FixedLen("int64", (0,)), "every dimension must be an int >= 1"),
])
def test_bad_specs(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert message in str(e.value)


def test_spec_dtype_aliases():
    assert tfq.FixedLen(np.int64).dtype == "int64"
    assert tfq.VarLen(np.dtype("float32")).dtype == "float32"
    assert tfq.VarLen(bytes).dtype == "bytes"
    assert tfq.FixedLen("int64", 3).shape == (3,)
