"""Who sits opposite the person when the board opens a game, and what the game list says of
each game: its display name, the board it opens on, its zoo network's strength.

A game opens against its zoo network (``zoo``, :mod:`agents.net.zoo`) on the board that
network was trained for. A network plays only its own game, rules and board size; on any
other board, and for a game without a network, the strongest player at hand takes the seat
(:data:`FALLBACKS`), and the note says so.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from agents.net.zoo import ZooError, read_card, zoo_boards
from envs import game_defaults, game_title
from envs.core import Game

log = logging.getLogger("agents.web")

# The seat a game without a zoo network for its board gets: plain MCTS at the budget the zoo's
# cards measure against, less where a rollout is long (a Hop Chess turn is three searched
# micro-steps, a Blockdance turn up to seven), so that a move takes seconds; Odoku's oracle
# plays perfectly.
FALLBACK = "mcts:400"
FALLBACKS = {"odoku": "oracle", "hop_chess": "mcts:100", "blockdance": "mcts:200"}
PLAYERS = {"mcts": "plain MCTS, {} random rollouts a move", "oracle": "Odoku's exact perfect player"}
_SCORE = re.compile(r"score vs (mcts:(\d+))")


@dataclass(frozen=True)
class Opponent:
    """The agent seat's spec and a sentence for the page saying who it is and why."""

    spec: str
    note: str


def default_opponent(game: Game) -> Opponent:
    """The zoo network where it plays ``game`` as set up (rules and board), else the fallback."""
    name, title = game.info.name, game_title(game.info.name)
    card, board = zoo_card(game), zoo_boards().get(name)
    if card is not None:
        where = f" ({board_text(board)})" if board else ""
        return Opponent("zoo", f"the zoo network for {title}{where}: {strength(card)}")
    spec = FALLBACKS.get(name, FALLBACK)
    kind, _, budget = spec.partition(":")
    player = f"{spec} ({PLAYERS[kind].format(budget)})"
    if board is None:
        return Opponent(spec, f"{title} has no zoo network: {player} plays, the strongest player at hand")
    return Opponent(
        spec,
        f"the zoo network for {title} plays only {board_text(board)}, not this board: {player} plays instead",
    )


def zoo_card(game: Game) -> dict | None:
    """The card of the zoo network that plays exactly ``game`` (its rules and board), else None;
    a damaged card counts as none, with a warning."""
    name = game.info.name
    if name not in zoo_boards():
        return None
    try:
        card = read_card(name)
    except ZooError as error:
        log.warning("%s; the board seats another player", error)
        return None
    return card if card["game"] == {"name": name, "params": dict(game.info.params)} else None


def strength(card: dict) -> str:
    """The card's score against the strongest ``mcts:N`` it was measured against, in words:
    ``"92.8% vs mcts:1600"``."""
    scores = [
        (int(match[2]), match[1], figure["value"])
        for figure in card["figures"]
        if (match := _SCORE.fullmatch(figure["name"]))
    ]
    if not scores:
        return "no score against mcts measured"
    _, opponent, value = max(scores)
    return f"{100 * value:.1f}% vs {opponent}"


def board_text(board: dict) -> str:
    """A zoo board's parameters in words: ``"size 5, walls 2"``; ``"its default board"`` for {}."""
    return ", ".join(f"{key} {value}" for key, value in board.items()) or "its default board"


def opening(name: str) -> dict:
    """What the game list and a game's page open with: the display name, the parameters (the
    defaults, changed to its zoo network's board where it has one) and that network's board
    ('' where it is the game's one board) and strength (None without one)."""
    board = zoo_boards().get(name)
    params = {key: value for key, value in game_defaults(name).items() if key != "name"}
    zoo = None
    if board is not None:
        params |= board
        try:
            zoo = {"board": board_text(board) if board else "", "strength": strength(read_card(name))}
        except ZooError as error:
            log.warning("%s; the game list shows no strength", error)
    return {"name": name, "title": game_title(name), "params": params, "zoo": zoo}
