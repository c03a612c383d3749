"""Templated moves of the rulemaking game: a move of the closed vocabulary with a fixed
rationale and, where the condition keeps private state (``notes``, ``ledger``, the
notebooks), a templated note or notebook read from the observation's features only.

The scripted negotiators (:mod:`baselines.scripted.rulemaking`) act through these, and
the numeric menu (:mod:`negotiation_env.wrappers.menus.rulemaking`) sends them for a
learner's menu choice, so every condition plays without a validation error.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

import numpy as np

from .features import CONDITIONS, LAYOUT
from .parser import private_key
from .prompts import NOTEBOOK_FIELDS
from .rules import MOVES

__all__ = ["RATIONALES", "feature", "condition_of", "private_state", "templated_action"]

SUPPORT, OPPOSE, CONCEDE, COUNTER, EXIT = range(len(MOVES))

RATIONALES = {
    "Support": "We can support the direction of the current draft.",
    "Oppose": "We cannot accept the current direction of the draft.",
    "Concede": "In the interest of an agreement we will give ground here.",
    "Counter": "We propose an alternative that better protects our core interests.",
    "Exit": "We see no basis for an agreement and are leaving the negotiation.",
}


def feature(obs: Mapping[str, Any], name: str) -> np.ndarray:
    """The observation's feature entries called ``name`` (:data:`.features.LAYOUT`)."""
    return np.asarray(obs["features"])[LAYOUT.slice(name)]


def condition_of(obs: Mapping[str, Any]) -> str:
    """The condition the observation was made under, as its features say."""
    return CONDITIONS[int(np.argmax(feature(obs, "condition")))]


def private_state(obs: Mapping[str, Any], condition: str) -> str | dict[str, str] | None:
    """The templated private state of ``condition``: a note (``notes``), a notebook
    whose fields are the condition's (:data:`.prompts.NOTEBOOK_FIELDS`) filled with
    facts from the features, or None where the condition keeps none."""
    if condition == "notes":
        return f"Turn {int(feature(obs, 'turn')[0]) + 1}; {int(feature(obs, 'turns_left')[0])} turns left."
    fields = NOTEBOOK_FIELDS.get(condition)
    if fields is None:
        return None
    own = feature(obs, "own_moves")
    others = feature(obs, "others_recent_concessions")[0]
    facts = [
        f"I have conceded {int(own[CONCEDE])} time(s).",
        f"Others conceded {int(others)} time(s) in the recent window.",
        f"{int(feature(obs, 'turns_left')[0])} turns are left.",
        "The others are holding their positions." if others == 0 else "Some parties are moving.",
        "All issues remain open.",
    ]
    return {f: facts[i % len(facts)] for i, f in enumerate(fields)}


def templated_action(obs: Mapping[str, Any], move: int, output: str = "structured",
                     private: str | dict[str, str] | None = None) -> Any:
    """Move ``move`` (an index of :data:`.rules.MOVES`) with its rationale and
    ``private`` state (the condition's key, ``private`` of the structured action), as the
    structured action (``output="structured"``) or the JSON a model would write
    (``"text"``). The issue is the whole package (0; the outcome classifier reads moves
    only)."""
    name = MOVES[move]
    if output == "text":
        obj: dict[str, Any] = {}
        if private is not None:
            obj[private_key(condition_of(obs))] = private
        obj.update({"move": name, "issue": None, "rationale": RATIONALES[name]})
        return json.dumps(obj)
    action: dict[str, Any] = {"move": move, "issue": 0, "rationale": RATIONALES[name]}
    if private is not None:
        action["private"] = private if isinstance(private, str) else json.dumps(private)
    return action
