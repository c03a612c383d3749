"""GRPO groups and TRL's GRPOTrainer on the games: grpo_dataset rows, role baselines, and
two training steps from negotiation_env.online.trl's rollout_func and its
environment_factory on the tiny local model."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("datasets")

from negotiation_env.online import (LEARNER, ROW_KEY, Episode, advantages, grpo_dataset, row_of,  # noqa: E402
                                    rollouts)

#: the matrix game as the tests play it: one action a round, three rounds, an invalid
#: answer played as the fallback and the game going on
CFG = {"treatment": "none", "acknowledgement": False, "num_rounds": 3, "on_error": "continue"}
SEATS = [LEARNER, "scripted:tit_for_tat"]
#: the prisoner's dilemma payoffs to the row player: (mine, theirs) -> points
PD = {("A", "A"): 3, ("A", "B"): 0, ("B", "A"): 5, ("B", "B"): 1}


@pytest.fixture(scope="module")
def tok(tiny_model):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_model)


def _model(tiny_model):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(tiny_model)


def _tit_for_tat_return(actions: list[str]) -> int:
    """The learner's points against tit-for-tat (it opens A, then copies the learner)."""
    theirs = ["A"] + actions[:-1]
    return sum(PD[(a, b)] for a, b in zip(actions, theirs))


# ----------------------------------------------------------------------------- groups


def test_rows_name_their_game_start_and_the_prompt_is_the_opening_conversation():
    import negotiation_env

    rows = grpo_dataset("matrix", [4, 7], config=CFG, as_list=True)
    assert [(r["seed"], r["seat"]) for r in rows] == [(4, "agent_0"), (4, "agent_1"), (7, "agent_0"), (7, "agent_1")]
    for r in rows:
        assert json.loads(r["config"]) == CFG and r["game"] == "matrix"
        assert row_of(r["prompt"]) == {"game": "matrix", "config": CFG, "seat": r["seat"], "seed": r["seed"]}
        env = negotiation_env.env(game="matrix", **CFG)
        env.reset(seed=r["seed"])
        conv = env.observe(r["seat"])["conversation"]
        assert [(m["role"], m["content"]) for m in r["prompt"]] == [(m["role"], m["content"]) for m in conv]
        assert r["prompt"][0]["role"] == "system"
    ds = grpo_dataset("matrix", [4], "agent_1", config=CFG)
    assert ds.column_names == ["prompt", "game", "config", "seat", "seed"] and ds[0]["seat"] == "agent_1"
    with pytest.raises(ValueError, match="no seat 'agent_9'.*agent_0, agent_1"):
        grpo_dataset("matrix", [0], "agent_9")
    with pytest.raises(ValueError, match="each seed must be an integer"):
        grpo_dataset("matrix", [-1], "agent_0", as_list=True)
    with pytest.raises(ValueError, match="grpo_dataset"):
        row_of([{"role": "user", "content": "hi"}])


class _Sampler:
    """A learner answering A or B at random from its call seed, with canonical tokens:
    what differs between the repeats of a seed is only its sampling."""

    def __init__(self, tok):
        self.tok = tok

    def complete(self, observations, seeds=None):
        import random

        from negotiation_env.core.completion import Completion

        out = []
        for o, s in zip(observations, seeds):
            text = random.Random(s).choice("AB")
            ids = self.tok.apply_chat_template(o["conversation"], tokenize=True, add_generation_prompt=True,
                                               return_dict=False)
            out.append(Completion(text=text, prompt_ids=list(ids), completion_ids=self.tok.encode(
                text, add_special_tokens=False) + [self.tok.eos_token_id], logprobs=[-0.7, -0.1]))
        return out


def test_a_group_shares_its_initial_state_and_its_opponent_random_numbers(tok):
    # bernoulli plays A with probability p from its seed: a stochastic opponent
    eps = rollouts(_Sampler(tok), game="matrix", seeds=[5], repeats=6, config=CFG,
                   seats=[LEARNER, "scripted:bernoulli"])
    assert [e.repeat for e in eps] == list(range(6))
    assert len({tuple(e.turns[0].prompt_ids) for e in eps}) == 1  # one initial state
    mine = [[t.text for t in e.turns] for e in eps]
    assert len({tuple(m) for m in mine}) > 1  # the learner's samples differ
    # the opponent's actions are read off each round's result line; with its own seed
    # fixed across repeats, its first-round action (before it saw the learner) is shared
    firsts = {e.turns[1].context[-1]["content"].split("they chose ")[1][0] for e in eps}
    assert len(firsts) == 1
    later = rollouts(_Sampler(tok), game="matrix", seeds=[5], repeats=2, first_repeat=6, config=CFG,
                     seats=[LEARNER, "scripted:bernoulli"])
    assert [e.repeat for e in later] == [6, 7]


def test_role_baselines_centre_each_seat_on_its_own_mean():
    def ep(seat, seed, ret):
        return Episode("matrix", {}, seat, seed, 0, [], ret)

    eps = [ep("agent_0", 1, 10.0), ep("agent_1", 1, 2.0), ep("agent_0", 1, 6.0), ep("agent_1", 1, 4.0),
           ep("agent_0", 2, 5.0)]
    assert advantages(eps) == [2.0, -1.0, -2.0, 1.0, 0.0]
    assert advantages(eps, baseline="group") == [4.5, -3.5, 0.5, -1.5, 0.0]  # group mean 5.5
    assert advantages(eps, scale=True) == [1.0, -1.0, -1.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="baseline must be"):
        advantages(eps, baseline="seat")


# ----------------------------------------------------------------------------- TRL


def _trainer_args(out, **kw):
    from trl import GRPOConfig

    return GRPOConfig(output_dir=str(out), per_device_train_batch_size=4, num_generations=4, max_steps=2,
                      use_cpu=True, report_to="none", logging_steps=1, save_strategy="no", beta=0.0, **kw)


def _changed(model, before) -> bool:
    return any(not torch.equal(before[k], v) for k, v in model.named_parameters())


@pytest.fixture()
def silence(monkeypatch):
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")


def test_grpo_trainer_runs_from_the_rollout_func(tiny_model, tok, tmp_path, silence):
    from trl import GRPOTrainer

    from negotiation_env.online.trl import game_return, rollout_func, valid_share

    model = _model(tiny_model)
    before = {k: v.clone() for k, v in model.named_parameters()}
    func = rollout_func(SEATS, generation={"max_new_tokens": 4, "constrained": True})
    calls = []

    def spy(prompts, trainer):  # records what the trainer got; the call itself is the documented one
        out = func(prompts, trainer)
        calls.append((prompts, out))
        return out

    trainer = GRPOTrainer(model=model, args=_trainer_args(tmp_path, learning_rate=1e-2), processing_class=tok,
                          reward_funcs=[game_return, valid_share], rollout_func=spy,
                          train_dataset=grpo_dataset("matrix", range(4), "agent_0", config=CFG))
    trainer.train()
    assert _changed(model, before)
    logs = [h for h in trainer.state.log_history if "rewards/game_return/mean" in h]
    assert len(calls) == len(logs) == 2
    for (prompts, out), log in zip(calls, logs):
        assert len(out["prompt_ids"]) == len(prompts) == 4
        rows = [row_of(p) for p in prompts]
        assert len({r["seed"] for r in rows}) == 1  # num_generations rows of one game start: a group
        assert len({tuple(p) for p in out["prompt_ids"]}) == 1
        for ids, mask, lp, ret in zip(out["completion_ids"], out["env_mask"], out["logprobs"], out["game_return"]):
            assert len(ids) == len(mask) == len(lp)
            actions = [tok.decode([x]) for x, m in zip(ids, mask) if m and x != tok.eos_token_id]
            assert len(actions) == 3 and set(actions) <= {"A", "B"}  # three constrained answers
            assert ret == _tit_for_tat_return(actions)  # the reward is the game's return
        assert out["valid_share"] == [1.0] * 4
        assert log["rewards/game_return/mean"] == pytest.approx(sum(out["game_return"]) / 4)
        assert log["rewards/valid_share/mean"] == 1.0


def test_grpo_trainer_runs_from_the_environment_factory(tiny_model, tok, tmp_path, silence):
    from transformers.utils import get_json_schema
    from trl import GRPOTrainer

    from negotiation_env.online.trl import environment_factory

    Env = environment_factory("matrix", SEATS, config=CFG)
    dataset = grpo_dataset("matrix", range(4), "agent_0", config=CFG)
    model = _model(tiny_model)
    # a random model never writes a tool call: teach it the call's form first (both actions)
    prompt = [{"role": m["role"], "content": m["content"]} for m in dataset[0]["prompt"]]
    tools = [get_json_schema(Env().answer_action)]
    pids = tok.apply_chat_template(prompt, tools=tools, add_generation_prompt=True, tokenize=True, return_dict=False)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(40):
        call = '<tool_call>{"name": "answer_action", "arguments": {"answer": "%s"}}</tool_call><|end|>' % "AB"[step % 2]
        target = tok(call, add_special_tokens=False)["input_ids"]
        ids = torch.tensor([list(pids) + target])
        labels = ids.clone()
        labels[0, :len(pids)] = -100
        model(input_ids=ids, labels=labels).loss.backward()
        opt.step()
        opt.zero_grad()
    before = {k: v.clone() for k, v in model.named_parameters()}
    trainer = GRPOTrainer(model=model, args=_trainer_args(tmp_path, learning_rate=1e-3, max_completion_length=160),
                          processing_class=tok, train_dataset=dataset, environment_factory=Env)
    trainer.train()
    assert _changed(model, before)
    logs = [h for h in trainer.state.log_history if "rewards/MatrixEnv/mean" in h]
    assert len(logs) == 2 and all(h["tools/call_frequency"] > 0 for h in logs)
    envs = trainer.environments
    assert len(envs) == 4 and len({e.seed for e in envs}) == 1 and any(e.answers for e in envs)
    assert all(e.get_reward() == 0.0 for e in envs if not e.answers)  # no answer, no round played
    assert logs[-1]["rewards/MatrixEnv/mean"] == pytest.approx(sum(e.get_reward() for e in envs) / 4)


def test_the_environment_plays_the_game_through_typed_tools():
    from transformers.utils import get_json_schema

    from negotiation_env.online.trl import environment_factory

    Env = environment_factory("matrix", SEATS, config=CFG)
    env = Env()
    schema = get_json_schema(env.answer_action)["function"]["parameters"]
    assert schema["properties"]["answer"]["enum"] == ["A", "B"]
    row = grpo_dataset("matrix", [2], "agent_0", config=CFG, as_list=True)[0]
    assert env.reset(**row) is None  # the row's prompt is the opening conversation
    placeholder = dict(row, prompt=[{"role": "user", "content": ""}])
    # a prompt without the opening: reset gives it all, system prompt first, for TRL to append
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert env.reset(**placeholder) == row["prompt"][0]["content"] + "\n\n" + row["prompt"][1]["content"]
    assert "Round 1 complete" in env.answer_action(answer="B")
    env.answer_action(answer="A")
    assert env.answer_action(answer="A").startswith("The game is over")
    assert env.get_reward() == _tit_for_tat_return(["B", "A", "A"]) and env.valid_share == 1.0
    with pytest.raises(ValueError, match="seed"):
        env.reset(**dict(row, seed=None))
    with pytest.raises(ValueError, match="exactly one seat plays the learner"):
        environment_factory("matrix", [LEARNER, LEARNER])
    full = environment_factory("matrix", SEATS)  # the paper's default: acknowledgement, talk, action
    assert {"answer_acknowledge", "answer_message", "answer_action"} <= set(vars(full))


def test_a_stream_that_breaks_is_refused_or_cut(tiny_model, tok):
    from negotiation_env.online import NotAppendOnly
    from negotiation_env.online.trl import rollout_func

    class _Trainer:  # what rollout_func reads of a GRPOTrainer
        def __init__(self):
            self.model = _model(tiny_model)
            self.processing_class = tok

    prompts = [r["prompt"] for r in grpo_dataset("rulemaking", [0], "continental_bank", as_list=True,
                                                  config={"max_retries": 0})] * 2
    seats = ["scripted:conceder", LEARNER, "scripted:conceder", "scripted:conceder", "scripted:conceder"]
    # every rulemaking decision's context is built afresh (its retries extend it: none
    # here): a second turn breaks the stream
    with pytest.raises(NotAppendOnly, match="rulemaking game \\(seat continental_bank, seed 0\\).*on_break"):
        rollout_func(seats, generation={"max_new_tokens": 4}, max_steps=12)(prompts, _Trainer())
    out = rollout_func(seats, generation={"max_new_tokens": 4}, on_break="prefix", max_steps=12)(prompts, _Trainer())
    assert out["trained_turns"] == [1, 1] and all(len(t) > 1 for t in out["turn_rewards"])
    assert out["joint_efficiency"] == [None, None]
    with pytest.raises(ValueError, match="on_break must be one of error, prefix"):
        rollout_func(seats, on_break="skip")


def test_the_row_key_rides_on_the_first_message_only():
    rows = grpo_dataset("resource", [0], "agent_a", as_list=True)
    p = rows[0]["prompt"]
    assert json.loads(p[0][ROW_KEY])["seat"] == "agent_a" and all(m[ROW_KEY] == "" for m in p[1:])


def test_grpo_example_trains_one_step_of_trl_on_the_tiny_model(tiny_model, capsys):
    """One GRPOTrainer step of examples/train_grpo.py (the GPU recipe) on the tiny model
    on CPU: constrained answers are legal moves (valid 1.00), and the mean return of the
    group's 2 two-round games against tit_for_tat is a mean of two of its achievable
    returns (AA 6, AB 8, BA 5, BB 6)."""
    pytest.importorskip("trl")
    pytest.importorskip("llguidance")
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "train_grpo.py"
    spec = importlib.util.spec_from_file_location("example_train_grpo", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = example.main(["--model", tiny_model, "--steps", "1", "--group", "2", "--seeds-per-step", "1",
                        "--rounds", "2", "--max-new-tokens", "4", "--constrained"])
    (h,) = out["history"]
    assert h["step"] == 1 and h["valid"] == 1.0
    assert h["return"] in {(a + b) / 2 for a in (5, 6, 8) for b in (5, 6, 8)}
    assert "step    1  return" in capsys.readouterr().out

