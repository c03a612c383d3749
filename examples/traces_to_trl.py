"""Traces to TRL datasets: SFT (conversational language modeling), SFT prompt-completion
(loss on the answer only) and DPO preference pairs.

    python examples/traces_to_trl.py [--traces runs/default] [--out data/example]

Without --traces it first plays a small scripted resource cohort into OUT/run. Every
row's context is exactly what the agent saw; the answer is what it said.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from negotiation_env.runner.engine import run
from negotiation_env.traces import export

COHORT = {"name": "example-traces", "seed": 0, "games": [{
    "game": "resource", "policies": ["scripted:oracle", "scripted:linear", "scripted:greedy"],
    "pairings": "all", "games_per_cell": 2, "config": {"num_rounds": 2, "theme": None}}]}


def main(argv: list[str] | None = None) -> dict[str, int]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", help="a run folder or traces .jsonl (default: play a small cohort)")
    parser.add_argument("--out", default="data/example", help="folder for the .jsonl files")
    args = parser.parse_args(argv)
    out = Path(args.out)
    source = args.traces or out / "run"
    if args.traces is None:
        run(COHORT, source, resume=True)

    counts = {}
    # sft: {"messages": [system, user, ..., assistant]}; only_optimal keeps jointly optimal rounds
    counts["sft"] = export.write("sft", source, out / "sft.jsonl", only_optimal=True)
    # sft_prompt_completion: {"prompt": [...], "completion": [assistant]} (TRL's loss on the completion)
    counts["sft_prompt_completion"] = export.write("sft_prompt_completion", source, out / "sft_pc.jsonl",
                                                   only_optimal=True)
    # preferences: {"prompt", "chosen", "rejected"} where one state met better and worse answers
    counts["preferences"] = export.write("preferences", source, out / "preferences.jsonl", score="reward")
    for kind, n in counts.items():
        print(f"{kind:22} {n:5} rows")

    try:  # as datasets.Dataset objects, ready for TRL (the 'data' extra)
        sft = export.to_dataset("sft_prompt_completion", source, only_optimal=True)
        prefs = export.to_dataset("preferences", source)
    except ImportError as e:
        print(e)
    else:
        print(f"datasets: {sft.num_rows} SFT rows {sft.column_names[:2]}, {prefs.num_rows} DPO pairs")
        # from trl import SFTTrainer, DPOTrainer
        # SFTTrainer(model="Qwen/Qwen3-0.6B", train_dataset=sft).train()
        # DPOTrainer(model=..., train_dataset=prefs.select_columns(["prompt", "chosen", "rejected"])).train()
    return counts


if __name__ == "__main__":
    main()
