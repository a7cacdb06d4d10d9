"""`tfq inspect --spec tfq` against the package: the printed spec, run as Python, reads every corpus
file it was inferred from through tfq.Dataset without an error, and is the spec features=None infers
(one implementation: src/inspect/spec_inference.h)."""

import glob
import os
import subprocess

import pytest

import tfq
from conftest import REPO


def tfq_binary():
    path = os.path.join(REPO, os.environ.get("TFQ_CMAKE_BUILD_DIR", "build"), "tfq")
    if not os.access(path, os.X_OK):
        pytest.skip(f"{path} is not built")
    return path


def corpus_files(shared_dir):
    files = []
    for pattern in ("**/*.tfrecord", "**/*.tfrecord.gz", "**/*.tfrecords", "**/data_tfrecord-*.gz"):
        files += glob.glob(os.path.join(shared_dir, "corpus", pattern), recursive=True)
    return sorted(set(files))


def test_every_printed_spec_reads_its_corpus_file(shared_dir):
    binary = tfq_binary()
    read = 0
    for path in corpus_files(shared_dir):
        run = subprocess.run([binary, "inspect", "--spec", "tfq", path], capture_output=True, text=True)
        if run.returncode != 0:  # SequenceExamples and files of other records: refused, exit 3
            assert run.returncode == 3, f"{path}: {run.stderr}"
            continue
        namespace = {}
        exec(run.stdout, namespace)
        features = namespace["features"]
        looked_at = int(run.stdout.split(" from ", 1)[1].split(" records", 1)[0])  # the header line
        assert features == tfq.infer_features(path, max_records=looked_at), path
        rows = sum(len(next(iter(b.values()))) if b else 0
                   for b in tfq.Dataset(path, batch_size=64, features=features))
        assert rows == tfq.count(path), path
        read += 1
    assert read >= 5
