"""requirements.lock agrees with pyproject.toml: what `make` installs is what the project asks for.

pyproject.toml states the intent (ranges); requirements.lock pins each package, with hashes,
to one release in those ranges (`make lock` writes it). When the two disagree, a clone would
install something the project never asked for, or miss what it needs: these tests name the
package and both sides.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LOCK = (ROOT / "requirements.lock").read_text()

# One pinned entry: `name==version [; marker] \` followed by its `--hash=` lines.
ENTRY = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;]+)"
    r"(?: ; (?P<marker>[^\\\n]*[^\\\s]))?"
    r"(?P<hashes>(?: \\\n\s+--hash=sha256:[0-9a-f]{64})*)",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Pin:
    name: str
    version: Version
    marker: Marker | None
    hashes: int


def pins() -> list[Pin]:
    return [
        Pin(
            canonicalize_name(match["name"]),
            Version(match["version"]),
            Marker(match["marker"]) if match["marker"] else None,
            match["hashes"].count("--hash="),
        )
        for match in ENTRY.finditer(LOCK)
    ]


def wanted() -> list[Requirement]:
    """Everything the project asks for: its dependencies, the dev extra and the build backend."""
    project = PYPROJECT["project"]
    texts = [
        *project["dependencies"],
        *project["optional-dependencies"]["dev"],
        *PYPROJECT["build-system"]["requires"],
    ]
    return [Requirement(text) for text in texts]


def test_S_BUILD_1_every_pinned_package_has_hashes() -> None:
    found = pins()
    assert len(found) > 30, "requirements.lock lists too few packages: is it the uv output?"
    unhashed = [pin.name for pin in found if pin.hashes == 0]
    assert not unhashed, f"pinned without a hash (pip --require-hashes refuses): {unhashed}"


def test_S_BUILD_1_every_requirement_of_pyproject_is_pinned_within_its_range() -> None:
    by_name: dict[str, list[Pin]] = {}
    for pin in pins():
        by_name.setdefault(pin.name, []).append(pin)
    problems = []
    for requirement in wanted():
        name = canonicalize_name(requirement.name)
        if name not in by_name:
            problems.append(f"{requirement} is not in requirements.lock")
            continue
        for pin in by_name[name]:
            if pin.version not in requirement.specifier:
                marker = f" ; {pin.marker}" if pin.marker else ""
                problems.append(f"{requirement} but the lock pins {name}=={pin.version}{marker}")
    assert not problems, "pyproject.toml and requirements.lock disagree (run `make lock`):\n" + (
        "\n".join(problems)
    )


def test_the_lock_pins_one_release_of_each_package_for_this_python() -> None:
    """Two pins of one package must be for different interpreters (their markers), so that
    pip installs exactly one."""
    environment = {"python_full_version": "3.11.7", "python_version": "3.11"}
    here: dict[str, list[Version]] = {}
    for pin in pins():
        if pin.marker is None or pin.marker.evaluate(environment):
            here.setdefault(pin.name, []).append(pin.version)
    doubled = {name: versions for name, versions in here.items() if len(versions) > 1}
    assert not doubled, f"several releases pinned for Python 3.11: {doubled}"


def test_S_BUILD_1_make_installs_from_the_lock_with_hashes() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes" in makefile and "-r requirements.lock" in makefile
    # The project itself adds nothing unpinned: no dependency resolution, no build isolation.
    assert "--no-deps --no-build-isolation -e ." in makefile
