"""No shared module branches on a game's name: outside a game's own folder
(``negotiation_env/games/<game>/``) and the registry, nothing compares a value with a
registered game's name, keys a dict literal by one, or loops over a literal list of them.
The shared modules look a game's parts up in the registry instead
(:mod:`negotiation_env.core.registry`, :func:`negotiation_env.analysis.hooks.analysis_of`)."""

from __future__ import annotations

import ast
from pathlib import Path

import negotiation_env  # noqa: F401  (registers the games)
from negotiation_env.core import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "negotiation_env"
#: the modules allowed to name games: each game's own folder and the registry
EXEMPT = (PACKAGE / "games", PACKAGE / "core" / "registry.py")


def _names(node: ast.AST, games: set[str]) -> set[str]:
    """The game names ``node`` is, or holds as a literal tuple, list or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in games:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in games}
    return set()


def game_name_branches(source: str, games: set[str]) -> list[tuple[int, str]]:
    """(line, what) for each branch on a game-name literal in ``source``: a comparison
    (``==``, ``!=``, ``in``, ``not in``) with one, a dict literal keyed by one, a ``for``
    over a literal collection of them, a ``case`` pattern of one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            hit = set().union(*(_names(x, games) for x in [node.left, *node.comparators]))
            if hit:
                found.append((node.lineno, f"compares with {sorted(hit)}"))
        elif isinstance(node, ast.Dict):
            hit = set().union(*(_names(k, games) for k in node.keys if k is not None))
            if hit:
                found.append((node.lineno, f"a dict keyed by {sorted(hit)}"))
        elif isinstance(node, (ast.For, ast.comprehension)):
            hit = _names(node.iter, games)
            if hit:
                found.append((node.iter.lineno, f"loops over {sorted(hit)}"))
        elif isinstance(node, ast.MatchValue):
            hit = _names(node.value, games)
            if hit:
                found.append((node.lineno, f"a case of {sorted(hit)}"))
    return sorted(found)


def test_the_scanner_finds_each_kind_of_branch_and_nothing_else():
    games = {"resource", "matrix"}
    src = ("if game == 'resource': pass\n"
           "x = {'matrix': 1}.get(game)\n"
           "for g in ('resource', 'other'): pass\n"
           "y = [t for t in ts if t.get('game') != 'matrix']\n"
           "z = game in ['matrix']\n"
           "match game:\n    case 'resource': pass\n"
           "usable(traces, 'resource')\n"
           "w = game == 'rulemaking'\n")
    assert game_name_branches(src, games) == [
        (1, "compares with ['resource']"), (2, "a dict keyed by ['matrix']"), (3, "loops over ['resource']"),
        (4, "compares with ['matrix']"), (5, "compares with ['matrix']"), (7, "a case of ['resource']")]


def test_no_shared_module_branches_on_a_game_name():
    games = set(registry.names())
    assert {"resource", "rulemaking", "matrix"} <= games
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if any(path == e or e in path.parents for e in EXEMPT):
            continue
        for line, what in game_name_branches(path.read_text("utf-8"), games):
            offenders.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert offenders == [], "branches on a game's name outside its folder:\n" + "\n".join(offenders)
