"""Path arguments: one path or glob, or a list of them (str or os.PathLike)."""

import os


def path_list(paths):
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    out = []
    for p in paths:
        p = os.fspath(p)
        out.append(os.fsdecode(p) if isinstance(p, bytes) else p)
    if not out:
        raise ValueError("no input files given")
    return out
