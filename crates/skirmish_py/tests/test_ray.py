"""Past one machine (issue 53, point 9): the environment under Ray RLlib
(examples/python/rllib_ppo.py). Its multi-agent adapter is checked here
always; PPO itself runs for an iteration in Ray, in this process (no
remote workers), when Ray and torch are installed, and is otherwise
skipped saying why (CI does not install them: some gigabytes)."""

import importlib.util
import pathlib
import random
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples" / "python"))

import rllib_ppo  # noqa: E402


def test_the_multi_agent_adapter_plays_whole_games():
    env = rllib_ppo.SkirmishMultiAgent({"encounter": "first_blood", "seed": 3})
    rng = random.Random(3)
    for game in range(2):
        obs, _ = env.reset(seed=game)
        totals = {"heroes": 0.0, "director": 0.0}
        steps = 0
        while True:
            (agent, o), = obs.items()
            assert env.observation_spaces[agent].contains(o)
            legal = np.flatnonzero(o["action_mask"])
            obs, rewards, terminated, truncated, _ = env.step({agent: int(legal[rng.randrange(len(legal))])})
            for a, r in rewards.items():
                totals[a] += r
            steps += 1
            if terminated["__all__"] or truncated["__all__"]:
                break
            assert len(obs) == 1
        assert set(obs) == {"heroes", "director"}
        assert abs(totals["heroes"] + totals["director"]) < 1e-3, "zero-sum"
        assert steps > 50


def test_rllib_ppo_trains_an_iteration():
    if importlib.util.find_spec("ray") is None or importlib.util.find_spec("torch") is None:
        pytest.skip("ray[rllib] and torch are not installed: the RLlib example is not run "
                    "(pip install 'ray[rllib]' torch to run it)")
    import ray

    ray.init(num_cpus=1, include_dashboard=False, ignore_reinit_error=True)
    try:
        algo = rllib_ppo.config("first_blood", runners=0, batch=256, hidden=16, max_steps=400).build_algo()
        result = algo.train()
        sampled = result["env_runners"]["num_env_steps_sampled_lifetime"]
        assert sampled >= 256
        algo.stop()
    finally:
        ray.shutdown()
