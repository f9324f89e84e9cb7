"""One game at the browser board: seats held by the person (``human``) or by agents, every
click judged by the engine, undo, a new game, seats swapped, the record; and records replayed.

The session plays chance (from its own seeded generator) and the agents' turns itself, and
stops where the person is to move. With agents in both seats (watching) :meth:`Session.step`
plays one turn a call. Positions are sent as :meth:`Session.view` dictionaries: the game's
``board_view`` with, per cell, the actions a click offers, their text and whether each is legal.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from agents.web.players import PlayerSource
from envs.core import CHANCE, TERMINAL, Game, make_game
from envs.records import format_game, game_record, read_record, record_game, replay

HUMAN = "human"


class SessionError(ValueError):
    """A request the game cannot take now (not the person's turn, nothing to undo, ...)."""


class Session:
    """A game of ``game_name`` (with ``params``) between ``seats`` (``human`` or agent specs)."""

    def __init__(self, game_name, params, seats: Sequence, source: PlayerSource, seed: int = 0):
        if not isinstance(game_name, str) or not isinstance(params, dict):
            raise SessionError("a game is a name and a dictionary of parameters")
        if not isinstance(seats, (list, tuple)) or len(seats) != 2:
            raise SessionError("seats must be a list of two specs ('human' or an agent's, e.g. mcts:200)")
        self.game: Game = make_game(game_name, **params)
        self.seats = [str(spec).strip() if isinstance(spec, str) else spec for spec in seats]
        self.source, self.seed, self.games_played = source, seed, 0
        self.players = {seat: source.make(spec, self.game) for seat, spec in enumerate(self.seats) if spec != HUMAN}
        self.new_game()

    # --- the game -------------------------------------------------------------------------------
    def new_game(self) -> None:
        self.rng = np.random.default_rng([self.seed, self.games_played])
        self.games_played += 1
        self.state, self.actions = self.game.initial_state(), []
        self.complete = 0  # actions up to the end of the last whole turn (what a record holds)
        self.last_mover: int | None = None  # who made the last action (a seat or CHANCE)
        self.turn_starts: list[int] = []  # len(actions) at the start of each of the person's turns
        for player in self.players.values():
            player.reset()
        self._advance(one_turn=False)

    def swap_seats(self) -> None:
        """The seats change hands, and a new game starts."""
        self.seats.reverse()
        self.players = {1 - seat: player for seat, player in self.players.items()}
        self.new_game()

    def play(self, action) -> None:
        """The person's action (a click); the engine's message if it is illegal."""
        seat = self.game.to_play(self.state)
        if seat == TERMINAL:
            raise SessionError("the game is over: start a new game")
        if seat in self.players:
            raise SessionError("it is not your turn: the agent is to move (press step)")
        self._apply(action)
        self._advance(one_turn=False)

    def step(self) -> None:
        """One agent's turn (watching two agents play)."""
        if self.game.to_play(self.state) == TERMINAL:
            raise SessionError("the game is over: start a new game")
        if self.game.to_play(self.state) not in self.players and not self.game.is_chance(self.state):
            raise SessionError("it is your turn: click the board")
        self._advance(one_turn=True)

    def undo(self) -> None:
        """Take back the person's turn in progress, or else their last turn and what followed it."""
        starts = self.turn_starts
        if starts and starts[-1] == len(self.actions) and len(starts) > 1:
            starts.pop()
        if not starts or starts[-1] == len(self.actions):
            raise SessionError("nothing to undo yet")
        self._restore(self.actions[: starts[-1]])

    def _apply(self, action) -> None:
        game, mover = self.game, self.game.to_play(self.state)
        game.apply(self.state, action)  # IllegalActionError names the action and why
        self.actions.append(int(action))
        self.last_mover = mover
        if mover != CHANCE and game.to_play(self.state) != mover:
            self.complete = len(self.actions)

    def _advance(self, one_turn: bool) -> None:
        """Chance and agents move until the person is to move, the game ends, or (``one_turn``)
        an agent's turn is over."""
        game, state = self.game, self.state
        while True:
            seat = game.to_play(state)
            if seat == TERMINAL:
                return
            if seat == CHANCE:
                self._apply(game.sample_chance(state, self.rng))
                continue
            if seat not in self.players:
                if self.last_mover != seat and self.turn_starts[-1:] != [len(self.actions)]:
                    self.turn_starts.append(len(self.actions))
                return
            if self._watching() and not one_turn:
                return
            self._apply(self.players[seat].act(state, self.rng))
            if one_turn and game.to_play(state) != seat:
                return

    def _watching(self) -> bool:
        return len(self.players) == 2

    def _restore(self, actions: list[int]) -> None:
        self.state, self.actions, self.complete, self.last_mover = self.game.initial_state(), [], 0, None
        for action in actions:
            self._apply(action)
        for player in self.players.values():
            player.reset()

    # --- what the page shows ---------------------------------------------------------------------
    def record(self) -> str:
        """The game so far (whole turns) in the project's record format (``envs.records``)."""
        return game_record(self.game, self.actions[: self.complete], self.seats)

    def turns(self) -> list[str]:
        return format_game(self.game, self.actions[: self.complete])

    def view(self) -> dict:
        seat = self.game.to_play(self.state)
        return position_view(self.game, self.state) | {
            "seats": list(self.seats),
            "your_turn": seat >= 0 and seat not in self.players,
            "watching": self._watching(),
            "turns": self.turns(),
            "can_undo": bool(self.turn_starts)
            and (len(self.turn_starts) > 1 or self.turn_starts[0] < len(self.actions)),
        }


def position_view(game: Game, state) -> dict:
    """A position as the page draws it: the board view, each cell's actions with their text and
    legality, the buttons (pass, swap-sides), whose turn it is and, at the end, the result."""
    seat = game.to_play(state)
    board = dataclasses.asdict(game.board_view(state))
    legal = set(game.legal_actions(state))

    def moves(actions) -> list[dict]:
        if seat < 0:
            return []
        return [{"action": a, "text": game.action_to_text(state, a), "legal": a in legal} for a in actions]

    for cell in board["cells"]:
        cell["moves"] = moves(cell.pop("actions"))
    board["buttons"] = moves(board["buttons"])
    info = game.info
    view = {
        "game": info.name,
        "params": dict(info.params),
        "seat_names": list(info.seat_names),
        "goals": [game.goal_text(s) for s in range(info.num_seats)],
        "to_play": seat,
        "over": seat == TERMINAL,
        "board": board,
    }
    if seat == TERMINAL:
        winner = game.winner(state)
        view |= {"result": game.result_text(state), "winner": -1 if winner is None else winner}
        view["returns"] = [float(r) for r in game.returns(state)]
    return view


class Replay:
    """A record (``envs.records`` text) opened for the move slider: the position after each turn."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise SessionError("a record is text")
        record = read_record(text)
        self.game = record_game(record)
        self.turns = list(record.turns)
        self.states = [self.game.initial_state()]
        for state in replay(self.game, self.turns, self.game.initial_state()):
            self.states.append(state.copy())

    def view(self, turn) -> dict:
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < len(self.states):
            raise SessionError(f"turn must be an integer from 0 to {len(self.states) - 1}, got {turn!r}")
        return position_view(self.game, self.states[turn]) | {"turn": turn, "turns": self.turns}
