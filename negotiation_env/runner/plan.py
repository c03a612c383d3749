"""The planned set of games: a deterministic list of :class:`GameSpec` from a run config.

Order: for each game block, each condition (explicit conditions x the product of the
factors, in file order), each scenario set, each lineup, each repetition ``0..N-1``.

Keys. ``BLOCK|CONDITION|SCENARIO_SET|LINEUP|REP`` with ``LINEUP`` the cell's lineup, its
seat labels joined by ``+`` (e.g.
``resource|stability=stable,rotation=fixed|0.8|scripted:oracle+scripted:linear|3``). A
cell is a key without its repetition. Keys are unique; a resumed run plays exactly the
keys not yet in its trace file. The game's own seating, the policy in each seat, is
:attr:`GameSpec.lineup` (the trace's ``run.lineup`` and ``policies``): the cell's lineup,
or under ``swap_seats`` a rotation of it.

Lineups (``pairings``). ``self``: each policy against itself. ``cross``: each combination
of different policies once, seats in the order the policies are listed (so the
first-listed policy always holds the first seat); ``all``: ``self`` and ``cross``.
``balanced``: ``all`` with every combination also played in each of its distinct cyclic
rotations over the seats, so that within a combination every policy holds every seat
equally often (two seats: each cross pairing in both seat orders; a seat-bound role such
as the resource game's shifting agent, ``agent_b``, or the first seat of an unswapped
game then falls to each policy of a pairing alike). Self-play lineups and each
combination's listed order keep their keys; the rotations are new cells. ``ordered``:
every assignment of policies to seats (for two seats the same lineups as ``balanced``,
in another order). A list names the lineups.

Repetition ``r`` of a cell plays scenario ``r // n_agents`` (cycling through the set) with
``first_speaker = agents[r % n_agents]`` when ``swap_first_speaker`` is on, else scenario
``r``; so with two agents and the swap each scenario is played once in each order.

Seat swapping (``swap_seats``). Repetition ``r`` seats the cell's lineup rotated by
``r % n_agents`` (seat ``s`` holds the policy listed at ``(s + r) % n_agents``) and plays
scenario ``r // n_agents``: with two seats, the policies of a pairing exchange seats every
other game and each scenario is played once in each seating. Everything bound to a seat
moves with the policies: the seat's projects, the first speaker (the game's
``first_speaker`` seat, not varied by the plan) and a seat-bound role such as the resource
game's shifting agent, ``agent_b``. This is the design of the resource paper's §4 (each
configuration played twice, first-speaker roles swapped), and a pairing is one cell, so
``pairings = "all"`` gives every pairing, self-play or cross, ``games_per_cell`` games.
More seats rotate the same way (rulemaking: five seatings, one per ``r % 5``); seats
balance over whole cycles of ``n_agents`` repetitions. A self-play lineup rotates onto
itself. Refused: ``swap_seats`` with ``swap_first_speaker`` (with two seats one policy
would open every game), with ``pairings`` ``balanced`` or ``ordered`` (they already play
every seating as a cell of its own), and a list of lineups naming two rotations of one
lineup.

Seeds (numpy ``SeedSequence``, never global state). The env seed of a game derives from
the cohort seed and its key without the lineup (``env|BLOCK|CONDITION|SET|REP``): every
pairing plays the same games (common random numbers: same scenario, theme, draws), so
pairings are compared on equal terms and a state reached by two pairings is the same
state. The policy in seat ``s`` gets a seed from the same part of the key, the seat and
the label of the policy seated there. The same config gives the same seeds in any order,
on any back end, in a resumed or a split run.

Size. A plan holds at most :data:`MAX_PLAN_GAMES` games. The count is computed from the
config (conditions x scenario sets x lineups x ``games_per_cell``, block by block) before
anything is expanded, so a config asking for millions of games is refused at once with a
message naming each factor.

Cost. :func:`make_plan` checks the config and lists the cells; the games of a cell
(:attr:`Plan.specs`) are listed when first read, and a game's seeds when first read, so
that checking a plan near the limit (``--plan``) takes as long as its cells, not its
games. The order, keys and seeds are the same however they are read.
"""

from __future__ import annotations

import bisect
import dataclasses
import fnmatch
import functools
import hashlib
import importlib
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from ..core.config import ConfigError, build_config
from ..traces.schema import RunInfo
from .config import GameBlock, PolicyEntry, RunConfig, RunConfigError, _block_problems, join_problems

__all__ = ["GameSpec", "Plan", "make_plan", "derive_seed", "MAX_PLAN_GAMES"]

#: the most games one run plans
MAX_PLAN_GAMES = 1_000_000


def derive_seed(cohort_seed: int, *parts: Any) -> int:
    """A 53-bit seed (exact in JSON and every language) from the cohort seed and ``parts``."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode("utf-8")).digest()
    words = np.frombuffer(digest, dtype=np.uint32).tolist()
    ss = np.random.SeedSequence([int(cohort_seed), *words])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(11))


@dataclass(frozen=True)
class GameSpec:
    """One planned game: everything a worker needs to play it, and its identity.
    ``lineup``, ``policies`` and ``policy_seeds`` are by seat, as this game seats them
    (under ``swap_seats`` a rotation of the lineup its key names)."""

    key: str
    plan_index: int
    run_id: str
    game: str
    block: str
    condition: str
    scenario_set: str
    lineup: tuple[str, ...]
    policies: tuple[PolicyEntry, ...]
    repetition: int
    config: dict[str, Any]
    cohort_seed: int
    max_steps: int
    #: (block, condition, scenario set, repetition): the part of the key the seeds derive from
    seed_parts: tuple[Any, ...] = field(default=(), repr=False)

    @functools.cached_property
    def env_seed(self) -> int:
        """The env's seed (module docstring, Seeds), derived when first read."""
        return derive_seed(self.cohort_seed, "env", *self.seed_parts)

    @functools.cached_property
    def policy_seeds(self) -> tuple[int, ...]:
        """The seed of the policy in each seat, derived when first read."""
        return tuple(derive_seed(self.cohort_seed, "policy", *self.seed_parts, s, lab)
                     for s, lab in enumerate(self.lineup))

    @property
    def cell(self) -> str:
        return self.key.rsplit("|", 1)[0]

    def run_info(self) -> RunInfo:
        return RunInfo(run_id=self.run_id, game_key=self.key, plan_index=self.plan_index, cell=self.cell,
                       condition=self.condition, scenario_set=self.scenario_set, lineup=list(self.lineup),
                       repetition=self.repetition)


@dataclass(frozen=True)
class _Cell:
    """What the games of one cell are made from (:meth:`games`)."""

    cell: str
    start: int  # plan index of its first game
    games: int
    run_id: str
    game: str
    block: str
    condition: str
    scenario_set: str
    lineup: tuple[str, ...]
    by_label: dict[str, PolicyEntry]
    base: dict[str, Any]
    scenarios: list[Any]
    scenario_field: str
    agents: tuple[str, ...]
    per_scenario: int
    swap_first_speaker: bool
    swap_seats: bool
    cohort_seed: int
    max_steps: int

    def spec(self, rep: int) -> GameSpec:
        n = len(self.agents)
        sc = self.scenarios[(rep // self.per_scenario) % len(self.scenarios)]
        cfg = dict(self.base) if sc is None else {**self.base, self.scenario_field: sc}
        if self.swap_first_speaker:
            cfg["first_speaker"] = self.agents[rep % n]
        # the game's seating: the policy in each seat, which the trace records
        seating = _rotate(self.lineup, rep % n) if self.swap_seats else self.lineup
        return GameSpec(
            key=f"{self.cell}|{rep}", plan_index=self.start + rep, run_id=self.run_id, game=self.game,
            block=self.block, condition=self.condition, scenario_set=self.scenario_set, lineup=seating,
            policies=tuple(self.by_label[x] for x in seating), repetition=rep, config=cfg,
            cohort_seed=self.cohort_seed, max_steps=self.max_steps,
            seed_parts=(self.block, self.condition, self.scenario_set, rep))

    def seatings(self) -> dict[tuple[str, ...], int]:
        """Games per seating of this cell, in the order its games first seat them."""
        if not self.swap_seats:
            return {self.lineup: self.games}
        n = len(self.agents)
        out: dict[tuple[str, ...], int] = {}
        for k in range(min(n, self.games)):
            seating = _rotate(self.lineup, k)
            out[seating] = out.get(seating, 0) + len(range(k, self.games, n))
        return out


class _Specs(Sequence):
    """The games of a plan in plan order, each made when read and not kept (a
    ``Sequence``: ``len``, indexing, slicing and iteration)."""

    def __init__(self, cells: list[_Cell], total: int):
        self._cells = cells
        self._starts = [c.start for c in cells]
        self._total = total

    def __len__(self) -> int:
        return self._total

    def __iter__(self) -> Iterator[GameSpec]:
        for c in self._cells:
            for rep in range(c.games):
                yield c.spec(rep)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._total))]
        if i < 0:
            i += self._total
        if not 0 <= i < self._total:
            raise IndexError("plan index out of range")
        c = self._cells[bisect.bisect_right(self._starts, i) - 1]
        return c.spec(i - c.start)

    def __eq__(self, other) -> bool:
        if isinstance(other, (_Specs, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass
class Plan:
    """The planned games. :attr:`specs` lists them in plan order (made when read);
    :attr:`cells` names the cells in order, :meth:`cell_games` counts each one's games."""

    run_id: str
    config: RunConfig
    _cells: list[_Cell] = field(repr=False)

    @property
    def cells(self) -> list[str]:
        return [c.cell for c in self._cells]

    @functools.cached_property
    def specs(self) -> _Specs:
        return _Specs(self._cells, sum(c.games for c in self._cells))

    def __len__(self) -> int:
        return len(self.specs)

    @property
    def keys(self) -> list[str]:
        return [s.key for s in self.specs]

    def cell_games(self) -> dict[str, int]:
        """Games per cell, in plan order."""
        return {c.cell: c.games for c in self._cells}

    def seatings(self) -> dict[tuple[str, tuple[str, ...]], int]:
        """Games per (cell, seating), in the order the plan's games first seat them."""
        return {(c.cell, seating): k for c in self._cells for seating, k in c.seatings().items()}

    def first_games(self) -> Iterator[GameSpec]:
        """The first game of each cell (repetition 0), in plan order."""
        return (c.spec(0) for c in self._cells if c.games)

    def has(self, key: Any) -> bool:
        """Whether ``key`` is the key of a planned game, without listing them."""
        if not isinstance(key, str):
            return False
        cell, _, rep = key.rpartition("|")
        games = self._by_cell.get(cell)
        return games is not None and rep.isdigit() and rep == str(int(rep)) and int(rep) < games

    @functools.cached_property
    def _by_cell(self) -> dict[str, int]:
        return self.cell_games()


def _conditions(block: GameBlock, where: str) -> list[tuple[str, dict[str, Any]]]:
    explicit = [(c.name, dict(c.config)) for c in block.conditions] if block.conditions else [("", {})]
    names = [n for n, _ in explicit]
    if len(set(names)) != len(names):
        raise RunConfigError(f"run config: {where}.conditions: duplicate condition names {names}")
    factor_levels = [[(f, lv, dict(ov)) for lv, ov in levels.items()] for f, levels in (block.factors or {}).items()]
    out = []
    for base_name, base_cfg in explicit:
        for combo in itertools.product(*factor_levels):
            cfg = dict(base_cfg)
            parts = [base_name] if base_name else []
            for f, lv, ov in combo:
                clash = sorted(set(cfg) & set(ov))
                if clash:
                    raise RunConfigError(f"run config: {where}.factors.{f}.{lv}: sets {', '.join(clash)}, "
                                         "which another factor or condition sets too")
                cfg.update(ov)
                parts.append(f"{f}={lv}")
            name = ",".join(parts) or "default"
            if "|" in name or "+" in name:
                raise RunConfigError(f"run config: {where}: condition name {name!r} must not contain '|' or '+'")
            out.append((name, cfg))
    return out


def _scenario_names(game: str) -> list[str] | None:
    try:
        mod = importlib.import_module(f"negotiation_env.games.{game}.scenario")
    except ImportError:
        return None
    lister = getattr(mod, "list_scenarios", None)
    return list(lister()) if callable(lister) else None


def _scenario_sets(block: GameBlock, where: str) -> list[tuple[str, list[Any]]]:
    if block.scenario_sets is None:
        return [("default", [None])]
    names: list[str] | None = None
    out = []
    for set_name, entries in block.scenario_sets.items():
        items: list[Any] = []
        for i, e in enumerate(entries):
            if any(ch in e for ch in "*?["):
                if names is None:
                    names = _scenario_names(block.game)
                    if names is None:
                        raise RunConfigError(f"run config: {where}.scenario_sets.{set_name}[{i}]: game "
                                             f"{block.game!r} has no scenario list to match {e!r}; give names")
                hits = [n for n in names if fnmatch.fnmatchcase(n, e)]
                if not hits:
                    raise RunConfigError(f"run config: {where}.scenario_sets.{set_name}[{i}]: pattern {e!r} "
                                         f"matches no scenario of {block.game!r}")
                items.extend(hits)
            else:
                items.append(e)
        out.append((set_name, items))
    return out


def _lineups(block: GameBlock, labels: list[str], n: int, where: str) -> list[tuple[str, ...]]:
    p = block.pairings
    if isinstance(p, list):
        out = []
        for i, lineup in enumerate(p):
            if len(lineup) != n:
                raise RunConfigError(f"run config: {where}.pairings[{i}]: a lineup names one policy per seat "
                                     f"({n} for {block.game!r}); got {len(lineup)}")
            unknown = [x for x in lineup if x not in labels]
            if unknown:
                raise RunConfigError(f"run config: {where}.pairings[{i}]: unknown policy {unknown[0]!r}; "
                                     f"policies: {', '.join(labels)}")
            out.append(tuple(lineup))
        if len(set(out)) != len(out):
            raise RunConfigError(f"run config: {where}.pairings: a lineup is listed twice")
        if block.swap_seats:  # each cell already plays every rotation of its lineup
            firsts: dict[tuple[str, ...], int] = {}
            for i, lineup in enumerate(out):
                j = next((firsts[r] for r in _rotations(lineup) if r in firsts), None)
                if j is not None:
                    raise RunConfigError(f"run config: {where}.pairings[{i}]: with swap_seats, lineup "
                                         f"{'+'.join(lineup)} is a seat rotation of pairings[{j}] "
                                         f"({'+'.join(out[j])}), which plays it already; list it once")
                firsts[lineup] = i
        return out
    if p == "self":
        return [(x,) * n for x in labels]
    if p == "cross" and len(labels) < 2:
        raise RunConfigError(f"run config: {where}.pairings: 'cross' needs at least two policies")
    if p == "ordered":
        return list(itertools.product(labels, repeat=n))
    combos = list(itertools.combinations_with_replacement(labels, n))
    if p == "cross":
        combos = [c for c in combos if len(set(c)) > 1]
    if p == "balanced":
        return [r for c in combos for r in _rotations(c)]
    return combos


def _rotate(lineup: tuple[str, ...] | list[str], k: int) -> tuple[str, ...]:
    """``lineup`` rotated by ``k`` seats: seat ``s`` gets the policy of seat ``s + k`` (mod n)."""
    t = tuple(lineup)
    return t[k:] + t[:k]


def _rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The distinct cyclic rotations of ``lineup``, the lineup itself first: over them
    every label holds every seat the same number of times."""
    out: list[tuple[str, ...]] = []
    for k in range(len(lineup)):
        r = _rotate(lineup, k)
        if r in out:  # a periodic lineup: the rotations from here repeat
            break
        out.append(r)
    return out


def _lineup_count(block: GameBlock, n_labels: int, seats: int) -> int:
    """How many lineups :func:`_lineups` lists, by arithmetic."""
    p = block.pairings
    if isinstance(p, list):
        return len(p)
    if p == "self":
        return n_labels
    if p == "ordered":
        return n_labels ** seats
    combos = math.comb(n_labels + seats - 1, seats)
    if p == "balanced":
        if seats == 2:  # n self-play lineups, each other combination in both orders
            return n_labels ** 2
        if combos > MAX_PLAN_GAMES:  # at least one lineup per combination: refused either way
            return combos
        return sum(len(_rotations(c)) for c in itertools.combinations_with_replacement(range(n_labels), seats))
    return combos - n_labels if p == "cross" else combos


def _check_size(where: str, before: int, n_cond: int, n_sets: int, lineups: int | None, per_cell: int) -> None:
    games = n_cond * n_sets * (lineups or 1) * per_cell
    if before + games > MAX_PLAN_GAMES:
        what = (f"{n_cond:,} conditions x {n_sets:,} scenario sets x "
                + (f"{lineups:,} lineups" if lineups is not None else "its lineups")
                + f" x {per_cell:,} games per cell = {'at least ' if lineups is None else ''}{games:,} games")
        earlier = f", after {before:,} games of earlier blocks" if before else ""
        raise RunConfigError(f"run config: {where}: {what}{earlier}; a run plans at most {MAX_PLAN_GAMES:,} games "
                             "(split it into several runs)")


class _Repeated(RunConfigError):
    """A problem already reported for another condition of the same block."""


def _problem(e: RunConfigError) -> str:
    """One line of a collected :class:`RunConfigError` (its ``run config:`` prefix off)."""
    text = str(e)
    return text[len("run config: "):] if text.startswith("run config: ") else text


def make_plan(config: RunConfig) -> Plan:
    """Validate ``config`` against the games (config fields, scenarios, seats) and list
    every game it asks for. Raises :class:`RunConfigError` naming the field."""
    from .. import GAMES

    run_id = config.run_id()
    cells: list[_Cell] = []
    total = 0
    blocks_seen: set[str] = set()
    problems: list[str] = []
    for bi, block in enumerate(config.games):
        try:
            where = f"games[{bi}]"
            if block.game not in GAMES:
                raise RunConfigError(f"run config: {_block_problems(bi, {'game': block.game})[0]}")
            bname = block.block_name
            if bname in blocks_seen:
                raise RunConfigError(f"run config: {where}.name: block name {bname!r} is used twice; give each block "
                                     "a name")
            if "|" in bname or "+" in bname:
                raise RunConfigError(f"run config: {where}.name: {bname!r} must not contain '|' or '+'")
            blocks_seen.add(bname)
            cfg_cls, game_cls = GAMES[block.game]
            fields = [f.name for f in dataclasses.fields(cfg_cls)]
            labels = [p.name for p in block.policies]
            dup = sorted({x for x in labels if labels.count(x) > 1})
            if dup:
                raise RunConfigError(f"run config: {where}.policies: {dup[0]!r} is listed twice; give one a label")
            by_label = dict(zip(labels, block.policies))
            sets = _scenario_sets(block, where)
            # the plan's size, counted before anything is expanded (the lineups once the seats are known)
            n_cond = (len(block.conditions) if block.conditions else 1) * math.prod(
                len(levels) for levels in (block.factors or {}).values())
            _check_size(where, total, n_cond, len(sets), None, block.games_per_cell)
            counted = False
            if block.scenario_sets is not None:
                if block.scenario_field not in fields:
                    raise RunConfigError(f"run config: {where}.scenario_field: {block.game!r} config has no field "
                                         f"{block.scenario_field!r}; fields: {', '.join(fields)}")
            conditions = _conditions(block, where)
            built: dict[str, tuple[str, ...]] = {}
            refused: set[str] = set()

            def check(cfg: dict[str, Any], at: str) -> tuple[str, ...]:
                k = json.dumps(cfg, sort_keys=True, default=str)
                if k not in built:
                    try:
                        built[k] = tuple(game_cls(build_config(cfg_cls, dict(cfg))).possible_agents)
                    except ConfigError as e:
                        if str(e) in refused:
                            raise _Repeated() from None
                        refused.add(str(e))
                        raise RunConfigError(f"run config: {at}: {e}") from None
                return built[k]

            for cname, ccfg in conditions:
                try:
                    base = {**block.config, **ccfg}  # a condition overrides the block's config
                    cwhere = f"{where} condition {cname!r}"
                    for owner, keys in (("scenario_sets", [block.scenario_field] if block.scenario_sets else []),
                                        ("swap_first_speaker", ["first_speaker"] if block.swap_first_speaker else [])):
                        for k in keys:
                            if k in base:
                                raise RunConfigError(f"run config: {cwhere}: config field {k!r} is set both in "
                                                     f"the config and by {owner}; remove one")
                    if block.swap_first_speaker and "first_speaker" not in fields:
                        raise RunConfigError(f"run config: {where}.swap_first_speaker: {block.game!r} config has no "
                                             "field 'first_speaker'")
                    for sname, scenarios in sets:
                        agents: tuple[str, ...] | None = None
                        for i, sc in enumerate(scenarios):
                            cfg = dict(base) if sc is None else {**base, block.scenario_field: sc}
                            at = f"{cwhere}, scenario_sets.{sname}[{i}]" if sc is not None else cwhere
                            a = check(cfg, at)
                            if agents is not None and a != agents:
                                raise RunConfigError(f"run config: {at}: scenarios of one set must have the same seats")
                            agents = a
                        assert agents is not None
                        n = len(agents)
                        if not counted:
                            _check_size(where, total, n_cond, len(sets), _lineup_count(block, len(labels), n),
                                        block.games_per_cell)
                            counted = True
                        lineups = _lineups(block, labels, n, where)
                        if total + len(lineups) * block.games_per_cell > MAX_PLAN_GAMES:  # seats differing by set
                            _check_size(where, total, 1, 1, len(lineups), block.games_per_cell)
                        # each scenario is played once per first-speaker seat, or once per seating
                        per_scenario = n if block.swap_first_speaker or block.swap_seats else 1
                        for lineup in lineups:
                            cell = f"{bname}|{cname}|{sname}|{'+'.join(lineup)}"
                            cells.append(_Cell(
                                cell=cell, start=total, games=block.games_per_cell, run_id=run_id, game=block.game,
                                block=bname, condition=cname, scenario_set=sname, lineup=tuple(lineup),
                                by_label=by_label,
                                base=base, scenarios=scenarios, scenario_field=block.scenario_field, agents=agents,
                                per_scenario=per_scenario, swap_first_speaker=block.swap_first_speaker,
                                swap_seats=block.swap_seats, cohort_seed=config.seed, max_steps=block.max_steps))
                            total += block.games_per_cell
                except _Repeated:  # the same problem in another condition: reported once
                    pass
                except RunConfigError as e:  # every condition is checked: each problem is reported once
                    if _problem(e) not in problems:
                        problems.append(_problem(e))
        except RunConfigError as e:  # every block is checked: each problem is reported
            problems.append(_problem(e))
    if problems:
        raise RunConfigError(join_problems(problems))
    names = [c.cell for c in cells]
    if len(set(names)) != len(names):  # pragma: no cover - guarded by the name checks above
        raise RunConfigError("run config: two planned games have the same key")
    return Plan(run_id=run_id, config=config, _cells=cells)
