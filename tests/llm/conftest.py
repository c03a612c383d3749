"""Fixtures of the LLM back-end tests: a tiny random chat model built and saved locally
(no hub access), and a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import importlib.util

import pytest

from tests.fakeserver import FakeServer


@pytest.fixture(scope="package", autouse=True)
def _one_torch_thread():
    """A tiny model gains nothing from threads, and on a busy machine they make a forward
    pass several times slower (threads wait for cores); restored after this package."""
    if importlib.util.find_spec("torch") is None:
        yield
        return
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> str:
    """Path of a 2-layer random Llama chat model (byte-level BPE tokenizer trained on the
    games' own prompts, a simple chat template with ``enable_thinking``)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from baselines.llm.tiny import build_tiny_model

    return str(build_tiny_model(tmp_path_factory.mktemp("tiny") / "model"))


@pytest.fixture(scope="session")
def greedy(tiny_model):
    """One greedy HFPolicy on the tiny model (loading is the slow part: share it)."""
    from baselines.llm.hf import HFPolicy

    return HFPolicy(tiny_model, temperature=0.0, max_new_tokens=12, device="cpu")


@pytest.fixture()
def server():
    s = FakeServer()
    yield s
    s.close()
