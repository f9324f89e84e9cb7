"""The conformance harness: one random game of any registered game checked at every position
(the start, mid-turn micro-steps, chance nodes and the end) by the engine's own promises, its
compiled rules (``Game.compiled()``, the functions of ``envs.compiled``), its random playouts,
its notation, its symmetries and, where a game's tests have one, an independent reading of its
rules; and a batched env (``envs.make_vec``) stepped beside single games with illegal actions
injected. ``tests/test_conformance_games.py`` runs it for every game; a game's own test file
passes its :class:`Reading` to :func:`check_random_game` for more seeds and rule options."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np
import row_kernels as kernels
from engine_batch import chance_from_stream

from envs import CHANCE, GAMES, TERMINAL, Game, IllegalActionError, make_game
from envs.kernels import draw, playout_seed
from envs.records import split_turns
from envs.vector.vector_env import game_stream_seed


# --- an independent reading of a game's rules ----------------------------------------------------------
class Reading:
    """A game's rules read independently of its engine (coordinates, a rule book's text), told
    every step of a random game; each hook asserts. ``legal`` gives the actions it expects at a
    decision position (None: no opinion), ``step`` sees an action and the position it led to,
    ``end`` the final position. A reading keeps what it needs across steps (the turn so far)."""

    def legal(self, state) -> list[int] | set[int] | None:
        return None

    def step(self, before, action: int, after) -> None:
        pass

    def end(self, state) -> None:
        pass


@dataclass
class Met:
    """What one checked game met: positions, chance nodes, mid-turn positions (the seat to play
    did not change with the last action), actions applied to rows, playouts compared, turns read
    back from their text and positions checked in a symmetric image."""

    positions: int = 0
    chance: int = 0
    mid_turn: int = 0
    row_actions: int = 0
    playouts: int = 0
    turns: int = 0
    images: int = 0
    decisions: int = 0
    symmetries: list[str] = field(default_factory=list)


def random_game(game, seed: int) -> tuple[list, list[int]]:
    """The positions of one random game (copies, the end included) and its actions: chance by its
    probabilities, decisions uniformly."""
    rng, state = np.random.default_rng(seed), game.initial_state()
    states, actions = [state.copy()], []
    while game.to_play(state) != TERMINAL:
        if game.to_play(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        game.apply(state, action)
        actions.append(int(action))
        states.append(state.copy())
    return states, actions


def check_random_game(
    game,
    seed: int,
    reading: Reading | None = None,
    every: int = 1,
    playouts: int = 4,
    compiled: bool = True,
    same_state: Callable | None = None,
    marks: tuple = (),
    symmetries: int | None = None,
) -> Met:
    """Play one random game of ``game`` and check every position (the refused actions, the rows'
    actions and the notation at every ``every``-th decision position; ``playouts`` playouts at
    spread positions and at the first position each of ``marks`` flags, a rare rule; the rows unless
    ``compiled`` is false, their decoded states equal to the engine's by ``same_state(decoded,
    state)`` where given; the game's image under the first ``symmetries`` symmetries that keep
    its first decision position, all by default); what it met."""
    states, actions = random_game(game, seed)
    met = Met()
    rows = game.compiled() if compiled else None
    for k, state in enumerate(states):
        thorough = k % every == 0
        check_engine_position(game, state, thorough)
        if rows is not None:
            met.row_actions += check_row(game, rows, state, thorough, same_state)
        if reading is not None and game.to_play(state) >= 0:
            expected = reading.legal(state)
            if expected is not None:
                legal = game.legal_actions(state)
                assert (sorted(expected) if isinstance(expected, set) else expected) == legal, (seed, k)
        if k < len(actions):
            if reading is not None:
                reading.step(state, actions[k], states[k + 1])
            player = game.to_play(state)
            met.chance += player == CHANCE
            met.decisions += player >= 0
            met.mid_turn += player >= 0 and game.to_play(states[k + 1]) == player
            if thorough and player >= 0:
                check_action_texts(game, state)
        met.positions += 1
    assert met.decisions <= game.info.max_decisions
    if reading is not None:
        reading.end(states[-1])
    for k in playout_picks(game, states, playouts, marks):
        check_playout(game, states[k], seed * 1000 + k, rows, engine_loop=met.chance == 0)
        met.playouts += 1
    met.turns = check_turn_texts(game, actions)
    met.images, met.symmetries = check_symmetries(game, actions, symmetries)
    return met


def positions(game, seed: int, begun: tuple = ()) -> list:
    """States along one random game (engine, ``seed``): the start, the first state each test of
    ``begun`` marks (a turn begun at one of its micro-steps), one at random and the last three
    before the end, and the end."""
    rng = np.random.default_rng(seed)
    state, states = game.initial_state(), []
    while not game.is_terminal(state):
        states.append(state.copy())
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])
    picks = {0, int(rng.integers(len(states))), *range(max(0, len(states) - 3), len(states))}
    for marks in begun:
        picks.update([k for k, s in enumerate(states) if marks(s)][:1])
    return [states[k] for k in sorted(picks)] + [state]


# --- the engine's own promises ---------------------------------------------------------------------------
def check_engine_position(game, state, every_action: bool) -> None:
    """The mask is the legal set (increasing, non-empty at a decision, empty at the end and at a
    chance node); chance probabilities sum to one; the end gives one return a seat; with
    ``every_action``, each action outside the legal set is refused and leaves the state as it was."""
    player, legal, mask = game.to_play(state), game.legal_actions(state), game.legal_mask(state)
    assert mask.shape == (game.info.num_actions,)
    assert np.flatnonzero(mask).tolist() == legal == sorted(set(legal))
    if player == TERMINAL:
        assert legal == [] and len(game.returns(state)) == game.info.num_seats
        return
    assert game.returns(state) == (0.0,) * game.info.num_seats
    if player == CHANCE:
        probs = [p for _, p in game.chance_outcomes(state)]
        assert legal == [] and probs and min(probs) > 0 and abs(sum(probs) - 1) < 1e-9
        return
    assert 0 <= player < game.info.num_seats and legal
    if every_action:
        before = pickle.dumps(state)
        for action in sorted(set(range(game.info.num_actions)) - set(legal)):
            try:
                game.apply(state, action)  # a refusal leaves the state as it was (checked once, below)
            except IllegalActionError:
                continue
            raise AssertionError(f"action {action} outside the legal set {legal} was played")
        assert pickle.dumps(state) == before


# --- the compiled rules against the engine -------------------------------------------------------------
def check_positions(game, states, same_state: Callable | None = None) -> int:
    """Hand-made or chosen positions checked as :func:`check_random_game` checks a game's (the
    engine, the rows with every action); the actions applied to rows."""
    applied = 0
    for state in states:
        check_engine_position(game, state, True)
        applied += check_row(game, game.compiled(), state, True, same_state)
    return applied


def check_row(game, compiled, state, every_action: bool, same_state: Callable | None = None) -> int:
    """The state's row round-trips through ``decode`` (to a state ``same_state`` finds equal), and the kernels give the engine's legal
    actions, seat, returns, observation and chance outcomes; the actions applied to the row (all
    legal ones with ``every_action``, else the first; two outcomes of a chance node) give the rows
    of the engine's children.
    The number of actions applied."""
    context = compiled.context
    row = compiled.encode(state)
    assert row.dtype == np.int32 and row.shape == (compiled.width,)
    decoded = compiled.decode(row)
    np.testing.assert_array_equal(compiled.encode(decoded), row)
    assert same_state is None or same_state(decoded, state)
    np.testing.assert_array_equal(game.observe(decoded), game.observe(state))
    player = game.to_play(state)
    assert game.to_play(decoded) == player
    out = np.empty(max(compiled.max_legal, 1), np.int64)
    legal = game.legal_actions(state)
    assert out[: kernels.legal_of(context, row, out)].tolist() == (legal if player >= 0 else [])
    assert kernels.to_play_of(context, row) == player
    returned = np.full(game.info.num_seats, 9.0)
    kernels.returns_of(context, row, returned)
    assert tuple(returned) == game.returns(state)
    planes = np.full(game.info.obs_shape, 9.0, np.float32)
    kernels.observe_of(context, row, planes)
    np.testing.assert_array_equal(planes, game.observe(state))
    if player == CHANCE:
        outcomes, probs = np.empty(compiled.max_chance, np.int64), np.empty(compiled.max_chance)
        count = kernels.chance_of(context, row, outcomes, probs)
        expected = game.chance_outcomes(state)
        assert outcomes[:count].tolist() == [o for o, _ in expected]
        np.testing.assert_allclose(probs[:count], [p for _, p in expected], rtol=1e-12)
        legal = outcomes[:count].tolist()
    tried = legal if every_action and player >= 0 else legal[:2]  # a chance node: two outcomes (Sudoku Moyo has 65,536)
    for action in tried:
        child, expected = row.copy(), compiled.encode(game.step(state, action))
        kernels.apply_to(context, child, action)
        if not np.array_equal(child, expected):  # a row may hold the same position otherwise (union-find links)
            np.testing.assert_array_equal(compiled.encode(compiled.decode(child)), expected, err_msg=f"action {action}")
    np.testing.assert_array_equal(row, compiled.encode(state))  # nothing above changed the row
    return len(tried)


# --- random playouts -----------------------------------------------------------------------------------
def playout_picks(game, states: list, count: int, marks: tuple = ()) -> list[int]:
    """Where a game's playouts start: ``count`` positions spread over it (the start and the end
    among them), the first mid-turn position (the mover's turn begun), the first position each
    of ``marks`` flags and the last decision."""
    if not count:
        return []
    picks = {int(k) for k in np.linspace(0, len(states) - 1, count)}
    movers = [game.to_play(state) for state in states]
    for mark in marks:
        picks.update([k for k, state in enumerate(states) if movers[k] >= 0 and mark(state)][:1])
    picks.update([k for k in range(1, len(states)) if movers[k] >= 0 and movers[k] == movers[k - 1]][:1])
    picks.update([k for k in range(len(states)) if movers[k] >= 0][-1:])
    return sorted(picks)


def check_playout(game, state, seed: int, compiled=None, engine_loop: bool = True) -> tuple:
    """``random_playout`` leaves the state untouched and, with ``engine_loop`` (games without
    chance nodes), plays the engine loop's game for the same draws (``engine_playout`` at
    ``playout_seed`` of the same generator); the compiled ``playout`` from the state's row gives
    its returns; the end plays nothing. What ``random_playout`` gave."""
    before = pickle.dumps(state)
    played = game.random_playout(state, np.random.default_rng(seed))
    assert pickle.dumps(state) == before
    if game.to_play(state) == TERMINAL:
        assert played == (game.returns(state), 0, 0)
    if engine_loop:
        assert played == game.engine_playout(state, playout_seed(np.random.default_rng(seed)))
    if compiled is not None and game.to_play(state) >= 0:
        row, out = compiled.encode(state), np.full(game.info.num_seats, 9.0)
        kernels.playout_of(compiled.context, row, playout_seed(np.random.default_rng(seed)), out)
        np.testing.assert_array_equal(row, compiled.encode(state))
        assert tuple(out) == played[0]
    return played


def check_playout_scores(game, ours: int = 2000, theirs: int = 300) -> None:
    """The first seat's mean score from the start over ``random_playout`` (the game's compiled
    playout) is the plain engine loop's (``Game.random_playout``, its own generator) within four
    standard errors: the compiled playout draws uniformly."""
    rng, start = np.random.default_rng(0), game.initial_state()
    fast = [game.random_playout(start, rng)[0][0] for _ in range(ours)]
    slow = [Game.random_playout(game, start, rng)[0][0] for _ in range(theirs)]
    error = (np.var(fast) / len(fast) + np.var(slow) / len(slow)) ** 0.5
    assert abs(np.mean(fast) - np.mean(slow)) < 4 * error


# --- notation ------------------------------------------------------------------------------------------------
def check_action_texts(game, state) -> None:
    """Each legal action has a text of its own."""
    texts = [game.action_to_text(state, action) for action in game.legal_actions(state)]
    assert all(isinstance(text, str) and text.strip() for text in texts)
    assert len(set(texts)) == len(texts), texts


def check_turn_texts(game, actions: list[int]) -> int:
    """Every record turn of the game (``envs.records.split_turns``) reads back from its text
    (``format_turn``, ``parse_turn``): as its actions, or as actions that reach the same position
    and write the same text (a block of cells named in another order); the number of turns."""
    state = game.initial_state()
    turns = split_turns(game, actions)
    for turn in turns:
        text = game.format_turn(state, turn)
        parsed = game.parse_turn(state, text)
        reached = state.copy()
        for action in turn:
            game.apply(state, action)
        if parsed != turn:
            assert game.format_turn(reached, parsed) == text, (text, turn, parsed)
            for action in parsed:
                game.apply(reached, action)
            assert game.render_text(reached) == game.render_text(state), (text, turn, parsed)
            np.testing.assert_array_equal(game.observe(reached), game.observe(state), err_msg=text)
            np.testing.assert_array_equal(game.legal_mask(reached), game.legal_mask(state), err_msg=text)
    return len(turns)


# --- symmetries ---------------------------------------------------------------------------------------------
def keeps(game, symmetry, state, image) -> bool:
    """Whether ``image`` is ``state`` mapped by ``symmetry``, as the observation and the mask see it."""
    return np.array_equal(symmetry.obs(game.observe(state)), game.observe(image)) and np.array_equal(
        symmetry.policy(game.legal_mask(state)), game.legal_mask(image)
    )


def check_symmetries(game, actions: list[int], most: int | None = None) -> tuple[int, list[str]]:
    """Each symmetry that maps the game's first decision position onto itself maps the rest of
    the game onto a game: the actions mapped by ``action_perm`` (chance outcomes as they are) are
    legal in the image, whose observation and mask are the mapped ones at every position, and the
    image ends with the same returns (the first ``most`` such symmetries). The positions checked and
    the symmetries followed (a chance outcome before the first decision, Sudoku Moyo's puzzle, may
    break them all)."""
    start, first = game.initial_state(), 0
    while first < len(actions) and game.to_play(start) == CHANCE:
        game.apply(start, actions[first])
        first += 1
    checked, kept = 0, []
    for symmetry in game.symmetries()[1:]:
        if len(kept) == most or not keeps(game, symmetry, start, start):
            continue
        kept.append(symmetry.name)
        state, image = start.copy(), start.copy()
        for action in actions[first:]:
            chance = game.to_play(state) == CHANCE
            game.apply(state, action)
            game.apply(image, action if chance else int(symmetry.action_perm[action]))
            assert keeps(game, symmetry, state, image), (symmetry.name, game.render_text(state))
            checked += 1
        assert game.returns(image) == game.returns(state)
    return checked, kept


# --- the batched env beside single games ------------------------------------------------------------------
class StreamGame:
    """One game of a batch on the engine, as the single env plays it, with the batch's draws:
    coins, the random seat and the random opponent from the game's ``draw`` stream in the
    batch's order (the single gymnasium env draws them from its own generator)."""

    def __init__(self, game, stream: int, opponent: bool, seat_option):
        self.game, self.stream, self.opponent, self.seat_option = game, stream, opponent, seat_option

    def reset(self) -> tuple[dict, dict]:
        self.state, self.seat, self.over = self.game.initial_state(), self.seat_option, False
        if self.opponent and self.seat_option == "random":
            self.seat, self.stream = draw(self.stream, 2)
        self.advance()
        return self.outputs({})

    def advance(self) -> None:
        game, state = self.game, self.state
        while True:
            player = game.to_play(state)
            if player == CHANCE:
                outcome, self.stream = chance_from_stream(game, state, self.stream)
                game.apply(state, outcome)
            elif self.opponent and player >= 0 and player != self.seat:
                legal = game.legal_actions(state)
                index, self.stream = draw(self.stream, len(legal))
                game.apply(state, legal[index])
            else:
                return

    def step(self, action: int):
        game, actor = self.game, self.game.to_play(self.state)
        seat = self.seat if self.opponent else actor
        if action not in game.legal_actions(self.state):
            self.over = True
            returns = np.ones(game.info.num_seats)
            returns[actor] = -1.0
            return *self.outputs({"returns": returns, "illegal_action": True}), -1.0, True
        game.apply(self.state, action)
        self.advance()
        if game.to_play(self.state) != TERMINAL:
            return *self.outputs({}), 0.0, False
        self.over = True
        returns = np.array(game.returns(self.state))
        return *self.outputs({"returns": returns, "illegal_action": False}), float(returns[seat]), True

    def outputs(self, info: dict) -> tuple[dict, dict]:
        game, player = self.game, self.game.to_play(self.state)
        mask = np.zeros(game.info.num_actions, np.int8) if self.over else game.legal_mask(self.state).astype(np.int8)
        info = {"to_play": -1 if self.over or player == TERMINAL else player} | info
        if self.opponent:
            info["agent_seat"] = self.seat
        return {"observation": game.observe(self.state), "action_mask": mask}, info


class GymGame:
    """One game of a batch as the single gymnasium env (``gym.make``) plays it."""

    def __init__(self, env_id: str, kwargs: dict):
        self.env = gym.make(env_id, **kwargs).unwrapped

    def reset(self) -> tuple[dict, dict]:
        return self.env.reset(seed=0)

    def step(self, action: int):
        observation, reward, terminated, _, info = self.env.step(action)
        return observation, info, reward, terminated


def check_batched(
    name: str, kwargs: dict, num_envs: int, steps: int, opponent=None, seat=0, seed: int = 0, faults: float = 0.1
) -> int:
    """``envs.make_vec`` of ``num_envs`` games stepped ``steps`` times with random actions, a
    fraction ``faults`` of them illegal, beside ``num_envs`` single games given the same actions:
    the single gymnasium env for a two-player game without chance nodes, else :class:`StreamGame`.
    Every observation, mask, reward, end, seat to play, agent seat, result and illegal-action
    flag equal; the number of games that ended."""
    game = make_game(name, **kwargs)
    vec = make_vec_of(name, num_envs, opponent=opponent, agent_seat=seat, **kwargs)
    if opponent is None and getattr(game.compiled(), "max_chance", 0) == 0:
        singles = [GymGame(GAMES[name][0], kwargs) for _ in range(num_envs)]
    else:
        singles = [
            StreamGame(make_game(name, **kwargs), game_stream_seed(seed + i), opponent is not None, seat)
            for i in range(num_envs)
        ]
    observation, info = vec.reset(seed=seed)
    expected = [single.reset() for single in singles]
    assert_same_batch(observation, info, expected, None)
    rng, ended, pending = np.random.default_rng(seed), 0, np.zeros(num_envs, bool)
    for _ in range(steps):
        actions = []
        for mask in observation["action_mask"]:
            legal, illegal = np.flatnonzero(mask), np.flatnonzero(mask == 0)
            wrong = legal.size and illegal.size and rng.random() < faults
            actions.append(int(rng.choice(illegal if wrong else legal)) if legal.size else 0)
        observation, rewards, terminated, truncated, info = vec.step(np.array(actions))
        expected = []
        for i, single in enumerate(singles):
            if pending[i]:
                expected.append((*single.reset(), 0.0, False))
            else:
                expected.append(single.step(actions[i]))
        assert_same_batch(observation, info, [e[:2] for e in expected], (rewards, terminated))
        assert rewards.tolist() == [e[2] for e in expected] and terminated.tolist() == [e[3] for e in expected]
        assert not truncated.any()
        ended += int(terminated.sum())
        pending = terminated
    return ended


def make_vec_of(name: str, num_envs: int, **kwargs):
    """``envs.make_vec`` by the game's gymnasium id (the harness's fault tests replace it)."""
    from envs import make_vec

    return make_vec(GAMES[name][0], num_envs=num_envs, **kwargs)


def assert_same_batch(observation: dict, info: dict, expected: list, stepped) -> None:
    """The batch's outputs for each game are its single game's ``(observation, info)``."""
    for i, (single, single_info) in enumerate(expected):
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(observation[key][i], single[key], err_msg=f"game {i} {key}")
        assert info["to_play"][i] == single_info["to_play"], f"game {i}"
        if "agent_seat" in single_info:
            assert info["agent_seat"][i] == single_info["agent_seat"], f"game {i}"
        if stepped is not None and stepped[1][i]:
            np.testing.assert_array_equal(info["returns"][i], single_info["returns"], err_msg=f"game {i}")
            flagged = "illegal_action" in info and bool(info["illegal_action"][i])
            assert flagged == bool(single_info["illegal_action"]), f"game {i}"
