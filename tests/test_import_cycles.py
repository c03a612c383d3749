"""The package's import graph: every module imports on its own, no module-level import
cycle, and the modules a pair shares (the report's table, the runner's game set-up)
live apart from both sides of the pair."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "negotiation_env"


def _modules() -> dict[str, tuple[Path, bool]]:
    """module name -> (file, is a package)"""
    out = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def import_graph(*, inside_functions: bool = False) -> dict[str, set[str]]:
    """module -> the package's modules it imports. Module-level statements only (class
    bodies, ``if``/``try`` blocks included, ``if TYPE_CHECKING:`` left out), unless
    ``inside_functions``. ``from pkg import name`` counts ``pkg.name`` when that is a
    module, else ``pkg``."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_pkg) in mods.items():
        here = name.split(".") if is_pkg else name.split(".")[:-1]
        deps: set[str] = set()

        def visit(nodes):
            for node in nodes:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not inside_functions:
                    continue
                if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                    visit(node.orelse)
                    continue
                if isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    base = here[:len(here) - node.level + 1] if node.level else []
                    module = ".".join(base + ([node.module] if node.module else []))
                    subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in mods]
                    deps.update(subs)
                    if len(subs) < len(node.names):
                        deps.add(module)
                visit(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))

        visit(ast.parse(path.read_text("utf-8")).body)
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found)


def test_the_cycle_finder_reports_a_cycle_and_a_self_standing_chain():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_cycle():
    graph = import_graph()
    assert len(graph) > 90
    found = cycles(graph)
    assert found == [], "module-level import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_shared_pieces_live_apart_from_both_sides():
    """The judge builds report tables without the report; the lock-step player and the
    preflight set games up without the engine (which imports them). Not even inside a
    function."""
    graph = import_graph(inside_functions=True)
    assert "negotiation_env.analysis.report" not in graph["negotiation_env.analysis.judge"]
    assert "negotiation_env.analysis.tables" in graph["negotiation_env.analysis.judge"]
    for mod in ("lockstep", "preflight"):
        deps = graph[f"negotiation_env.runner.{mod}"]
        assert "negotiation_env.runner.engine" not in deps, mod
        assert "negotiation_env.runner.playing" in deps, mod
    from negotiation_env.analysis import report, tables
    from negotiation_env.runner import engine, playing

    assert report.Table is tables.Table
    assert (engine.RunnerError, engine.open_game, engine._FREE_ENVS) == (
        playing.RunnerError, playing.open_game, playing._FREE_ENVS)


def test_every_module_imports_in_a_fresh_process():
    """Every module imported, in order, in a process that has imported nothing of the
    package yet. A module whose optional third-party dependency is not installed is
    left out."""
    code = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError as e:\n"
        "        if (e.name or '').split('.')[0] == 'negotiation_env':\n"
        "            raise\n"
    )
    res = subprocess.run([sys.executable, "-c", code, *sorted(_modules())], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr
