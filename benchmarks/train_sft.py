"""The SFT loop's figures on the record: ``negotiation-env train sft`` with the result,
the machine and the package versions written to ``benchmarks/results/``.

Run from the repository root (the ``sft`` extra):

    python -m benchmarks.train_sft                      # the full run: a tiny random model on CPU
    python -m benchmarks.train_sft --quick              # smoke run (smaller settings)
    python -m benchmarks.train_sft --model Qwen/Qwen2.5-0.5B-Instruct --steps 200 --batch-games 8   # a GPU box

Every flag but ``--out`` and ``--no-progress`` is one of
:class:`negotiation_env.train.sft.SFTRunConfig`'s fields or a ``negotiation-env train
sft`` option; the loop itself is :func:`negotiation_env.train.sft.run` (the Training
docs page). Writes ``benchmarks/results/train_sft.json`` (``--quick``:
``train_sft_quick.json``) with every figure, the settings, the training loss curve and
``machine_info()``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from benchmarks.machine import PACKAGES, ROOT, machine_info, write_result
from negotiation_env.train import sft
from negotiation_env.train.fields import add_config_arguments, config_from_arguments
from negotiation_env.train.progress import RichProgress, TrainProgress


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--work", default=None, help="keep the run folders, the SFT table and the models here "
                   "(default: a temporary folder, removed at the end)")
    p.add_argument("--out", default=None, help="result JSON (default benchmarks/results/train_sft.json)")
    p.add_argument("--quick", action="store_true", help="smoke run: the QUICK sizes of negotiation_env.train.sft")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    add_config_arguments(p.add_argument_group("SFTRunConfig fields"), sft.SFTRunConfig)
    return p


def main(argv: list[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        config = config_from_arguments(sft.SFTRunConfig, args)
    except ValueError as e:
        p.error(str(e))
    if args.quick:
        config = sft.quick(config)
    progress = TrainProgress() if args.no_progress else RichProgress()
    if args.work:
        work = Path(args.work)
        if work.exists() and any(work.iterdir()):
            p.error(f"--work {work} is not empty; the runner refuses to mix runs")
        work.mkdir(parents=True, exist_ok=True)
        result = sft.run(config, work, progress)
    else:
        with tempfile.TemporaryDirectory(prefix="train_sft-") as tmp:
            result = sft.run(config, Path(tmp), progress)
    print(sft.render_table(result["table"]))
    print(sft.summary_line(result))
    result = {"benchmark": "train_sft", **result, "machine": machine_info(PACKAGES + sft.EXTRA_PACKAGES)}
    default = "train_sft_quick.json" if args.quick else "train_sft.json"
    write_result(Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
