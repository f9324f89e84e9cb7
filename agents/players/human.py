"""A person as a player, and the interactive game loop that lets them undo.

The person types whole turns in the notation of the game's page, docs/games/NAME.md (``Xb3`` in Odoku; drop
``e3 g7``, swap ``f6g5 a11``, ``e3``, ``pass``, ``swap-sides`` in the neutral
games). The Player API takes one action per call, so :class:`HumanPlayer`
reads a turn, checks it on a copy of the position, and hands out its actions
one by one. Commands at the prompt:

=========  ==================================================================
``hint``   the advisor's (the opposing agent's) choice of turn here
``undo``   take back your last turn and everything played since (the game
           loop :func:`play_interactive` restores the position)
``quit``   abandon the game (so does the end of the input)
``help``   the notation and these commands
=========  ==================================================================

A malformed or illegal turn is explained and the prompt comes again. At a
terminal the prompt has line editing and history (``readline``); Ctrl-C or the
end of the input abandons the game, and the game loop still returns the turns
played so far. Input and output streams are injectable (stdin/stdout by
default) so sessions can be scripted.
"""

from __future__ import annotations

import sys
import textwrap
from typing import NamedTuple, Sequence, TextIO

import numpy as np

from agents.players.player import Player
from envs.core import CHANCE, Game, GameError

COMMANDS = "commands: hint, undo, quit, help"
NOTATION = (
    "Type one whole turn in the rule book's notation: Odoku 'Xb3' (X blue, O white); "
    "neutral games: drop 'e3 g7' (your stone, then the neutral), swap 'f6g5 a11' (two "
    "neutrals, then your stone to neutralise), 'e3' (fill/convert), 'pass', 'swap-sides'."
)


class QuitGame(Exception):
    """The person abandoned the game (``quit``, Ctrl-C or the end of the input)."""


class UndoTurn(Exception):
    """The person asked to take back their last turn."""


class HumanPlayer(Player):
    """A person at a terminal; ``advisor`` (a Player, optional) answers ``hint``
    and shows its evaluation of the position."""

    name = "human"
    keeps_state = True  # the rest of a typed turn

    def __init__(self, game: Game, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.game = game
        self.input = stdin or sys.stdin
        self.output = stdout or sys.stdout
        self.terminal = stdin is None and sys.stdin.isatty()
        if self.terminal:
            import readline  # noqa: F401  (importing it gives input() line editing and history)
        self.advisor: Player | None = None
        self.pending: list[int] = []

    def reset(self) -> None:
        self.pending = []

    def say(self, text: str) -> None:
        print(text, file=self.output, flush=True)

    def act(self, state, rng: np.random.Generator) -> int:
        if self.pending:
            return self.pending.pop(0)
        self._show(state)
        while True:
            line = self._read_line(f"{self._seat(state)}> ")
            command = line.strip().lower()
            if command == "quit":
                raise QuitGame("quit")
            if command == "undo":
                raise UndoTurn()
            if command == "hint":
                self._hint(state, rng)
            elif command in ("help", "?"):
                self.say(NOTATION + "\n" + COMMANDS)
            elif command:
                try:
                    actions = self._whole_turn(state, line.strip())
                except GameError as error:
                    self.say(f"cannot play {line.strip()!r}: {error}\n({COMMANDS})")
                    continue
                self.pending = actions[1:]
                return actions[0]

    def _read_line(self, prompt: str) -> str:
        try:
            if self.terminal:
                return input(prompt)
            self.output.write(prompt)
            self.output.flush()
            line = self.input.readline()
        except (KeyboardInterrupt, EOFError):
            raise QuitGame("interrupted") from None
        if not line:
            raise QuitGame("end of input")
        return line

    def introduce(self, seat: int) -> None:
        """The opening line: which side the person plays and what it wants."""
        game = self.game
        order = "first" if seat == 0 else "second"
        self.say(f"You play {game.info.seat_names[seat]} (seat {seat}, {order}): {game.goal_text(seat)}.")
        self.say(f"Type one whole turn at the prompt ({COMMANDS}).")

    def _whole_turn(self, state, text: str) -> list[int]:
        """The turn's actions, checked on a copy; a turn must be complete."""
        game = self.game
        actions = game.parse_turn(state, text)
        mover, trial = game.to_play(state), state.copy()
        for action in actions:
            game.apply(trial, action)
        if not actions or game.to_play(trial) == mover:
            raise GameError(f"{text!r} is not a whole turn; {NOTATION}")
        return actions

    def _seat(self, state) -> str:
        return self.game.info.seat_names[self.game.to_play(state)]

    def _show(self, state) -> None:
        game = self.game
        self.say("")
        self.say(game.render_text(state))
        value = advisor_value(self.advisor, state)
        if value is not None:
            seat = game.to_play(state)
            self.say(f"agent's evaluation for you ({self._seat(state)}): {game.value_text(value, seat)}")
        moves = " ".join(game.action_to_text(state, a) for a in game.legal_actions(state))
        self.say(textwrap.fill(f"legal first steps: {moves}", width=100, subsequent_indent="  "))

    def _hint(self, state, rng: np.random.Generator) -> None:
        if self.advisor is None:
            self.say("no agent to ask for a hint")
            return
        game, trial, actions = self.game, state.copy(), []
        mover = game.to_play(state)
        while game.to_play(trial) == mover:
            actions.append(int(self.advisor.act(trial, rng)))
            game.apply(trial, actions[-1])
        self.say(f"hint: {game.format_turn(state, actions)}")


def advisor_value(advisor: Player | None, state) -> float | None:
    """The advisor's value of ``state`` for the seat to play, where it has one:
    exact for the solver, the network's estimate for a checkpoint."""
    seat = getattr(state, "player", None)
    if advisor is None or seat not in (0, 1):
        return None
    if hasattr(advisor, "solver"):
        return advisor.solver.mover_value(state)
    estimator = getattr(advisor, "estimator", None)
    if estimator is not None and hasattr(estimator, "evaluate") and hasattr(estimator, "net"):
        _, values = estimator.estimate([state])
        return float(values[0][seat])
    return None


class PlayedGame(NamedTuple):
    """What :func:`play_interactive` played: every action so far, and whether the game ended."""

    actions: list[int]
    finished: bool


def play_interactive(game: Game, players: Sequence[Player], rng: np.random.Generator, out: TextIO) -> PlayedGame:
    """Play one game with people among the players; ``undo`` restores the position
    before the person's previous turn. An abandoned game (``quit``, Ctrl-C, end of
    input) returns the turns completed so far with ``finished=False``."""
    humans = [p for p in players if isinstance(p, HumanPlayer)]
    for human in humans:
        human.advisor = next((p for p in players if not isinstance(p, HumanPlayer)), None)
    for player in players:
        player.reset()
    for seat, player in enumerate(players):
        if isinstance(player, HumanPlayer):
            player.introduce(seat)
    state, actions = game.initial_state(), []
    history: list[tuple[object, int]] = []  # (state, len(actions)) at each person's turn start
    turn_start, turn = state.copy(), []
    completed = 0  # actions up to the end of the last whole turn (a record holds whole turns)
    try:
        while not game.is_terminal(state):
            seat = game.to_play(state)
            if seat == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                player = players[seat]
                if not turn:
                    turn_start = state.copy()
                    if isinstance(player, HumanPlayer):
                        history.append((state.copy(), len(actions)))
                try:
                    action = int(player.act(state, rng))
                except UndoTurn:
                    history.pop()
                    if not history:
                        player.say("nothing to undo yet")
                        continue
                    state, size = history.pop()
                    state, actions, turn, completed = state.copy(), actions[:size], [], size
                    player.say("took back your last turn and the reply")
                    continue
                turn.append(action)
            game.apply(state, action)
            actions.append(action)
            if seat != CHANCE and game.to_play(state) != seat:
                name = game.info.seat_names[seat]
                print(f"{name} ({players[seat].name}) plays {game.format_turn(turn_start, turn)}", file=out, flush=True)
                turn, completed = [], len(actions)
    except (QuitGame, KeyboardInterrupt):
        print("\ngame abandoned", file=out, flush=True)
        return PlayedGame(actions[:completed], finished=False)
    print(game.render_text(state), file=out)
    winner = game.winner(state)
    who = "" if winner is None else f"; {game.info.seat_names[winner]} is {players[winner].name}"
    print(f"game over: {game.result_text(state)}{who}", file=out, flush=True)
    return PlayedGame(actions, finished=True)


def make_human_player(game: Game, args: list[str]) -> Player:
    """``human``: a person at stdin/stdout."""
    if args:
        raise ValueError(f"player spec 'human' takes no arguments, got {':'.join(args)!r}")
    return HumanPlayer(game)
