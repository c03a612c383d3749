"""The documentation: config tables generated from the dataclasses cover every field, the
README stays a front door, and nothing in it points outside the repository."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest

import negotiation_env
from negotiation_env.core.configdoc import config_fields, config_table, field_descriptions

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_every_config_field_is_in_its_game_page(game):
    cls = negotiation_env.GAMES[game][0]
    page = (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")
    assert f"<!-- config-table: {cls.__module__}.{cls.__name__} -->" in page
    rendered = _hooks().render(page)
    rows = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", rendered, re.M)}
    assert {f.name for f in dataclasses.fields(cls)} <= rows
    assert "config-table:" not in rendered


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_every_config_field_is_described(game):
    cls = negotiation_env.GAMES[game][0]
    assert [f.name for f in config_fields(cls) if not f.description] == []


@pytest.mark.parametrize("game", sorted(negotiation_env.GAMES))
def test_config_table_defaults_are_the_dataclass_defaults(game):
    cls = negotiation_env.GAMES[game][0]
    docs = {f.name: f for f in config_fields(cls)}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            assert docs[f.name].default == repr(f.default)
    assert config_table(cls).count("\n") == len(dataclasses.fields(cls)) + 1


def test_field_descriptions_parse_entries_and_continuations():
    @dataclasses.dataclass
    class C:
        """A config.

        alpha: the first
            field, continued.
        beta, gamma: shared text.
        not_a_field: ignored.
        """

        alpha: int = 1
        beta: int = 2
        gamma: str = "x"
        delta: bool = False

    d = field_descriptions(C)
    assert d == {"alpha": "the first field, continued.", "beta": "shared text.", "gamma": "shared text."}
    rows = config_table(C).splitlines()
    assert rows[2] == "| `alpha` | `int` | `1` | the first field, continued. |"
    assert rows[-1] == "| `delta` | `bool` | `False` |  |"


def test_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text) <= 12_000
    # the two set-up commands, each in an environment of its own, on every front page
    main_job = "python -m venv .venv && . .venv/bin/activate && pip install -e . && negotiation-env run --out runs/default"
    install = 'python -m venv .venv-test && . .venv-test/bin/activate && pip install -q torch==2.13.0 && pip install -q -e ".[test]"'
    for page in (text, (DOCS / "index.md").read_text(encoding="utf-8"),
                 (DOCS / "getting-started.md").read_text(encoding="utf-8")):
        assert main_job in page and f"{install} && pytest" in page
    # CI runs the README's test command; what the commands leave in the checkout is ignored
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install in ci and ci[-1] == "pytest"
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert {".venv/", ".venv-test/", "runs/", "site/"} <= set(ignored)
    # every relative link resolves inside the repository
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        path = (ROOT / target).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), target
    assert "../" not in text and "shared/" not in text and not re.search(r"seed[- ]00\d", text, re.I)


def test_docs_name_papers_not_seed_files():
    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/seeds" not in text, page
        if page.name != "references.md":
            assert not re.search(r"\bseed[- ]00\d", text, re.I), page


def test_ci_builds_the_site_strictly():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "mkdocs build --strict" in ci


def test_the_readme_run_config_is_valid(tmp_path):
    from negotiation_env.runner.config import load_config
    from negotiation_env.runner.plan import make_plan
    from negotiation_env.runner.preflight import check_specs

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(# llm_vs_scripted\.toml\n.*?)```", text, re.S).group(1)
    cfg = tmp_path / "llm_vs_scripted.toml"
    cfg.write_text(block, encoding="utf-8")
    plan = make_plan(load_config(cfg))
    assert len(plan) == 4 * 10
    # the LLM holds each seat equally often
    seats = [s.lineup.index("qwen") for s in plan.specs]
    assert seats.count(0) == seats.count(1) == 20
    check_specs(plan)  # names, options and extras are right (no model is called)
