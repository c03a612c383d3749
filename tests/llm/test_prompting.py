"""What both back ends share: reading the conversation, splitting reasoning, call records,
per-call seeds, the reasoning switch."""

from __future__ import annotations

import pytest

from baselines.llm.policy import check_reasoning_mode, reasoning_requested
from baselines.llm.prompting import Completion, Usage, call_seed, conversation_of, split_reasoning


def test_conversation_of_reads_what_the_env_holds():
    conv = ({"role": "system", "content": "s"}, {"role": "user", "content": "u"})
    assert conversation_of({"conversation": conv, "prompt": "ignored"}) == list(conv)
    assert conversation_of({"prompt": "p"}) == [{"role": "user", "content": "p"}]
    assert conversation_of("plain") == [{"role": "user", "content": "plain"}]
    for obs, msg in [({"conversation": ()}, "is empty"),
                     ({"conversation": conv + ({"role": "assistant", "content": "a"},)}, "ends with an assistant"),
                     ({"conversation": ({"role": "tool", "content": "x"},)}, r"\[0\]\['role'\] must be one of"),
                     ({"conversation": ({"role": "user", "content": 3},)}, r"\['content'\] must be a string"),
                     ({"features": [1]}, "neither a 'conversation' nor"), (5, "got int")]:
        with pytest.raises(ValueError, match=msg):
            conversation_of(obs)


@pytest.mark.parametrize("text,answer,reasoning", [
    ("A", "A", None),
    ("<think>plan</think> A ", "A", "plan"),
    ("<think>one</think>A<think>two</think>", "A", "one\n\ntwo"),
    ("plan opened by the template</think>\n\nB", "B", "plan opened by the template"),
    ('{"speech": "hi"}<think>cut off mid-thou', '{"speech": "hi"}', "cut off mid-thou"),
    ("<think>\n\n</think>\n\nA", "A", None),  # an empty span (thinking switched off) is no reasoning
    ("<think><think>a</think>b</think>A", "A", "<think>a</think>b"),  # a nested span, whole
    ("<think>x</think>I say</think>B", "B", "x\n\nI say"),  # a later orphan closing tag: all before it
])
def test_split_reasoning(text, answer, reasoning):
    assert split_reasoning(text) == (answer, reasoning)


def test_trace_usage_holds_counts_faults_and_failure():
    c = Completion(text="", usage=Usage(prompt_tokens=10, completion_tokens=4, reasoning_tokens=3), failed=True,
                   attempts=3, faults=[{"kind": "timeout", "attempt": 1, "message": "slow"}], finish_reason="length")
    d = c.trace_usage()
    assert d == {"prompt_tokens": 10, "completion_tokens": 4, "reasoning_tokens": 3, "total_tokens": 14,
                 "attempts": 3, "failed": True, "faults": [{"kind": "timeout", "attempt": 1, "message": "slow"}],
                 "finish_reason": "length"}
    d["faults"][0]["kind"] = "changed"
    assert c.faults[0]["kind"] == "timeout"  # a copy


def test_call_seeds_are_fixed_distinct_and_none_without_a_seed():
    seeds = [call_seed(7, i) for i in range(100)]
    assert seeds == [call_seed(7, i) for i in range(100)] and len(set(seeds)) == 100
    assert all(0 <= s < 2 ** 31 for s in seeds) and call_seed(8, 0) != seeds[0]
    assert call_seed(None, 3) is None


def test_reasoning_switch():
    assert reasoning_requested({"reasoning": 1}) is True and reasoning_requested({"reasoning": 0}) is False
    assert reasoning_requested({"prompt": "x"}) is None and reasoning_requested("text") is None
    assert reasoning_requested({"reasoning": 0}, "on") is True and reasoning_requested({"reasoning": 1}, "off") is False
    assert reasoning_requested({"reasoning": 1}, "default") is None
    assert check_reasoning_mode(True) == "on" and check_reasoning_mode(None) == "auto"
    with pytest.raises(ValueError, match="'reasoning' must be one of auto, on, off, default"):
        check_reasoning_mode("sometimes")
