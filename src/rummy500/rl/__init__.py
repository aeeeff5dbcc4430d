"""Environments for learning agents: PettingZoo, Gymnasium and OpenSpiel (``docs/rl.md``).

Install with ``pip install rummy500[rl]``. Importing this package registers the
Gymnasium environment ``rummy500/Rummy500-v0``; import
:mod:`rummy500.rl.openspiel` to register the OpenSpiel game ``python_rummy500``.

>>> import gymnasium, rummy500.rl
>>> "rummy500/Rummy500-v0" in gymnasium.registry
True
"""

from __future__ import annotations

from ..extras import require

require("rl", "numpy", "gymnasium", feature="rummy500.rl")

from gymnasium.envs.registration import register, registry

from .actions import ActionSpace, action_space
from .observation import ObservationEncoder, observation_encoder

ENV_ID = "rummy500/Rummy500-v0"

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="rummy500.rl.gymnasium_env:Rummy500Env")

__all__ = ["ENV_ID", "ActionSpace", "ObservationEncoder", "action_space", "observation_encoder"]
