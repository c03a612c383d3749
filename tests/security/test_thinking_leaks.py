"""Reasoning never reaches a partner: whole games of all three games, played by
policies that wrap every answer in the shapes a reasoning model (or an attacker) writes:
an orphan ``</think>`` (the template opened the span), nested spans, an unclosed span, a
JSON answer inside the reasoning, and text whose lower case is longer than itself (the
splitter once cut at positions of ``text.lower()``). After every step, no agent's
observation holds another agent's secret. The same through the API back end, whose server
answers in those shapes. Before the one splitter, the matrix game showed ``b`` of
``<think><think>a</think>b</think>c`` and all of ``secret</think>answer`` to the partner.

The matrix game's default reading is the paper's F.6 (``think_tags="f6"``): only complete
spans and an unclosed suffix are reasoning, so text before a stray ``</think>`` is answer,
and the partner reads it in the message, as in the paper's protocol. Every shape stays
private under ``think_tags="strict"``, and the shapes without a stray closing tag under
both; the model back ends split reasoning off with the strict rule before any game reads
the answer."""

from __future__ import annotations

import json

import pytest

import negotiation_env
from baselines.scripted import make as make_resource
from baselines.scripted.matrix import make as make_matrix
from baselines.scripted.rulemaking import make_rulemaking

SHAPES = {
    "orphan": lambda s, a, fake: f"{s} is my plan</think>{a}",
    "nested": lambda s, a, fake: f"<think><think>{s}</think>{s} again</think>{a}",
    "unclosed": lambda s, a, fake: f"{a}<think>{s}",
    "span": lambda s, a, fake: f"<THINK>{s}</Think>{a}",
    "answer in the reasoning": lambda s, a, fake: f"<think>{fake(s)}</think>{a}",
    "cut off while thinking": lambda s, a, fake: f"<think>I will answer {fake(s)}",
    "lower case longer": lambda s, a, fake: "\u0130" * 14 + f" <think>{s}</think>{a}",
    "orphan after a span": lambda s, a, fake: f"<think>x</think>{s}</think>{a}",
}

FAKES = {  # an answer the game would accept, holding the secret where the partner reads
    "matrix": lambda s: s,
    "rulemaking": lambda s: json.dumps({"move": "Support", "issue": None, "rationale": s}),
    "resource": lambda s: json.dumps({"thinking": "", "speech": s, "action": None}),
    "resource_plain": lambda s: s,
}


def secret(agent: str) -> str:
    return f"SECRET-{agent}-q7"


class Shaped:
    """A scripted policy whose every answer comes wrapped in the next shape (seat ``i``
    starts at shape ``3 i``, so that five rulemaking parties of three turns each play
    every shape)."""

    def __init__(self, inner, agent: str, game: str, seat: int = 0, shapes=SHAPES):
        self.inner, self.secret, self.fake, self.calls = inner, secret(agent), FAKES[game], 3 * seat
        self.shapes = list(shapes.values())

    def act(self, obs):
        shape = self.shapes[self.calls % len(self.shapes)]
        self.calls += 1
        return shape(self.secret, self.inner.act(obs), self.fake)


def _seen(env, agent) -> str:
    obs = env.observe(agent)
    return json.dumps({"prompt": obs["prompt"], "conversation": list(obs["conversation"])}, ensure_ascii=False)


def play_and_check(env, policies, max_steps=2000) -> dict[str, int]:
    """Play to the end; after every step no agent sees another's secret. Returns how many
    times each secret reached the acting agent's private record (``last_turn`` thinking)."""
    env.reset(seed=0)
    private = {a: 0 for a in env.possible_agents}
    for step, agent in enumerate(env.agent_iter()):
        assert step < max_steps
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else policies[agent].act(obs))
        for other in env.possible_agents:
            seen = _seen(env, other)
            info = json.dumps(env.infos.get(other, {}).get("last_round"), default=str)
            for a in env.possible_agents:
                if a != other:
                    assert secret(a) not in seen, (agent, other, seen[-400:])
                    assert secret(a) not in info
        last = (env.infos.get(agent) or {}).get("last_turn") or {}
        if secret(agent) in str(last.get("thinking") or ""):
            private[agent] += 1
    return private


#: the shapes with a closing tag outside any span, which F.6 as written leaves in the answer
STRAY_CLOSE = ("orphan", "nested", "orphan after a span")


@pytest.mark.parametrize("think_tags", ["strict", "f6"])
def test_matrix_partners_never_see_reasoning(think_tags):
    env = negotiation_env.env(game="matrix", on_error="retry", max_retries=2, think_tags=think_tags)
    shapes = SHAPES if think_tags == "strict" else {k: v for k, v in SHAPES.items() if k not in STRAY_CLOSE}
    pols = {a: Shaped(make_matrix("tit_for_tat", seed=i, output="text"), a, "matrix", i, shapes)
            for i, a in enumerate(env.possible_agents)}
    private = play_and_check(env, pols)
    assert all(n > 0 for n in private.values())  # the shapes were played, and kept private
    assert env.unwrapped.game.outcomes  # and the game went on


def test_matrix_f6_delivers_the_text_before_a_stray_closing_tag():
    """Under F.6 (the default) a stray ``</think>`` opens nothing: what precedes it is the
    message, delivered verbatim, as the paper's runner does; the strict rule keeps it."""
    for think_tags, shown in (("f6", "SECRET is my plan</think>Let us both choose A."),
                              ("strict", "Let us both choose A.")):
        env = negotiation_env.env(game="matrix", num_rounds=1, acknowledgement=False, think_tags=think_tags)
        env.reset(seed=0)
        env.step("SECRET is my plan</think>Let us both choose A.")
        env.step("Fine.")
        assert f"Agent 0: {shown}" in env.observe("agent_1")["prompt"]
        assert ("SECRET" in _seen(env, "agent_1")) is (think_tags == "f6")


def test_rulemaking_parties_never_see_reasoning():
    env = negotiation_env.env(game="rulemaking")
    pols = {a: Shaped(make_rulemaking("reciprocator", seed=i, output="text"), a, "rulemaking", i)
            for i, a in enumerate(env.possible_agents)}
    play_and_check(env, pols)
    game = env.unwrapped.game
    assert any(t.provenance == "genuine" for t in game.turns)  # answers around reasoning were accepted


@pytest.mark.parametrize("thinking", [True, False])
def test_resource_partners_never_see_reasoning(thinking):
    env = negotiation_env.env(game="resource", num_rounds=2, thinking=thinking)
    kind = "resource" if thinking else "resource_plain"
    pols = {a: Shaped(make_resource("linear", seed=i, output="text"), a, kind, i)
            for i, a in enumerate(env.possible_agents)}
    private = play_and_check(env, pols)
    assert all(n > 0 for n in private.values())
    assert env.unwrapped.game.history  # rounds were played


# --------------------------------------------------------------------------- through the API back end

API_ANSWERS = {
    "matrix": lambda last: "A" if "ACTION PHASE" in last else "Let us both choose A.",
    "rulemaking": lambda last: json.dumps({"move": "Support", "issue": None, "rationale": "I support the package."}),
    "resource": lambda last: json.dumps({"thinking": "t", "speech": "Let us share.", "action": None}),
}


@pytest.mark.parametrize("game", list(API_ANSWERS))
def test_api_answers_in_every_shape_put_no_reasoning_in_any_observation(game, monkeypatch):
    pytest.importorskip("openai")
    from baselines.llm.api import APIPolicy
    from tests.fakeserver import FakeServer

    s = "SECRET-api-q7"
    calls = []

    def reply(req):
        shape = list(SHAPES.values())[len(calls) % len(SHAPES)]
        calls.append(1)
        answer = API_ANSWERS[game](req["messages"][-1]["content"])
        return {"content": shape(s, answer, FAKES[game])}

    server = FakeServer()
    server.reply = reply
    monkeypatch.setenv("NEGENV_LEAK_KEY", "sk-FAKE-leak-key-0000")
    try:
        pol = APIPolicy("m", server.url, api_key_env="NEGENV_LEAK_KEY", timeout=5, max_retries=0)
        config = {"matrix": {"num_rounds": 3}, "rulemaking": {}, "resource": {"num_rounds": 1}}[game]
        env = negotiation_env.env(game=game, **config)
        env.reset(seed=0)
        reasoning = []
        for step, agent in enumerate(env.agent_iter()):
            assert step < 500
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else pol.act(obs))
            reasoning.append(pol.last_reasoning or "")
            for a in env.possible_agents:
                assert s not in _seen(env, a)  # the back end split it off: not even the agent's own history
        assert any(s in r for r in reasoning)  # it was the step's reasoning instead
    finally:
        server.close()
