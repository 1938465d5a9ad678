"""The low-level API (issue 53, point 2): an encounter's legal actions,
commands, refusals, forecasts, snapshots, log, winner, replays and
observations, and content errors."""

import json
import os
import random

import pytest

import skirmish


def play_random(e, rng, steps):
    for _ in range(steps):
        legal = e.legal_actions()
        if not legal:
            return
        e.apply(rng.choice(legal))


def test_legal_actions_are_dicts_the_engine_takes():
    e = skirmish.Encounter("first_blood", seed=3)
    legal = e.legal_actions()
    assert legal, "a fight starts with something to do"
    assert all(isinstance(a, dict) and len(a) == 1 for a in legal)
    assert {next(iter(a)) for a in legal} >= {"StartTurn"}
    entries = e.apply(legal[0])
    assert entries and all({"entry", "text"} <= set(x) for x in entries)
    assert any("turn" in x["text"].lower() for x in entries)


def test_a_refused_command_raises_with_the_engines_reason_and_changes_nothing():
    e = skirmish.Encounter("first_blood", seed=3)
    before = e.log()
    with pytest.raises(skirmish.Refused) as why:
        e.apply({"EndTurn": {"creature": 99}})
    assert "no" in str(why.value).lower() or "not" in str(why.value).lower()
    assert e.log() == before
    assert e.refusal({"EndTurn": {"creature": 99}}) == str(why.value)
    assert e.refusal(e.legal_actions()[0]) is None
    with pytest.raises(ValueError):
        e.apply({"Fly": {"creature": 1}})


def test_same_seed_and_actions_give_the_same_fight():
    logs = []
    for _ in range(2):
        e = skirmish.Encounter("first_blood", seed=11)
        play_random(e, random.Random(5), 300)
        logs.append(json.dumps(e.log()))
    assert logs[0] == logs[1]


def test_snapshot_and_restore_rewind_the_fight_and_its_dice():
    e = skirmish.Encounter("first_blood", seed=2)
    rng = random.Random(1)
    play_random(e, rng, 20)
    s = e.snapshot()
    log, legal = e.log(), e.legal_actions()
    branch = random.Random(9)
    play_random(e, branch, 40)
    e.restore(s)
    assert e.log() == log
    assert e.legal_actions() == legal
    again = random.Random(9)
    play_random(e, again, 40)
    other = skirmish.Encounter("first_blood", seed=2)
    play_random(other, random.Random(1), 20)
    play_random(other, random.Random(9), 40)
    assert e.log() == other.log()
    with pytest.raises(ValueError):
        other.restore(s)


def test_a_forecast_gives_tier_chances_that_sum_to_one():
    e = skirmish.Encounter("first_blood", seed=4)
    rng = random.Random(3)
    for _ in range(400):
        legal = e.legal_actions()
        if not legal:
            break
        for a in legal:
            if "UseAbility" in a:
                p = e.preview(a)
                if p and p["targets"]:
                    t = p["targets"][0]
                    assert abs(sum(t["chances"]) - 1.0) < 1e-9
                    assert 0.0 <= t["kill_chance"] <= 1.0
                    return
        e.apply(rng.choice(legal))
    pytest.fail("no ability with a forecast in 400 steps")


def test_a_fight_plays_to_a_winner_and_saves_a_replay(tmp_path):
    e = skirmish.Encounter("first_blood", seed=8)
    play_random(e, random.Random(8), 5000)
    assert e.winner() in ("heroes", "director")
    assert e.legal_actions() == []
    path = tmp_path / "fight.ron"
    e.save_replay(str(path))
    text = path.read_text()
    assert 'encounter: "first_blood"' in text and "seed: 8" in text


def test_observe_leaves_out_a_hidden_enemy():
    e = skirmish.Encounter("first_blood", seed=1)
    heroes = e.observe("heroes")
    director = e.observe("director")
    assert heroes["side"] == "heroes" and heroes["round"] == 1
    ids = {c["id"] for c in heroes["creatures"]}
    assert ids == {c["id"] for c in director["creatures"]}, "nobody hides yet"
    assert heroes["width"] > 0 and heroes["height"] > 0
    with pytest.raises(ValueError):
        e.observe("spectators")
    # Play until someone hides; its enemies no longer see it.
    rng = random.Random(0)
    for _ in range(3000):
        legal = e.legal_actions()
        if not legal:
            break
        hide = [a for a in legal if "Hide" in a]
        e.apply(hide[0] if hide else rng.choice(legal))
        for side, other in (("heroes", "director"), ("director", "heroes")):
            mine = e.observe(side)["creatures"]
            hidden = [c for c in mine if c["hidden"] and c["side"] == side]
            if hidden:
                seen = {c["id"] for c in e.observe(other)["creatures"]}
                assert hidden[0]["id"] not in seen
                return
    pytest.skip("nobody hid in 3000 steps")


def test_content_errors_name_the_file_line_and_column(tmp_path):
    bad = tmp_path / "assets"
    bad.mkdir()
    (bad / "classes").mkdir()
    (bad / "classes" / "broken.ron").write_text("(\n  id: \"x\",\n  name: 3,\n)\n")
    with pytest.raises(skirmish.ContentError) as why:
        skirmish.Encounter("first_blood", assets=str(bad))
    assert "broken.ron:" in str(why.value)
    with pytest.raises(skirmish.ContentError) as unknown:
        skirmish.Encounter("no_such_fight")
    assert "no_such_fight" in str(unknown.value)


def test_an_encounter_file_by_path():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..", "assets", "encounters")
    path = os.path.join(root, "first_blood.ron")
    e = skirmish.Encounter(path, seed=3)
    assert e.legal_actions()
