"""Training language models online: games played with a model being trained in some
seats, returned token-exact.

* :func:`rollouts` plays many games in lock-step with any mix of learner and fixed seats
  and returns one :class:`Episode` per learner seat;
* :func:`to_samples` (one sample per turn, always exact) and :func:`to_stream` (one token
  stream with an environment mask, for append-only episodes) shape an episode for a
  trainer;
* :func:`grpo_dataset` builds the prompt rows of a GRPO run (each a game start: game,
  config, seat, seed) and :func:`advantages` centres returns per group or per role;
* :mod:`negotiation_env.online.trl` plugs them into TRL's ``GRPOTrainer``
  (``rollout_func``, reward functions, ``environment_factory``).

Nothing here imports torch or transformers; the learner (for instance
``baselines.llm.hf.HFPolicy.from_model(model, tokenizer)``) brings them.
"""

from .episode import Episode, NotAppendOnly, Sample, Stream, Turn, extends, to_samples, to_stream
from .groups import ROW_KEY, advantages, grpo_dataset, row_of
from .rollout import LEARNER, rollouts

__all__ = ["rollouts", "LEARNER", "Episode", "Turn", "Sample", "Stream", "NotAppendOnly", "to_samples", "to_stream",
           "extends", "grpo_dataset", "row_of", "advantages", "ROW_KEY"]
