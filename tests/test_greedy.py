"""The greedy player: wins in one turn, never hands over a win in one, else random."""

import numpy as np
import pytest

from agents.evaluation.runner import play_match
from agents.players.registry import make_player
from envs import TERMINAL, make_game
from envs.turns import iter_turns

SEEDS = range(12)


def position(game, turns):
    state = game.initial_state()
    for text in turns.split(","):
        for action in game.parse_turn(state, text.strip()):
            game.apply(state, action)
    return state


def play_turn(game, player, state, rng):
    """Let ``player`` finish the turn of the seat to move; return the actions and the end."""
    state = state.copy()
    mover, actions = game.to_play(state), []
    while game.to_play(state) == mover:
        actions.append(player.act(state, rng))
        game.apply(state, actions[-1])
    return actions, state


def opponent_wins_in_one(game, state):
    seat = game.to_play(state)
    return any(game.to_play(end) == TERMINAL and game.winner(end) == seat for _, end in iter_turns(game, state))


def test_hex_takes_a_win_in_one():
    game = make_game("hex", size=3)
    state = position(game, "b1, a1, b2, c1")  # Vertical b1 b2: a3 or b3 joins row 3
    for seed in SEEDS:
        player = make_player("greedy", game)
        actions, end = play_turn(game, player, state, np.random.default_rng(seed))
        assert game.action_to_text(state, actions[0]) in ("a3", "b3")
        assert game.winner(end) == 0


def test_hex_blocks_the_only_threat():
    game = make_game("hex", size=3)
    state = position(game, "b1, a3, b2")  # Horizontal to move; Vertical threatens b3 only
    assert opponent_wins_in_one(game, game.step(state, 0))
    for seed in SEEDS:
        actions, _ = play_turn(game, make_player("greedy", game), state, np.random.default_rng(seed))
        assert game.action_to_text(state, actions[0]) == "b3"


NEX_SWAP_WIN = """
 ? v .
  ? h h
   v . h
"""  # Vertical wins only by swapping a1 a2 and then neutralising b1 (not a3)


def test_nex_plays_a_three_step_winning_swap_to_its_end():
    game = make_game("nex", size=3)
    state = game.from_diagram(NEX_SWAP_WIN, "v")
    for seed in SEEDS:
        actions, end = play_turn(game, make_player("greedy", game), state, np.random.default_rng(seed))
        assert game.format_turn(state, actions) in ("a1a2 b1", "a2a1 b1")
        assert game.winner(end) == 0


def test_nex_never_leaves_a_win_in_one_when_it_can_avoid_it():
    game = make_game("nex", size=4)
    rng = np.random.default_rng(1)
    checked = 0
    state = game.initial_state()
    player = make_player("greedy", game)
    while game.to_play(state) != TERMINAL and checked < 6:
        turns = list(iter_turns(game, state))
        safe = [end for _, end in turns if game.to_play(end) == TERMINAL or not opponent_wins_in_one(game, end)]
        actions, end = play_turn(game, player, state, rng)
        if safe and len(safe) < len(turns):  # some turns lose at once, others do not
            checked += 1
            assert game.to_play(end) == TERMINAL or not opponent_wins_in_one(game, end)
        state = end
    assert checked >= 1


def test_odoku_last_move_takes_the_winning_colour():
    game = make_game("odoku")
    state = position(
        game,
        "B Oa1, B Ob1, B Oc1, B Xd1, B Xe1, B Xa2, B Xb2, B Xc2, B Xd2, B Oe2, B Oa3, B Ob3, B Oc3, "
        "B Od3, B Oe3, B Oa4, B Ob4, B Oc4, B Od4, B Oe4, B Xa5, B Ob5, B Oc5, B Xd5",
    )
    for seat, colour in ((0, "Xe5"), (1, "Oe5")):  # score 8 (B wins) or 6 (A wins)
        mover = game.step(state, seat)
        for seed in SEEDS:
            action = make_player("greedy", game).act(mover, np.random.default_rng(seed))
            assert game.action_to_text(mover, action) == colour


def test_random_when_nothing_is_at_stake():
    game = make_game("hex", size=5)
    state = game.initial_state()
    picks = {make_player("greedy", game).act(state, np.random.default_rng(seed)) for seed in range(40)}
    assert len(picks) >= 15


def test_spec_takes_no_arguments():
    game = make_game("hex", size=3)
    with pytest.raises(ValueError, match="no arguments"):
        make_player("greedy:3", game)


@pytest.mark.parametrize("name,size", [("hex", 5), ("nex", 4), ("gomoku", 5)])
def test_greedy_beats_random(name, size):
    game = make_game(name, size=size)
    match = play_match(game, make_player("greedy", game), make_player("random", game), 10, np.random.default_rng(0))
    assert match.score >= 0.7
