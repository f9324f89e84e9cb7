"""Adopting a match: games a network played under one player spec counted for a figure that names
it by another, e.g. a training progress file's match (``az:agents/net/zoo/training/NAME.pt``)
for the card of the same weights once they are in the zoo (``zoo:GAME``).

A journal is adopted only where the figure's match differs from it in the players' specs and
network digests alone, and where each spec it renames builds the same player in this process:
the same kind of player, search settings and network weights (every tensor equal). Then the
games it holds are the games the figure's own command plays (:mod:`agents.evaluation.journal`:
every game draws only from its own seeds), and resuming the renamed journal plays on as an
uninterrupted run of that command would.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import torch

from agents.evaluation.journal import FORMAT, differences
from agents.players.player import Player
from agents.players.registry import make_player
from envs.core import Game


def journal_settings(path: Path) -> dict:
    """The settings on the first line of match journal ``path``."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline()
    except OSError as error:
        raise ValueError(f"{path}: cannot read the journal ({error.strerror})") from None
    try:
        header = json.loads(first)
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT or not isinstance(header.get("settings"), dict):
        raise ValueError(f"{path} is not a match journal (its first line is not a {FORMAT!r} header)")
    return header["settings"]


def adoption_differences(saved: dict, settings: dict, game: Game) -> list[str]:
    """Why a match journal with ``saved`` settings cannot stand for a match with ``settings`` in
    ``game``: one phrase a difference, none where it can."""
    renamed = {**saved, "players": settings["players"], "networks": settings["networks"]}
    found = differences(renamed, settings)
    if found or len(saved["players"]) != len(settings["players"]):
        return found or [f"players: {len(saved['players'])} then, {len(settings['players'])} now"]
    for then, now in zip(saved["players"], settings["players"], strict=True):
        if then != now:
            found += [
                f"{then} and {now}: {why}"
                for why in player_differences(make_player(then, game), make_player(now, game))
            ]
    return found


def adopt(source: Path, target: Path, settings: dict) -> int:
    """Write journal ``source`` at ``target`` as the journal of a match with ``settings`` (for the
    caller to check with :func:`adoption_differences` first); returns the games it holds."""
    if target.exists():
        raise ValueError(f"{target} holds a journal already: its figure's games go on from it")
    lines = Path(source).read_text(encoding="utf-8").splitlines()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join([json.dumps({"format": FORMAT, "settings": settings}), *lines[1:]]) + "\n")
    return sum(1 for line in lines[1:] if line.strip())


def player_differences(first: Player, second: Player) -> list[str]:
    """What makes two players choose otherwise: their kind, search settings or network weights
    (none for players of the same kind, settings and weights)."""
    if type(first) is not type(second):
        return [f"a {type(first).__name__} and a {type(second).__name__}"]
    found = []
    search = [getattr(getattr(player, "mcts", None), "config", None) for player in (first, second)]
    if search[0] != search[1]:
        fields = [
            f.name for f in dataclasses.fields(search[0]) if getattr(search[0], f.name) != getattr(search[1], f.name)
        ]
        found.append(
            "search settings differ: "
            + ", ".join(f"{k} {getattr(search[0], k)!r} and {getattr(search[1], k)!r}" for k in fields)
        )
    nets = [getattr(getattr(player, "estimator", None), "net", None) for player in (first, second)]
    if nets[0] is None or nets[1] is None:
        return found + ["not a network's player: only a network's player is adopted under another spec"]
    weights = [net.state_dict() for net in nets]
    if type(nets[0]) is not type(nets[1]) or weights[0].keys() != weights[1].keys():
        return found + ["networks of other shapes"]
    unequal = [
        key
        for key in weights[0]
        if weights[0][key].dtype != weights[1][key].dtype or not torch.equal(weights[0][key], weights[1][key])
    ]
    if unequal:
        found.append(f"network weights differ in {len(unequal)} of {len(weights[0])} tensors ({unequal[0]}, ...)")
    return found
