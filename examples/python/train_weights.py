"""Train a brain with numpy alone, on one core, in under ten minutes.

The agent is the engine's scorer (docs/ai.md: each legal command scored
by the considerations it weighs, the best one taken) with its 18 weights
learned from zero by the cross-entropy method: each generation draws a
population of weight vectors from a Gaussian, plays each as the heroes
of `first_blood` against the greedy Director on the same fresh seeds
(`skirmish.simulate`, one core), and refits the Gaussian to the best
quarter. No weight of the shipped brains is used.

    python examples/python/train_weights.py [--minutes 8] [--out learned.ron]

Then measure it as any brain (docs/python.md has the figures):

    skirmish sim --encounter first_blood --heroes weights:learned.ron --monsters greedy --games 500
"""

import argparse
import os
import tempfile
import time

import numpy as np

import skirmish

NAMES = sorted(skirmish.GREEDY_WEIGHTS)


def win_rate(weights, encounter, games, seed, path):
    skirmish.write_weights(path, dict(zip(NAMES, weights)))
    report = skirmish.simulate(encounter, heroes=f"weights:{path}", monsters="greedy",
                               games=games, seed=seed, jobs=1)
    return report["heroes_rate"]["rate"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--encounter", default="first_blood")
    ap.add_argument("--minutes", type=float, default=8.0)
    ap.add_argument("--population", type=int, default=16)
    ap.add_argument("--games", type=int, default=48, help="games per candidate")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="learned.ron")
    a = ap.parse_args()

    rng = np.random.default_rng(a.seed)
    mean = np.zeros(len(NAMES))
    std = np.full(len(NAMES), 2.0)
    elite = max(2, a.population // 4)
    # Training seeds far from the ones `skirmish sim` measures with (0..).
    seed = 1_000_000 + 100_000 * a.seed
    start = time.monotonic()
    tmp = tempfile.mkdtemp()
    paths = [os.path.join(tmp, f"w{i}.ron") for i in range(a.population)]
    generation = 0
    while time.monotonic() - start < a.minutes * 60:
        candidates = mean + std * rng.standard_normal((a.population, len(NAMES)))
        candidates[0] = mean  # the current mean, measured on the same seeds
        rates = np.array([win_rate(c, a.encounter, a.games, seed, p)
                          for c, p in zip(candidates, paths)])
        best = candidates[np.argsort(-rates)[:elite]]
        mean = best.mean(axis=0)
        # Keep some spread, shrinking as it settles.
        std = np.maximum(best.std(axis=0), 0.05)
        generation += 1
        seed += a.games
        print(f"generation {generation:3}: mean's win rate {rates[0]:.2f}, best {rates.max():.2f}, "
              f"{time.monotonic() - start:5.0f} s", flush=True)
    skirmish.write_weights(a.out, dict(zip(NAMES, mean)))
    print(f"wrote {a.out} after {generation} generations")


if __name__ == "__main__":
    main()
