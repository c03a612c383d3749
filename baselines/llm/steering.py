"""Directions in the residual stream and interventions along them (seed 002, App. D).

* :func:`balanced_direction` (Eq. S7): the unit-normalised difference of two message
  classes' mean final-token activations, each class mean taken over history frames with
  equal weight, so that an unequal mix of partner-A and partner-B histories cannot drive
  the difference.
* :func:`random_direction`: the equal-norm random control (a unit vector drawn from a
  seeded ``torch.Generator``, scaled to the learned direction's norm).
* :class:`Steer` (Eq. S8): ``h' = h + alpha * d`` at the final prompt token.
* :class:`Ablate` (Eq. S9): ``h' = h - (h . d) d`` with ``d`` unit-normalised.

Apply them with ``HFPolicy.intervene(...)``, optionally only for some observations
(``when=``; e.g. only the matrix game's action decisions, leaving messages untouched):

    d = balanced_direction(acts, classes, histories)[20]
    with policy.intervene(Ablate(20, d), when=is_action_decision):
        ... play closed-loop games ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Mapping, Sequence

try:
    import torch
except ImportError as _e:  # pragma: no cover - depends on the install
    raise ImportError(f"baselines.llm.steering needs torch ({_e}); "
                      "install the extra: pip install 'negotiation_env[llm]'") from None

__all__ = ["Steer", "Ablate", "balanced_direction", "random_direction", "logit_margin_slope", "ALPHAS"]

#: the one-step steering strengths of Eq. S8
ALPHAS = (-2.0, -1.0, -0.5, 0.5, 1.0, 2.0)


def _vector(direction: Any, name: str) -> torch.Tensor:
    d = torch.as_tensor(direction, dtype=torch.float32).flatten()
    if d.numel() == 0 or not torch.isfinite(d).all():
        raise ValueError(f"{name}: direction must be a finite, non-empty vector")
    return d


@dataclass(frozen=True, eq=False)
class Steer:
    """Add ``alpha * direction`` to the residual stream after decoder block ``layer``
    (1-based) at the final prompt token (Eq. S8). The direction is used as given (unit
    norm for the paper's slopes)."""

    layer: int
    direction: torch.Tensor
    alpha: float

    def __post_init__(self):
        object.__setattr__(self, "direction", _vector(self.direction, "Steer"))

    def apply(self, h: torch.Tensor) -> torch.Tensor:
        return h + float(self.alpha) * self.direction.to(device=h.device, dtype=h.dtype)


@dataclass(frozen=True, eq=False)
class Ablate:
    """Project the direction out of the residual stream after decoder block ``layer``
    at the final prompt token: ``h - (h . d) d`` with ``d`` unit-normalised (Eq. S9)."""

    layer: int
    direction: torch.Tensor

    def __post_init__(self):
        d = _vector(self.direction, "Ablate")
        n = float(d.norm())
        if n == 0.0:
            raise ValueError("Ablate: direction must be non-zero")
        object.__setattr__(self, "direction", d / n)

    def apply(self, h: torch.Tensor) -> torch.Tensor:
        d = self.direction.to(device=h.device, dtype=torch.float32)
        hf = h.float()
        return (hf - (hf @ d)[..., None] * d).to(h.dtype)


def balanced_direction(activations: Mapping[int, torch.Tensor] | torch.Tensor, classes: Sequence[Hashable],
                       histories: Sequence[Hashable] | None = None, *, positive: Hashable | None = None,
                       negative: Hashable | None = None) -> Any:
    """The history-balanced class-difference direction of Eq. S7.

    activations: ``[n, hidden]`` rows (or ``{layer: [n, hidden]}``, as
        ``HFPolicy.final_token_activations`` returns; the result is then per layer).
    classes: the message class of each row (two distinct values; ``positive`` minus
        ``negative``, default: the first class seen minus the other).
    histories: the history frame of each row (e.g. the partner's latest action). Each
        class mean is the average of its per-history means, so each frame weighs the
        same; every class must have rows in every frame. None: plain class means.
    Returns the unit vector ``(mu_pos - mu_neg) / ||mu_pos - mu_neg||`` (or a dict of them).
    """
    if isinstance(activations, Mapping):
        return {l: balanced_direction(a, classes, histories, positive=positive, negative=negative)
                for l, a in activations.items()}
    x = torch.as_tensor(activations, dtype=torch.float32)
    if x.ndim != 2 or x.shape[0] != len(classes):
        raise ValueError(f"activations must be [n, hidden] with one class per row; got shape {tuple(x.shape)} "
                         f"and {len(classes)} classes")
    labels = list(dict.fromkeys(classes))
    if len(labels) != 2:
        raise ValueError(f"balanced_direction needs exactly two message classes; got {labels!r}")
    pos = labels[0] if positive is None else positive
    neg = (labels[1] if pos == labels[0] else labels[0]) if negative is None else negative
    if {pos, neg} != set(labels):
        raise ValueError(f"positive/negative must be the two classes {labels!r}; got {pos!r}, {neg!r}")
    frames = [None] * len(classes) if histories is None else list(histories)
    if len(frames) != len(classes):
        raise ValueError(f"{len(frames)} histories for {len(classes)} rows")
    kinds = list(dict.fromkeys(frames))

    def mean_of(c):
        cell_means = []
        for f in kinds:
            idx = [i for i, (ci, fi) in enumerate(zip(classes, frames)) if ci == c and fi == f]
            if not idx:
                raise ValueError(f"class {c!r} has no rows with history {f!r}: the direction cannot be balanced")
            cell_means.append(x[idx].mean(dim=0))
        return torch.stack(cell_means).mean(dim=0)

    diff = mean_of(pos) - mean_of(neg)
    n = float(diff.norm())
    if n == 0.0:
        raise ValueError("the two class means coincide: no direction")
    return diff / n


def random_direction(size: int, seed: int, *, norm: float = 1.0) -> torch.Tensor:
    """An isotropic random vector of length ``norm`` from ``torch.Generator(seed)`` (the
    equal-norm control of D.3; the paper seeds layer ``l``'s with ``20260701 + 99 + l``)."""
    g = torch.Generator().manual_seed(int(seed))
    v = torch.randn(int(size), generator=g)
    return v / v.norm() * float(norm)


def logit_margin_slope(policy: Any, observations: Sequence[Any], layer: int, direction: torch.Tensor,
                       alphas: Sequence[float] = ALPHAS, choices: Sequence[str] = ("A", "B")) -> float:
    """Least-squares slope of the mean A-B logit margin against ``alpha`` under
    :class:`Steer` (the one-step test of D.3), over ``observations``."""
    xs, ys = [], []
    for a in alphas:
        with policy.intervene(Steer(layer, direction, float(a))):
            probs = policy.action_probs_batch(observations, choices)
        margins = [p.margin for p in probs]
        xs.append(float(a))
        ys.append(sum(margins) / len(margins))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("alphas must not all be equal")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
