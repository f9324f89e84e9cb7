"""Sudoku Moyo (docs/games/sudoku_moyo.md): hand-made positions for each rule, random games
against an independent reading of the rules, the puzzle generator, symmetries,
notation, and exact endgames."""

import itertools

import numpy as np
import pytest
from conformance import Reading, check_random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.search.solver import Solver
from envs import CHANCE, TERMINAL, GameError, IllegalActionError, NotationError, make_game
from envs.games.sudoku_moyo import kernels
from envs.games.sudoku_moyo.game import SudokuMoyoState, grid_text, puzzle_text, symmetry
from envs.games.sudoku_moyo.kernels import random_playout
from envs.kernels import draw

# A well-known proper puzzle (Wikipedia's "Sudoku" article), row 9 first, and its completion.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


# --- an independent reading of the rules -----------------------------------------------------------
def cell(name):
    return (int(name[1]) - 1) * 9 + "abcdefghi".index(name[0])


def block(columns, rows):
    return {cell(c + r) for c in columns for r in rows}


CENTRE = block("def", "456")
LIGHT = block("abc", "789") | block("def", "789") | block("ghi", "456") | block("abc", "123")  # NW N E SW
DARK = block("ghi", "789") | block("abc", "456") | block("def", "123") | block("ghi", "123")  # NE W S SE
PEERS = {
    c: {
        o
        for o in range(81)
        if o != c and (o // 9 == c // 9 or o % 9 == c % 9 or (o // 27, o % 9 // 3) == (c // 27, c % 9 // 3))
    }
    for c in range(81)
}


def fits(grid, c, digit):
    return grid[c] == 0 and all(grid[o] != digit for o in PEERS[c])


def placements(grid, cells):
    actions = set()
    for c in cells:
        if grid[c] == 0:
            used = {grid[o] for o in PEERS[c]}
            actions |= {9 * c + d - 1 for d in range(1, 10) if d not in used}
    return actions


def rules_legal(grid, mover):
    """The legal actions as the rule book states them."""
    return placements(grid, CENTRE) or placements(grid, LIGHT if mover == 0 else DARK)


def keeps_sudoku_rule(grid):
    return all(grid[c] == 0 or all(grid[o] != grid[c] for o in PEERS[c]) for c in range(81))


def completions(grid, limit=2):
    """Brute-force count of Sudoku completions (most constrained cell first), up to ``limit``."""
    grid = list(grid)
    empty = [c for c in range(81) if grid[c] == 0]
    if not empty:
        return 1
    options = {c: [d for d in range(1, 10) if fits(grid, c, d)] for c in empty}
    c = min(empty, key=lambda e: len(options[e]))
    total = 0
    for d in options[c]:
        grid[c] = d
        total += completions(grid, limit - total)
        grid[c] = 0
        if total >= limit:
            break
    return total


def grid_of(text):
    """Row-9-first text to digits indexed (row - 1) * 9 + column."""
    return [0 if ch == "." else int(ch) for i in range(81) for ch in [text[(8 - i // 9) * 9 + i % 9]]]


def play(game, state, *moves):
    for move in moves:
        for action in game.parse_turn(state, move):
            game.apply(state, action)
    return state


@pytest.fixture(scope="module")
def game():
    return make_game("sudoku_moyo", puzzle=PUZZLE)


# --- hand-made positions ------------------------------------------------------------------------
def test_the_opening_forces_the_centre(game):
    state = game.initial_state()
    assert game.to_play(state) == 0 and state.opening
    names = sorted(game.action_to_text(state, a) for a in game.legal_actions(state))
    assert names == sorted(["d4=5", "d4=9", "f4=1", "f4=4", "e5=5", "d6=5", "d6=7", "d6=9", "f6=1", "f6=4", "f6=7"])
    assert set(game.legal_actions(state)) == rules_legal(list(state.grid), 0)
    with pytest.raises(IllegalActionError, match="centre"):
        play(game, state.copy(), "c9=1")  # light's own box NW, while the centre takes digits


def test_sudoku_rule_holds_across_territories(game):
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match="row"):
        play(game, state.copy(), "e5=4")  # a5=4 stands in dark's box W
    with pytest.raises(IllegalActionError, match="column"):
        play(game, state.copy(), "e5=7")  # e9=7 stands in light's box N
    with pytest.raises(IllegalActionError, match="box"):
        play(game, state.copy(), "d4=3")  # f5=3 is a given of the centre
    with pytest.raises(IllegalActionError, match="already holds"):
        play(game, state.copy(), "e6=1")


def test_an_unsolvable_placement_is_legal(game):
    state = game.initial_state()
    assert completions(list(state.grid)) == 1
    play(game, state, "d6=5")  # the completion has 7 there
    assert completions(list(state.grid)) == 0
    assert game.to_play(state) == 1


def test_own_boxes_once_the_centre_takes_no_digit(game):
    # d6=5 kills e5 (it could only take 5); after three more the centre has no placement left
    state = play(game, game.initial_state(), "d6=5", "d4=9", "f4=4", "f6=7")
    assert state.grid[cell("e5")] == 0 and not state.opening
    assert game.to_play(state) == 0
    legal = set(game.legal_actions(state))
    assert legal == placements(list(state.grid), LIGHT) and legal
    dark_cell = next(c for c in sorted(DARK) if placements(list(state.grid), {c}))
    with pytest.raises(IllegalActionError, match="own boxes"):
        game.apply(state, min(placements(list(state.grid), {dark_cell})))
    text = game.render_text(state)
    assert "| 8  x  3  |" in text.splitlines()[7]  # row 5 shows the dead e5
    assert "in its own boxes" in text
    play(game, state, game.action_to_text(state, min(legal)))
    assert set(game.legal_actions(state)) == placements(list(state.grid), DARK)


def test_full_centre_switches_too(game):
    state = play(game, game.initial_state(), "d6=7", "f6=1", "e5=5", "d4=9", "f4=4")
    assert game.to_play(state) == 1 and not state.opening
    assert set(game.legal_actions(state)) == placements(list(state.grid), DARK)


def test_a_player_who_cannot_place_loses():
    solution = SOLUTION
    light_cell, dark_cell = 0, 8  # a9 (light's NW) and i9 (dark's NE), as text positions
    stuck = make_game("sudoku_moyo", puzzle=solution[:dark_cell] + "." + solution[dark_cell + 1 :])
    state = stuck.initial_state()  # light to move, with nothing to fill in its boxes
    assert stuck.to_play(state) == TERMINAL and stuck.returns(state) == (-1.0, 1.0)
    assert "light cannot place: dark wins" in stuck.render_text(state)
    last = make_game("sudoku_moyo", puzzle="." + solution[light_cell + 1 :])
    state = last.initial_state()
    assert last.legal_actions(state) == [9 * cell("a9") + 4]  # a9=5
    play(last, state, "a9=5")
    assert last.to_play(state) == TERMINAL and last.returns(state) == (1.0, -1.0) and last.winner(state) == 0


# --- random games against the independent reading ------------------------------------------------
class SudokuMoyoReading(Reading):
    """Sudoku Moyo by the rule book: a drawn puzzle with the asked givens and one completion; each
    move's options; an end where the mover has none, and loses; the grid keeps the Sudoku rule."""

    def __init__(self, game):
        self.game, self.mover = game, 0

    def legal(self, state):
        assert self.game.to_play(state) == self.mover
        return rules_legal(list(state.grid), self.mover)

    def step(self, before, action, after):
        if self.game.to_play(before) == CHANCE:
            assert sum(after.given) == self.game.givens and completions(list(after.grid)) == 1
            return
        assert keeps_sudoku_rule(list(after.grid))
        self.mover = 1 - self.mover

    def end(self, state):
        assert not rules_legal(list(state.grid), self.mover)
        assert self.game.returns(state)[self.mover] == -1.0 and self.game.returns(state)[1 - self.mover] == 1.0


def check_rules(givens, seed):
    game = make_game("sudoku_moyo", givens=givens)
    check_random_game(game, seed, SudokuMoyoReading(game), every=10**6, playouts=0, symmetries=0)


@settings(max_examples=40, deadline=None)
@given(givens=st.sampled_from([24, 26, 30, 40]), seed=st.integers(0, 2**32))
def test_random_games_follow_the_rules(givens, seed):
    check_rules(givens, seed)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(givens=st.sampled_from([24, 26, 30, 40]), seed=st.integers(0, 2**32))
def test_thousands_of_random_games_follow_the_rules(givens, seed):
    check_rules(givens, seed)


def reference_playout(game, state, seed):
    """The engine's legal actions in order, one ``draw`` per placement, as the kernel promises."""
    state = state.copy()
    while game.to_play(state) != TERMINAL:
        legal = game.legal_actions(state)
        index, seed = draw(seed, len(legal))
        game.apply(state, legal[index])
    return state


def test_two_thousand_kernel_playouts_equal_the_engine_and_end_as_the_rules_say():
    game = make_game("sudoku_moyo")
    rng = np.random.default_rng(5)
    for n in range(2000):
        state = game.step(game.initial_state(), n % 300)
        seed = int(rng.integers(2**62))
        end = reference_playout(game, state, seed)
        winner, placements_ = random_playout(state.grid, state.player, seed)
        assert winner == game.winner(end)
        assert placements_ == sum(end.grid[c] != 0 for c in range(81)) - sum(state.grid[c] != 0 for c in range(81))
        assert keeps_sudoku_rule(list(end.grid))
        assert not rules_legal(list(end.grid), end.stuck)


# --- the generator and puzzles given as text ---------------------------------------------------------
@pytest.mark.parametrize("number, givens", [(0, 26), (1, 26), (77, 22), (4321, 30), (65535, 40)])
def test_generated_puzzles_are_proper(number, givens):
    game = make_game("sudoku_moyo", givens=givens)
    state = game.step(game.initial_state(), number)
    assert sum(state.given) == givens
    assert completions(list(state.grid), limit=3) == 1
    again = make_game("sudoku_moyo", puzzle=puzzle_text(state)).initial_state()  # the text round-trips
    assert bytes(again.grid) == bytes(state.grid)
    assert make_game("sudoku_moyo", puzzle=number, givens=givens).initial_state().grid == state.grid


def test_puzzle_numbers_give_different_puzzles():
    game = make_game("sudoku_moyo")
    grids = {bytes(game.step(game.initial_state(), n).grid) for n in range(50)}
    assert len(grids) == 50


@pytest.mark.parametrize(
    "puzzle, message",
    [
        (PUZZLE[:-1], "81 cells"),
        (PUZZLE[:-1] + "x", "unexpected character 'x'"),
        ("55" + PUZZLE[2:], "digit 5 appears twice in row 9"),
        ("5" + "." * 80, "more than one completion"),
        (PUZZLE[:2] + "2" + PUZZLE[3:], "no completion"),  # c9=2 clashes with nothing, but the completion has 4
        (12.5, "puzzle must be"),
        (2**16, "0..65535"),
        (int(PUZZLE.replace(".", "0")), "string"),
    ],
)
def test_bad_puzzles_are_named(puzzle, message):
    with pytest.raises(ValueError, match=message):
        make_game("sudoku_moyo", puzzle=puzzle)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"givens": 10}, "givens must be from 22 to 80"),
        ({"size": 5}, "size must be 9"),
        ({"givens": "many"}, "givens must be an integer"),
        ({"givens": 31, "puzzle": PUZZLE}, "puzzle has 30 givens"),
        ({"moves": "e5=5"}, "moves needs a puzzle"),
        ({"puzzle": PUZZLE, "moves": "e5=4"}, "row"),
        ({"puzzle": PUZZLE, "moves": "e5"}, "e5=7"),
    ],
)
def test_bad_parameters_are_named(kwargs, message):
    with pytest.raises((ValueError, GameError), match=message):
        make_game("sudoku_moyo", **kwargs)


def test_moves_give_a_start_position():
    game = make_game("sudoku_moyo", puzzle=PUZZLE, moves="d6=7 f6=1")
    state = game.initial_state()
    assert game.info.params == {"givens": 30, "puzzle": PUZZLE, "moves": "d6=7 f6=1"}
    assert grid_text(state)[27:36] == "8..761..3"  # row 6
    assert state.given[cell("d6")] == 0 and game.to_play(state) == 0


# --- notation and records ---------------------------------------------------------------------------
def test_notation_round_trips(game):
    state = game.initial_state()
    for action in game.legal_actions(state):
        assert game.parse_turn(state, game.action_to_text(state, action)) == [action]
    assert game.parse_turn(state, "e5=5") == [9 * cell("e5") + 4]
    # docs/games/sudoku_moyo.md, its encoding
    assert [game.parse_turn(state, t)[0] for t in ("a1=1", "e5=7", "i9=9")] == [0, 366, 728]
    drawn = make_game("sudoku_moyo")
    setup = drawn.initial_state()
    assert drawn.parse_turn(setup, "puzzle=12 e5=7") == [12, 9 * cell("e5") + 6]
    assert drawn.format_turn(setup, [12]) == "puzzle=12"


@pytest.mark.parametrize("text", ["", "e5", "e5=0", "j1=3", "e5 = 7", "e5=7 d4=2", "puzzle=3 e5=5"])
def test_unreadable_turns_are_named(game, text):
    with pytest.raises(NotationError):
        game.parse_turn(game.initial_state(), text)


def test_setup_must_come_first():
    drawn = make_game("sudoku_moyo")
    with pytest.raises(NotationError, match="puzzle=123"):
        drawn.parse_turn(drawn.initial_state(), "e5=7")
    with pytest.raises(IllegalActionError, match="0..65535"):
        drawn.apply(drawn.initial_state(), 70000)


def test_match_records_replay():
    from envs.records import game_record, replay_record

    game = make_game("sudoku_moyo", givens=24)
    rng = np.random.default_rng(3)
    state, actions = game.initial_state(), []
    while not game.is_terminal(state):
        legal = [game.sample_chance(state, rng)] if game.is_chance(state) else game.legal_actions(state)
        actions.append(int(legal[rng.integers(len(legal))]))
        game.apply(state, actions[-1])
    text = game_record(game, actions, ["random", "random"])
    assert "[givens: 24]\n" in text and '[puzzle: ""]\n' in text and "puzzle=" in text
    replayed_game, replayed = replay_record(text)
    assert replayed.grid == state.grid and replayed_game.returns(replayed) == game.returns(state)


# --- symmetries -------------------------------------------------------------------------------------------
def box_owner_map():
    """Owner per box position (band from the bottom, stack), read from the independent cell sets."""
    return {
        (b, s): 0
        if cell("abcdefghi"[3 * s] + str(3 * b + 1)) in LIGHT
        else 1
        if cell("abcdefghi"[3 * s] + str(3 * b + 1)) in DARK
        else 2
        for b in range(3)
        for s in range(3)
    }


def test_only_permutations_within_bands_and_stacks_keep_the_owners():
    """Of the Sudoku symmetries at the box level (band and stack permutations, transposition),
    only the identity keeps every box's owner; the half turn swaps every owner."""
    owners = box_owner_map()
    keeping = []
    for bands, stacks, transpose in itertools.product(
        itertools.permutations(range(3)), itertools.permutations(range(3)), (False, True)
    ):
        image = {((stacks[s], bands[b]) if transpose else (bands[b], stacks[s])): o for (b, s), o in owners.items()}
        if image == owners:
            keeping.append((bands, stacks, transpose))
    assert keeping == [((0, 1, 2), (0, 1, 2), False)]
    half = {(2 - b, 2 - s): o for (b, s), o in owners.items()}
    assert all(half[key] == {0: 1, 1: 0, 2: 2}[o] for key, o in owners.items())
    with pytest.raises(ValueError, match="band"):
        symmetry(range(9), [3, 1, 2, 0, 4, 5, 6, 7, 8], range(9))


def image_state(state, sym_digits, rows, columns, half):
    """The position mapped cell by cell and digit by digit, built from scratch as a row."""
    row = np.zeros_like(state.row)
    for c in range(81):
        r, k = rows[c // 9], columns[c % 9]
        if half:
            r, k = 8 - r, 8 - k
        if state.grid[c]:
            row[r * 9 + k] = sym_digits[state.grid[c] - 1] + 1
            row[kernels.GIVEN + r * 9 + k] = state.given[c]
    player, stuck = state.player, state.stuck
    row[kernels.PLAYER] = TERMINAL if player == TERMINAL else (1 - player if half else player)
    row[kernels.STUCK] = -1 if stuck < 0 else (1 - stuck if half else stuck)
    row[kernels.OPENING] = bool(placements(list(row[:81]), CENTRE))  # while the centre takes a digit
    row[kernels.PUZZLE] = -1
    return SudokuMoyoState(row)


def test_symmetries_map_positions_legal_moves_and_planes():
    game = make_game("sudoku_moyo")
    symmetries = game.symmetries()
    assert len(symmetries) == 256 and symmetries[0].name == "identity"
    rng = np.random.default_rng(8)
    for _ in range(12):
        state = game.step(game.initial_state(), int(rng.integers(2**16)))
        for _ in range(int(rng.integers(0, 30))):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.integers(len(legal))])
        for _ in range(6):
            digits = rng.permutation(9)
            rows = np.concatenate([3 * b + rng.permutation(3) for b in range(3)])
            columns = np.concatenate([3 * s + rng.permutation(3) for s in range(3)])
            half = bool(rng.integers(2))
            sym = symmetry(digits, rows, columns, half)
            image = image_state(state, digits, rows, columns, half)
            np.testing.assert_array_equal(sym.policy(game.legal_mask(state)), game.legal_mask(image))
            np.testing.assert_array_equal(sym.obs(game.observe(state)), game.observe(image))
            assert game.to_play(image) == game.to_play(state) or half


def test_listed_symmetries_are_group_elements():
    """Each listed symmetry's action permutation moves whole cells and relabels digits consistently."""
    for sym in make_game("sudoku_moyo").symmetries():
        perm = sym.action_perm.reshape(81, 9)
        cells, digits = perm // 9, perm % 9
        assert (cells == cells[:, :1]).all() and sorted(cells[:, 0]) == list(range(81))
        assert (digits == digits[:1]).all() and sorted(digits[0]) == list(range(9))


# --- exact endgames ---------------------------------------------------------------------------------
def minimax(game, state):
    """Seat 0's value by plain minimax over the rule book's moves (no table, no pruning)."""
    if game.is_terminal(state):
        return game.returns(state)[0]
    values = [minimax(game, game.step(state, a)) for a in game.legal_actions(state)]
    return max(values) if game.to_play(state) == 0 else min(values)


def tree_size(game, state, budget):
    """Nodes below ``state``, stopping once over ``budget``."""
    count = 1
    for a in game.legal_actions(state):
        count += tree_size(game, game.step(state, a), budget - count)
        if count > budget:
            break
    return count


def late_positions(game, count, rng, budget=3000):
    """(position, its setup, the placements from there) of random games, the position
    being the earliest whose game tree has at most ``budget`` nodes."""
    found = []
    while len(found) < count:
        history, actions = [game.step(game.initial_state(), int(rng.integers(2**16)))], []
        while not game.is_terminal(history[-1]):
            legal = game.legal_actions(history[-1])
            actions.append(legal[rng.integers(len(legal))])
            history.append(game.step(history[-1], actions[-1]))
        depth = len(history) - 1
        while depth > 0 and tree_size(game, history[depth - 1], budget + 1) <= budget:
            depth -= 1
        found.append((history[depth], history[0], actions[:depth]))
    return found


def test_the_solver_solves_late_positions_exactly():
    game = make_game("sudoku_moyo")
    solver = Solver(game, max_nodes=200_000)
    values = []
    for state, _, _ in late_positions(game, 25, np.random.default_rng(1)):
        value = solver.value(state)
        values.append(value)
        assert value == minimax(game, state)
        for action in solver.optimal_actions(state):
            assert minimax(game, game.step(state, action)) == value
    assert {-1.0, 1.0} <= set(values)  # both seats win some


def test_solve_mode_starts_from_a_given_position(tmp_path):
    from pathlib import Path

    from hydra import compose, initialize_config_dir

    from agents.evaluation.modes import evaluate

    drawn = make_game("sudoku_moyo")
    state, setup, actions = late_positions(drawn, 1, np.random.default_rng(2))[0]
    moves = drawn.format_turn(setup, actions)
    overrides = ["mode=solve", "game=sudoku_moyo", f"game.puzzle='{puzzle_text(setup)}'", f"game.moves='{moves}'"]
    with initialize_config_dir(config_dir=str(Path(__file__).parents[1] / "configs"), version_base="1.3"):
        cfg = compose("evaluate", overrides=overrides)
    with open(tmp_path / "out.txt", "w") as out:
        document = evaluate(cfg, tmp_path, out)
    assert document["value"] == minimax(drawn, state)
    optimal = {t for t in document["optimal_first_turns"]}
    assert optimal == {
        drawn.action_to_text(state, a)
        for a in drawn.legal_actions(state)
        if minimax(drawn, drawn.step(state, a)) == document["value"]
    }


# --- agents ---------------------------------------------------------------------------------------------
def test_smoke_training_and_the_agent_plays_through_the_env(tmp_path):
    """Self-play, learning on symmetry-augmented batches, checkpoint; the checkpoint then
    plays full games as the env's opponent, every puzzle drawn from the env's seed."""
    from pathlib import Path

    import gymnasium
    from hydra import compose, initialize_config_dir

    from agents.training.loop import train

    overrides = ["experiment=smoke", "game=sudoku_moyo", "game.givens=40", "train.iterations=1", "eval.every=0"]
    with initialize_config_dir(config_dir=str(Path(__file__).parents[1] / "configs"), version_base="1.3"):
        cfg = compose("train", overrides=overrides)
    result = train(cfg, tmp_path, overrides)
    assert result.step == 3 and np.isfinite(result.losses[-1]["loss/total"])
    for seed in (0, 1):
        env = gymnasium.make("SudokuMoyo-v0", givens=40, opponent=f"az:{result.checkpoint}:2", agent_seat=seed)
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert reward == info["returns"][seed] and info["winner"] in (0, 1)
