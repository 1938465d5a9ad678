"""External brains (issue 53, point 7): the helper that turns a function
into a brain speaking docs/python.md's JSON lines, and a Python brain
played by `skirmish sim` when the binary has been built."""

import io
import json
import os
import pathlib
import subprocess
import sys

import pytest

import skirmish
import skirmish.brain

ROOT = pathlib.Path(__file__).resolve().parents[3]


def decision_for(encounter):
    """A decision message as Skirmish writes it, for this moment."""
    legal = encounter.legal_actions()
    return {
        "type": "decide",
        "game": {"encounter": "first_blood", "seed": encounter.seed},
        "side": encounter.deciding_side(),
        "observation": encounter.observe(encounter.deciding_side()),
        "legal": legal,
        "prompt": None,
    }


def test_serve_answers_each_decision_with_an_index_or_a_command():
    e = skirmish.Encounter("first_blood", seed=2)
    d = decision_for(e)
    lines = "\n".join([json.dumps(d), json.dumps({"type": "hello"}), json.dumps(d)]) + "\n"
    out = io.StringIO()
    calls = []

    def choose(decision):
        calls.append(decision["side"])
        return decision["legal"][-1] if len(calls) == 2 else len(decision["legal"]) - 1

    skirmish.brain.serve(choose, stdin=io.StringIO(lines), stdout=out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers == [{"index": len(d["legal"]) - 1}, {"command": d["legal"][-1]}]
    assert len(calls) == 2, "only decisions are answered"
    # The command answered is one the engine takes.
    e.apply(answers[1]["command"])


def skirmish_binary():
    # The newest build (cargo test, as .ci/run runs it first, builds debug).
    built = [b for b in (ROOT / "target" / p / "skirmish" for p in ("debug", "release")) if b.exists()]
    return max(built, key=lambda b: b.stat().st_mtime) if built else None


def test_sim_plays_a_python_brain():
    binary = skirmish_binary()
    if binary is None:
        pytest.skip("the skirmish binary is not built (cargo build): nothing to play the brain")
    brain = f"exec:{sys.executable} {ROOT / 'examples/python/nearest_brain.py'}"
    out = subprocess.run(
        [binary, "sim", "--encounter", "first_blood", "--games", "4", "--heroes", brain,
         "--monsters", "random", "--json"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**os.environ, "SKIRMISH_ASSETS": str(ROOT / "assets")},
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["games"] == 4 and report["errors"] == []
    # It strikes: its heroes deal damage.
    assert report["creatures"]["Korva"]["dealt_per_game"] > 0


def test_the_training_example_runs_and_writes_a_brain(tmp_path):
    # examples/python/train_weights.py, for a few seconds: it writes a
    # weights file the simulator plays as `weights:FILE`.
    out = tmp_path / "learned.ron"
    run = subprocess.run(
        [sys.executable, ROOT / "examples/python/train_weights.py", "--minutes", "0.02",
         "--games", "4", "--population", "4", "--out", out],
        capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "generation   1" in run.stdout and out.exists()
    report = skirmish.simulate("first_blood", heroes=f"weights:{out}", monsters="random", games=4)
    assert report["games"] == 4 and report["errors"] == []
    with pytest.raises(ValueError, match="no brain called"):
        skirmish.simulate("first_blood", heroes="clever", games=1)
    broken = tmp_path / "broken.ron"
    broken.write_text("(\n    damage: 1.0,\n    kil: 2.0,\n)\n")
    with pytest.raises(ValueError, match="broken.ron:3:"):
        skirmish.simulate("first_blood", heroes=f"weights:{broken}", games=1)
