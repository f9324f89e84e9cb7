"""Game-design statistics: turn kinds against the rules, fairness, pie rule, lengths."""

import numpy as np
import pytest

from agents.evaluation.game_stats import game_facts, game_statistics, repeats_warning
from agents.evaluation.runner import play_games, play_lockstep
from agents.players.player import CallablePlayer
from envs import make_game
from envs.kernels import EMPTY, NEUTRAL
from envs.records import split_turns


def test_turn_kinds_obey_the_end_game_rules_in_random_nex_games():
    config = {"name": "nex", "size": 3}
    game = make_game(**config)
    seen = set()
    for result in play_games(config, [("random", "random")] * 60, seed=8):
        state = game.initial_state()
        for turn in split_turns(game, result.actions):
            kind = game.turn_kind(state, turn)
            text = game.format_turn(state, turn)
            empty, neutral = state.counts[EMPTY], state.counts[NEUTRAL]
            seen.add(kind)
            if kind == "drop":
                assert len(turn) == 2 and state.board[turn[0]] == EMPTY and empty >= 2
            elif kind == "swap":
                assert len(turn) == 3 and len(text.split()[0]) >= 4 and neutral >= 2
            elif kind == "fill":  # legal only when neither a drop nor a swap is
                assert len(turn) == 1 and empty == 1
            else:
                assert kind == "convert" and len(turn) == 1 and empty == 0
            for action in turn:
                game.apply(state, action)
        assert game.is_terminal(state)
    assert seen == {"drop", "swap", "fill", "convert"}


def test_pie_swap_is_counted_when_offered_and_taken():
    game = make_game("neumoku", size=5)
    state = game.initial_state()
    actions = []
    for text in ["a1 b1", "c1 d1", "e1 a2", "swap-sides", "a3 b3"]:
        for action in game.parse_turn(state, text):
            game.apply(state, action)
            actions.append(action)
    facts = game_facts(game, actions)
    assert facts["kinds"] == {"drop": 4, "swap-sides": 1}
    assert facts["pie_offered"] and facts["pie_taken"] and facts["turns"] == 5
    assert len(facts["per_turn"]) == 5 and len(facts["per_decision"]) == 9
    assert facts["per_turn"][0] == 25 and facts["per_decision"][1] == 24


def test_statistics_of_a_decided_game_and_of_odoku():
    hex3 = {"name": "hex", "size": 3}
    results = play_games(hex3, [("solver", "random")] * 30, seed=2)
    stats = game_statistics(make_game(**hex3), results)
    assert stats["first_seat"]["win"]["rate"] == 1.0 and stats["first_seat"]["win"]["ci_high"] == 1.0
    assert 0.85 < stats["first_seat"]["win"]["ci_low"] < 0.9  # Wilson, 30 of 30
    assert stats["first_seat"]["draw"] == {
        "rate": 0.0,
        "ci_low": 0.0,
        "ci_high": pytest.approx(0.1135, abs=1e-3),
        "games": 0,
    }
    assert stats["turn_kinds"] == {"place": 1.0}
    assert stats["turns"]["mean"] == pytest.approx(sum(r.num_turns for r in results) / 30)
    assert 3 <= stats["turns"]["min"] <= stats["turns"]["p50"] <= stats["turns"]["max"] <= 9
    assert stats["pie"] == {"offered": 0, "taken": 0, "taken_share": None}

    odoku = game_statistics(make_game("odoku"), play_games({"name": "odoku"}, [("random", "random")] * 5, seed=1))
    assert odoku["turns"]["min"] == odoku["turns"]["max"] == 25
    assert odoku["legal_actions"]["per_decision"] == pytest.approx(26.0)  # mean of 50, 48, ..., 2
    with pytest.raises(ValueError, match="at least one game"):
        game_statistics(make_game("odoku"), [])


def test_repeated_games_of_deterministic_players_are_counted_and_warned_of():
    game = make_game("nex", size=5)
    first = CallablePlayer(lambda state, rng: game.legal_actions(state)[0], "first legal")

    def rngs():
        return [np.random.default_rng(k) for k in range(8)]

    repeated = play_lockstep(game, [[first, first]] * 8, rngs())
    assert game_statistics(game, repeated)["distinct_games"] == 1
    assert "only 1 distinct games among 8" in repeats_warning(repeated)
    opened = play_lockstep(game, [[first, first]] * 8, rngs(), opening=2)
    assert game_statistics(game, opened)["distinct_games"] == 8 and repeats_warning(opened) is None
