"""Dependencies point down: ``negotiation_env`` never imports ``baselines``.

``baselines`` (the policies) builds on the environment package; the environment package
reaches a policy only by name, through the runner's policy specs
(:mod:`negotiation_env.runner.policies` resolves ``scripted:``, ``hf:`` and ``openai:`` at
run time, and a game's spec names its scripted module as a string). Two checks:

* no import statement anywhere in the package (functions included) names ``baselines``,
  nor does an ``importlib.import_module`` call outside the runner's policy lookup;
* every module of the package imports in a process where ``baselines`` cannot be
  imported at all, and the failure names the module that tried.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "negotiation_env"
#: the one place that turns a policy spec into a ``baselines`` module, by name at run time
PLUGIN_LOOKUP = Path(PACKAGE, "runner", "policies.py")


def _is_baselines(name: str | None) -> bool:
    return bool(name) and (name == "baselines" or name.startswith("baselines."))


def baselines_imports(source: str, path: Path) -> list[str]:
    """``path:line: what`` for each import of ``baselines`` in ``source``: import
    statements at any depth, and ``import_module`` / ``__import__`` calls on a literal
    name (allowed in :data:`PLUGIN_LOOKUP` only)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{path}:{node.lineno}: import {a.name}" for a in node.names if _is_baselines(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_baselines(node.module):
            found.append(f"{path}:{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call) and path != PLUGIN_LOOKUP:
            fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            arg = node.args[0] if node.args else None
            if fn in ("import_module", "__import__") and isinstance(arg, ast.Constant) \
                    and isinstance(arg.value, str) and _is_baselines(arg.value):
                found.append(f"{path}:{node.lineno}: {fn}({arg.value!r})")
    return found


def test_the_scan_finds_imports_at_any_depth():
    src = textwrap.dedent("""
        import os
        from baselines.scripted import make
        def f():
            import baselines.llm.api as api
            from negotiation_env import env
            return importlib.import_module("baselines.scripted.view")
        spec = "baselines.scripted"
    """)
    assert baselines_imports(src, Path("m.py")) == [
        "m.py:3: from baselines.scripted import ...",
        "m.py:5: import baselines.llm.api",
        "m.py:7: import_module('baselines.scripted.view')",
    ]
    assert baselines_imports("from baselinesx import y\nimport baseline\n", Path("m.py")) == []


def test_no_module_of_the_package_imports_baselines():
    found = []
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        found += baselines_imports(path.read_text("utf-8"), path.relative_to(ROOT))
    assert found == [], "negotiation_env imports baselines (move what both need into negotiation_env):\n" + \
        "\n".join(found)


#: run in a fresh process: refuse ``baselines``, import every module given, print who tried
_BLOCKED = textwrap.dedent("""
    import importlib, sys, traceback

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name == "baselines" or name.startswith("baselines."):
                here = [f for f in traceback.extract_stack() if "/negotiation_env/" in f.filename.replace("\\\\", "/")]
                who = f"{here[-1].filename}:{here[-1].lineno}" if here else "?"
                raise ImportError(f"BLOCKED {name} imported from {who}")
            return None

    sys.meta_path.insert(0, Refuse())
    bad = []
    for name in sys.argv[1:]:
        try:
            importlib.import_module(name)
        except ImportError as e:
            if "BLOCKED" in str(e):
                bad.append(f"{name}: {e}")
            elif (getattr(e, "name", None) or "").split(".")[0] == "negotiation_env":
                raise
    print("\\n".join(bad))
    sys.exit(1 if bad else 0)
""")


def _module_names() -> list[str]:
    names = []
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _import_blocked(names: list[str], extra: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", extra + _BLOCKED, *names], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_every_module_imports_with_baselines_blocked():
    """A module whose optional third-party dependency is not installed is left out."""
    res = _import_blocked(_module_names())
    assert res.returncode == 0, f"modules that import baselines:\n{res.stdout}{res.stderr}"


def test_the_blocked_import_names_the_importer(tmp_path):
    """A planted package importing ``baselines`` fails the check, naming its file."""
    pkg = tmp_path / "plant" / "negotiation_env"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "leaky.py").write_text("x = 1\nfrom baselines.scripted import make\n")
    extra = f"import sys; sys.path.insert(0, {str(tmp_path / 'plant')!r})\n"
    res = _import_blocked(["negotiation_env.leaky"], extra)
    assert res.returncode == 1
    assert "negotiation_env.leaky: BLOCKED baselines imported from" in res.stdout
    assert res.stdout.strip().endswith("negotiation_env/leaky.py:2")
