"""How the project installs and runs its checks: the lock file, the pinned tools, and a suite
that runs from a fresh clone (docs/testing.md, «Installing and checking»)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]

# Runs pytest the way a fresh clone would (dependencies installed, Árbitro itself not): `site`
# is skipped (-S), so the editable install's .pth finder never loads; this environment's
# site-packages are added back as plain paths, and the current directory is taken off
# sys.path, as the `pytest` script has it.
_WITHOUT_EDITABLE_INSTALL = """
import sys
sys.path = [p for p in sys.path if p not in ("", {repo!r})] + {site_packages!r}
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def _locked() -> dict[str, str]:
    """requirements.lock as {canonical name: pinned version}."""
    pins: dict[str, str] = {}
    for line in (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line and not line[0].isspace() and not line.startswith("#") and "==" in line:
            name, version = line.split(" ", 1)[0].split("==")
            pins[canonicalize_name(name)] = version
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return [
        Requirement(text)
        for text in [*project["dependencies"], *extras["dev"], *extras["postgres"]]
    ]


def test_the_suite_runs_from_a_fresh_clone_without_the_editable_install() -> None:
    """tests/standin/ once hid the real `standin` package (and tests/bot/ stood in for `bot`)
    unless `pip install -e .` had run; tests/__init__.py makes the suite a package instead."""
    run = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            _WITHOUT_EDITABLE_INSTALL.format(
                repo=str(REPO),
                site_packages=sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")}),
            ),
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "tests/standin/test_standin.py::test_synced_commands_carry_ids_and_localizations",
            "tests/bot/test_cog_layout.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" in run.stdout


def test_every_declared_dependency_is_pinned_in_the_lock() -> None:
    """`make lock` after a change to pyproject.toml: CI installs requirements.lock only."""
    pins = _locked()
    missing = [str(req) for req in _declared() if canonicalize_name(req.name) not in pins]
    outside = [
        f"{req} (locked {pins[canonicalize_name(req.name)]})"
        for req in _declared()
        if canonicalize_name(req.name) in pins
        and not req.specifier.contains(pins[canonicalize_name(req.name)], prereleases=True)
    ]
    assert not missing and not outside, (
        f"not in requirements.lock: {missing}; outside pyproject: {outside}"
    )


def test_the_build_backend_is_locked_too() -> None:
    """The Makefile installs Árbitro with --no-build-isolation: setuptools comes from the lock."""
    backend = Requirement(
        tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["build-system"][
            "requires"
        ][0]
    )
    assert backend.specifier.contains(_locked()[canonicalize_name(backend.name)])


def test_the_checking_tools_are_the_locked_ones() -> None:
    """ruff and mypy give the same verdict everywhere only at the same version: the ones
    pinned in pyproject.toml and the lock, and installed by `make`."""
    pins = _locked()
    for tool in ("ruff", "mypy"):
        declared = next(req for req in _declared() if req.name == tool)
        assert str(declared.specifier) == f"=={pins[tool]}", declared
        assert metadata.version(tool) == pins[tool], f"{tool}: run make (the lock changed)"
