"""The tiny local chat model for tests and benchmarks: :mod:`negotiation_env.train.tiny`
(re-exported here, where the LLM back ends' users look for it)."""

from negotiation_env.train.tiny import CHAT_TEMPLATE, SPECIAL_TOKENS, build_tiny_model

__all__ = ["build_tiny_model", "CHAT_TEMPLATE", "SPECIAL_TOKENS"]
