"""Shared fixtures: the package under test, ../shared (corpus and oracle), file makers."""

import importlib
import os
import sys

import numpy as np
import pytest

import tfq

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("TFQ_SHARED_DIR") or os.path.join(os.path.dirname(REPO), "shared")


@pytest.fixture(scope="session")
def shared_dir():
    """../shared (or $TFQ_SHARED_DIR); tests that need it skip where it is absent."""
    if not os.path.isdir(os.path.join(SHARED, "corpus")):
        pytest.skip(f"{SHARED}/corpus is absent")
    return SHARED


@pytest.fixture(scope="session")
def oracle(shared_dir):
    """../shared/oracle/tfrecord_oracle.py as a module: Google's protobuf decode of records."""
    oracle_dir = os.path.join(shared_dir, "oracle")
    try:
        import google.protobuf  # noqa: F401
    except ImportError:
        pytest.skip("python3-protobuf is not installed")
    if oracle_dir not in sys.path:
        sys.path.insert(0, oracle_dir)
    try:
        return importlib.import_module("tfrecord_oracle")
    except Exception as e:  # protoc missing, for one
        pytest.skip(f"the oracle does not load: {e}")


def write_examples(path, rows, compression=None):
    """Writes dict rows with tfq.Writer; returns the path as str."""
    path = str(path)
    with tfq.Writer(path, compression=compression) as w:
        for row in rows:
            w.write(row)
    return path


def collect(dataset):
    """Every batch of one pass joined per feature: dense ones concatenated, ragged ones as a list
    of rows (lists)."""
    dense, ragged = {}, {}
    for batch in dataset:
        for key, value in batch.items():
            if isinstance(value, tfq.Ragged):
                ragged.setdefault(key, []).extend(value.to_list())
            else:
                dense.setdefault(key, []).append(value)
    out = {k: np.concatenate(v) for k, v in dense.items()}
    out.update(ragged)
    return out


@pytest.fixture
def numbered(tmp_path):
    """A file of 100 records {"id": i, "x": [i, -i] as floats, "name": b"r<i>"}."""
    rows = [{"id": i, "x": [float(i), -float(i)], "name": b"r%d" % i} for i in range(100)]
    return write_examples(tmp_path / "numbered.tfrecord", rows)


NUMBERED_FEATURES = {"id": tfq.FixedLen("int64"), "x": tfq.FixedLen("float32", (2,)),
                     "name": tfq.FixedLen("bytes")}
