"""Record files: Writer, count, parse_example and RecordFile."""

from . import _tfq
from ._paths import path_list


def parse_example(record):
    """A serialized tf.train.Example as {name: array}.

    int64 lists become int64 arrays, float lists float32 arrays and bytes lists object arrays of
    ``bytes`` (trailing zero bytes kept); a Feature with no list set is an empty object array.
    Bytes that are not an Example raise tfq.CorruptionError naming the byte offset.
    """
    return _tfq.parse_example(record)


def encode_example(features):
    """The serialized tf.train.Example for a dict, with Writer.write's rules."""
    return _tfq.encode_example(features)


def count(paths, compression=None):
    """The number of records in ``paths`` (paths and globs), counted as ``tfq inspect --count``
    counts them: record headers only, on several threads for large uncompressed files. A
    damaged file raises, naming the file, record and byte offset."""
    return _tfq.count(path_list(paths), compression)


class Writer:
    """Writes tf.train.Examples to a TFRecord file; use it as a context manager.

    ``compression``: None picks from the extension (".gz" gzip, ".zz" zlib, else none), or
    "none", "gzip", "zlib". ``threads``: a compressed file is compressed on that many threads of
    its own (capped at the usable CPUs) while Python goes on; the file's bytes are the same for
    any number. The records go to a hidden temporary beside ``path`` that close()
    renames into place: a writer left by an exception (or never closed) leaves no file under the
    final name. ``write(dict)`` encodes each value as the matching Feature kind (see
    docs/python.md, "Writing"); ``write_record(bytes)`` writes a record as it is.
    """

    def __init__(self, path, compression=None, threads=1):
        import os
        self._native = _tfq.RecordFileWriter(os.fspath(path), compression, threads)

    def write(self, features):
        if not isinstance(features, dict):
            raise TypeError(f"{self.path}: write takes a dict {{name: value}}, not "
                            f"{type(features).__name__} (write_record takes serialized bytes)")
        self._native.write_example(features)

    def write_record(self, record):
        self._native.write_record(bytes(record))

    def close(self):
        """Finishes the file and renames it into place. Idempotent."""
        self._native.close()

    def abandon(self):
        """Drops everything written: no file appears under the final name."""
        self._native.abandon()

    @property
    def path(self):
        return self._native.path

    @property
    def records_written(self):
        return self._native.records_written

    @property
    def closed(self):
        return self._native.closed

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abandon()
        return False


class RecordFile:
    """Random access to the records of one TFRecord file (gzip and zlib too): ``len(f)``,
    ``f[i]`` (negative indexes count from the end), slices (a list), iteration, ``f.offset(i)``.

    Record offsets come from the DALI index ``FILE.idx`` beside the file when it is there and
    matches, else from a walk over the record headers at construction; a gzip or zlib file is
    reached through its access-point index ``FILE.tfqgzidx`` (``tfq inspect --index-beside``
    writes both), else one is built by inflating the file once. Every record read is checked
    (both CRCs). Reads may come from several threads at once.
    """

    def __init__(self, path, compression=None):
        import os
        self._native = _tfq.RecordFile(os.fspath(path), compression)

    def offset(self, i):
        """The byte offset of record i's header (in the uncompressed stream)."""
        return self._native.offset(self._index(i))

    def _index(self, i):
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"record {i} of a file of {n} records")
        return i

    def __len__(self):
        return self._native.size()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._native.get(self._index(i))

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]
