"""Play a side from Python as an external brain (docs/python.md#external-brains).

Skirmish starts the program (``skirmish sim --heroes exec:"python my_brain.py"``,
or the window's ``--ai exec:...``) and sends it one JSON line per decision::

    {"type": "decide", "game": {"encounter": "first_blood", "seed": 7},
     "side": "heroes", "observation": {...}, "legal": [...], "prompt": null}

and reads one line back: ``{"index": N}`` (a place in ``legal``) or
``{"command": {...}}``. :func:`serve` does the reading and writing::

    import skirmish.brain

    def choose(decision):
        return 0            # or a command dict from decision["legal"]

    skirmish.brain.serve(choose)

Anything printed to standard output other than the answers breaks the
protocol: print to ``sys.stderr`` instead (Skirmish shows it).
"""

from __future__ import annotations

import json
import sys


def answer(choice):
    """The answer line for ``choice``: an index, or a command dict."""
    if isinstance(choice, dict):
        return json.dumps({"command": choice})
    return json.dumps({"index": int(choice)})


def serve(choose, stdin=None, stdout=None):
    """Answer every decision on ``stdin`` with ``choose(decision)`` until the
    input ends. ``choose`` gets the decision dict and returns an index into
    ``decision["legal"]`` or one of its commands."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        decision = json.loads(line)
        if decision.get("type") != "decide":
            continue
        stdout.write(answer(choose(decision)) + "\n")
        stdout.flush()
