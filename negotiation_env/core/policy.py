"""The policy protocol: anything with ``act(observation) -> action``.

Policies read only the observation the env hands them (the env owns memory: context
resets and history windows). ``act_batch`` serves many games at once; the default maps
``act`` over the batch, and LLM back ends override it to batch model calls.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

__all__ = ["Policy", "BasePolicy"]


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: Any) -> Any: ...

    def act_batch(self, observations: Sequence[Any]) -> list[Any]: ...


class BasePolicy:
    """Convenience base: subclasses implement :meth:`act`."""

    name = "policy"

    def act(self, observation: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def act_batch(self, observations: Sequence[Any]) -> list[Any]:
        return [self.act(o) for o in observations]

    def __call__(self, observation: Any) -> Any:
        return self.act(observation)
