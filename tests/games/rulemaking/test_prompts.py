"""The output-format example of the system prompt: one format in every condition
and one the game's own parser accepts as it stands."""

from __future__ import annotations

import json

import pytest

from negotiation_env.games.rulemaking.features import CONDITIONS
from negotiation_env.games.rulemaking.parser import parse_text, private_key
from negotiation_env.games.rulemaking.prompts import NOTEBOOK_FIELDS, render_system
from negotiation_env.games.rulemaking.scenario import load_scenario

PUBLIC = {"move": "Counter", "issue": None, "rationale": "one or two sentences the other parties will read"}


def example_line(system: str) -> str:
    """The one line of the Response format section that is a JSON object."""
    section = system.split("## Response format\n", 1)[1]
    lines = [ln for ln in section.splitlines() if ln.startswith("{")]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("environment", ["E1", "E2", "E3"])
def test_every_condition_shows_the_same_valid_format_example(environment):
    sc = load_scenario(environment)
    publics, tails = {}, set()
    for condition in CONDITIONS:
        for party in sc.party_ids:
            system = render_system(sc, party, condition, 15)
            assert "{{" not in system and "}}" not in system  # every template was formatted
            line = example_line(system)
            obj = json.loads(line)
            key = private_key(condition)
            expected_keys = ([key] if key else []) + ["move", "issue", "rationale"]
            assert list(obj) == expected_keys, condition
            if key is not None and key != "notes":
                assert list(obj[key]) == list(NOTEBOOK_FIELDS[condition])
            mv = parse_text(line, sc, condition)  # the game's own parser accepts it
            assert (mv.move, mv.issue, mv.rationale) == ("Counter", None, PUBLIC["rationale"])
            assert not mv.warnings
            publics[condition] = {k: obj[k] for k in ("move", "issue", "rationale")}
            # the text of the public part is identical too, not only its JSON value
            tails.add(line[line.index('"move"'):])
    assert all(p == PUBLIC for p in publics.values())
    assert len(tails) == 1


# --------------------------------------------------------------------------- E2: the united front


def test_no_e2_prompt_contradicts_the_united_front():
    # §3: in E2 the industry "presents a united front". Every E2 prompt says so, and no run
    # may also tell a party that the opposing stakeholders act separately.
    import negotiation_env

    sc = load_scenario("E2")
    for seed in range(200):
        env = negotiation_env.env(game="rulemaking", environment="E2")
        env.reset(seed=seed)
        game = env.unwrapped.game
        assert game.params["opposition_coordinated"] is True, seed
        for party in sc.party_ids:
            system = game.conversation(party, acting=False)[0]["content"]
            turn = game._turn_prompt(party)
            assert "united front" in system
            assert "act separately" not in turn, (seed, party)
            assert "the opposing stakeholders coordinate their positions" in turn, (seed, party)
    assert sc.parameters.coordination_p == 1.0  # the variant's distribution, not luck of the seeds
