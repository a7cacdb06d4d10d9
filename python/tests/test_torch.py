"""PyTorch's DataLoader: workers read disjoint shares. The split itself is tested without torch;
the DataLoader test skips where torch is not importable (scripts/install-deps.sh --test installs
Debian's python3-torch)."""

import sys

import numpy as np
import pytest

import tfq
from tfq import _dataset
from conftest import collect, write_examples

ID = {"id": tfq.FixedLen("int64")}


@pytest.fixture
def parts(tmp_path):
    for f in range(3):
        write_examples(tmp_path / f"p{f}.tfrecord", [{"id": f * 33 + i} for i in range(33)])
    return str(tmp_path / "p*.tfrecord")


@pytest.mark.parametrize("workers, user_shard", [(1, None), (2, None), (3, None), (2, (2, 1))])
def test_worker_shares_are_disjoint_and_complete(parts, monkeypatch, workers, user_shard):
    seen = []
    for worker in range(workers):
        monkeypatch.setattr(_dataset, "_torch_worker", lambda w=worker: (w, workers))
        ds = tfq.Dataset(parts, batch_size=8, shuffle_buffer=10, seed=5, features=ID, record_shard=user_shard)
        seen += collect(ds)["id"].tolist()
    monkeypatch.setattr(_dataset, "_torch_worker", lambda: None)
    everything = collect(tfq.Dataset(parts, batch_size=8, features=ID, record_shard=user_shard))["id"].tolist()
    assert len(seen) == len(set(seen)) and sorted(seen) == sorted(everything)
    assert len(everything) == (99 if user_shard is None else 49)


def test_dataloader_workers_read_each_record_once(parts):
    torch = pytest.importorskip("torch")
    assert "torch" in sys.modules
    ds = tfq.Dataset(parts, batch_size=8, features=ID)
    assert isinstance(ds, torch.utils.data.IterableDataset)
    for workers in (0, 2):
        loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=workers)
        ids = []
        for batch in loader:
            assert isinstance(batch["id"], torch.Tensor) and batch["id"].dtype == torch.int64
            ids += batch["id"].tolist()
        assert sorted(ids) == list(range(99))


def test_batches_convert_to_tensors_without_a_copy(parts):
    torch = pytest.importorskip("torch")
    batch = next(iter(tfq.Dataset(parts, batch_size=8, features=ID)))
    tensor = torch.from_numpy(batch["id"])
    assert tensor.data_ptr() == batch["id"].ctypes.data
    assert np.shares_memory(tensor.numpy(), batch["id"])


def test_a_dataset_pickles_for_spawned_workers(parts):
    import pickle
    ds = tfq.Dataset(parts, batch_size=8, shuffle_buffer=10, seed=5, features=ID)
    copy = pickle.loads(pickle.dumps(ds))
    assert collect(copy)["id"].tolist() == collect(ds)["id"].tolist()


@pytest.fixture
def uneven(tmp_path):
    """5 files of 7, 10, 13, 16 and 19 records: ids file * 100 + i."""
    for f in range(5):
        write_examples(tmp_path / f"u{f}.tfrecord", [{"id": f * 100 + i} for i in range(7 + 3 * f)])
    return str(tmp_path / "u*.tfrecord")


@pytest.mark.parametrize("balance", ["drop", "pad"])
@pytest.mark.parametrize("world_size, workers", [(2, 2), (2, 3), (3, 2)])
def test_workers_within_ranks_are_disjoint_and_take_equal_steps(uneven, monkeypatch, balance, world_size,
                                                                 workers):
    """Each worker of each rank is a rank of world_size * workers: disjoint shares, and the same
    number of batches on every worker of every rank, so that the ranks stay in step."""
    counts, real, padded = [], [], 0
    for rank in range(world_size):
        for worker in range(workers):
            monkeypatch.setattr(_dataset, "_torch_worker", lambda w=worker: (w, workers))
            batches = list(tfq.Dataset(uneven, batch_size=3, shuffle_buffer=4, seed=1, features=ID,
                                       rank=rank, world_size=world_size, rank_balance=balance))
            counts.append(len(batches))
            for b in batches:
                mask = b["__padding__"] if balance == "pad" else np.zeros(len(b["id"]), bool)
                real += b["id"][~mask].tolist()
                padded += int(mask.sum())
    assert len(set(counts)) == 1
    assert len(real) == len(set(real))
    if balance == "pad":  # every record once, the rest repeats
        assert sorted(real) == [f * 100 + i for f in range(5) for i in range(7 + 3 * f)]


def test_dataloader_workers_of_two_ranks_take_equal_steps_and_mark_padding(uneven):
    torch = pytest.importorskip("torch")
    steps, real = [], []
    for rank in range(2):
        ds = tfq.Dataset(uneven, batch_size=3, features=ID, rank=rank, world_size=2, rank_balance="pad")
        batches = list(torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2))
        steps.append(len(batches))
        for b in batches:
            assert b["__padding__"].dtype == torch.bool
            real += b["id"][~b["__padding__"]].tolist()
    assert steps[0] == steps[1]
    assert sorted(real) == [f * 100 + i for f in range(5) for i in range(7 + 3 * f)]
