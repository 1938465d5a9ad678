"""Skirmish: the tactical combat rules engine, from Python.

The low-level API is one class, :class:`Encounter`::

    import skirmish
    e = skirmish.Encounter("first_blood", seed=7)
    while e.winner() is None:
        action = e.legal_actions()[0]
        e.apply(action)

Actions, log entries and forecasts are plain dicts and lists, in the same
JSON form as the engine's replay files. See ``docs/python.md``.
"""

from ._skirmish import ContentError, Encounter, Refused, Snapshot

__all__ = ["ContentError", "Encounter", "Refused", "Snapshot"]
