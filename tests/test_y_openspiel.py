"""Plain Y agrees with OpenSpiel's ``y`` move by move (docs/games/y.md: the same game up to
coordinates). OpenSpiel's cell (x, y), action x + y * n, is our cell r * n + c with r = y,
c = x: the same index, so actions pass unchanged; only the names differ (OpenSpiel's
``b1`` is our ``c1``). Runs where the optional extra ``open-spiel`` is installed."""

import numpy as np
import pytest

from envs import make_game

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[open-spiel]')")

SIZES = (2, 3, 4, 5, 6, 7, 9, 13)


def test_thousands_of_random_games_agree_with_open_spiel():
    rng = np.random.default_rng(2024)
    winners = {0: 0, 1: 0}
    for number in range(3000):
        size = SIZES[number % len(SIZES)]
        ours, theirs = make_game("y", size=size), pyspiel.load_game("y", {"board_size": size})
        state, spiel = ours.initial_state(), theirs.new_initial_state()
        while not ours.is_terminal(state):
            assert not spiel.is_terminal()
            assert ours.to_play(state) == spiel.current_player()
            legal = ours.legal_actions(state)
            assert legal == spiel.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            ours.apply(state, action)
            spiel.apply_action(action)
        assert spiel.is_terminal()
        assert list(ours.returns(state)) == spiel.returns()
        winners[ours.winner(state)] += 1
    assert min(winners.values()) > 500  # both seats win often: the comparison saw both outcomes


def test_cell_names_map_to_open_spiel_names():
    game, spiel = make_game("y", size=5), pyspiel.load_game("y", {"board_size": 5}).new_initial_state()
    state = game.initial_state()
    for action in game.legal_actions(state):
        x, y = action % 5, action // 5
        assert spiel.action_to_string(0, action) == f"{'abcde'[x]}{y + 1}"
        assert game.action_to_text(state, action) == f"{'abcdefghi'[y + 2 * x]}{y + 1}"
