"""Exact resume (state_dict/load_state_dict in a new process), ranks, RecordFile's random access,
bucketing and the global shuffle: the C++ pipeline's features as the Python package offers them."""

import json
import os
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tfq
from conftest import REPO, collect, write_examples

ID = {"id": tfq.FixedLen("int64")}


@pytest.fixture
def parts(tmp_path):
    """6 files of 10 records, ids 0..59, as a glob."""
    for f in range(6):
        write_examples(tmp_path / f"part-{f}.tfrecord", [{"id": f * 10 + i, "tokens": list(range(i))}
                                                          for i in range(10)])
    return str(tmp_path / "part-*.tfrecord")


RESUME = textwrap.dedent("""
    import json, sys
    import tfq
    kwargs, state = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    ds = tfq.Dataset(kwargs.pop("paths"), features={"id": tfq.FixedLen("int64")}, **kwargs)
    ds.load_state_dict(state)
    print(json.dumps([b["id"].tolist() for b in ds]))
""")

def test_resume_in_a_new_process_continues_with_exactly_the_next_batches(parts):
    kwargs = dict(batch_size=7, shuffle_buffer=20, shuffle_files=True, seed=3, epochs=2)
    full = [b["id"].tolist() for b in tfq.Dataset(parts, features=ID, **kwargs)]
    for stop_at in random.Random(1).sample(range(len(full)), 4) + [0]:
        ds = tfq.Dataset(parts, features=ID, **kwargs)
        it = iter(ds)
        for _ in range(stop_at):
            next(it)
        state = ds.state_dict()
        it.close()
        run = subprocess.run([sys.executable, "-c", RESUME, json.dumps({"paths": parts, **kwargs}),
                              json.dumps(state)], capture_output=True, text=True, check=True,
                             cwd=os.path.join(REPO, "python", "tests"))
        assert json.loads(run.stdout) == full[stop_at:]


@pytest.mark.parametrize("world_size", [2, 3])
def test_ranks_are_disjoint_and_complete_with_equal_batch_counts(parts, world_size):
    per_rank = [[b["id"].tolist() for b in tfq.Dataset(parts, batch_size=5, features=ID, shuffle_buffer=10,
                                                       seed=2, rank=r, world_size=world_size)]
                for r in range(world_size)]
    assert len({len(batches) for batches in per_rank}) == 1  # every rank takes the same steps
    ids = [i for batches in per_rank for batch in batches for i in batch]
    assert len(ids) == len(set(ids)) and sorted(ids) == list(range(60))


@pytest.mark.parametrize("name", ["r.tfrecord", "r.tfrecord.gz"])
def test_record_file_random_access(tmp_path, name):
    path = write_examples(tmp_path / name, [{"id": i} for i in range(50)])
    f = tfq.RecordFile(path)
    assert len(f) == 50
    assert tfq.parse_example(f[17])["id"].tolist() == [17]
    assert tfq.parse_example(f[-1])["id"].tolist() == [49]
    assert [tfq.parse_example(r)["id"][0] for r in f[3:6]] == [3, 4, 5]
    with pytest.raises(IndexError):
        f[50]


@pytest.mark.parametrize("pad", [False, True])
def test_bucketing_batches_rows_of_similar_length(parts, pad):
    ds = tfq.Dataset(parts, batch_size=4, features={"tokens": tfq.VarLen("int64"), **ID},
                     bucket_by="tokens", bucket_boundaries=[3, 6], bucket_batch_sizes=[4, 4, 4],
                     pad=pad, padding_values={"int64": -1})
    seen = []
    for b in ds:
        if pad:  # dense [rows, longest], padded with -1, lengths beside
            lengths = b["tokens__lengths"]
            assert b["tokens"].shape == (len(b["id"]), lengths.max())
            for row, n in zip(b["tokens"], lengths):
                assert row[:n].tolist() == list(range(n)) and (row[n:] == -1).all()
        else:
            lengths = np.diff(b["tokens"].row_splits)
        assert len({int(np.searchsorted([3, 6], n, side="right")) for n in lengths}) == 1
        seen += b["id"].tolist()
    assert sorted(seen) == list(range(60))


def test_global_order_is_a_seeded_permutation(parts):
    def ids(seed):
        return collect(tfq.Dataset(parts, batch_size=8, features=ID, global_shuffle=True, seed=seed))["id"].tolist()
    a = ids(1)
    assert a == ids(1) and a != ids(2) and sorted(a) == list(range(60))
