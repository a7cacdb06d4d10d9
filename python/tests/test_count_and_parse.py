"""tfq.count (the path of `tfq inspect --count`) and tfq.parse_example."""

import os
import subprocess

import numpy as np
import pytest

import tfq
from conftest import REPO, write_examples


def test_count_files_globs_and_compression(tmp_path):
    write_examples(tmp_path / "a.tfrecord", [{"i": i} for i in range(3)])
    write_examples(tmp_path / "b.tfrecord.gz", [{"i": i} for i in range(4)])
    write_examples(tmp_path / "c.tfrecord.zz", [{"i": i} for i in range(5)])
    write_examples(tmp_path / "empty.tfrecord", [])
    assert tfq.count(str(tmp_path / "a.tfrecord")) == 3
    assert tfq.count(tmp_path / "b.tfrecord.gz") == 4  # os.PathLike too
    assert tfq.count(str(tmp_path / "*")) == 12
    assert tfq.count([str(tmp_path / "a.tfrecord"), str(tmp_path / "c.tfrecord.zz")]) == 8
    assert tfq.count(str(tmp_path / "empty.tfrecord")) == 0
    assert tfq.count(str(tmp_path / "a.tfrecord"), compression="none") == 3
    with pytest.raises(tfq.CorruptionError, match="not gzip data"):
        tfq.count(str(tmp_path / "a.tfrecord"), compression="gzip")
    with pytest.raises(ValueError, match="no input files given"):
        tfq.count([])


def test_count_agrees_with_the_cli(tmp_path):
    tfq_binary = os.path.join(REPO, os.environ.get("TFQ_CMAKE_BUILD_DIR", "build"), "tfq")
    if not os.access(tfq_binary, os.X_OK):
        pytest.skip(f"{tfq_binary} is not built")
    path = write_examples(tmp_path / "x.tfrecord.gz", [{"i": i} for i in range(37)])
    out = subprocess.run([tfq_binary, "inspect", "--count", path], capture_output=True, text=True, check=True)
    assert int(out.stdout) == tfq.count(path) == 37


def test_parse_example_kinds():
    record = tfq.encode_example({"i": [1, 2], "f": 1.5, "b": [b"x\x00", b""], "n": []})
    got = tfq.parse_example(record)
    assert list(got) == ["i", "f", "b", "n"]  # the record's order
    assert got["i"].dtype == np.int64 and got["i"].tolist() == [1, 2]
    assert got["f"].dtype == np.float32 and got["f"].tolist() == [1.5]
    assert got["b"].dtype == object and got["b"].tolist() == [b"x\x00", b""]
    assert got["n"].dtype == object and got["n"].size == 0
    assert tfq.parse_example(bytearray(record)).keys() == got.keys()  # any bytes-like object
    assert tfq.parse_example(memoryview(record)).keys() == got.keys()
    assert tfq.parse_example(b"") == {}


def test_parse_example_last_duplicate_key_wins():
    one = tfq.encode_example({"k": 1})
    two = tfq.encode_example({"k": 2})
    # Two serialized Examples back to back are one Example whose map holds "k" twice.
    assert tfq.parse_example(one + two)["k"].tolist() == [2]
