"""tfq: fast TFRecord reading and writing for training loops, over tfq's C++ core.

    import tfq
    ds = tfq.Dataset("data/train-*.tfrecord", batch_size=32, shuffle_buffer=10_000, seed=1,
                     features={"label": tfq.FixedLen("int64"), "tokens": tfq.VarLen("int64")})
    for batch in ds:
        batch["label"]           # int64 array, shape [32]
        batch["tokens"].values   # int64 array; batch["tokens"].row_splits: int64, shape [33]

docs/python.md has the whole API, the PyTorch and JAX recipes and the tf.data equivalents.
"""

from ._dataset import Dataset, infer_features
from ._errors import (CorruptionError, DataError, Error, FileError, InternalError,
                      InvalidArgumentError, InvalidDataError, LimitError, NotFoundError)
from ._features import FixedLen, Ragged, VarLen
from ._records import RecordFile, Writer, count, encode_example, parse_example

__version__ = "0.1.0"

__all__ = [
    "Dataset", "FixedLen", "VarLen", "Ragged", "infer_features",
    "Writer", "RecordFile", "count", "parse_example", "encode_example",
    "Error", "InvalidArgumentError", "NotFoundError", "FileError", "DataError",
    "CorruptionError", "InvalidDataError", "LimitError", "InternalError",
]
