"""Who sits opposite the person when the board opens a game, and what the game list says of
each game: its display name, the board it opens on, its zoo network's strength.

A game opens against its zoo network (``zoo``, :mod:`agents.net.zoo`): on the game's default
board where the network plays it, else on the board the network was trained for. A network
plays only its own game and rules, at the board sizes it was trained on
(:func:`agents.net.zoo.refusal` decides); on any other board, and for a game without a
network, the strongest player at hand takes the seat (:data:`FALLBACKS`), and the note says so.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from agents.net.zoo import ZooError, read_card, refusal, sizes_words, zoo_boards
from envs import GAMES, game_defaults, game_title
from envs.core import Game, make_game

log = logging.getLogger("agents.web")

# The seat a game without a zoo network for its board gets: plain MCTS at the budget the zoo's
# cards measure against, less where a rollout is long (a Hop Chess turn is three searched
# micro-steps, a Blockdance turn up to seven), so that a move takes seconds; Odoku's oracle
# plays perfectly.
FALLBACK = "mcts:400"
FALLBACKS = {"odoku": "oracle", "hop_chess": "mcts:100", "blockdance": "mcts:200"}
PLAYERS = {"mcts": "plain MCTS, {} random rollouts a move", "oracle": "Odoku's exact perfect player"}
_SCORE = re.compile(r"score vs (h?mcts:(\d+))")  # hmcts: a text's board's baseline (agents.evaluation.zoo_cards)


@dataclass(frozen=True)
class Opponent:
    """The agent seat's spec and a sentence for the page saying who it is and why."""

    spec: str
    note: str


def default_opponent(game: Game) -> Opponent:
    """The zoo network where it plays ``game`` as set up (rules and board), else the fallback."""
    name, title = game.info.name, game_title(game.info.name)
    board = zoo_boards().get(name)
    card = None if board is None else zoo_card(game)
    if card is not None:
        where = f" ({board_text(board)})" if board["board"] else ""
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
    """The card of the game's zoo network (one :func:`agents.net.zoo.zoo_boards` lists) where it
    plays ``game`` as set up (its rules, a board size it was trained on), else None; a card
    damaged since counts as none, with a warning."""
    name = game.info.name
    try:
        card = read_card(name)
    except ZooError as error:
        log.warning("%s; the board seats another player", error)
        return None
    return card if refusal(card, game, f"zoo:{name}") is None else None


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


def board_text(zoo: dict) -> str:
    """A zoo network's boards (a :func:`agents.net.zoo.zoo_boards` entry) in words: ``"size 5,
    walls 2"``, ``"sizes 5 and 7"``; ``"its default board"`` for a game of one board."""
    words = [sizes_words(zoo["sizes"]) if key == "size" else f"{key} {value}" for key, value in zoo["board"].items()]
    return ", ".join(words) or "its default board"


def openings() -> dict[str, dict]:
    """What the game list and each game's page open with, by game: the display name, the
    parameters (the defaults where its zoo network plays them, else that network's board) and
    the network (None without one): its ``board``, the ``sizes`` it was trained on and its
    ``strength``."""
    boards = zoo_boards()
    return {name: _opening(name, boards.get(name)) for name in GAMES}


def _opening(name: str, zoo: dict | None) -> dict:
    params = {key: value for key, value in game_defaults(name).items() if key != "name"}
    entry = {"name": name, "title": game_title(name), "params": params, "zoo": None}
    if zoo is None:
        return entry
    try:
        card = read_card(name)
    except ZooError as error:
        log.warning("%s; the game list shows no network", error)
        return entry
    if refusal(card, make_game(name, **params), f"zoo:{name}") is not None:
        entry["params"] = params | zoo["board"]
    return entry | {"zoo": zoo | {"strength": strength(card)}}
