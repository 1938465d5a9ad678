"""An external brain in a few lines (docs/python.md#external-brains): strike
the most hurt enemy it can, else step toward the nearest one, else end
the turn. Try it:

    skirmish sim --encounter first_blood --heroes exec:"python examples/python/nearest_brain.py" --games 50

(with the package installed: pip install ./crates/skirmish_py).
"""

import skirmish.brain


def distance(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def choose(decision):
    obs, legal = decision["observation"], decision["legal"]
    me = decision["side"]
    by_id = {c["id"]: c for c in obs["creatures"]}
    enemies = [c for c in obs["creatures"] if c["side"] != me and not c["dead"]]

    def score(command):
        kind, body = next(iter(command.items()))
        if kind in ("UseAbility", "FreeStrike"):
            targets = body.get("targets") or [body.get("target")]
            hurt = [by_id[t] for t in targets if t in by_id and by_id[t]["side"] != me]
            if hurt:
                return 100 - min(t["stamina"] for t in hurt)
            return -50
        if kind == "Move" and enemies:
            end = body["path"][-1]
            return -min(distance(end, e["square"]) for e in enemies)
        if kind in ("StartTurn", "Answer"):
            return 0
        return -99

    return max(range(len(legal)), key=lambda i: score(legal[i]))


if __name__ == "__main__":
    skirmish.brain.serve(choose)
