"""The turn-schedule mutator (docs/rules.md) over every game on it: schedules read from
text, turns of the schedule's count over random games, notation both ways, the observation's
planes, and every micro-step of a mask completing into a whole move."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs import make_game
from envs.records import format_game, replay, split_turns
from envs.schedule import rows
from envs.schedule.game import TurnGame
from envs.schedule.moves import PIECE
from envs.schedule.schedule import TurnSchedule, parse_schedule

GAMES = {
    "amazons": {"size": 5},
    "progressive_amazons": {"size": 6},
    "hexxagon": {"size": 3},
    "hexxagon_1344": {"size": 4},
    "send_it": {"size": 5, "move_limit": 30},
}


def test_schedules_read_as_digits_the_last_for_ever():
    schedule = TurnSchedule("134")
    assert [schedule.moves(t) for t in range(6)] == [1, 3, 4, 4, 4, 4]
    assert parse_schedule(134) == parse_schedule("1,3,4") == parse_schedule([1, 3, 4]) == (1, 3, 4)
    assert TurnSchedule("1344").text == "1344" and TurnSchedule("1344").most == 4
    assert [TurnSchedule("12").moves(t) for t in range(3)] == [1, 2, 2]
    assert TurnSchedule(np.int64(1)).counts == (1,)
    for bad in ("", "13(4)", "0", "130", [], [2, True], -1, None):
        with pytest.raises(ValueError, match="schedule"):
            parse_schedule(bad)


def random_actions(game, rng, limit=None):
    """A random game's actions (to the end, or ``limit`` actions) and its last state."""
    state, actions = game.initial_state(), []
    while not game.is_terminal(state) and (limit is None or len(actions) < limit):
        legal = game.legal_actions(state)
        actions.append(int(legal[rng.integers(len(legal))]))
        game.apply(state, actions[-1])
    return actions, state


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(sorted(GAMES)),
    schedule=st.sampled_from(["1", "134", "1344", "23"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_turn_holds_the_schedules_count_or_ends_when_no_move_is_left(name, schedule, seed):
    game = make_game(name, schedule=schedule, **GAMES[name])
    actions, final = random_actions(game, np.random.default_rng(seed))
    assert game.is_terminal(final)
    state = game.initial_state()
    for number, turn in enumerate(split_turns(game, actions)):
        start, seat, moves, cells, placed = state.copy(), state.player, 0, [], []
        origins = set(np.flatnonzero(state.board == PIECE[seat]).tolist())
        for action in turn:
            game.apply(state, action)
            if game.rules.can_pass and action == game.PASS:
                continue
            origins = {c for c in origins if state.board[c] == PIECE[seat]}  # pieces that never left
            cells.append(action)
            if not state.partial:  # a whole move: where it put its piece
                landing = cells[1] if name.endswith("amazons") else cells[-1]  # an arrow follows an amazon's move
                moves, placed, cells = moves + 1, placed + [landing], []
        assert not state.partial  # a turn ends after a whole move
        if game.is_terminal(state):
            break
        quota, kind = game.schedule.moves(number), game.turn_kind(start, turn)
        if game.rules.can_pass and turn[-1] == game.PASS:  # the mover stopped (Send It's "up to")
            assert moves < quota and kind == ("short" if moves else "pass")
        elif moves < quota:  # cut short: no move left for the mover within the restriction
            assert kind == "short" and no_move_left(game, state, seat, origins, placed)
        else:
            assert (moves, kind) == (quota, "place")


def no_move_left(game, state, seat, origins, placed) -> bool:
    """Whether ``seat`` could start no move on ``state``'s board from ``origins`` (where the turn
    is restricted) after the turn's moves landed on ``placed``: the legal actions of that
    position, a PASS aside."""
    trial = game.state_at(state.board.copy(), to_move=seat)
    row, cells = trial.row, len(state.board)
    if game.restricted:
        row[cells : 2 * cells] = 0
        row[[cells + cell for cell in origins]] = 1
    row[2 * cells + rows.PLACED_COUNT] = len(placed)
    row[2 * cells + rows.PLACED : 2 * cells + rows.PLACED + len(placed)] = placed
    return [action for action in game.legal_actions(trial) if action != game.PASS] == []


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1))
def test_turns_print_and_read_back_to_the_same_actions(name, seed):
    game = make_game(name, **GAMES[name])
    actions, final = random_actions(game, np.random.default_rng(seed))
    lines, state = format_game(game, actions), game.initial_state()
    for turn, text in zip(split_turns(game, actions), lines, strict=True):
        assert game.parse_turn(state, text) == turn, text
        for action in turn:
            game.apply(state, action)
    replayed = list(replay(game, lines))[-1]
    assert np.array_equal(replayed.board, final.board) and game.returns(replayed) == game.returns(final)


def test_the_observation_shows_the_piece_picked_the_step_and_the_moves_left():
    game = make_game("progressive_amazons", size=6)
    state = game.initial_state()
    for action in game.parse_turn(state, "a2a3/a4"):
        game.apply(state, action)
    planes = game.observe(state)  # o to move: three moves in this turn
    assert planes.shape == (9, 6, 6) and np.all(planes[6] == 3 / 4) and planes[3:6].sum() == 0
    assert planes[7].sum() == planes[0].sum() == 4
    amazon = int(np.flatnonzero(game.legal_mask(state))[0])
    game.apply(state, amazon)
    planes = game.observe(state)
    assert planes[3].flat[amazon] == 1 and planes[3].sum() == 1 and np.all(planes[4] == 1) and planes[5].sum() == 0
    target = game.legal_actions(state)[0]
    game.apply(state, target)
    planes = game.observe(state)
    assert planes[3].flat[target] == 1 and planes[3].sum() == 2 and np.all(planes[5] == 1) and planes[4].sum() == 0
    assert planes[7].flat[amazon] == 0 and planes[7].sum() == 3  # the amazon that moved may not move again
    game.apply(state, game.legal_actions(state)[0])
    planes = game.observe(state)
    assert np.all(planes[6] == 2 / 4) and planes[3:6].sum() == 0
    assert planes[8].flat[target] == 1 and planes[8].sum() == 1  # where this turn's amazon went


def test_every_cell_a_mask_offers_completes_into_a_whole_move():
    rng = np.random.default_rng(5)
    for name, kwargs in GAMES.items():
        game = make_game(name, schedule="134", **kwargs)
        assert isinstance(game, TurnGame)
        for _ in range(3):
            actions, _ = random_actions(game, rng, limit=int(rng.integers(0, 60)))
            state = game.initial_state()
            for action in actions:
                game.apply(state, action)
            if game.is_terminal(state):
                continue
            for action in game.legal_actions(state):
                assert whole_move_follows(game, game.step(state, action), game.to_play(state))


def whole_move_follows(game, state, seat):
    """Depth first: some continuation of the current move ends it (the move's micro-steps run out)."""
    if not state.partial or game.to_play(state) != seat:
        return True
    return any(whole_move_follows(game, game.step(state, a), seat) for a in game.legal_actions(state))
