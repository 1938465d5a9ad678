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
    GREEDY_WEIGHTS,
    CREATURE_FEATURES,
    TURN_ENTRIES,
    ContentError,
    Encounter,
    Env,
    Refused,
    Snapshot,
    VecEnv,
    simulate,
)
from .envs import SkirmishAEC, SkirmishGym, gym_env, pettingzoo_env

__all__ = [
    "BOARD_PLANES",
    "GREEDY_WEIGHTS",
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
    "simulate",
    "write_weights",
]


def write_weights(path, weights):
    """Write ``weights`` (a dict of the scorer's weights, docs/ai.md) as a
    weights file: ``weights:PATH`` names the tactical scorer with them, in
    :func:`simulate`, ``skirmish sim`` and the window's ``--ai``."""
    body = ",\n".join(f"    {k}: {float(v):.6f}" for k, v in weights.items())
    with open(path, "w", encoding="utf-8") as f:
        f.write("(\n" + body + ",\n)\n")
