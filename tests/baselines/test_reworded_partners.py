"""Scripted negotiators negotiate with what a partner means, not with its wording: a
partner that says the same things in chat-model words gets the same games, and a message
they cannot read is answered in words and recorded."""

from __future__ import annotations

import json
import re

import pytest

import negotiation_env
from baselines.scripted import make
from baselines.scripted.negotiators import UNREAD_REPLY
from negotiation_env.traces.recorder import TraceRecorder

REWORDINGS = [
    (r"I propose: you take (.+?), I take (.+?)\.", r"How about you take \1 and I will take \2?"),
    (r"\bAgreed\.", "Sounds good to me"),
    (r"I can't accept that\.", "Unfortunately, that doesn\u2019t work for me."),
    (r"My (project_\w) needs (.+?) per run and pays (\d+(?:\.\d+)?)\.",
     lambda m: f"{m.group(1).replace('_', ' ').title()} requires {m.group(2).replace(' and ', ' + ')} "
               f"(reward: ${m.group(3)}/run)."),
    (r"What are your projects\?", "What projects are you working on?"),
]


class Reworded:
    """A scripted policy whose speech is rewritten, decisions untouched."""

    def __init__(self, inner, rewordings=REWORDINGS):
        self.inner, self.rewordings = inner, rewordings

    def act(self, obs):
        answer = self.inner.act(obs)
        try:
            obj = json.loads(answer)
        except ValueError:  # the reflection: plain text
            return answer
        if isinstance(obj, dict) and isinstance(obj.get("speech"), str):
            for pat, rep in self.rewordings:
                obj["speech"] = re.sub(pat, rep, obj["speech"])
            return json.dumps(obj)
        return answer


def play(a, b, *, scenario, seed):
    env = TraceRecorder(negotiation_env.env(scenario=scenario, num_rounds=4))
    env.set_policies({"agent_a": a, "agent_b": b})
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else {"agent_a": a, "agent_b": b}[agent].act(obs))
    t = env.last_trace.to_dict()
    rounds = [r["outcome"] for r in t["rounds"]]
    eff = sum(o["joint_reward"] for o in rounds) / sum(o["joint_max"] for o in rounds)
    return eff, sum(bool(o["overdraw"]) for o in rounds), t


@pytest.mark.parametrize("scenario", ["mc080_1", "mc100_2", "mc050_3"])
@pytest.mark.parametrize("reworded_seat", ["agent_a", "agent_b"])
def test_oracle_and_linear_play_the_same_games_in_other_words(scenario, reworded_seat):
    def pair(reword):
        # the agents' own sentences, so that the rewording below finds them
        a = make("oracle", seed=1, output="text", phrasing="fixed")
        b = make("linear", seed=2, output="text", phrasing="fixed")
        if reword:
            if reworded_seat == "agent_a":
                a = Reworded(a)
            else:
                b = Reworded(b)
        return play(a, b, scenario=scenario, seed=3)

    def said(t):
        return [s["parsed"]["speech"] for s in t["steps"] if s["agent"] == reworded_seat and s.get("parsed")]

    eff, over, t0 = pair(False)
    eff_r, over_r, t = pair(True)
    assert sum(x != y for x, y in zip(said(t0), said(t))) >= 4  # the rewording was spoken
    assert (eff_r, over_r) == (eff, over)
    assert [r["outcome"]["purchases"] for r in t["rounds"]] == [r["outcome"]["purchases"] for r in t0["rounds"]]
    assert not any(e["type"] == "unread_message" for s in t["steps"] for e in s["events"])


class Unreadable:
    """Says something on topic nobody can read, then buys nothing."""

    def act(self, obs):
        if "CHEAP TALK" in obs["prompt"]:
            return json.dumps({"thinking": "", "speech": "Let's split it sixty-forty, in my favour.", "action": None})
        return json.dumps({"thinking": "", "speech": "", "action": {}})


def test_an_unread_message_is_answered_in_words_and_recorded():
    oracle = make("oracle", seed=1, output="text")
    _eff, _over, t = play(Unreadable(), oracle, scenario="mc080_1", seed=0)
    steps = [s for s in t["steps"] if s["agent"] == "agent_b" and s["phase"] == "talk" and s.get("parsed")]
    answered = [s for s in steps if UNREAD_REPLY in s["parsed"]["speech"]]
    unread = [e for s in steps for e in s["events"] if e["type"] == "unread_message"]
    # the partner speaks once a round, then buys: each of the 4 rounds has one unread message
    assert len(answered) == len(unread) == 4
    assert all(any(e["type"] == "unread_message" for e in s["events"]) for s in answered)
    assert unread[0]["message"] == "Let's split it sixty-forty, in my favour." and unread[0]["source"] == "policy"


def test_the_report_counts_what_each_scripted_reader_read():
    from negotiation_env.analysis.resource_metrics import understanding

    oracle = make("oracle", seed=1, output="text")
    _eff, _over, t = play(Unreadable(), oracle, scenario="mc080_1", seed=0)
    t["policies"]["agent_a"]["label"] = "python:unreadable"
    t["policies"]["agent_b"]["label"] = "scripted:oracle"
    rows = understanding([t])
    said = sum(1 for s in t["steps"] if s["agent"] == "agent_a" and s["phase"] == "talk" and s.get("parsed"))
    # only the scripted seat reports; the other seat's silence is not counted as reading
    assert rows == {("python:unreadable × scripted:oracle", "scripted:oracle"):
                    {"games": 1, "messages": said, "unread": 4}}
