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


FEATURES = {"id": tfq.FixedLen("int64"), "tokens": tfq.VarLen("int64")}

# Prints, for each saved state, the batches a new Dataset loaded with it gives (up to a count).
RESUME = textwrap.dedent("""
    import json, sys
    import tfq
    from test_resume_ranks_random_access import FEATURES, batch_values
    kwargs, runs = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    paths = kwargs.pop("paths")
    out = []
    for state, count in runs:
        ds = tfq.Dataset(paths, features=FEATURES, **kwargs)
        ds.load_state_dict(state)
        it = iter(ds)
        out.append([batch_values(b) for b, _ in zip(it, range(count))])
        it.close()
    print(json.dumps(out))
""")


def batch_values(batch):
    """A batch as JSON-able lists: every key (padded columns, lengths, the padding mask too)."""
    return {k: v.to_list() if isinstance(v, tfq.Ragged) else v.tolist() for k, v in sorted(batch.items())}


def first_batches(ds, count):
    it = iter(ds)
    batches = [batch_values(b) for b, _ in zip(it, range(count))]
    it.close()
    return batches


BUCKETS = dict(bucket_by="tokens", bucket_boundaries=[3, 6], bucket_batch_sizes=[4, 3, 2])


@pytest.mark.parametrize("kwargs", [
    dict(batch_size=7, shuffle_buffer=20, shuffle_files=True, seed=3, epochs=2),
    dict(batch_size=3, shuffle_buffer=8, seed=1, epochs=2, rank=1, world_size=4, rank_balance="pad"),
    dict(batch_size=3, shuffle_buffer=8, seed=1, epochs=2, rank=0, world_size=2, rank_split="record"),
    dict(batch_size=4, global_shuffle=True, seed=5, epochs=3),
    dict(batch_size=4, global_shuffle=True, seed=5, epochs=2, rank=2, world_size=3, rank_balance="pad"),
    dict(batch_size=2, shuffle_buffer=5, seed=2, epochs=2, **BUCKETS),
    dict(batch_size=2, shuffle_buffer=5, seed=2, epochs=2, pad=False, **BUCKETS),
    dict(batch_size=5, shuffle_buffer=9, shuffle_files=True, seed=4, epochs=None),  # forever
], ids=["shuffle-epochs", "ranks-pad", "ranks-by-record", "global", "global-ranks-pad", "buckets",
        "buckets-ragged", "forever"])
def test_resume_in_a_new_process_continues_with_exactly_the_next_batches(parts, kwargs):
    horizon = 60  # batches compared (a pass forever has no end)
    full = first_batches(tfq.Dataset(parts, features=FEATURES, **kwargs), horizon)
    stops = [0] + random.Random(str(kwargs)).sample(range(1, len(full)), 4)
    runs = []
    for stop_at in stops:
        ds = tfq.Dataset(parts, features=FEATURES, **kwargs)
        it = iter(ds)
        for _ in range(stop_at):
            next(it)
        runs.append((ds.state_dict(), len(full) - stop_at))
        it.close()
    run = subprocess.run([sys.executable, "-c", RESUME, json.dumps({"paths": parts, **kwargs}),
                          json.dumps(runs)], capture_output=True, text=True,
                         cwd=os.path.join(REPO, "python", "tests"))
    assert run.returncode == 0, run.stderr
    for stop_at, resumed in zip(stops, json.loads(run.stdout)):
        assert resumed == full[stop_at:], f"resumed after {stop_at} batches"


def test_each_iter_is_a_fresh_pass_or_once_the_loaded_state(parts):
    kwargs = dict(batch_size=4, shuffle_buffer=10, seed=1, epochs=2, features=FEATURES)
    full = first_batches(tfq.Dataset(parts, **kwargs), 1000)
    ds = tfq.Dataset(parts, **kwargs)
    it = iter(ds)
    for _ in range(5):
        next(it)
    state = json.loads(json.dumps(ds.state_dict()))
    assert first_batches(ds, 1000) == full  # a second iter() starts over
    resumed = tfq.Dataset(parts, **kwargs)
    resumed.load_state_dict(state)
    assert resumed.state_dict() == state  # loaded, not yet iterated
    assert first_batches(resumed, 1000) == full[5:]  # the loaded state, once
    assert first_batches(resumed, 1000) == full  # then fresh passes


def test_a_state_saved_after_a_pass_ended_resumes_with_a_fresh_pass(parts):
    """As in the uninterrupted run, where the next iter() after a pass is a fresh pass (torchdata's
    StatefulDataLoader does the same): an epoch-end checkpoint must not resume into an empty pass."""
    kwargs = dict(batch_size=4, shuffle_buffer=10, seed=1, features=FEATURES)
    ds = tfq.Dataset(parts, **kwargs)
    full = [batch_values(b) for b in ds]
    state = json.loads(json.dumps(ds.state_dict()))
    resumed = tfq.Dataset(parts, **kwargs)
    resumed.load_state_dict(state)
    assert [batch_values(b) for b in resumed] == full


@pytest.mark.parametrize("world_size", [2, 3])
def test_ranks_are_disjoint_and_complete_with_equal_batch_counts(parts, world_size):
    per_rank = [[b["id"].tolist() for b in tfq.Dataset(parts, batch_size=5, features=ID, shuffle_buffer=10,
                                                       seed=2, rank=r, world_size=world_size)]
                for r in range(world_size)]
    assert len({len(batches) for batches in per_rank}) == 1  # every rank takes the same steps
    ids = [i for batches in per_rank for batch in batches for i in batch]
    assert len(ids) == len(set(ids)) and sorted(ids) == list(range(60))


@pytest.mark.parametrize("name", ["r.tfrecord", "r.tfrecord.gz", "r.tfrecord.zz"])
def test_record_file_indexes_slices_iterates_and_offsets_as_a_sequence(tmp_path, name):
    rows = [{"id": i, "pad": b"x" * (i % 7)} for i in range(30)]
    path = write_examples(tmp_path / name, rows)
    records = [tfq.encode_example(r) for r in rows]
    f = tfq.RecordFile(path)
    assert list(f) == records
    for s in (slice(None), slice(5, 9), slice(-3, None), slice(None, None, -4), slice(40, 50), slice(2, 20, 3)):
        assert f[s] == records[s]
    assert f[-30] == records[0] and f[np.int64(4)] == records[4]
    for bad in (30, -31):
        with pytest.raises(IndexError):
            f[bad]
        with pytest.raises(IndexError):
            f.offset(bad)
    # offsets in the uncompressed stream: each record is a 12-byte header, the data, a 4-byte CRC
    ends = np.cumsum([0] + [16 + len(r) for r in records])
    assert [f.offset(i) for i in range(30)] == ends[:-1].tolist() and f.offset(-1) == ends[-2]


def test_record_file_reads_from_several_threads(tmp_path):
    from concurrent.futures import ThreadPoolExecutor
    path = write_examples(tmp_path / "r.tfrecord", [{"id": i, "blob": b"%d" % i * 100} for i in range(2000)])
    f = tfq.RecordFile(path)
    order = list(range(2000)) * 2
    random.Random(3).shuffle(order)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda i: tfq.parse_example(f[i])["id"][0], order))
    assert got == order


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


@pytest.mark.parametrize("world_size", [1, 2])
def test_every_batch_of_a_pad_dataset_has_the_padding_mask(parts, world_size):
    """The key does not come and go with the setting (one rank, DataLoader workers): a loop
    that masks the loss reads it always."""
    ds = tfq.Dataset(parts, batch_size=7, features=ID, rank_balance="pad", world_size=world_size,
                     rank_split="file")  # 6 files of 10: equal shares, nothing padded
    batches = list(ds)
    assert all(b["__padding__"].dtype == bool and b["__padding__"].shape == b["id"].shape for b in batches)
    assert not any(b["__padding__"].any() for b in batches)
    assert "__padding__" not in next(iter(tfq.Dataset(parts, batch_size=7, features=ID, world_size=2)))


def test_a_state_loaded_into_a_dataset_with_other_arguments_is_refused_and_kept(parts):
    ds = tfq.Dataset(parts, batch_size=4, shuffle_buffer=10, seed=1, features=ID)
    it = iter(ds)
    next(it)
    state = ds.state_dict()
    it.close()
    for other in (dict(seed=2), dict(batch_size=5), dict(rank=1, world_size=2)):
        kwargs = {**dict(batch_size=4, shuffle_buffer=10, seed=1, features=ID), **other}
        wrong = tfq.Dataset(parts, **kwargs)
        wrong.load_state_dict(state)
        for _ in range(2):  # the refused state stays loaded: no silent fresh pass
            with pytest.raises(tfq.InvalidArgumentError, match="saved by a pipeline with other files or options"):
                iter(wrong)
        assert wrong.state_dict() == state
    with pytest.raises(ValueError, match="load_state_dict takes what Dataset.state_dict"):
        ds.load_state_dict({"epoch": 3})
