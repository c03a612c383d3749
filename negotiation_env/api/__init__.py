"""The client of OpenAI-compatible chat servers, shared by the API policies
(``baselines.llm.api``) and the LLM judge (:mod:`negotiation_env.analysis.judge`).

* :mod:`.client`: :class:`~.client.APIClient` (retries, deadlines, a concurrency limit,
  checked answers, the key kept out of every record); needs the ``api`` extra (``openai``).
* :mod:`.transport`: the HTTP layer under it (a whole-call deadline, a size cap, no
  redirects, secrets out of the HTTP libraries' logs).
* :mod:`.keys`: :func:`~.keys.api_key_from_env`, the key from the environment variable a
  run names; importable without the extra.
"""

from __future__ import annotations

from .keys import api_key_from_env

__all__ = ["api_key_from_env"]
