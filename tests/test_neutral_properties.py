"""Properties of random games for every stone game, checked against an independent
reading of docs/rules.md's neutral mutator written here from scratch (not the engine's code).

Per turn: the masks offer exactly the reference's whole turns (so no dead ends),
2E + N falls, a win is judged only after the whole turn and agrees with the
reference goal check, the turn's text round-trips. Per game: it ends within
``info.max_decisions``, returns are zero-sum, Hex never draws.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs import TERMINAL, make_game
from envs.kernels import draw, playout_seed
from envs.turns import complete_turns

EMPTY, NEUTRAL = 0, 3
HEX_STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
SIZES = {
    "nex": [2, 3, 4, 5, 6],
    "hex": [2, 3, 5, 7, 11],
    "neumoku": [5, 6, 7],
    "gomoku": [5, 6, 8],
    "neuversi": [4, 6],
    "adneuversi": [4, 6],
    "reversi": [4, 6, 8],
    "y": [2, 3, 5, 7, 13],
    "neuy": [2, 3, 4, 5, 7],
}
NEUTRAL_GAMES = ("nex", "neumoku", "neuversi", "adneuversi", "neuy")
PIE_GAMES = ("nex", "hex", "neumoku", "gomoku", "y", "neuy")
CONNECTION_GAMES = ("nex", "hex", "neuy", "y")  # no draws: a full board has exactly one winner


# --- the reference reading of the rules ------------------------------------------------------
def cells_of(board, value):
    return [c for c, v in enumerate(board) if v == value]


def ref_flips(board, n, cell, colour):
    flipped = []
    r0, c0 = divmod(cell, n)
    for dr, dc in KING:
        line, r, c = [], r0 + dr, c0 + dc
        while 0 <= r < n and 0 <= c < n and board[r * n + c] not in (EMPTY, colour):
            line.append(r * n + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < n and 0 <= c < n and board[r * n + c] == colour:
            flipped += line
    return flipped


def ref_place(board, n, cell, colour):
    after = list(board)
    for x in [cell, *ref_flips(board, n, cell, colour)]:
        after[x] = colour
    return after


def ref_turns(name, board, n, colour):
    """Every whole turn at a turn start as docs/rules.md's neutral mutator and docs/games/neuversi.md describe it (pie rule aside)."""
    empties, neutrals = cells_of(board, EMPTY), cells_of(board, NEUTRAL)
    if name in ("neuversi", "adneuversi"):
        turns = set()
        for e in empties:
            if ref_flips(board, n, e, colour):
                after = ref_place(board, n, e, colour)
                spots = [x for x in cells_of(after, EMPTY) if name != "adneuversi" or touches(after, n, x)]
                turns |= {(e, x) for x in spots} if spots else {(e,)}
        for a in neutrals:
            if ref_flips(board, n, a, colour):
                after = ref_place(board, n, a, colour)
                for b in cells_of(after, NEUTRAL):
                    if ref_flips(after, n, b, colour):
                        final = ref_place(after, n, b, colour)
                        turns |= {(a, b, f) for f in cells_of(final, colour) if f not in (a, b)}
        return turns or {(n * n,)}
    if name == "reversi":
        return {(e,) for e in empties if ref_flips(board, n, e, colour)} or {(n * n,)}
    if name in ("hex", "gomoku", "y"):
        return {(e,) for e in empties}
    own = cells_of(board, colour)
    drops = {(a, b) for a in empties for b in empties if a != b}
    swaps = {(a, b, f) for a in neutrals for b in neutrals if a != b for f in own} if own else set()
    if drops or swaps:
        return drops | swaps
    return {(e,) for e in empties} or {(x,) for x in neutrals}


def touches(board, n, cell):
    r, c = divmod(cell, n)
    return any(0 <= r + dr < n and 0 <= c + dc < n and board[(r + dr) * n + c + dc] for dr, dc in KING)


def ref_hex_joined(board, n, colour):
    """Union-find over the colour's stones with two virtual edge nodes."""
    parent = list(range(n * n + 2))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for cell in cells_of(board, colour):
        r, c = divmod(cell, n)
        along = r if colour == 1 else c
        if along == 0:
            parent[find(cell)] = find(n * n)
        if along == n - 1:
            parent[find(cell)] = find(n * n + 1)
        for dr, dc in HEX_STEPS:
            if 0 <= r + dr < n and 0 <= c + dc < n and board[(r + dr) * n + c + dc] == colour:
                parent[find(cell)] = find((r + dr) * n + c + dc)
    return find(n * n) == find(n * n + 1)


def ref_five(board, n, colour):
    grid = np.frombuffer(bytes(board), np.uint8).reshape(n, n) == colour  # a board's cells, as bytes or a list
    lines = [np.all([g[:, k : n - 4 + k] for k in range(5)], axis=0) for g in (grid, grid.T)]
    lines += [np.all([g[k : n - 4 + k, k : n - 4 + k] for k in range(5)], axis=0) for g in (grid, grid[:, ::-1])]
    return any(line.any() for line in lines)


def ref_y_cells(n):
    """docs/games/y.md from its own words: row R (1 = bottom) holds the letters numbered
    R-1, R+1, ..., 2n-R-1; the cell (j, R) is named by letter j and row R."""
    return [(j, row) for row in range(1, n + 1) for j in range(row - 1, 2 * n - row, 2)]


def ref_y_wins(game, board, colour):
    """A chain of ``colour`` touching the bottom (row 1), the left (j = R-1) and the right
    (j = 2n-R-1) side, over 2d's adjacency in (letter, row) coordinates; engine cells are
    found by their names, so nothing of the engine's array layout is used."""
    n = game.n
    index = {(j, row): game.rules.parse_cell(f"{'abcdefghijklmnopqrstuvwxyz'[j]}{row}") for j, row in ref_y_cells(n)}
    stones = {cell for cell, i in index.items() if board[i] == colour}
    for start in stones:
        chain, todo = {start}, [start]
        while todo:
            j, row = todo.pop()
            for step in ((-2, 0), (2, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)):
                other = (j + step[0], row + step[1])
                if other in stones and other not in chain:
                    chain.add(other)
                    todo.append(other)
        bottom = any(row == 1 for _, row in chain)
        left = any(j == row - 1 for j, row in chain)
        right = any(j == 2 * n - row - 1 for j, row in chain)
        if bottom and left and right:
            return True
    return False


def ref_wins(name, board, n, colour, game=None):
    if name in ("nex", "hex"):
        return ref_hex_joined(board, n, colour)
    if name in ("neuy", "y"):
        return ref_y_wins(game, board, colour)
    if name in ("neumoku", "gomoku"):
        return ref_five(board, n, colour)
    return False


# --- the random-game driver ---------------------------------------------------------------------
def potential(board):
    return 2 * board.count(EMPTY) + board.count(NEUTRAL)


def play_random_game(name, size, seed, compare_masks, pie_rule=None):
    kwargs = {"size": size} | ({} if pie_rule is None else {"pie_rule": pie_rule})
    game = make_game(name, **kwargs)
    rng = np.random.default_rng(seed)
    n, state = size, game.initial_state()
    decisions, passes_in_a_row = 0, 0
    while not game.is_terminal(state):
        start, mover, colour = state.copy(), game.to_play(state), state.colour
        if compare_masks:
            found = {t for t in complete_turns(game, state) if t != (game.SWAP_SIDES,)}
            assert found == ref_turns(name, state.board, n, colour)
        turn = []
        while True:
            legal = game.legal_actions(state)
            assert legal, "a dead end: no legal action in the middle of a turn"
            action = legal[int(rng.integers(len(legal)))]
            game.apply(state, action)
            turn.append(action)
            decisions += 1
            if state.phase == 0 or game.is_terminal(state):
                break
            assert game.to_play(state) == mover  # a turn is judged only when complete
        check_turn(game, name, start, turn, state, colour)
        passes_in_a_row = passes_in_a_row + 1 if turn == [game.PASS] else 0
        assert passes_in_a_row < 2
        assert decisions <= game.info.max_decisions
    returns = game.returns(state)
    assert sum(returns) == 0 and returns in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
    if name in CONNECTION_GAMES:
        assert returns != (0.0, 0.0)
        winner_colour = [c for c in (1, 2) if ref_wins(name, state.board, n, c, game)]
        assert len(winner_colour) == 1 and state.seat_of(winner_colour[0]) == game.winner(state)
    if "versi" in name:
        counts = [state.board.count(c) for c in (1, 2)]
        expected = 0 if counts[0] == counts[1] else 1 if counts[0] > counts[1] else 2
        assert game.winner(state) == (None if not expected else state.seat_of(expected))
        other = state.copy()
        for colour in (1, 2):  # neither side had a turn left
            assert not [t for t in ref_turns(name, other.board, n, colour) if t != (n * n,)]
    return game, state


def check_turn(game, name, start, turn, after, colour):
    n, pass_action = game.n, game.PASS
    drop_by, kind = potential(start.board) - potential(after.board), None
    if turn == [game.SWAP_SIDES]:
        assert drop_by == 0 and after.board == start.board and after.swapped
        kind = "swap-sides"
    elif turn == [pass_action]:
        assert drop_by == 0 and "versi" in name
    elif name in NEUTRAL_GAMES:
        first = start.board[turn[0]]
        kind = {(EMPTY, 2): "drop", (NEUTRAL, 3): "swap", (EMPTY, 1): "one", (NEUTRAL, 1): "one"}[(first, len(turn))]
        if "versi" in name:
            assert drop_by >= {"drop": 3, "swap": 1, "one": 2}[kind]
        else:
            expected = {"drop": 3, "swap": 1, "one": 2 if first == EMPTY else 1}[kind]
            assert drop_by == expected
    else:
        assert drop_by >= 2 if name == "reversi" else drop_by == 2
    won = kind != "swap-sides" and turn != [pass_action] and ref_wins(name, after.board, n, colour, game)
    if "versi" not in name:  # Reversi games are decided by the final count alone
        assert (game.to_play(after) == TERMINAL and game.winner(after) == start.seat_of(colour)) == won
    if game.is_terminal(after) and not won and "versi" not in name:
        assert EMPTY not in after.board and NEUTRAL not in after.board  # only a full board ends it
    text = game.format_turn(start, turn)
    assert game.parse_turn(start, text) == turn


@pytest.mark.parametrize("name", list(SIZES))
@settings(max_examples=600, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, 10))
def test_random_games(name, seed, index):
    sizes = SIZES[name]
    play_random_game(name, sizes[index % len(sizes)], seed, compare_masks=False)


@pytest.mark.parametrize("name", list(SIZES))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([3, 4, 5, 6]))
def test_masks_are_exactly_the_whole_turns(name, seed, size):
    size = {"neumoku": 5, "gomoku": 5}.get(name, size if "versi" not in name else 4)
    play_random_game(name, size, seed, compare_masks=True)


@pytest.mark.parametrize("name", PIE_GAMES)
@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_with_the_pie_rule(name, seed):
    size = 4 if name in CONNECTION_GAMES else 5
    game, _ = play_random_game(name, size, seed, compare_masks=False, pie_rule=True)
    assert game.info.params["pie_rule"]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SIZES))
@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, 10), pie=st.booleans())
def test_thousands_of_random_games(name, seed, index, pie):
    sizes = SIZES[name]
    pie_rule = pie if name in PIE_GAMES else None
    play_random_game(
        name, sizes[index % len(sizes)], seed, compare_masks=index == 0 and sizes[0] <= 5, pie_rule=pie_rule
    )


@pytest.mark.parametrize("name", list(SIZES))
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, 10), opening=st.integers(0, 12), pie=st.booleans())
def test_random_playout_plays_the_engine_loop_game(name, seed, index, opening, pie):
    """The numba playouts and the engine loop draw alike from one seed's stream, so they play the same game."""
    sizes = SIZES[name]
    kwargs = {"size": sizes[index % len(sizes)]} | ({"pie_rule": pie} if name in PIE_GAMES else {})
    game = make_game(name, **kwargs)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(opening):
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])
    key = state.key()
    played = game.random_playout(state, np.random.default_rng(seed + 1))
    assert state.key() == key
    assert game.random_playout(state, np.random.default_rng(seed + 1)) == played  # same seed, same game
    stream = playout_seed(np.random.default_rng(seed + 1))
    loop_state, decisions, turns = state.copy(), 0, 0
    while not game.is_terminal(loop_state):
        mover = game.to_play(loop_state)
        legal = game.legal_actions(loop_state)
        choice, stream = draw(stream, len(legal))
        game.apply(loop_state, legal[choice])
        decisions += 1
        turns += game.to_play(loop_state) != mover
    assert played == (game.returns(loop_state), decisions, turns)


def test_playout_draws_are_uniform():
    """The playouts' stream (``envs.kernels.draw``): every value of a bound about
    equally often (chi-square), and a different stream for a different seed."""
    for bound in (1, 2, 7, 25, 121):
        seed, counts = playout_seed(np.random.default_rng(bound)), np.zeros(bound)
        for _ in range(200 * bound):
            value, seed = draw(seed, bound)
            counts[value] += 1
        expected = 200.0
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < bound - 1 + 6 * (2 * max(bound - 1, 1)) ** 0.5  # df + 6 sigma
    first = [draw(seed, 1000)[0] for seed in range(50)]
    assert len(set(first)) > 40
