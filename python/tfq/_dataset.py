"""tfq.Dataset: batches of NumPy arrays from TFRecord files, read by tfq's C++ pipeline."""

import json
import os
import sys

from . import _tfq
from ._features import FixedLen, Ragged, VarLen, spec_from_native
from ._paths import path_list

# What waits on the C++ pipeline (src/pipeline) before Python can offer it.


def infer_features(paths, *, max_records=1000, compression="auto", max_record_bytes=None,
                   max_decompressed=None):
    """The features of the first ``max_records`` records of ``paths``, as Dataset would infer them.

    A feature with one kind and the same number n >= 1 of values in every record looked at is
    ``FixedLen(dtype, () if n == 1 else (n,))``; any other is ``VarLen(dtype)``. Features
    that never hold a list (no kind) are left out; one holding two kinds is an error.
    Returns a dict sorted by name.
    """
    defaults = _tfq.ReadOptions()
    specs = _tfq.infer_feature_specs(
        path_list(paths), _count("max_records", max_records), compression or "auto",
        defaults.max_record_bytes if max_record_bytes is None else _count("max_record_bytes", max_record_bytes),
        defaults.decompression if max_decompressed is None else str(max_decompressed))
    return {s.key: spec_from_native(s) for s in specs}


def _count(name, value):
    """An int >= 0 for a size_t option: negative numbers would not convert."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = value.__index__()
        except AttributeError:
            raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if value < 0:
        raise ValueError(f"{name} must not be negative (got {value})")
    return value


def _shard(name, value):
    if value is None:
        return None
    try:
        count, index = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair (num_shards, index), not {value!r}") from None
    return _count(name + " num_shards", count), _count(name + " index", index)


def _torch_worker():
    """(worker id, number of workers) inside a torch DataLoader worker, else None."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    info = torch.utils.data.get_worker_info()
    if info is None:
        return None
    return info.id, info.num_workers


def _register_with_torch():
    """Makes isinstance(ds, torch.utils.data.IterableDataset) true once torch is imported, so
    that DataLoader iterates a Dataset instead of indexing it. torch is never imported here.
    Where IterableDataset is not an ABC (torch 1.13, Debian 12's), Dataset.__new__ makes an
    instance of a subclass of both instead (_TorchIterableDataset)."""
    torch = sys.modules.get("torch")
    if torch is None or getattr(_register_with_torch, "done", False):
        return
    register = getattr(torch.utils.data.IterableDataset, "register", None)
    if register is not None:
        register(Dataset)
    _register_with_torch.done = True


def _needs_torch_subclass():
    torch = sys.modules.get("torch")
    return torch is not None and not hasattr(torch.utils.data.IterableDataset, "register")


def _torch_iterable_dataset_class():
    cls = globals().get("_TorchIterableDataset")
    if cls is None:
        import torch

        class _TorchIterableDataset(Dataset, torch.utils.data.IterableDataset):
            """A tfq.Dataset that torch's DataLoader recognises as an IterableDataset."""

        _TorchIterableDataset.__qualname__ = "_TorchIterableDataset"  # pickled by this name
        globals()["_TorchIterableDataset"] = cls = _TorchIterableDataset
    return cls


def __getattr__(name):
    # A DataLoader worker started with spawn unpickles its dataset by this name.
    if name == "_TorchIterableDataset":
        return _torch_iterable_dataset_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Dataset:
    """An iterable of batches read from TFRecord files of tf.train.Example.

    Each batch is a dict from feature name to a NumPy array (``FixedLen``: shape
    ``[batch, *shape]``) or a ``Ragged`` (``VarLen``). Iterating starts a fresh pass over the
    data (``epochs`` epochs); the reading, shuffling, batching and parsing run on C++ threads
    that stop when the iterator ends, is closed, or is dropped.

    Arguments (see docs/python.md for what each maps to in tf.data):
      paths: a path or glob, or a list of them.
      batch_size: records per batch (the last one may be short unless drop_remainder).
      features: {name: FixedLen | VarLen}; None infers them from the first ``infer_records``
        records (``infer_features``).
      shuffle_buffer: tf.data's shuffle(buffer_size); 0 or 1: no shuffling.
      shuffle_files: shuffle the file list each epoch (seeded).
      seed: the seed of every shuffle.
      epochs: passes over the data; None (or -1) repeats forever.
      rank, world_size: the share of this process in data-parallel training: disjoint shares
        covering every record of an epoch, the same number of batches on every rank (split by
        file when there are at least as many files as ranks, else by record: ``rank_split``
        "auto", "file" or "record"). ``rank_balance`` "drop" stops every rank at the smallest
        share each epoch; "pad" repeats records up to the largest and marks them in the boolean
        array ``batch["__padding__"]``, which every batch of a "pad" Dataset has. With
        DataLoader workers each worker is a rank of world_size * num_workers.
      global_shuffle: each epoch a seeded permutation of every record of every file, read by
        random access (instead of the interleave and the shuffle buffer).
      bucket_by, bucket_boundaries, bucket_batch_sizes: tf.data's bucket_by_sequence_length:
        rows grouped by the number of values of feature ``bucket_by`` ([0, b0), [b0, b1), ...,
        [b_last, inf)), one batch size per bucket (batch_size is then unused); with ``pad``
        (True) every VarLen column of a batch is a dense array [batch, longest] padded with
        ``padding_values`` ({"int64": 0, "float32": 0.0, "bytes": b""}), and its row lengths
        are under name + "__lengths"; ``pad_to_bucket_boundary`` pads to the bucket's boundary
        minus one.
      drop_remainder: drop a final batch shorter than batch_size.
      num_threads: parse threads; None: every core (divided among DataLoader workers).
      compression: "auto" (sniffed per file), "none", "gzip" or "zlib".
      cycle_length, block_length, deterministic: tf.data's interleave.
      reader_threads, prefetch, file_buffer_records, file_buffer_bytes: tuning.
      reshuffle_each_epoch: False uses the same orders every epoch.
      file_shard, record_shard: (num_shards, index) as tf.data's shard(), of the file list or
        of the records.
      on_error: "stop" (the first bad file or record raises) or "skip" (dropped and counted in
        the iterator's skip_stats).
      max_record_bytes, max_decompressed: limits, as the CLI's --max-record-bytes and
        --max-decompressed ("100x", "20GiB", "none").
    """

    def __new__(cls, *args, **kwargs):
        if cls is Dataset and _needs_torch_subclass():
            cls = _torch_iterable_dataset_class()
        return object.__new__(cls)

    def __init__(self, paths, *, batch_size, features=None, shuffle_buffer=0, shuffle_files=False,
                 seed=0, epochs=1, rank=0, world_size=1, drop_remainder=False, num_threads=None,
                 compression="auto", cycle_length=None, block_length=None, deterministic=None,
                 reader_threads=None, prefetch=None, file_buffer_records=None,
                 file_buffer_bytes=None, reshuffle_each_epoch=None, file_shard=None,
                 record_shard=None, on_error="stop", max_record_bytes=None, max_decompressed=None,
                 infer_records=1000, bucket_by=None, bucket_boundaries=None,
                 bucket_batch_sizes=None, pad=True, pad_to_bucket_boundary=False,
                 padding_values=None, rank_split="auto", rank_balance="drop",
                 global_shuffle=False):
        _register_with_torch()
        self._paths = path_list(paths)
        self._state = None  # a loaded state_dict, for the next pass
        self._iterator = None  # the current pass, for state_dict
        bucketing = None
        if bucket_by is not None or bucket_boundaries is not None or bucket_batch_sizes is not None:
            if bucket_by is None or bucket_boundaries is None or bucket_batch_sizes is None:
                raise TypeError("bucketing needs bucket_by, bucket_boundaries and bucket_batch_sizes")
            bucketing = dict(by=bucket_by, boundaries=list(bucket_boundaries),
                             batch_sizes=list(bucket_batch_sizes), pad=bool(pad),
                             pad_to_bucket_boundary=bool(pad_to_bucket_boundary),
                             padding_values=dict(padding_values or {}))
        self._args = dict(
            rank=_count("rank", rank), world_size=_count("world_size", world_size),
            rank_split=rank_split, rank_balance=rank_balance, global_shuffle=bool(global_shuffle),
            bucketing=bucketing,
            batch_size=_count("batch_size", batch_size), shuffle_buffer=shuffle_buffer,
            shuffle_files=bool(shuffle_files), seed=seed, epochs=-1 if epochs is None else epochs,
            drop_remainder=bool(drop_remainder), num_threads=num_threads, compression=compression,
            cycle_length=cycle_length, block_length=block_length, deterministic=deterministic,
            reader_threads=reader_threads, prefetch=prefetch,
            file_buffer_records=file_buffer_records, file_buffer_bytes=file_buffer_bytes,
            reshuffle_each_epoch=reshuffle_each_epoch, file_shard=_shard("file_shard", file_shard),
            record_shard=_shard("record_shard", record_shard), on_error=on_error,
            max_record_bytes=max_record_bytes, max_decompressed=max_decompressed)
        if features is None:
            features = infer_features(self._paths, max_records=infer_records,
                                      compression=compression, max_record_bytes=max_record_bytes,
                                      max_decompressed=max_decompressed)
        self._features = self._check_features(features)
        self._check_reserved_keys(bucketing)
        self._native_options(None).validate()  # the core's checks and messages, at once

    @staticmethod
    def _check_features(features):
        if not isinstance(features, dict):
            raise TypeError("features must be a dict {name: tfq.FixedLen | tfq.VarLen}, "
                            f"not {type(features).__name__}")
        for name, spec in features.items():
            if not isinstance(name, str):
                raise TypeError(f"feature names are str, not {type(name).__name__} ({name!r})")
            if not isinstance(spec, (FixedLen, VarLen)):
                raise TypeError(f"feature '{name}': {spec!r} is not a tfq.FixedLen or tfq.VarLen")
        return dict(features)

    def _check_reserved_keys(self, bucketing):
        """Keys the batch dict adds must not hide a feature."""
        reserved = {}
        if self._args["rank_balance"] == "pad":
            reserved["__padding__"] = "the padding mask of rank_balance=\"pad\""
        if bucketing is not None and bucketing["pad"]:
            for name, spec in self._features.items():
                if isinstance(spec, VarLen):
                    reserved[name + "__lengths"] = f"the row lengths of the padded column '{name}'"
        for name in self._features:
            if name in reserved:
                raise ValueError(f"feature '{name}': the name is reserved for {reserved[name]}")

    @property
    def features(self):
        """{name: FixedLen | VarLen}: the columns of every batch, in this order."""
        return dict(self._features)

    @property
    def paths(self):
        return list(self._paths)

    def _native_options(self, worker):
        a = self._args
        o = _tfq.PipelineOptions()
        r = o.read
        r.inputs = self._paths
        r.compression = a["compression"] or "auto"
        if a["max_record_bytes"] is not None:
            r.max_record_bytes = _count("max_record_bytes", a["max_record_bytes"])
        if a["max_decompressed"] is not None:
            r.decompression = str(a["max_decompressed"])
        if a["file_shard"] is not None:
            r.file_shard = a["file_shard"]
        r.shuffle_files = a["shuffle_files"]
        for name in ("cycle_length", "block_length", "reader_threads", "file_buffer_records",
                     "file_buffer_bytes"):
            if a[name] is not None:
                setattr(r, name, _count(name, a[name]))
        if a["deterministic"] is not None:
            r.deterministic = bool(a["deterministic"])
        record_shard = a["record_shard"]
        rank, world_size = a["rank"], a["world_size"]
        if worker is not None and (world_size > 1 or a["global_shuffle"]):
            # Each DataLoader worker is a rank of its own: rank r's worker j of w is rank
            # r * w + j of world_size * w, which keeps the shares disjoint and evened out.
            worker_id, num_workers = worker
            rank, world_size = rank * num_workers + worker_id, world_size * num_workers
        elif worker is not None:
            # Each DataLoader worker takes every num_workers-th record of the user's share:
            # shard(n, i) then shard(w, j) is shard(n * w, i + n * j).
            worker_id, num_workers = worker
            count, index = record_shard or (1, 0)
            record_shard = (count * num_workers, index + count * worker_id)
        if record_shard is not None:
            r.record_shard = record_shard
        r.rank, r.world_size = rank, world_size
        r.rank_split = a["rank_split"]
        r.rank_balance = a["rank_balance"]
        r.global_shuffle = a["global_shuffle"]
        r.shuffle_buffer_size = _count("shuffle_buffer", a["shuffle_buffer"])
        r.seed = _count("seed", a["seed"])
        if a["reshuffle_each_epoch"] is not None:
            r.reshuffle_each_epoch = bool(a["reshuffle_each_epoch"])
        epochs = a["epochs"]
        if isinstance(epochs, bool) or not isinstance(epochs, int):
            raise TypeError(f"epochs must be an int or None, not {type(epochs).__name__}")
        r.epochs = epochs
        r.on_error = a["on_error"]
        o.batch_size = a["batch_size"]
        o.drop_remainder = a["drop_remainder"]
        threads = a["num_threads"]
        if threads is None and worker is not None:
            threads = max(1, (os.cpu_count() or 1) // worker[1])
        if threads is not None:
            o.parse_threads = _count("num_threads", threads)
        if a["prefetch"] is not None:
            o.prefetch = _count("prefetch", a["prefetch"])
        b = a["bucketing"]
        # Padded bucketing writes pad values into the bytes columns: they need their own buffer.
        views = not (b is not None and b["pad"])
        o.features = [_native_spec(name, spec, views) for name, spec in self._features.items()]
        if b is not None:
            if b["by"] not in self._features:
                raise ValueError(f"bucket_by '{b['by']}' is not one of the features")
            n = _tfq.BucketOptions()
            n.length_key = b["by"]
            n.boundaries = [_count("bucket_boundaries", v) for v in b["boundaries"]]
            n.batch_sizes = [_count("bucket_batch_sizes", v) for v in b["batch_sizes"]]
            n.pad = b["pad"]
            n.pad_to_bucket_boundary = b["pad_to_bucket_boundary"]
            values = b["padding_values"]
            n.pad_int64 = int(values.get("int64", 0))
            n.pad_float = float(values.get("float32", 0.0))
            n.pad_bytes = bytes(values.get("bytes", b""))
            n.drop_remainder = a["drop_remainder"]
            o.bucketing = n
            o.batch_size = 1
            o.drop_remainder = False
        return o

    def __iter__(self):
        """A fresh pass (or, after load_state_dict, the rest of the saved one): an iterator of
        batch dicts with close(), files and skip_stats."""
        options = self._native_options(_torch_worker())
        shapes = [list(spec.shape) if isinstance(spec, FixedLen) else []
                  for spec in self._features.values()]
        text = json.dumps(self._state["pipeline"]) if self._state is not None else ""
        self._iterator = _tfq.BatchIterator(options, shapes, Ragged, text)
        self._state = None  # used once, and only once it opened: a refused state stays loaded
        return self._iterator

    # Resumable iteration, as torchdata's stateful datasets: state_dict() during (or after) a
    # pass, load_state_dict() on a new Dataset with the same arguments, then iterate.
    def state_dict(self):
        """A JSON-serializable dict: where the current pass stands, after the batches it returned.
        Before any pass, and once a pass has run to its end, it is the start of a fresh pass (what
        the next iter() gives); after load_state_dict and before iterating, the loaded state."""
        if self._state is not None:
            return self._state
        if self._iterator is None or self._iterator.exhausted:
            return {"tfq_dataset_state": 1, "pipeline": None}
        return {"tfq_dataset_state": 1, "pipeline": json.loads(self._iterator.state())}

    def load_state_dict(self, state):
        """Makes the next pass continue with exactly the batches that would have come next after
        the state was saved. The Dataset must have been made with the same arguments (files,
        shuffling, seeds, epochs, batching, ranks); others raise ValueError naming them."""
        if not isinstance(state, dict) or state.get("tfq_dataset_state") != 1:
            raise ValueError("load_state_dict takes what Dataset.state_dict() returned")
        self._state = state if state.get("pipeline") is not None else None
        self._iterator = None  # state_dict() now tells where the loaded state stands

    def __repr__(self):
        return (f"tfq.Dataset({self._paths!r}, batch_size={self._args['batch_size']}, "
                f"features={self._features!r})")


def _native_spec(name, spec, bytes_views=True):
    if isinstance(spec, VarLen):
        return _tfq.FeatureSpec(name, spec.dtype, True, bytes_views=bytes_views)
    return _tfq.FeatureSpec(name, spec.dtype, False, spec.length, spec.default_values(),
                            bytes_views=bytes_views)


_register_with_torch()
