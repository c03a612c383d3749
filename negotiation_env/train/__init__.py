"""Training on the games: supervised fine-tuning on a teacher's traces
(:mod:`negotiation_env.train.sft`, :class:`~negotiation_env.train.sft.SFTRunConfig`)
and reinforcement learning on the numeric view (:mod:`negotiation_env.train.rl`,
:class:`~negotiation_env.train.rl.RLRunConfig`); ``negotiation-env train sft|rl`` runs
them from the command line.

Importing this package imports neither torch nor TRL nor Tianshou: each module loads its
libraries when a run starts (the ``sft`` and ``rl`` extras).
"""
