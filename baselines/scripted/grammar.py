"""The resource game's mini-grammar, kept importable under this name:
:mod:`negotiation_env.games.resource.grammar` holds it (the numeric menu speaks it too)."""

from negotiation_env.games.resource.grammar import *  # noqa: F401,F403 - re-exported
from negotiation_env.games.resource.grammar import __all__  # noqa: F401
