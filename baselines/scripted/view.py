"""What a resource-game agent knows from its observation, kept importable under this name:
:mod:`negotiation_env.games.resource.view` holds it (the numeric menu reads it too)."""

from negotiation_env.games.resource.view import *  # noqa: F401,F403 - re-exported
from negotiation_env.games.resource.view import __all__  # noqa: F401
