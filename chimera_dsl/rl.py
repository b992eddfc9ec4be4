"""``chimera_dsl.rl``, the path the README gives for the reinforcement-learning environment:
the same names as :mod:`chimera_dsl.learn.rl`, where the code lives (extra ``rl``).  This
module only re-exports them, so that ``from chimera_dsl.rl import env`` keeps working.
"""
from .learn.rl import DEFAULT_MAX_ACTIONS, ChimeraEnv, env, observation_layout

__all__ = ["env", "ChimeraEnv", "observation_layout", "DEFAULT_MAX_ACTIONS"]
