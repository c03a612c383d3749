"""A chat model behind any OpenAI-compatible server (vLLM, SGLang, Ollama, OpenRouter,
OpenAI) negotiates the resource game against a scripted negotiator.

    python examples/llm_vs_scripted.py --base-url http://localhost:8000/v1 --model Qwen/Qwen3-8B

The key comes from OPENAI_API_KEY (local servers need none). The model reads the text
the env gives its seat and answers in text; the env parses the answer with the same
validator as any move and, on a bad one, tells the model what was wrong and asks again.
"""

from __future__ import annotations

import argparse

import negotiation_env
from baselines.llm.api import APIPolicy  # the 'api' extra: pip install 'negotiation_env[api]'
from baselines.scripted import POLICIES, make


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True, help="the server's OpenAI-compatible URL, e.g. .../v1")
    parser.add_argument("--model", required=True, help="the model name the server serves")
    parser.add_argument("--opponent", default="oracle", choices=list(POLICIES), help="scripted negotiator")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    llm = APIPolicy(args.model, args.base_url, seed=args.seed, timeout=120, max_retries=3)
    llm.probe()  # one short call first: a server that is not there fails here, not after every retry
    policies = {"agent_a": llm, "agent_b": make(args.opponent, seed=args.seed + 1, output="text")}

    # render_mode="human" prints each new transcript line as the game goes
    env = negotiation_env.make("resource_v1", num_rounds=args.rounds, render_mode="human")
    env.reset(seed=args.seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        # obs["conversation"] is the chat the seat has seen (system prompt, history, prompt)
        env.step(None if terminated or truncated else policies[agent].act(obs))
    print(f"{args.model} (agent_a) {returns['agent_a']:g}, {args.opponent} (agent_b) {returns['agent_b']:g}")
    return returns


if __name__ == "__main__":
    main()
