"""Seed 002 Experiment 3: the layerwise causal intervention, end to end on one model.

Run from the repository root (needs the ``llm`` extra):

    python -m benchmarks.matrix_experiment3 --quick                  # tiny random model, CPU: about a minute
    python -m benchmarks.matrix_experiment3                          # tiny model at the paper's sizes (slow on a CPU)
    python -m benchmarks.matrix_experiment3 --model Qwen/Qwen2.5-7B-Instruct --device cuda   # the paper's run

Every step uses the project's pieces (``baselines.llm.replay``, ``baselines.llm.steering``,
``HFPolicy``, ``negotiation_env.analysis``); the numbers are the paper's (D.1-D.3, F.3,
F.7) unless a flag says otherwise:

1. **Capture cohort** (D.1): ``--trajectories`` (10) Prisoner's Dilemma communication
   dyads per context (``--contexts``, the six framings), the model in both seats,
   temperature 0.8, top-p 1, at most 64 message and 8 action tokens; trajectory ``i``
   is seeded ``42 + i``. Fallbacks keep the dyad going (``on_error="continue"``): the
   paper's Experiment 3 trajectories carry parser fallbacks (D.4) rather than ending.
2. **Split** (D.1): the complete decision keys (dyad, agent, round) shuffled with seed
   20,260,701 and cut 65 / 35 into construction and held-out
   (:func:`baselines.llm.replay.split_decisions`).
3. **Direction** (Eq. S7): at every tested layer (``--layers``: the even layers 2, 4,
   ..., up to 28 or the model's depth), the unit difference of the final-token
   residual means of the mutual-benefit and self-prioritizing messages, each message
   under a synthetic partner-A and partner-B history, from the construction decisions
   (:func:`baselines.llm.replay.message_direction`).
4. **One-step test** (Eq. S8): on ``--heldout-per-context`` (25) held-out no-message
   replays per context (150), the slope of the A-B logit margin against alpha in
   (-2, -1, -0.5, 0.5, 1, 2) for the learned direction minus the slope for an
   equal-norm random direction (layer ``l``'s seeded ``20,260,701 + 99 + l``), averaged
   within context x simulation groups (the trajectory a decision comes from), then a
   one-sample Student t over the group means (A.5). A context's decisions are its first
   held-out ones in capture order (trajectory, round, seat; ``--heldout-order capture``),
   so they come from a few trajectories: at the paper's sizes and split seed that makes
   the 25 context-simulation groups of A.5 and F.7 (4 or 5 per context).
5. **Closed loop** (Eq. S9): ``--closed-per-context`` (10) seeds per context (60; seed
   ``100,042 + i``) are played clean and, at every layer, with the direction projected
   out at every action decision (messages untouched), sharing context and seed; the
   outcome is the dyad's realized switching S (both agents pooled) ablated minus clean,
   with a one-sample Student t over the pairs (also: the same without pairs holding a
   fallback, D.4's sensitivity, and how many action answers the ablation changed).
6. **Correction**: Benjamini-Hochberg across the tested layers, separately for the
   one-step and the closed-loop outcome (q < ``--alpha``, 0.05).

Where the paper is silent, ours (each a flag): which 25 held-out decisions of a context
step 4 takes. The paper says only "selected as 25 per context" and "25 context-simulation
groups"; taking them in capture order is the reading that gives 25 groups (seed
20,260,701, 6 x 10 trajectories of 10 rounds: exactly 25), where taking them in the
split's shuffled order (``--heldout-order shuffled``) spreads them over 59 of the 60
trajectories, nearly one decision a group. The acknowledgement call is the game's default (on);
an outcome without spread (every group or pair the same) gets an interval at the point
and no p (it stays out of the correction); the context window is the model's own (the
paper's Ollama budget was 2,048 tokens). Games are played ``--batch-games`` at a time in
lock-step (one ``generate`` call per decision across games; each game keeps its own seeds,
so a game plays as it would alone up to floating-point effects of padding).

Prints the layer table and writes ``benchmarks/results/matrix_experiment3.json``
(``--quick``: ``matrix_experiment3_quick.json``) with every setting, the per-group and
per-pair values, the estimates, ``q`` and ``machine_info()``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.machine import PACKAGES, machine_info, write_result

EXTRA_PACKAGES = ("torch", "transformers", "tokenizers", "accelerate")
CONTEXTS = ("neutral", "business", "environmental", "social", "team", "international_relations")
#: F.3's seeds
CAPTURE_SEED = 42
CLOSED_SEED = 100_042
SPLIT_SEED = 20_260_701
RANDOM_SEED = 20_260_701 + 99
#: ``--heldout-order``: which held-out decisions of a context the one-step test takes first
HELDOUT_ORDERS = ("capture", "shuffled")
QUICK = {"contexts": "neutral,business", "trajectories": 2, "rounds": 4, "heldout_per_context": 4,
         "closed_per_context": 2, "message_tokens": 8, "action_tokens": 2}


# --------------------------------------------------------------------------- settings


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    m = p.add_argument_group("model")
    m.add_argument("--model", default=None, help="a local folder or hub id (default: a tiny random model built here)")
    m.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N, mps (default auto)")
    m.add_argument("--dtype", default="auto", help="auto, float32, bfloat16, float16 (default auto)")
    m.add_argument("--temperature", type=float, default=0.8, help="sampling temperature (default 0.8, F.3)")
    m.add_argument("--top-p", type=float, default=1.0, help="top-p (default 1.0)")
    m.add_argument("--message-tokens", type=int, default=64, help="generation limit of a message (default 64)")
    m.add_argument("--action-tokens", type=int, default=8, help="generation limit of an action (default 8)")
    m.add_argument("--tiny-layers", type=int, default=4, help="layers of the tiny model (default 4)")
    m.add_argument("--tiny-hidden", type=int, default=64, help="hidden size of the tiny model (default 64)")
    g = p.add_argument_group("design")
    g.add_argument("--layers", default="even", help="decoder blocks to test (1-based): 'even' (2, 4, ... up to 28 "
                   "or the model's depth, default), 'all', or a comma-separated list")
    g.add_argument("--contexts", default=",".join(CONTEXTS), help="framings, comma-separated (default all six)")
    g.add_argument("--stage-game", default="prisoners_dilemma", help="stage game (default prisoners_dilemma)")
    g.add_argument("--rounds", type=int, default=10, help="rounds per dyad (default 10)")
    g.add_argument("--trajectories", type=int, default=10, help="capture dyads per context (default 10)")
    g.add_argument("--construction", type=float, default=0.65, help="construction share of the split (default 0.65)")
    g.add_argument("--heldout-per-context", type=int, default=25,
                   help="held-out no-message decisions per context in the one-step test (default 25)")
    g.add_argument("--heldout-order", choices=HELDOUT_ORDERS, default="capture",
                   help="which held-out decisions of a context the one-step test takes: the first in capture order "
                        "(trajectory, round, seat; default: 25 context-simulation groups at the paper's sizes, as A.5) "
                        "or the first in the split's shuffled order (one or two decisions a trajectory)")
    g.add_argument("--closed-per-context", type=int, default=10, help="closed-loop seed pairs per context (default 10)")
    g.add_argument("--on-error", default="continue", help="the game's on_error (default continue, see the docstring)")
    g.add_argument("--acknowledgement", action=argparse.BooleanOptionalAction, default=True,
                   help="the game's acknowledgement call (default on, the game's default)")
    g.add_argument("--alpha", type=float, default=0.05, help="Benjamini-Hochberg level (default 0.05)")
    g.add_argument("--confidence", type=float, default=0.95, help="Student-t interval level (default 0.95)")
    r = p.add_argument_group("run")
    r.add_argument("--batch-games", type=int, default=8, help="games played in lock-step (default 8)")
    r.add_argument("--quick", action="store_true", help="smoke settings: " + ", ".join(f"{k}={v}" for k, v in QUICK.items()))
    r.add_argument("--out", default=None, help="JSON path (default benchmarks/results/matrix_experiment3[_quick].json)")
    r.add_argument("--no-progress", action="store_true", help="print nothing while running")
    return p


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(argv)
    if args.quick:
        explicit = {a.dest for a in p._actions if any(o in (argv or sys.argv[1:]) for o in a.option_strings)}
        for k, v in QUICK.items():
            if k not in explicit:
                setattr(args, k, v)
    args.contexts = [c.strip() for c in str(args.contexts).split(",") if c.strip()]
    bad = [c for c in args.contexts if c not in CONTEXTS]
    if bad or not args.contexts:
        p.error(f"--contexts must be framings among {', '.join(CONTEXTS)}; got {bad or args.contexts}")
    for name in ("rounds", "trajectories", "heldout_per_context", "closed_per_context", "message_tokens",
                 "action_tokens", "batch_games"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.rounds < 2:
        p.error("--rounds must be at least 2 (switching needs two rounds)")
    return args


def layers_of(spec: str, depth: int) -> list[int]:
    """The tested blocks: 'even' (2, 4, ..., min(28, depth); all blocks if the model has
    one), 'all', or a list (each in 1..depth)."""
    if spec == "even":
        got = list(range(2, min(28, depth) + 1, 2))
        return got or list(range(1, depth + 1))
    if spec == "all":
        return list(range(1, depth + 1))
    try:
        got = sorted({int(x) for x in spec.split(",") if x.strip()})
    except ValueError:
        raise SystemExit(f"--layers must be 'even', 'all' or integers; got {spec!r}") from None
    if not got or got[0] < 1 or got[-1] > depth:
        raise SystemExit(f"--layers must lie in 1..{depth} (the model's decoder blocks); got {spec!r}")
    return got


class _Progress:
    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.t0 = time.perf_counter()

    def say(self, text: str) -> None:
        if self.enabled:
            print(f"[{time.perf_counter() - self.t0:7.1f} s] {text}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- play


class _Seat:
    """What one game's recorder reads about the last call made for that game."""

    def __init__(self) -> None:
        self.last_usage: dict[str, Any] | None = None
        self.last_reasoning: str | None = None


def game_config(args: argparse.Namespace, framing: str) -> dict[str, Any]:
    return {"stage_game": args.stage_game, "framing": framing, "treatment": "communication",
            "num_rounds": args.rounds, "on_error": args.on_error, "acknowledgement": args.acknowledgement}


def play_games(policy: Any, games: Sequence[tuple[int, Mapping[str, Any]]], *, message_tokens: int,
               action_tokens: int, interventions: Sequence[Any] = (), batch_games: int = 8) -> list[Any]:
    """Play ``games`` (``(seed, config)`` pairs; the model in both seats) in lock-step
    chunks of ``batch_games`` and return their traces in order. Each game's ``i``-th model
    call is seeded ``call_seed(seed, i)``, as :func:`baselines.llm.replay.play_matrix`
    (``policy.reset(seed)``, then ``act``) seeds it, so a game alone plays the same;
    action decisions get at most ``action_tokens`` new tokens, the others (messages,
    acknowledgements) ``message_tokens``; ``interventions`` apply at action decisions only."""
    import negotiation_env
    from baselines.llm.prompting import call_seed
    from baselines.llm.replay import is_action_decision
    from negotiation_env.traces import record
    from negotiation_env.traces.recorder import describe_policy

    traces: list[Any] = []
    budget = policy.max_new_tokens
    ctx = policy.intervene(*interventions, when=is_action_decision) if interventions else contextlib.nullcontext()
    with ctx:
        for start in range(0, len(games), batch_games):
            open_games = []
            for seed, config in games[start:start + batch_games]:
                env = record(negotiation_env.env(game="matrix", **config), keep=True)
                seats = {a: _Seat() for a in env.possible_agents}
                env.set_policies(seats, {a: describe_policy(policy, seed=seed) for a in env.possible_agents})
                env.reset(seed=seed)
                open_games.append({"env": env, "seed": seed, "calls": 0, "turns": iter(env.agent_iter()),
                                   "seats": seats})
            live = list(open_games)
            while live:
                asks = []
                for g in live:
                    for agent in g["turns"]:
                        obs, _r, term, trunc, _info = g["env"].last()
                        if term or trunc:
                            g["env"].step(None)
                            continue
                        asks.append((g, agent, obs))
                        break
                live = [g for g, _, _ in asks]
                for is_action in (False, True):
                    part = [a for a in asks if is_action_decision(a[2]) == is_action]
                    if not part:
                        continue
                    seeds = []
                    for g, _, _ in part:
                        seeds.append(call_seed(g["seed"], g["calls"]))
                        g["calls"] += 1
                    policy.max_new_tokens = action_tokens if is_action else message_tokens
                    try:
                        answers = policy.act_batch([obs for _, _, obs in part], seeds=seeds)
                    finally:
                        policy.max_new_tokens = budget
                    for (g, agent, _), answer, usage, reasoning in zip(part, answers, policy.last_batch_usage,
                                                                      policy.last_batch_reasoning):
                        g["seats"][agent].last_usage = usage
                        g["seats"][agent].last_reasoning = reasoning
                        g["env"].step(answer)
            traces.extend(g["env"].last_trace for g in open_games)
    return traces


# --------------------------------------------------------------------------- statistics


def t_summary(values: Sequence[float], confidence: float = 0.95) -> dict[str, Any]:
    """One-sample Student t of ``values`` against 0: ``n``, ``mean``, ``sd``, ``t``, ``df``,
    ``p`` (two-sided), ``ci``. Fewer than two values: no interval, no p; no spread: the
    interval is the point and there is no p."""
    import numpy as np
    import scipy.stats

    x = np.asarray(list(values), dtype=float)
    out: dict[str, Any] = {"n": int(x.size), "mean": float(x.mean()) if x.size else None, "sd": None, "t": None,
                           "df": None, "p": None, "ci": None}
    if x.size < 2:
        return out
    out["df"] = int(x.size - 1)
    if x.max() == x.min():  # every value the same (std would be rounding noise)
        out["sd"], out["ci"] = 0.0, (float(x[0]), float(x[0]))
        out["mean"] = float(x[0])
        return out
    out["sd"] = float(x.std(ddof=1))
    res = scipy.stats.ttest_1samp(x, 0.0)
    ci = res.confidence_interval(confidence)
    out.update(t=float(res.statistic), p=float(res.pvalue), ci=(float(ci.low), float(ci.high)))
    return out


def one_step_groups(held: Sequence[Any], contexts: Sequence[str], per_context: int, *,
                    context: Callable[[Any], str], trajectory: Callable[[Any], int],
                    position: Callable[[Any], Any], order: str = "capture") -> dict[tuple[str, int], list[Any]]:
    """The one-step test's decisions by context x simulation group (A.5): per context in
    ``contexts`` order, its first ``per_context`` decisions of ``held`` (the split's
    held-out keys, in its shuffled order), taken in capture order (``order="capture"``:
    sorted by ``position``, e.g. (trajectory, round, seat)) or as the split left them
    (``"shuffled"``); grouped by ``(context, trajectory)`` of each key, the groups sorted,
    each group's keys in the order taken."""
    if order not in HELDOUT_ORDERS:
        raise ValueError(f"order must be one of {', '.join(HELDOUT_ORDERS)}; got {order!r}")
    groups: dict[tuple[str, int], list[Any]] = {}
    for c in contexts:
        keys = [k for k in held if context(k) == c]
        if order == "capture":
            keys.sort(key=position)
        for k in keys[:per_context]:
            groups.setdefault((c, trajectory(k)), []).append(k)
    return dict(sorted(groups.items()))


def correct(estimates: Iterable[dict[str, Any]], alpha: float) -> None:
    """Benjamini-Hochberg over the estimates with a p (in place: ``q``, ``significant``)."""
    from negotiation_env.analysis.stats import benjamini_hochberg

    est = list(estimates)
    tested = [e for e in est if e["p"] is not None]
    qs = benjamini_hochberg([e["p"] for e in tested]) if tested else []
    for e in est:
        e["q"], e["significant"] = None, False
    for e, q in zip(tested, qs):
        e["q"], e["significant"] = float(q), bool(q < alpha)


# --------------------------------------------------------------------------- the experiment


def _context_of(trace: Any) -> str:
    return (trace.config or {}).get("framing")


def load_policy(args: argparse.Namespace, work: Path) -> tuple[Any, dict[str, Any]]:
    from baselines.llm.hf import HFPolicy

    if args.model:
        path, info = args.model, {"model": args.model, "tiny": False}
    else:
        from baselines.llm.tiny import build_tiny_model

        path = str(build_tiny_model(work / "tiny", num_layers=args.tiny_layers, hidden_size=args.tiny_hidden))
        info = {"model": "tiny", "tiny": True, "layers": args.tiny_layers, "hidden_size": args.tiny_hidden}
    pol = HFPolicy(path, device=args.device, dtype=args.dtype, temperature=args.temperature, top_p=args.top_p,
                   max_new_tokens=max(args.message_tokens, args.action_tokens), seed=CAPTURE_SEED)
    info.update(depth=len(pol.decoder_layers()), hidden=int(pol.model.config.hidden_size), device=pol.device,
                dtype=pol.dtype)
    return pol, info


def experiment(args: argparse.Namespace, work: Path, progress: _Progress) -> dict[str, Any]:
    import numpy as np

    from baselines.llm.replay import message_direction, split_decisions
    from baselines.llm.steering import ALPHAS, Ablate, logit_margin_slope, random_direction
    from negotiation_env.analysis.matrix_metrics import dyad_metrics
    from negotiation_env.games.matrix import replay_observation

    t0 = time.perf_counter()
    pol, model = load_policy(args, work)
    layers = layers_of(args.layers, model["depth"])
    play = dict(message_tokens=args.message_tokens, action_tokens=args.action_tokens, batch_games=args.batch_games)

    # 1. capture cohort (trajectory i: seed 42 + i, contexts in order)
    plan = [(CAPTURE_SEED + k * args.trajectories + i, game_config(args, c))
            for k, c in enumerate(args.contexts) for i in range(args.trajectories)]
    progress.say(f"capture: {len(plan)} dyads of {args.rounds} rounds")
    capture = play_games(pol, plan, **play)
    complete = [t for t in capture if t.status == "complete"]
    traj_index = {t.game_id: i for i, t in enumerate(capture)}
    as_dict = {t.game_id: t.to_dict() for t in complete}

    # 2. split the complete decision keys 65/35
    keys = [(t, a, r) for t in complete for r in range(1, len(t.rounds) + 1) for a in t.agents]
    construction, held = split_decisions(keys, args.construction, SPLIT_SEED)
    if not construction or not held:
        raise SystemExit(f"{len(keys)} decision(s): too few to split into construction and held-out sets")

    # 3. the history-balanced direction per layer
    progress.say(f"direction: {len(construction)} construction decisions x 4 variants, layers {layers}")
    directions = message_direction(pol, [(as_dict[t.game_id], a, r) for t, a, r in construction], layers)

    # 4. one-step: balanced held-out no-message decisions, slopes per context x simulation group
    keys_by_group = one_step_groups(
        held, args.contexts, args.heldout_per_context, order=args.heldout_order,
        context=lambda k: _context_of(k[0]), trajectory=lambda k: traj_index[k[0].game_id],
        position=lambda k: (traj_index[k[0].game_id], k[2], list(k[0].agents).index(k[1])))
    chosen = [k for ks in keys_by_group.values() for k in ks]
    groups = {g: [replay_observation(as_dict[t.game_id], a, r, "no_message") for t, a, r in ks]
              for g, ks in keys_by_group.items()}
    progress.say(f"one-step: {len(chosen)} held-out decisions in {len(groups)} groups, {len(ALPHAS)} alphas")
    one_step = []
    for layer in layers:
        d = directions[layer]
        rnd = random_direction(d.numel(), RANDOM_SEED + layer, norm=float(d.norm()))
        per_group = []
        for (c, i), obs in sorted(groups.items()):
            learned = logit_margin_slope(pol, obs, layer, d)
            control = logit_margin_slope(pol, obs, layer, rnd)
            per_group.append({"context": c, "trajectory": i, "decisions": len(obs), "learned": learned,
                              "random": control, "difference": learned - control})
        est = t_summary([g["difference"] for g in per_group], args.confidence)
        est.update(layer=layer, learned_mean=float(np.mean([g["learned"] for g in per_group])),
                   random_mean=float(np.mean([g["random"] for g in per_group])), groups=per_group)
        one_step.append(est)

    # 5. closed loop: clean and ablated play share context and seed
    seeds = [(CLOSED_SEED + k * args.closed_per_context + i, game_config(args, c))
             for k, c in enumerate(args.contexts) for i in range(args.closed_per_context)]
    progress.say(f"closed loop: {len(seeds)} clean dyads")
    clean = play_games(pol, seeds, **play)

    def summary(trace: Any) -> dict[str, Any]:
        m = dyad_metrics(trace)
        fallbacks = sum(len(v) for r in trace.rounds for v in (r.outcome.get("fallbacks") or {}).values())
        return {"S": m["S"], "rounds": m["rounds"], "fallbacks": fallbacks, "status": trace.status}

    clean_s = [summary(t) for t in clean]

    def answers(trace: Any) -> list[str]:
        return [st.action for st in trace.steps if st.phase == "action"]
    closed = []
    for layer in layers:
        progress.say(f"closed loop: layer {layer}, {len(seeds)} ablated dyads")
        ablated = play_games(pol, seeds, interventions=[Ablate(layer, directions[layer])], **play)
        pairs = []
        for (seed, cfg), c, ct, t in zip(seeds, clean_s, clean, ablated):
            a = summary(t)
            changed = sum(x != y for x, y in zip(answers(ct), answers(t))) + abs(len(answers(ct)) - len(answers(t)))
            pairs.append({"seed": seed, "context": cfg["framing"], "clean_S": c["S"], "ablated_S": a["S"],
                          "difference": None if a["S"] is None or c["S"] is None else a["S"] - c["S"],
                          "fallbacks": c["fallbacks"] + a["fallbacks"], "answers_changed": changed})
        usable = [p for p in pairs if p["difference"] is not None]
        est = t_summary([p["difference"] for p in usable], args.confidence)
        no_fallback = t_summary([p["difference"] for p in usable if p["fallbacks"] == 0], args.confidence)
        est.update(layer=layer, clean_mean=float(np.mean([p["clean_S"] for p in usable])) if usable else None,
                   ablated_mean=float(np.mean([p["ablated_S"] for p in usable])) if usable else None,
                   pairs_with_fallbacks=sum(p["fallbacks"] > 0 for p in pairs), without_fallback_pairs=no_fallback,
                   pairs=pairs)
        closed.append(est)

    # 6. Benjamini-Hochberg across layers, per outcome
    correct(one_step, args.alpha)
    correct(closed, args.alpha)
    return {
        "benchmark": "matrix_experiment3",
        "settings": {k: v for k, v in vars(args).items() if k not in ("out", "no_progress")},
        "model": model, "layers": layers, "alphas": list(ALPHAS),
        "cohort": {"capture_dyads": len(capture), "complete": len(complete), "decisions": len(keys),
                   "construction": len(construction), "held_out": len(held), "one_step_decisions": len(chosen),
                   "one_step_groups": len(groups), "closed_loop_pairs": len(seeds),
                   "capture_fallbacks": sum(summary(t)["fallbacks"] for t in capture)},
        "one_step": one_step, "closed_loop": closed, "seconds": time.perf_counter() - t0,
    }


# --------------------------------------------------------------------------- output


def _f(v: Any, fmt: str = ".3f") -> str:
    return "–" if v is None else format(v, fmt)


def _ci(ci: Any) -> str:
    return "–" if ci is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def render_table(result: Mapping[str, Any]) -> str:
    head = ["layer", "learned - random slope", "95% CI", "p", "q", "ablated - clean S", "95% CI", "p", "q"]
    rows = []
    for o, c in zip(result["one_step"], result["closed_loop"]):
        rows.append([str(o["layer"]), _f(o["mean"]), _ci(o["ci"]), _f(o["p"]), _f(o["q"]) + ("*" if o["significant"] else ""),
                     _f(c["mean"]), _ci(c["ci"]), _f(c["p"]), _f(c["q"]) + ("*" if c["significant"] else "")])
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "  ".join(x.rjust(w) for x, w in zip(r, widths))  # noqa: E731
    n = result["cohort"]
    title = (f"Experiment 3 on {result['model']['model']} ({result['model']['depth']} layers): one-step over "
             f"{n['one_step_groups']} groups, closed loop over {n['closed_loop_pairs']} pairs; * q < "
             f"{result['settings']['alpha']} (Benjamini-Hochberg across layers, per outcome)")
    return "\n".join([title, line(head)] + [line(r) for r in rows])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    progress = _Progress(not args.no_progress)
    with tempfile.TemporaryDirectory(prefix="experiment3-") as tmp:
        result = experiment(args, Path(tmp), progress)
    print(render_table(result))
    result["machine"] = machine_info(PACKAGES + EXTRA_PACKAGES)
    default = "matrix_experiment3_quick.json" if args.quick else "matrix_experiment3.json"
    write_result(Path(args.out) if args.out else ROOT / "benchmarks" / "results" / default, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
