"""docs/python.md's examples run as written: every ```python block, in order, in one namespace,
in an empty folder. `# needs: X` skips a block where X does not import."""

import importlib
import os
import re

import pytest

from conftest import REPO

DOC = os.path.join(REPO, "docs", "python.md")


def blocks():
    with open(DOC) as f:
        text = f.read()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_doc_has_examples():
    assert len(blocks()) >= 8


def test_python_md_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    ran = 0
    for i, code in enumerate(blocks()):
        first = code.splitlines()[0].strip()
        if first.startswith("# needs:"):
            module = first.split(":", 1)[1].strip()
            try:
                importlib.import_module(module)
            except ImportError:
                continue
        where = f"docs/python.md, python block {i + 1}"
        exec(compile(code, where, "exec"), namespace)
        ran += 1
    assert ran >= 6
