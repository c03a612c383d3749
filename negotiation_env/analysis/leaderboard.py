"""The leaderboard of one or several runs: ``negotiation-env leaderboard RUN [RUN ...]``
and the viewer's leaderboard page.

One board per game (a rating compares two seats' rewards in one game of one kind, so the
games are never pooled: a win in one game is not the same event as a win in another, and
the shipped games' policies do not overlap). Each board is the Bradley–Terry fit of
:mod:`.ratings` (the primary rating: Elo scale, percentile bootstrap intervals that
resample within pairings and keep common-random-number games together) with, per
policy, the games it played against another policy, its wins, draws and losses there,
the pairings it covered (opponents met out of the other rated policies) and the games of
its that were left out; optionally OpenSkill's online rating beside it
(:func:`~.ratings.openskill_ratings`).

Notes say what a number leaves out: the comparison that makes a win, pairings never
played, each policy's games left out and why (degraded: a model call ran out of retries;
error; truncated; a complete game with no resolved round; no finite reward), self-play
games (in neither the fit nor the table), and a game that is not rated at all (a game
with more than two seats, e.g. five parties, is not a pairwise comparison).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..storage import write_text
from .cells import as_dict, seat_label, unusable_reason
from .ratings import OpenSkillRating, Ratings, comparison_of, fit_ratings, openskill_ratings, pair_games
from .tables import Table

__all__ = ["GameBoard", "leaderboard", "board_table", "leaderboard_tables", "leaderboard_markdown",
           "write_leaderboard", "meta_boards", "write_meta", "DEFAULT_OUT", "FILES"]

#: the folder the command writes into by default (under the first run)
DEFAULT_OUT = "leaderboard"
#: the files it writes
FILES = ("leaderboard.csv", "leaderboard.md")


@dataclass
class GameBoard:
    """One game's leaderboard. ``ratings`` is None where the game is not rated (the
    notes say why); ``openskill`` maps a policy to its OpenSkill rating when asked for;
    ``left_out`` maps a policy to its games left out, counted by reason."""
    game: str
    comparison: str
    games: int
    ratings: Ratings | None = None
    openskill: dict[str, OpenSkillRating] | None = None
    left_out: dict[str, Counter] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per rated policy, best rating first: ``rank``, ``policy``, ``elo``,
        ``low``, ``high`` (None without a bootstrap), ``games``, ``wins``, ``draws``,
        ``losses`` (against other policies), ``pairings`` and ``opponents`` (the
        opponents met, the other rated policies), ``left_out``; with OpenSkill also
        ``mu``, ``sigma``, ``ordinal``."""
        r = self.ratings
        if r is None:
            return []
        k = len(r.policies)
        off = ~np.eye(k, dtype=bool)
        met = ((r.wins + r.draws + r.losses) > 0) & off
        out = []
        for rank, i in enumerate(np.argsort(-r.elo, kind="stable"), start=1):
            p = r.policies[i]
            row: dict[str, Any] = {
                "rank": rank, "policy": p, "elo": float(r.elo[i]),
                "low": float(r.low[i]) if math.isfinite(r.low[i]) else None,
                "high": float(r.high[i]) if math.isfinite(r.high[i]) else None,
                "games": int(r.games[i]), "wins": int(r.wins[i][off[i]].sum()),
                "draws": int(r.draws[i][off[i]].sum()), "losses": int(r.losses[i][off[i]].sum()),
                "pairings": int(met[i].sum()), "opponents": k - 1,
                "left_out": sum(self.left_out.get(p, Counter()).values())}
            if self.openskill is not None:
                o = self.openskill.get(p)
                row.update(mu=o.mu if o else None, sigma=o.sigma if o else None, ordinal=o.ordinal if o else None)
            out.append(row)
        return out


def _left_reason(d: Mapping[str, Any]) -> str | None:
    """Why a two-seat game is not rated (a short word), or None."""
    why = unusable_reason(d)
    if why is not None:
        if why.startswith("degraded"):
            return "degraded"
        return "no resolved round" if why == "complete" else why
    returns = d.get("returns") or {}
    vals = [returns.get(a) for a in d.get("agents") or []]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in vals):
        return "no finite reward"
    return None


def _groups(r: Ratings) -> list[list[str]]:
    """The connected components of the rated policies' comparison graph (who met whom)."""
    k = len(r.policies)
    met = (r.wins + r.draws + r.losses) > 0
    seen: set[int] = set()
    out = []
    for start in range(k):
        if start in seen:
            continue
        comp, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            comp.append(i)
            for j in range(k):
                if j not in seen and (met[i, j] or met[j, i]):
                    seen.add(j)
                    todo.append(j)
        out.append(sorted(r.policies[i] for i in comp))
    return out


def _count_text(c: Counter) -> str:
    return ", ".join(f"{n} {why}" for why, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


def _board(game: str, traces: Sequence[Mapping[str, Any]], *, level: float, n_resamples: int, seed: int,
           anchor: str | None, prior: float, openskill: str | None,
           progress: Callable[[int, int], None] | None) -> GameBoard:
    board = GameBoard(game, comparison_of(game), len(traces))
    seats = Counter(len(d.get("agents") or []) for d in traces)
    pairwise = [d for d in traces if len(d.get("agents") or []) == 2]
    if not pairwise:
        shown = ", ".join(f"{n} with {s} seats" for s, n in sorted(seats.items()))
        board.notes.append(f"{game}: not rated: a rating compares the two seats of a game, and none of its "
                           f"{len(traces)} game{'' if len(traces) == 1 else 's'} has two seats ({shown})")
        return board
    if len(pairwise) < len(traces):
        n = len(traces) - len(pairwise)
        board.notes.append(f"{n} game{'' if n == 1 else 's'} with other than two seats left out (not pairwise)")
    for d in pairwise:
        why = _left_reason(d)
        if why is not None:
            for label in dict.fromkeys(seat_label(d, a) for a in d.get("agents") or []):
                board.left_out.setdefault(label, Counter())[why] += 1
    games, left = pair_games(pairwise, game)
    cross = [g for g in games if g.a != g.b]
    if not cross:
        board.notes.append(f"{game}: not rated: no usable game between two different policies")
    else:
        policies = {g.a for g in games} | {g.b for g in games}
        use_anchor = anchor if anchor in policies else None
        if anchor is not None and use_anchor is None:
            board.notes.append(f"{anchor} did not play {game}: the mean rating is 1500")
        board.ratings = fit_ratings(games, level=level, n_resamples=n_resamples, seed=seed, anchor=use_anchor,
                                    prior=prior, comparison=board.comparison, left_out=left, progress=progress)
        board.notes.extend(board.ratings.notes)
        groups = _groups(board.ratings)
        if len(groups) > 1:
            board.notes.append(f"the policies fall into {len(groups)} groups that never met, directly or through "
                               "others (" + "; ".join(", ".join(g) for g in groups) + "): a rating compares only "
                               "within its group")
        if openskill is not None:
            board.openskill = {o.policy: o for o in openskill_ratings(games, model=openskill)}
        selfplay = len(games) - len(cross)
        if selfplay:
            board.notes.append(f"{selfplay} self-play game{'' if selfplay == 1 else 's'} counted in neither the fit "
                               "nor the table (a policy against itself says nothing about a rating)")
    rated = set(board.ratings.policies) if board.ratings is not None else set()
    for label in sorted(board.left_out):
        c = board.left_out[label]
        tail = "" if label in rated else "; not rated"
        n = sum(c.values())
        board.notes.append(f"{label}: {n} game{'' if n == 1 else 's'} left out ({_count_text(c)}){tail}")
    return board


def _by_game(traces: Iterable[Any]) -> dict[str, list[dict[str, Any]]]:
    """The traces as dicts, grouped by game name in the order first seen."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for d in (as_dict(t) for t in traces):
        by_game.setdefault(str(d.get("game")), []).append(d)
    return by_game


def leaderboard(traces: Iterable[Any], *, game: str | None = None, level: float = 0.9, n_resamples: int = 1000,
                seed: int = 0, anchor: str | None = None, prior: float = 0.5, openskill: str | None = None,
                progress: Callable[[str, int, int], None] | None = None) -> list[GameBoard]:
    """One :class:`GameBoard` per game of ``traces`` (games by name; only ``game`` when
    given). ``openskill``: an OpenSkill model name (:data:`~.ratings.OPENSKILL_MODELS`)
    for the second view, or None. ``progress(game, done, total)`` follows each game's
    bootstrap. Raises ``ValueError`` for a ``game`` the traces do not hold or an
    ``anchor`` no rated game has."""
    if openskill is not None:  # a missing extra is said before any fitting
        openskill_ratings([], model=openskill)
    by_game = _by_game(traces)
    if game is not None:
        if game not in by_game:
            raise ValueError(f"no games of {game!r} in the traces (games: {', '.join(sorted(by_game)) or 'none'})")
        by_game = {game: by_game[game]}
    boards = []
    for g in sorted(by_game):
        tick = None if progress is None else (lambda done, total, _g=g: progress(_g, done, total))
        boards.append(_board(g, by_game[g], level=level, n_resamples=n_resamples, seed=seed, anchor=anchor,
                             prior=prior, openskill=openskill, progress=tick))
    if anchor is not None and not any(b.ratings is not None and anchor in b.ratings.policies for b in boards):
        raise ValueError(f"--anchor {anchor!r} is not a rated policy of any game here")
    return boards


def _interval_header(level: float) -> str:
    return f"{100 * level:g}% interval"


def board_table(board: GameBoard, level: float) -> Table:
    """One game's board as a :class:`~.tables.Table` (its notes included)."""
    columns = ["rank", "policy", "Elo", _interval_header(level), "games", "wins", "draws", "losses", "pairings",
               "left out"]
    formats = ["int", "text", "num", "ci", "int", "int", "int", "int", "text", "int"]
    with_os = board.openskill is not None
    if with_os:
        columns += ["mu", "sigma", "ordinal"]
        formats += ["num", "num", "num"]
    rows = []
    for r in board.rows():
        ci = None if r["low"] is None else (r["low"], r["high"])
        row = [r["rank"], r["policy"], r["elo"], ci, r["games"], r["wins"], r["draws"], r["losses"],
               f"{r['pairings']}/{r['opponents']}", r["left_out"]]
        if with_os:
            row += [r["mu"], r["sigma"], r["ordinal"]]
        rows.append(row)
    notes = [f"A win: {board.comparison}; equal rewards are a draw."] if board.ratings is not None else []
    title = (f"{board.game}: Bradley–Terry ratings (Elo)" if board.ratings is not None
             else f"{board.game}: not rated")
    return Table(f"leaderboard_{board.game}", title, columns, rows, formats, notes + list(board.notes))


def leaderboard_tables(boards: Sequence[GameBoard], level: float) -> tuple[list[Table], Table]:
    """Each game's table, and all of them as one table with a ``game`` column (the CSV)."""
    tables = [board_table(b, level) for b in boards]
    width = max((len(t.columns) for t in tables), default=10)
    if not tables:
        return [], Table("leaderboard", "Leaderboard", ["game"], [], ["text"])
    widest = next(t for t in tables if len(t.columns) == width)
    rows = [[b.game, *r, *([None] * (width - len(r)))] for b, t in zip(boards, tables) for r in t.rows]
    return tables, Table("leaderboard", "Leaderboard", ["game", *widest.columns], rows, ["text", *widest.formats])


def leaderboard_markdown(boards: Sequence[GameBoard], level: float, sources: Sequence[Any] = ()) -> str:
    """The Markdown file: the sources read, then each game's table and notes."""
    head = ["# Leaderboard", ""]
    if sources:
        head += ["Runs: " + ", ".join(str(s) for s in sources), ""]
    return "\n".join(head) + "\n" + "\n".join(_markdown(t) for t in leaderboard_tables(boards, level)[0])


def _markdown(t: Table) -> str:
    """A board's Markdown: its table, or only its title and notes where nothing is rated."""
    if t.rows:
        return t.markdown()
    return "\n".join([f"### {t.title}", "", *t.notes]) + "\n"


def write_leaderboard(boards: Sequence[GameBoard], out: str | Path, level: float,
                      sources: Sequence[Any] = ()) -> list[Path]:
    """Write ``leaderboard.csv`` and ``leaderboard.md`` into ``out`` (each whole, or not
    at all); returns their paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    _, combined = leaderboard_tables(boards, level)
    return [write_text(folder / FILES[0], combined.csv_text()),
            write_text(folder / FILES[1], leaderboard_markdown(boards, level, sources))]


def meta_boards(traces: Iterable[Any], boards: Sequence[GameBoard], *, level: float = 0.9, n_resamples: int = 200,
                seed: int = 0) -> dict[str, Any]:
    """The meta-game (:func:`~.metagame.metagame`) of every rated board's game: per game
    its :class:`~.metagame.MetaGame`, or the sentence saying why none could be built.
    Raises :class:`~.ratings.MissingExtra` without OpenSpiel."""
    from .metagame import metagame, require_openspiel

    require_openspiel()
    by_game = _by_game(traces)
    out: dict[str, Any] = {}
    for b in boards:
        if b.ratings is None:
            continue
        try:
            out[b.game] = metagame(by_game.get(b.game, []), game=b.game, level=level, n_resamples=n_resamples,
                                   seed=seed)
        except ValueError as e:
            out[b.game] = f"{b.game}: no meta-game: {e}"
    return out


def write_meta(metas: Mapping[str, Any], out: str | Path) -> list[Path]:
    """Per game, ``metagame_GAME.md`` (both tables), ``metagame_GAME_payoff.csv``,
    ``metagame_GAME_ratings.csv`` and, where the replicator dynamics ran,
    ``metagame_GAME_replicator.png`` (the ``metagame`` extra brings matplotlib); returns
    the paths written."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for game, meta in metas.items():
        if isinstance(meta, str):
            continue
        payoff, rated = meta.tables()
        files.append(write_text(folder / f"metagame_{game}.md", f"# Meta-game: {game}\n\n" + payoff.markdown()
                                + "\n" + rated.markdown()))
        files.append(write_text(folder / f"metagame_{game}_payoff.csv", payoff.csv_text()))
        files.append(write_text(folder / f"metagame_{game}_ratings.csv", rated.csv_text()))
        if meta.trajectory is not None:
            files.append(meta.plot(folder / f"metagame_{game}_replicator.png"))
    return files
