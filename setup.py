"""Compile the rules core with mypyc: the same type-checked source, as C extensions.

The modules are listed under ``[tool.pokerroom] compiled`` in pyproject.toml.
``POKERROOM_PURE=1`` installs without compiling: everything works, several times slower.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
COMPILED = tomllib.loads((HERE / "pyproject.toml").read_text())["tool"]["pokerroom"]["compiled"]

ext_modules = []
if os.environ.get("POKERROOM_PURE") != "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3", debug_level="0")

setup(ext_modules=ext_modules)
