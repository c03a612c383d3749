"""The deterministic outcome classifier of a rulemaking run (seed 001 §3, Appendix B),
from the public moves only. No model is involved.

The paper gives the rule in brief; its Appendix B is not in the seed text, so the full
rule below is ours, with every threshold a named parameter:

* the **closing stretch** is the last ``closing_turns`` recorded turns (default 5, one
  full cycle of the five parties);
* **consensus** when, in the closing stretch, the share of Support moves is at least
  ``consensus_share`` (default 0.8: four of five) and no move there is Oppose or Exit;
* **compromise** when at least ``compromise_parties`` distinct parties (default 2)
  *sustain a concession* through the closing stretch (the ``reading``, below);
* **authority decision** otherwise, provided the run lasted at least ``min_turns``
  turns (default 5) and the authority never exited;
* **deadlock** when neither holds: too short a run, or the authority walked out.

Consensus is tested before compromise. :func:`sensitivity` relabels a run under the
3 x 3 grid of compromise_parties x consensus_share values.

**Sustaining a concession** (§3: compromise is "when at least two parties sustain
concessions through the closing stretch"). Two readings, ``ClassifierConfig.reading``:

* ``"sustained"`` (the default): a concession is *held* while its party plays no
  Oppose, Counter or Exit after it (Concede and Support keep it). A party sustains a
  concession when it holds one that is either

  - *tested*: held for ``sustain_turns`` (default 2) of its own turns, the Concede
    included; with five parties that is a Concede still held one full cycle later; or
  - *standing at the close*: the run is over (``closed``: the horizon or the exits
    ended it) and the held Concede lies in the closing stretch, so no turn is left in
    which its party could take it back.

  A run in progress (the early-end test, :func:`agreement_reached`) counts tested
  concessions only: a single Concede per party ends nothing, since its party may
  counter again on its next turn. A finished run also counts the concessions standing
  at the deadline, so parties that concede on their last turns, "as time runs out"
  (§7), close a compromise at the horizon.
* ``"window"``: the party plays Concede in the closing stretch and none of its moves
  after that first Concede (in the stretch) is Oppose, Counter or Exit. With five
  parties each moves once in a five-turn stretch, so any two Concedes in one cycle are
  a compromise, whatever the parties play next.

**Ending before the horizon** (:func:`agreement_reached`, the game's ``early_end``): the
paper's runs last "at most 15 turns" (§3), horizon exhaustion is "the share of runs using
all 15 turns" (§5), and the Ledger "cuts E1 exhaustion from 1.00 to 0.47" while all 15 of
its runs end in compromise (§6.1) where the no-agreement cells exhaust the horizon in
every run (§6.2, §6.3). So a run that reaches agreement ends early and one that does not
runs to the deadline; the exact rule is in the missing Appendix B, so ours is: after each
recorded turn, once at least ``max(closing_turns, min_turns)`` turns are played (a full
closing stretch), the run ends when this classifier, applied to the record so far, labels
it an agreement (``early_end="agreement"``: compromise or consensus under the sustained
reading, the default), an agreement under the window reading (``"window"``: the labels
are then read that way too), only consensus (``"consensus"``), or never (``"never"``:
every run to the horizon or the last exit). The label the run then gets is the one that
ended it. :func:`classify_as_played` applies the same rule to any record, such as the
worst-case recode (§6.3), so a recoded record ends where the game would have ended it.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from .rules import MOVES, Turn

__all__ = ["ClassifierConfig", "classify", "sensitivity", "OUTCOMES", "recode_worst_case",
           "normalized_entropy", "horizon_exhausted", "concession_arc", "trajectory", "EARLY_ENDS",
           "agreement_reached", "classify_as_played", "reading_for", "READINGS"]

OUTCOMES = ("compromise", "consensus", "authority", "deadlock")
#: early_end setting -> the labels that end a run before the horizon
EARLY_ENDS: dict[str, tuple[str, ...]] = {
    "agreement": ("compromise", "consensus"),
    "window": ("compromise", "consensus"),
    "consensus": ("consensus",),
    "never": (),
}
#: how a party sustains a concession (the module docstring); early_end="window" reads
#: compromise the "window" way, every other early_end the "sustained" way
READINGS = ("sustained", "window")
_HARD = frozenset({"Oppose", "Counter", "Exit"})

COMPROMISE_GRID = (1, 2, 3)
CONSENSUS_GRID = (0.6, 0.8, 1.0)


@dataclass(frozen=True)
class ClassifierConfig:
    closing_turns: int = 5
    compromise_parties: int = 2
    consensus_share: float = 0.8
    min_turns: int = 5
    sustain_turns: int = 2
    reading: str = "sustained"

    def __post_init__(self):
        if self.closing_turns < 1:
            raise ValueError("closing_turns must be >= 1")
        if self.compromise_parties < 1:
            raise ValueError("compromise_parties must be >= 1")
        if not 0.0 < self.consensus_share <= 1.0:
            raise ValueError("consensus_share must be in (0, 1]")
        if self.min_turns < 0:
            raise ValueError("min_turns must be >= 0")
        if self.sustain_turns < 1:
            raise ValueError("sustain_turns must be >= 1")
        if self.reading not in READINGS:
            raise ValueError(f"reading must be one of {', '.join(READINGS)}; got {self.reading!r}")


def _window_sustainers(stretch: Sequence[Turn]) -> set[str]:
    """The "window" reading: parties that concede in the stretch and play no hard move
    after their first Concede there."""
    out = set()
    for party in {t.party for t in stretch}:
        moves = [t.move for t in stretch if t.party == party]
        if "Concede" in moves:
            after = moves[moves.index("Concede") + 1:]
            if not any(m in _HARD for m in after):
                out.add(party)
    return out


def _holds(own: Sequence[tuple[int, str]], sustain_turns: int, stretch_start: int | None) -> bool:
    """The "sustained" reading for one party's own (position, move) pairs, oldest first:
    it holds a Concede (no hard move of its own after it) that spans ``sustain_turns`` of
    its turns, or that lies at or after ``stretch_start`` (a closed record's closing
    stretch; None for a run in progress)."""
    for back, (pos, m) in enumerate(reversed(own)):
        if m in _HARD:
            return False
        if m == "Concede" and (back + 1 >= sustain_turns or (stretch_start is not None and pos >= stretch_start)):
            return True
    return False


def _sustainers(turns: Sequence[Turn], config: ClassifierConfig, closed: bool) -> int:
    """How many parties sustain a concession at the end of ``turns`` (module docstring)."""
    if config.reading == "window":
        stretch = turns[-config.closing_turns:]
        return len(_window_sustainers(stretch)) if any(t.move == "Concede" for t in stretch) else 0
    own: dict[str, list[tuple[int, str]]] = {}
    conceded = set()
    for pos, t in enumerate(turns):
        own.setdefault(t.party, []).append((pos, t.move))
        if t.move == "Concede":
            conceded.add(t.party)
    start = len(turns) - config.closing_turns if closed else None
    return sum(_holds(own[p], config.sustain_turns, start) for p in conceded)


def classify(turns: Sequence[Turn], authority: str, config: ClassifierConfig = ClassifierConfig(), *,
             closed: bool = True) -> str:
    """The label of a run's record (module docstring). ``closed``: the record is a
    finished run, so concessions standing in its closing stretch count as sustained;
    False for a run in progress (the early-end test)."""
    stretch = list(turns[-config.closing_turns:])
    if stretch:
        moves = [t.move for t in stretch]
        supports = moves.count("Support")
        blocked = "Oppose" in moves or "Exit" in moves
        if supports / len(stretch) >= config.consensus_share - 1e-12 and not blocked:
            return "consensus"
        if _sustainers(turns, config, closed) >= config.compromise_parties:
            return "compromise"
    if len(turns) >= config.min_turns and authority not in [t.party for t in turns if t.move == "Exit"]:
        return "authority"
    return "deadlock"


def reading_for(early_end: str, config: ClassifierConfig = ClassifierConfig()) -> ClassifierConfig:
    """``config`` with the reading ``early_end`` implies: "window" for ``"window"``, the
    config's own otherwise."""
    if early_end not in EARLY_ENDS:
        raise ValueError(f"early_end must be one of {', '.join(EARLY_ENDS)}; got {early_end!r}")
    return _as_window(config) if early_end == "window" else config


@functools.lru_cache(maxsize=64)
def _as_window(config: ClassifierConfig) -> ClassifierConfig:
    return config if config.reading == "window" else replace(config, reading="window")


def agreement_reached(turns: Sequence[Turn], authority: str, early_end: str = "agreement",
                      config: ClassifierConfig = ClassifierConfig()) -> bool:
    """Whether the record so far ends the run before the horizon under ``early_end``
    (see the module docstring): a full closing stretch has been played and the label of
    the record so far (read the "window" way under ``early_end="window"``) is one of
    ``EARLY_ENDS[early_end]``."""
    config = reading_for(early_end, config)
    ending = EARLY_ENDS[early_end]
    if not ending or len(turns) < max(config.closing_turns, config.min_turns):
        return False
    return classify(turns, authority, config, closed=False) in ending


def classify_as_played(turns: Sequence[Turn], authority: str, early_end: str = "agreement",
                       config: ClassifierConfig = ClassifierConfig()) -> tuple[str, int]:
    """The label ``turns``, a finished run's record, gets when played under the game's
    ending rule, and how many turns that run lasts: the first prefix at which
    :func:`agreement_reached` ends the run (labelled as it was when it ended), else the
    whole record, closed. For a record the game played this is its own label and length;
    for the worst-case recode it is where the recoded run would have ended."""
    config = reading_for(early_end, config)
    if EARLY_ENDS[early_end]:
        for n in range(max(config.closing_turns, config.min_turns), len(turns)):
            if agreement_reached(turns[:n], authority, early_end, config):
                return classify(turns[:n], authority, config, closed=False), n
    return classify(turns, authority, config), len(turns)


def sensitivity(turns: Sequence[Turn], authority: str, base: ClassifierConfig = ClassifierConfig()) -> dict[tuple[int, float], str]:
    """The label under each (compromise_parties, consensus_share) pair of the 3 x 3 grid."""
    return {ks: classify(turns, authority, config) for ks, config in _grid(base)}


@functools.lru_cache(maxsize=64)
def _grid(base: ClassifierConfig) -> tuple[tuple[tuple[int, float], ClassifierConfig], ...]:
    """The configs of :func:`sensitivity`'s grid around ``base``, made once per base (a
    frozen config; ``replace`` builds and checks a new one each time)."""
    return tuple(((k, s), replace(base, compromise_parties=k, consensus_share=s))
                 for k in COMPROMISE_GRID for s in CONSENSUS_GRID)


def recode_worst_case(turns: Iterable[Turn]) -> list[Turn]:
    """Every non-genuine turn recoded to Concede, the most agreement-favourable move (the
    certification rule of §6.3). Label the result with :func:`classify_as_played`, so the
    recoded record ends where the ending rule would have ended it."""
    return [t if t.provenance == "genuine" else replace(t, move="Concede") for t in turns]


# --------------------------------------------------------------------------- process measures

def normalized_entropy(turns: Iterable[Turn]) -> float:
    """Shannon entropy of the run's mix of the five moves / log2 5 (0: one move type)."""
    counts = Counter(t.move for t in turns)
    return _entropy_of(tuple(counts.get(m, 0) for m in MOVES))


@functools.lru_cache(maxsize=4096)
def _entropy_of(counts: tuple[int, ...]) -> float:
    """:func:`~negotiation_env.analysis.stats.normalized_entropy` of a count vector, kept
    per vector: a run has few distinct move mixes, and scipy's entropy costs more than the
    rest of a run's outcome."""
    from ...analysis.stats import normalized_entropy as _h

    return _h(list(counts), k=len(MOVES))


def horizon_exhausted(turns: Sequence[Turn], max_turns: int) -> bool:
    return len(turns) >= max_turns


def concession_arc(turns: Sequence[Turn]) -> bool:
    """Some party plays Oppose/Counter early and Concede/Support later (supporting measure)."""
    for party in {t.party for t in turns}:
        moves = [t.move for t in turns if t.party == party]
        hard = [i for i, m in enumerate(moves) if m in ("Oppose", "Counter")]
        soft = [i for i, m in enumerate(moves) if m in ("Concede", "Support")]
        if hard and soft and max(soft) > min(hard):
            return True
    return False


def trajectory(turns: Sequence[Turn]) -> tuple[str, ...]:
    """The run's action sequence, for trajectory uniqueness across a cell."""
    return tuple(t.move for t in turns)
