"""Torch CPU threads: the hf: ``threads`` option, ``run --threads`` and the warning when
threads outnumber the CPUs. Thread counts are process-global, so whatever sets them runs
in a subprocess and no setting leaks into other tests."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from negotiation_env.cli import main
from negotiation_env.core import threads as th

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, **env: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in th.THREAD_ENV}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**base, "PYTHONPATH": str(ROOT), **env})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_hf_threads_option_sets_torch_threads_and_default_warns_once(tiny_model):
    got = _python(f"""
import json, logging, torch
from negotiation_env.core.threads import available_cpus, oversubscription
from baselines.llm.hf import HFPolicy
seen = []
class H(logging.Handler):
    def emit(self, r): seen.append(r.getMessage())
logging.getLogger("negotiation_env.threads").addHandler(H())
torch.set_num_threads(available_cpus() + 1)
HFPolicy({tiny_model!r}, device="cpu")
HFPolicy({tiny_model!r}, device="cpu")
pol = HFPolicy({tiny_model!r}, device="cpu", threads=1)
print(json.dumps({{"threads": torch.get_num_threads(), "setting": pol.settings()["threads"],
                   "warnings": seen == [oversubscription(available_cpus() + 1)]}}))
""")
    assert got == {"threads": 1, "setting": 1, "warnings": True}


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "2"])
def test_hf_threads_option_is_validated(tiny_model, bad):
    from baselines.llm.hf import HFPolicy

    with pytest.raises(ValueError, match="HFPolicy option 'threads' must be an integer >= 1; got"):
        HFPolicy(tiny_model, device="cpu", threads=bad)


def test_run_threads_sets_the_variables_before_torch_loads():
    pytest.importorskip("torch")
    got = _python("""
import json, os, contextlib, io
from negotiation_env.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    rc = main(["run", "--threads", "1", "--plan"])
import torch
print(json.dumps({"rc": rc, "omp": os.environ["OMP_NUM_THREADS"], "mkl": os.environ["MKL_NUM_THREADS"],
                  "torch": torch.get_num_threads()}))
""")
    assert got == {"rc": 0, "omp": "1", "mkl": "1", "torch": 1}


def test_run_threads_refuses_a_count_below_one(tmp_path, capsys):
    before = {k: os.environ.get(k) for k in th.THREAD_ENV}
    assert main(["run", "--threads", "0", "--out", str(tmp_path / "r")]) == 2
    assert capsys.readouterr().err == "error: --threads must be an integer >= 1; got 0\n"
    assert {k: os.environ.get(k) for k in th.THREAD_ENV} == before and not (tmp_path / "r").exists()


def test_oversubscription_names_the_count_that_fits():
    assert th.oversubscription(2, 1, cpus=2) is None
    assert th.oversubscription(1, 2, cpus=2) is None
    assert th.oversubscription(4, 1, cpus=2) == (
        "torch uses 4 threads on 2 available CPUs: threads wait for cores and model calls on the CPU slow down "
        "several times; cap them with `run --threads 2` or the hf: option threads = 2 (or OMP_NUM_THREADS=2)")
    assert th.oversubscription(2, 4, cpus=2).startswith(
        "4 worker processes x 2 torch threads on 2 available CPUs: ")
    assert "`run --threads 1`" in th.oversubscription(2, 4, cpus=2)


def test_several_workers_with_default_threads_warn_once(monkeypatch, caplog):
    monkeypatch.setattr(th, "_warned", False)
    monkeypatch.setattr(th, "available_cpus", lambda: 2)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with caplog.at_level(logging.WARNING, logger="negotiation_env.threads"):
        th.configure_threads(None, 1, True)       # one process: nothing to say
        th.configure_threads(None, 3, False)      # no hf: policy: nothing to say
        assert caplog.messages == []
        th.configure_threads(None, 3, True)
        th.configure_threads(None, 3, True)
    assert caplog.messages == [th.oversubscription(2, 3, cpus=2)]
