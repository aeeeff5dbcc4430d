"""The project's habits: one version, a licence matching the metadata, a changelog, and
pre-commit hooks that run what CI runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import rummy500

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    section = data["project"]
    assert isinstance(section, dict)
    return section


def test_the_version_is_written_once_and_printed() -> None:
    done = subprocess.run([sys.executable, "-m", "rummy500", "--version"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"rummy500 {rummy500.__version__}\n")
    assert "version" not in project()
    assert project()["dynamic"] == ["version"]
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["dynamic"]["version"] == {"attr": "rummy500.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", rummy500.__version__)


def test_the_licence_file_is_the_one_the_metadata_names() -> None:
    assert project()["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_changelog_has_the_released_version_and_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert any(heading.startswith(f"{rummy500.__version__} - ") for heading in headings)


def test_the_pre_commit_hooks_run_what_ci_runs() -> None:
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    entries = re.findall(r"^\s+entry: (.+)$", config, re.MULTILINE)
    ci = (ROOT / "scripts" / "check").read_text(encoding="utf-8").splitlines()
    assert len(entries) == 2
    assert {entry.split()[0] for entry in entries} == {".venv/bin/ruff", ".venv/bin/mypy"}
    for entry in entries:
        assert entry in ci
