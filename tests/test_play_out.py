"""``envs.core.play_out``, the one game loop: where ``max_decisions`` stops it."""

import numpy as np
import pytest

from agents.players.player import RandomPlayer
from envs.core import CHANCE, TERMINAL, make_game, play_out


def decisions_in(game, actions):
    state, made = game.initial_state(), 0
    for action in actions:
        made += game.to_play(state) != CHANCE
        game.apply(state, action)
    return made


@pytest.mark.parametrize("name", ["odoku", "nex", "biversi"])
def test_max_decisions_cuts_the_same_game_short_at_a_player_to_move(name):
    game = make_game(name)
    player = RandomPlayer(game)
    seats = {0: player, 1: player}
    whole, whole_actions = game.initial_state(), []
    total = play_out(game, whole, np.random.default_rng(3), seats, whole_actions)
    part, part_actions = game.initial_state(), []
    made = play_out(game, part, np.random.default_rng(3), seats, part_actions, max_decisions=7)
    assert made == decisions_in(game, part_actions) == 7
    assert game.to_play(part) not in (CHANCE, TERMINAL)
    assert part_actions == whole_actions[: len(part_actions)]
    longer = play_out(game, game.initial_state(), np.random.default_rng(3), seats, max_decisions=total + 5)
    assert longer == total == decisions_in(game, whole_actions)
