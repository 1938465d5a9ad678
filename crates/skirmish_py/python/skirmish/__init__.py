"""Skirmish: the tactical combat rules engine, from Python.

The low-level API is :class:`Encounter`::

    import skirmish
    e = skirmish.Encounter("first_blood", seed=7)
    while e.winner() is None:
        action = e.legal_actions()[0]
        e.apply(action)

Actions, log entries and forecasts are plain dicts and lists, in the same
JSON form as the engine's replay files.

For learning: :func:`pettingzoo_env` (both sides, AEC), :func:`gym_env` (one
side against a shipped brain), :class:`Env` (their core: a fixed
``Discrete(N)`` action layout with a mask, observations as numpy arrays) and
:class:`VecEnv` (many encounters stepped in one call). See
``docs/python.md``.
"""

from ._skirmish import (
    BOARD_PLANES,
    CREATURE_FEATURES,
    TURN_ENTRIES,
    ContentError,
    Encounter,
    Env,
    Refused,
    Snapshot,
    VecEnv,
)
from .envs import SkirmishAEC, SkirmishGym, gym_env, pettingzoo_env

__all__ = [
    "BOARD_PLANES",
    "CREATURE_FEATURES",
    "TURN_ENTRIES",
    "ContentError",
    "Encounter",
    "Env",
    "Refused",
    "SkirmishAEC",
    "SkirmishGym",
    "Snapshot",
    "VecEnv",
    "gym_env",
    "pettingzoo_env",
]
