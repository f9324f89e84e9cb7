"""envs.opponents: the registry of opponent specs that envs owns and agents fills."""

import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest

import envs
from envs import opponents


def test_import_envs_alone_resolves_agents_specs():
    """A fresh interpreter that imports only envs still gets mcts:N (agents loads on first use)."""
    code = (
        "import sys, gymnasium as gym, envs\n"
        "assert 'agents' not in sys.modules\n"
        "env = gym.make('Hex-v0', size=3, opponent='mcts:8', agent_seat=1)\n"
        "env.reset(seed=0)\n"
        "print(type(env.unwrapped.opponent).__name__, 'agents' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["RolloutPlayer", "True"]


def test_unknown_kind_names_the_spec_the_kinds_and_the_providers(monkeypatch):
    monkeypatch.setattr(opponents, "_KINDS", {})
    monkeypatch.setattr(opponents, "PROVIDERS", [])
    with pytest.raises(ValueError, match=r"unknown opponent spec 'mcts:5'.*registered: none.*`import agents`"):
        gym.make("Odoku-v0", opponent="mcts:5")


def test_a_registered_kind_builds_the_opponent(monkeypatch):
    monkeypatch.setattr(opponents, "_KINDS", {})
    seen = []

    def first_legal(spec, game):
        seen.append(spec)
        return lambda state, rng: int(game.legal_actions(state)[0])

    opponents.register_opponent_kind("first", first_legal)
    env = gym.make("Hex-v0", size=3, opponent="first:now", agent_seat=1)
    obs, info = env.reset(seed=0)
    assert seen == ["first:now"]
    assert obs["observation"][:2].sum() == 1  # the opponent (seat 0) has placed one stone
    assert opponents.make_opponent("first", envs.make_game("hex", size=3)) is not None


def test_objects_and_callables_are_opponents_as_they_are():
    game = envs.make_game("hex", size=3)
    calls = []

    def policy(state, rng):
        calls.append(1)
        return game.legal_actions(state)[-1]

    wrapped = opponents.resolve_opponent(policy, game)
    assert wrapped.act(game.initial_state(), np.random.default_rng(0)) == game.legal_actions(game.initial_state())[-1]
    assert calls == [1]
    assert opponents.resolve_opponent(wrapped, game) is wrapped
    with pytest.raises(ValueError, match="opponent must be None, a player spec string"):
        opponents.resolve_opponent(3, game)
