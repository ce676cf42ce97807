"""The rules core runs compiled (mypyc), as `make` builds it; the benchmarks measure that."""

import importlib
import os

import pytest

from tests.conftest import _compiled_modules


@pytest.mark.skipif(os.environ.get("POKERROOM_PURE") == "1", reason="POKERROOM_PURE=1: uncompiled")
def test_every_listed_module_is_the_compiled_extension() -> None:
    root = _compiled_modules()[0].parents[1]
    for source in _compiled_modules():
        name = ".".join(source.relative_to(root).with_suffix("").parts)
        module = importlib.import_module(name)
        assert module.__file__ is not None and module.__file__.endswith(".so"), (
            f"{name} is not compiled: run `make test` (or unset POKERROOM_PURE)"
        )
