"""Package metadata: one version everywhere, py.typed shipped, a changelog that names the
current version and every env id."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import negotiation_env

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_one_version_and_typed_marker_shipped():
    project = PROJECT["project"]
    assert project["version"] == negotiation_env.__version__
    assert (ROOT / "negotiation_env" / "py.typed").is_file()
    assert "py.typed" in PROJECT["tool"]["setuptools"]["package-data"]["negotiation_env"]
    assert "Typing :: Typed" in project["classifiers"] and project["keywords"]
    # no URL that the repository cannot vouch for
    assert "urls" not in project


def test_changelog_has_unreleased_the_current_version_and_every_env_id():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "Unreleased"
    assert negotiation_env.__version__ in headings
    for env_id in negotiation_env.ENV_IDS:
        assert f"`{env_id}`" in text, env_id
