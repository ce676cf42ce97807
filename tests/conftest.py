"""Shared test settings: hypothesis runs derandomized so CI is repeatable; no stale builds;
passwords hashed at argon2id's cheapest cost."""

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "pokerroom",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("pokerroom")

# The suite signs up and logs in hundreds of people, each hash about 0.25 s of CPU at the
# recommended cost; the rooms it starts inherit the setting. The tests of the cost itself
# and of hashing off the event loop ask for the recommended one.
os.environ["POKERROOM_PASSWORD_COST"] = "cheapest"


def _compiled_modules() -> list[Path]:
    """The mypyc-compiled modules' sources, as pyproject.toml lists them."""
    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text())
    return [root / path for path in config["tool"]["pokerroom"]["compiled"]]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test compiled code older than its source: Python would import the stale
    extension and the run would test old code. ``make`` rebuilds it. (mypyc puts the code of
    every compiled module in one shared library beside the package; each module's own
    extension only forwards to it, and is not rebuilt when the code changes.)"""
    sources = _compiled_modules()
    libraries = list(sources[0].parents[1].glob("*__mypyc.*.so"))
    if not libraries:
        return  # not compiled (POKERROOM_PURE=1); tests/test_compiled.py says so
    built = max(library.stat().st_mtime for library in libraries)
    for source in sources:
        if source.stat().st_mtime > built:
            pytest.exit(f"{source.name} changed after it was compiled: run `make test`", 2)
