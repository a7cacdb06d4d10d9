"""Feature specs (what to extract from each Example) and the ragged batch values they produce."""

import math
from dataclasses import dataclass
from typing import Any, Optional, Tuple

import numpy as np

DTYPES = ("int64", "float32", "bytes")


def normalize_dtype(dtype):
    """"int64", "float32", "bytes"; NumPy's int64/float32 dtypes and the bytes type are accepted."""
    if dtype is bytes:
        return "bytes"
    if isinstance(dtype, str):
        if dtype in DTYPES:
            return dtype
    else:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = None
        if name in ("int64", "float32"):
            return name
    raise ValueError(f"dtype {dtype!r}: use \"int64\", \"float32\" or \"bytes\" "
                     "(a tf.train.Feature holds only these)")


@dataclass(frozen=True)
class FixedLen:
    """tf.io.FixedLenFeature: every record holds exactly prod(shape) values.

    A batch holds it as an array of shape ``[batch, *shape]`` (``shape=()``: a scalar per
    record, ``[batch]``). ``default`` (one value, or prod(shape) values) fills records that lack
    the feature; without one a missing feature is an error.
    """

    dtype: str
    shape: Tuple[int, ...] = ()
    default: Any = None

    def __post_init__(self):
        object.__setattr__(self, "dtype", normalize_dtype(self.dtype))
        shape = (self.shape,) if isinstance(self.shape, int) else tuple(self.shape)
        for d in shape:
            if not isinstance(d, (int, np.integer)) or d < 1:
                raise ValueError(f"FixedLen shape {self.shape!r}: every dimension must be an int >= 1")
        object.__setattr__(self, "shape", tuple(int(d) for d in shape))

    @property
    def length(self):
        """Values per record."""
        return math.prod(self.shape)

    def default_values(self):
        """The default as the flat list the C++ spec takes, or None."""
        if self.default is None:
            return None
        values = np.asarray(self.default, dtype=object if self.dtype == "bytes" else self.dtype)
        values = values.reshape(-1).tolist()
        if self.dtype == "bytes":
            values = [v.encode() if isinstance(v, str) else v for v in values]
        return values


@dataclass(frozen=True)
class VarLen:
    """tf.io.VarLenFeature: any number of values per record; a batch holds it as a Ragged."""

    dtype: str

    def __post_init__(self):
        object.__setattr__(self, "dtype", normalize_dtype(self.dtype))


class Ragged:
    """A batch of variable-length rows: row i is ``values[row_splits[i]:row_splits[i + 1]]``.

    The layout of ``tf.RaggedTensor.from_row_splits``. ``values`` is an int64 or float32 array,
    or for bytes an object array of ``bytes``; ``row_splits`` is int64 with one more entry than
    there are rows, starting at 0.
    """

    __slots__ = ("values", "row_splits")

    def __init__(self, values, row_splits):
        self.values = values
        self.row_splits = row_splits

    def __len__(self):
        return len(self.row_splits) - 1

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"row {i} of a Ragged of {len(self)} rows")
        return self.values[self.row_splits[i]:self.row_splits[i + 1]]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def to_list(self):
        """The rows as lists of Python values."""
        return [row.tolist() for row in self]

    def __eq__(self, other):
        if not isinstance(other, Ragged):
            return NotImplemented
        return (np.array_equal(self.row_splits, other.row_splits)
                and len(self.values) == len(other.values)
                and all(a == b for a, b in zip(self.values, other.values)))

    def __repr__(self):
        return f"Ragged(values={self.values!r}, row_splits={self.row_splits!r})"


def spec_from_native(native):
    """A FixedLen or VarLen for a tfq._tfq.FeatureSpec (as feature inference returns them)."""
    if native.ragged:
        return VarLen(native.dtype)
    return FixedLen(native.dtype, () if native.length == 1 else (native.length,))
