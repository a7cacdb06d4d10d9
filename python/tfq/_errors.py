"""The exceptions tfq raises for a failed C++ Status.

Each class is also the built-in exception a Python user would catch for that kind of failure
(ValueError for bad data, FileNotFoundError for a missing file, ...), so ``except ValueError``
works as well as ``except tfq.DataError``. The message is the C++ Status message, the text the
CLI prints after ``tfq: error:``, naming the file, the record index and the byte offset.
"""


class Error(Exception):
    """Base class of every error raised from tfq's C++ core. ``code`` names the StatusCode."""

    code = "unknown"


class InvalidArgumentError(Error, ValueError):
    """An option or argument is invalid (the CLI's exit code 2)."""

    code = "invalid_argument"


class NotFoundError(Error, FileNotFoundError):
    """A named file does not exist, or a glob matches nothing."""

    code = "not_found"


class FileError(Error, OSError):
    """The operating system refused a read, write or rename."""

    code = "io_error"


class DataError(Error, ValueError):
    """Corrupt or invalid input data (the CLI's exit code 3)."""


class CorruptionError(DataError):
    """Bytes are not what the format requires: CRC, framing, Example wire format, compression."""

    code = "corruption"


class InvalidDataError(DataError):
    """Well-formed data whose values do not fit (an Example that does not match the features)."""

    code = "invalid_data"


class LimitError(Error, RuntimeError):
    """A stated limit was hit: the record size cap, the decompression limit."""

    code = "resource_exhausted"


class BrokenPipeError_(Error, BrokenPipeError):
    code = "broken_pipe"


class CancelledError(Error):
    code = "cancelled"


class InternalError(Error, RuntimeError):
    """A bug in tfq: please report it with the message."""

    code = "internal"


_BY_CODE = {
    cls.code: cls
    for cls in (InvalidArgumentError, NotFoundError, FileError, CorruptionError, InvalidDataError,
                LimitError, BrokenPipeError_, CancelledError, InternalError)
}


def from_status(code, message):
    """The exception for a C++ StatusCode name and message (called by the binding)."""
    # One argument only: OSError(a, b) would read them as (errno, strerror).
    return _BY_CODE.get(code, InternalError)(message)
