"""PettingZoo and Gymnasium environments over :class:`skirmish.Env`.

The layouts (the action slots, the board planes, the creature features and
the turn entries) are documented in ``docs/python.md``; the names are in
``skirmish.BOARD_PLANES``, ``skirmish.CREATURE_FEATURES`` and
``skirmish.TURN_ENTRIES``.
"""

from __future__ import annotations

import numpy as np

from ._skirmish import Env

AGENTS = ("heroes", "director")
_INDEX = {"heroes": 0, "director": 1}


def _spaces(core):
    from gymnasium import spaces

    p, h, w = core.board_shape
    t, f = core.creatures_shape
    obs = spaces.Dict(
        {
            "board": spaces.Box(-1.0, 255.0, (p, h, w), np.float32),
            "creatures": spaces.Box(-1e6, 1e6, (t, f), np.float32),
            "turn": spaces.Box(-1e6, 1e6, (core.turn_len,), np.float32),
        }
    )
    mask = spaces.Box(0, 1, (core.n_actions,), np.int8)
    return obs, mask, spaces.Discrete(core.n_actions)


def _render(core, side="heroes"):
    """A short text picture of the fight: the round and each creature seen."""
    state = core.describe_state(side)
    lines = [f"round {state['round']}, {core.deciding() or 'over'} to decide"]
    for c in state["creatures"]:
        mark = "x" if c["dead"] else ("*" if c["acting"] else " ")
        conds = ",".join(c["conditions"])
        lines.append(
            f"{mark} {c['side']:8} {c['name']:24} ({c['square'][0]:2},{c['square'][1]:2})"
            f" {c['stamina']:3}/{c['max_stamina']:<3} {conds}"
        )
    return "\n".join(lines)


def pettingzoo_env(encounter="first_blood", seed=0, assets=None, max_steps=3000,
                   reward="win", render_mode=None):
    """A PettingZoo AEC environment of ``encounter``: the agents are
    ``"heroes"`` and ``"director"``; the side deciding (who starts a turn,
    the acting creature's side, or the side of a creature a prompt asks) is
    ``agent_selection``. See :class:`SkirmishAEC`."""
    return SkirmishAEC(encounter, seed=seed, assets=assets, max_steps=max_steps,
                       reward=reward, render_mode=render_mode)


def gym_env(encounter="first_blood", side="heroes", opponent="greedy", seed=0,
            assets=None, max_steps=3000, reward="win", illegal_reward=-0.01,
            render_mode=None):
    """A Gymnasium environment of ``encounter`` playing ``side`` against the
    shipped brain ``opponent``. See :class:`SkirmishGym`."""
    return SkirmishGym(encounter, side=side, opponent=opponent, seed=seed,
                       assets=assets, max_steps=max_steps, reward=reward,
                       illegal_reward=illegal_reward, render_mode=render_mode)


try:
    from pettingzoo import AECEnv as _AECBase
except ImportError:  # pettingzoo is optional: the class needs it
    _AECBase = object

try:
    import gymnasium as _gym

    _GymBase = _gym.Env
except ImportError:
    _GymBase = object


class SkirmishAEC(_AECBase):
    """Two-agent AEC environment. Observations are
    ``{"observation": {"board", "creatures", "turn"}, "action_mask"}``; the
    mask is all zeros for the agent not deciding, and the deciding agent's
    ``infos[agent]["legal_actions"]`` lists the actions the mask allows (an
    ``int64`` array: sampling from it is quicker than reading the mask). Rewards (``reward="win"``):
    +1 to the winner and -1 to the loser when the fight ends, else 0;
    ``reward="damage"`` adds each step's change in strength (docs/python.md).
    A fight that reaches ``max_steps`` commands is truncated."""

    metadata = {"name": "skirmish_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, encounter="first_blood", seed=0, assets=None, max_steps=3000,
                 reward="win", render_mode=None):
        if _AECBase is object:
            raise ImportError("pettingzoo_env needs pettingzoo: pip install pettingzoo")
        super().__init__()
        self._core = Env(encounter, seed, assets, max_steps, reward)
        self._seed = seed
        self._episode = 0
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        obs, mask, action = _spaces(self._core)
        from gymnasium import spaces

        space = spaces.Dict({"observation": obs, "action_mask": mask})
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: action for a in AGENTS}
        self._no_mask = np.zeros(self._core.n_actions, np.int8)
        self._no_mask.flags.writeable = False
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def core(self):
        """The :class:`skirmish.Env` underneath (its log, its commands)."""
        return self._core

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = seed
            self._episode = 0
        self._core.reset(self._seed + self._episode)
        self._episode += 1
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = self._core.deciding()
        self.infos[self.agent_selection] = {"legal_actions": self._core.legal()}

    def observe(self, agent):
        board, creatures, turn = self._core.observe(agent)
        mask = self._core.mask() if agent == self.agent_selection and not self._core.is_over() \
            else self._no_mask.copy()
        return {"observation": {"board": board, "creatures": creatures, "turn": turn},
                "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rh, rd, terminated, truncated = self._core.step(int(action))
        self.rewards = {"heroes": rh, "director": rd}
        if terminated or truncated:
            for a in self.agents:
                self.terminations[a] = terminated
                self.truncations[a] = truncated
            self.infos = {a: {} for a in self.agents}
        else:
            self.infos[agent] = {}
            self.agent_selection = self._core.deciding()
            self.infos[self.agent_selection] = {"legal_actions": self._core.legal()}
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        return _render(self._core)

    def close(self):
        pass


class SkirmishGym(_GymBase):
    """Single-agent environment: ``side`` against a shipped brain. The
    observation is ``{"board", "creatures", "turn", "action_mask"}``, seen by
    ``side``; ``action_masks()`` gives the mask too. A masked action changes
    nothing, gives ``illegal_reward`` and ``info["illegal"] = True``, and
    counts toward ``max_steps``. The reward is ``side``'s over its step and
    the opponent's steps after it."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, encounter="first_blood", side="heroes", opponent="greedy", seed=0,
                 assets=None, max_steps=3000, reward="win", illegal_reward=-0.01,
                 render_mode=None):
        if _GymBase is object:
            raise ImportError("gym_env needs gymnasium: pip install gymnasium")
        if side not in _INDEX:
            raise ValueError(f"side {side!r}: 'heroes' or 'director'")
        self._core = Env(encounter, seed, assets, max_steps, reward)
        self.side = side
        self._other = AGENTS[1 - _INDEX[side]]
        self.opponent = opponent
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        obs, mask, action = _spaces(self._core)
        from gymnasium import spaces

        self.observation_space = spaces.Dict({**obs.spaces, "action_mask": mask})
        self.action_space = action
        self._seed = seed
        self._episode_seed = seed

    @property
    def core(self):
        return self._core

    def _obs(self):
        board, creatures, turn = self._core.observe(self.side)
        return {"board": board, "creatures": creatures, "turn": turn,
                "action_mask": self.action_masks()}

    def action_masks(self):
        if self._core.deciding() == self.side and not self._core.is_over():
            return self._core.mask()
        return np.zeros(self._core.n_actions, np.int8)

    def _opponent(self):
        """The opponent plays until it is ``side``'s choice: its reward for them."""
        total, term, trunc = 0.0, False, False
        k = _INDEX[self.side]
        while not self._core.is_over() and self._core.deciding() == self._other:
            r = self._core.play_brain(self.opponent, self._episode_seed)
            total += r[k]
            term, trunc = r[2], r[3]
        return total, term, trunc

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self._episode_seed = seed
        self._core.reset(seed)
        self._opponent()
        return self._obs(), {}

    def step(self, action):
        k = _INDEX[self.side]
        info = {}
        action = int(action)
        mask = self.action_masks()
        if self._core.is_over():
            raise RuntimeError("the episode is over: call reset()")
        if 0 <= action < len(mask) and mask[action]:
            r = self._core.step(action)
            reward = r[k]
        else:
            r = self._core.waste()
            reward = self.illegal_reward
            info["illegal"] = True
        terminated, truncated = r[2], r[3]
        if not (terminated or truncated):
            more, terminated, truncated = self._opponent()
            reward += more
        info["winner"] = self._core.winner()
        if self.render_mode == "ansi":
            print(self.render())
        return self._obs(), float(reward), bool(terminated), bool(truncated), info

    def render(self):
        return _render(self._core, self.side)

    def close(self):
        pass
