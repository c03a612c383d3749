"""The HTTP layer under the API client, kept importable under this name:
:mod:`negotiation_env.api.transport` holds it."""

from __future__ import annotations

from negotiation_env.api.transport import *  # noqa: F401,F403 - re-exported
from negotiation_env.api.transport import __all__  # noqa: F401
