"""Environment steps a second, on one core (docs/performance.md).

    python crates/skirmish_py/benches/env_speed.py [--steps N] [--encounter ID]
        [--envs N] [--threads N]

Plays masked uniform random actions. The AEC figure goes through
``skirmish.pettingzoo_env`` as a PettingZoo user would: ``agent_iter``,
``last()`` (the observation's numpy arrays and the mask) and ``step`` for
every step. The vector figure steps ``skirmish.VecEnv`` with actions drawn
by ``VecEnv.sample_actions`` (all observations and masks filled each call).
"""

import argparse
import random
import time

import skirmish


def aec(encounter, steps, seed=0):
    env = skirmish.pettingzoo_env(encounter, seed=seed)
    rng = random.Random(seed)
    done = 0
    games = 0
    start = time.perf_counter()
    while done < steps:
        env.reset()
        games += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                action = None
            else:
                # The actions the mask allows (as np.flatnonzero(mask)
                # gives them, which takes longer than the step).
                legal = info["legal_actions"]
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            done += 1
    return done / (time.perf_counter() - start), games


def vector(encounter, steps, n, threads=1, seed=0):
    venv = skirmish.VecEnv(n, encounter, seed=seed, threads=threads)
    venv.reset()
    done = 0
    start = time.perf_counter()
    while done < steps:
        venv.step(venv.sample_actions())
        done += n
    return done / (time.perf_counter() - start), venv.episodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--encounter", default="first_blood")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    rate, games = aec(a.encounter, a.steps)
    print(f"AEC env, {a.encounter}: {rate:,.0f} steps a second ({games} games)")
    rate, games = vector(a.encounter, a.steps * 4, a.envs, a.threads)
    print(f"VecEnv({a.envs}, threads={a.threads}), {a.encounter}: {rate:,.0f} steps a second ({games} games)")


if __name__ == "__main__":
    main()
