"""Skirmish under Ray RLlib: both sides learn by PPO, each its own policy,
with the action mask applied to the logits (RLlib's action-masking
module). Large sweeps and long runs go to Ray's cluster, not to a
home-made one (docs/python.md, "Past one machine").

    pip install "ray[rllib]" torch ./crates/skirmish_py
    python examples/python/rllib_ppo.py --iterations 20 [--encounter first_blood] [--runners 4]

With `--runners N` Ray spreads the games over N processes (or machines,
on a cluster: `ray start --head` here, `ray start --address=...` there,
then this script with `--address auto`).
"""

import argparse

import gymnasium as gym
import numpy as np

import skirmish

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError:  # the module still imports (for its docs), without Ray
    MultiAgentEnv = object

AGENTS = ["heroes", "director"]


class SkirmishMultiAgent(MultiAgentEnv):
    """`skirmish.pettingzoo_env` as an RLlib multi-agent env: the side to
    act gets `{"observations": the board, creature rows and turn
    flattened, "action_mask": the mask}` (the form RLlib's action-masking
    module reads); both sides get every step's rewards."""

    def __init__(self, config=None):
        super().__init__()
        config = config or {}
        self.aec = skirmish.pettingzoo_env(
            config.get("encounter", "first_blood"),
            seed=config.get("seed", 0),
            max_steps=config.get("max_steps", 3000),
            reward=config.get("reward", "damage"),
        )
        core = self.aec.core
        p, h, w = core.board_shape
        t, f = core.creatures_shape
        size = p * h * w + t * f + core.turn_len
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(-1e6, 1e6, (size,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (core.n_actions,), np.float32),
        })
        self.agents = self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: gym.spaces.Discrete(core.n_actions) for a in AGENTS}

    def _obs(self, agent):
        o = self.aec.observe(agent)
        flat = np.concatenate([o["observation"][k].ravel() for k in ("board", "creatures", "turn")])
        return {"observations": flat, "action_mask": o["action_mask"].astype(np.float32)}

    def reset(self, *, seed=None, options=None):
        self.aec.reset(seed=seed)
        a = self.aec.agent_selection
        return {a: self._obs(a)}, {}

    def step(self, action_dict):
        agent = self.aec.agent_selection
        self.aec.step(int(action_dict[agent]))
        rewards = {a: float(r) for a, r in self.aec.rewards.items()}
        over = any(self.aec.terminations.values()) or any(self.aec.truncations.values())
        if over:
            obs = {a: self._obs(a) for a in AGENTS}
            terminated = {a: self.aec.terminations[a] for a in AGENTS}
            truncated = {a: self.aec.truncations[a] for a in AGENTS}
            terminated["__all__"] = all(terminated[a] for a in AGENTS)
            truncated["__all__"] = not terminated["__all__"]
            return obs, rewards, terminated, truncated, {}
        nxt = self.aec.agent_selection
        return {nxt: self._obs(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {}


def config(encounter="first_blood", runners=0, batch=1024, hidden=64, max_steps=3000):
    """The PPO config: one policy per side, masked logits, small networks."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"fcnet_hiddens": [hidden, hidden], "head_fcnet_hiddens": []},
    )
    return (
        PPOConfig()
        # (RLlib's own check steps an unmasked random action, which the
        # environment refuses: its masks are its contract.)
        .environment(SkirmishMultiAgent, env_config={"encounter": encounter, "max_steps": max_steps},
                     disable_env_checking=True)
        .multi_agent(
            policies=set(AGENTS),
            policy_mapping_fn=lambda agent_id, episode, **kwargs: agent_id,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={a: module for a in AGENTS}))
        .env_runners(num_env_runners=runners, rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 256), num_epochs=2)
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--encounter", default="first_blood")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--runners", type=int, default=0)
    ap.add_argument("--address", default=None, help="a Ray cluster's address (default: start one here)")
    a = ap.parse_args()

    import ray

    ray.init(address=a.address, include_dashboard=False)
    algo = config(a.encounter, a.runners).build_algo()
    for i in range(a.iterations):
        result = algo.train()
        returns = result["env_runners"].get("agent_episode_returns_mean", {})
        shown = ", ".join(f"{a} {float(r):+.2f}" for a, r in sorted(returns.items()))
        print(f"iteration {i + 1}: mean returns {shown or '(no episode finished yet)'}", flush=True)
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
