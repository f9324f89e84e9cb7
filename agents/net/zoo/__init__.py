"""The zoo: trained networks shipped inside the package, each with its card.

This folder holds, for each network ``NAME`` (the game's registry name, e.g. ``odoku``):

* ``NAME.pt``: the network alone, a ``torch.save`` of plain containers and
  tensors, loaded with ``torch.load(weights_only=True)``:

  ===============  ==========================================================
  ``format``       ``"neuzero-zoo/1"``
  ``game``         ``{"name": ..., "params": {...}}``: the game and rules it was
                   trained for, at its largest board size (the only rules it plays)
  ``sizes``        optional: the board sizes it was trained on, where more than one
                   (:func:`network_sizes`; a file without it plays its game's one size)
  ``net_config``   the network's depth and width (``NetConfig``)
  ``model``        the network's ``state_dict`` (float32 or float16)
  ``search``       the ``agent.search`` settings it was trained with (its player drops the
                   ``playout_mix``: ``agents.players.az_player.network_player``)
  ``play``         optional: the settings its player changes from those, e.g.
                   ``{"num_simulations": 128}`` (``export --play KEY=VALUE``; the
                   card repeats them)
  ===============  ==========================================================

* ``NAME.json``: its card (:data:`CARD_FIELDS`): how it was made (the recipe and
  its overrides, commit, seed, training wall time and machine, the commands that
  regenerate it) and its measured figures, each with its 95% interval, the
  command that measures it, the target and by how much it is met or missed (or, for a
  figure decided by a sequential test, that test's verdict: ``SPRT_FIELDS``).
* ``journals/NAME/FIGURE.jsonl`` (only while a measurement is unfinished): its match's
  journal, committed as it grows so that another machine continues it (:func:`journal_path`).

``python -m agents.net.zoo.export`` writes both from a training checkpoint; the
``zoo[:GAME[@any]][:SIMS]`` player spec (``agents.players.zoo_player``) plays them, and
``python evaluate.py mode=zoo`` prints the cards. A network refuses any game or
rule set but its own and any board size it was not trained on (:func:`load_network`),
naming both; ``zoo:GAME@any`` plays it at any size of its game (zero-shot).

``agents/net/zoo/training/`` holds the progress of networks still training, as files of
the same format (``NAME.pt``, and ``NAME.json`` with the card's ``training`` part):
``python -m agents.net.zoo.export RUN --progress`` writes them and ``train.py
init=agents/net/zoo/training/NAME.pt`` continues from them. They are not shipped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from pathlib import Path
from typing import Any, NamedTuple

import torch

from agents.net.checkpoint import CheckpointError, atomic_write, check_game, rule_changes
from agents.net.network import NetConfig, PolicyValueNet
from envs.core import Game

ZOO_DIR = Path(__file__).resolve().parent
PROGRESS = "training"  # ZOO_DIR/training/: networks still training (not shipped)
DIGEST = "@sha256:"  # init=PATH@sha256:HEX: the zoo-format file a run started from, as it was then
log = logging.getLogger("agents.zoo")
FORMAT = "neuzero-zoo/1"
WEIGHT_FIELDS = ("format", "game", "net_config", "model", "search")

# card field -> (type, what it holds); "training" and each figure have fields of their own
CARD_FIELDS: dict[str, tuple[type, str]] = {
    "name": (str, "the network's name, its files' stem (the game's registry name)"),
    "game": (dict, "{name, params}: the game and rules it was trained for, at its largest size, as in NAME.pt"),
    "training": (dict, "how it was made (TRAINING_FIELDS)"),
    "figures": (list, "its measured strength (FIGURE_FIELDS), one entry per figure"),
}
TRAINING_FIELDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "recipe": (str, "configs/experiment/RECIPE.yaml"),
    "overrides": (list, "the command-line overrides of the run, as Hydra recorded them"),
    "commands": (list, "the commands that regenerate NAME.pt, in order (train, resume..., export)"),
    "commit": (str, "the code's commit the run trained at"),
    "seed": (int, "the run's seed"),
    "wall_seconds": ((int, float), "training wall-clock seconds, summed over resumes"),
    "machine": (str, "where it trained, and how busy the machine was"),
    "steps": (int, "learner steps"),
    "iterations": (int, "training iterations"),
}
FIGURE_FIELDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "name": (str, "what is measured, e.g. 'score vs mcts:400'"),
    "command": (str, "the command that measures it (python evaluate.py ...)"),
    "games": (int, "games played"),
    "value": ((int, float), "the figure"),
    "interval": (list, "its 95% interval [low, high]"),
    "target": (str, "the target the issue sets, in words"),
    "met": (bool, "whether the target is met"),
    "verdict": (str, "met, or missed and by how much"),
    "date": (str, "when it was measured (YYYY-MM-DD)"),
}
FIGURE_OPTIONAL_FIELDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "note": (str, "text that puts the figure beside a reference (shown by mode=zoo)"),
    "sprt": (dict, "the sequential test that decided it (SPRT_FIELDS); absent: a fixed-count match"),
}
# a figure's "sprt": evaluate.py test=sprt's settings and verdict (agents/evaluation/sprt.py)
SPRT_FIELDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "low": ((int, float), "the score at or below which the target counts as missed"),
    "high": ((int, float), "the score at or above which it counts as met"),
    "alpha": ((int, float), "the chance of 'met' at a score of low or below"),
    "beta": ((int, float), "the chance of 'missed' at a score of high or above"),
    "cap": (int, "the most games the test could play"),
    "llr": ((int, float), "its log-likelihood ratio where it stopped"),
    "llr_bounds": (list, "Wald's bounds on the LLR: [lower, upper]"),
    "pairs": (list, "the pairs it counted by the candidate's points: [0, 0.5, 1, 1.5, 2]"),
    "decision": (str, "high (at least high: met) or low (at most low: missed)"),
    "stopped": (str, "bound (the LLR reached one) or cap (the nearer bound decided)"),
}
# optional card fields: "play", the search settings its player changes, and "sizes", the board
# sizes it was trained on where more than one, as in NAME.pt


class ZooNetwork(NamedTuple):
    """A zoo network loaded for its game, and how it searches."""

    net: PolicyValueNet
    search: dict  # the agent.search settings it was trained with
    play: dict  # the settings its player changes from those ({}: none)


class ZooError(ValueError):
    """A zoo network that is missing, damaged, or asked to play a game it was not trained for."""


def zoo_names(directory: Path = ZOO_DIR) -> list[str]:
    """The networks in the zoo: the stems with both a weights file and a card."""
    return sorted(path.stem for path in Path(directory).glob("*.pt") if path.with_suffix(".json").is_file())


def zoo_boards(directory: Path = ZOO_DIR) -> dict[str, dict]:
    """Each game the bare ``zoo`` spec plays (a network named after its game): ``board``, the
    parameters that set up the board its network was trained for (:func:`board_changes`), and
    ``sizes``, every board size it was trained on ([] for a game of one board). A network whose
    card is damaged is left out with a warning naming the fault: the rest of the zoo still
    plays, and asking for that network names the fault again."""
    boards = {}
    for name in zoo_names(directory):
        try:
            card = read_card(name, directory)
        except ZooError as error:
            log.warning("%s; zoo:%s is left out", error, name)
            continue
        if card["game"]["name"] == name:
            boards[name] = {"board": board_changes(card["game"]), "sizes": network_sizes(card)}
    return boards


def network_sizes(record: dict) -> list:
    """The board sizes the network of a zoo file or card (``record``) was trained on: its
    ``sizes``, else its game's one size ([] for a game without sizes, such as Odoku)."""
    params = record["game"]["params"]
    return list(record["sizes"]) if "sizes" in record else [params["size"]] if "size" in params else []


def sizes_text(sizes: list) -> str:
    """``5``, ``5 and 7``, ``5, 7 and 9``: a network's sizes in words."""
    words = [str(size) for size in sizes]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def board_changes(game: dict) -> dict:
    """The parameters that set up the card's ``game`` (``{"name", "params"}``): its size, then
    every rule that differs from the game's own at that size (Four-way walls' ``walls``)."""
    params = game["params"]
    return ({"size": params["size"]} if "size" in params else {}) | rule_changes(game)


def named_network(source: str, game_name: str) -> str | None:
    """The zoo network that ``source`` names as ``init=`` takes it: ``zoo`` (the game's own)
    or ``zoo:NAME``; None for any other source (a checkpoint's path)."""
    kind, _, name = source.partition(":")
    return (name or game_name) if kind == "zoo" else None


def weights_path(name: str, directory: Path = ZOO_DIR) -> Path:
    return Path(directory) / f"{name}.pt"


def card_path(name: str, directory: Path = ZOO_DIR) -> Path:
    return Path(directory) / f"{name}.json"


def read_card(name: str, directory: Path = ZOO_DIR) -> dict[str, Any]:
    """The card of network ``name``, checked complete (:func:`card_problems`)."""
    path = card_path(name, directory)
    if not path.is_file():
        raise ZooError(f"zoo network {name!r} has no card {path}")
    try:
        card = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ZooError(f"zoo card {path}: not readable JSON ({error})") from None
    problems = card_problems(card)
    if problems:
        raise ZooError(f"zoo card {path}: " + "; ".join(problems))
    return card


def write_card(card: dict, path: Path) -> None:
    """Write ``card`` to ``path`` whole or not at all (a killed run leaves the old card)."""
    atomic_write(Path(path), lambda handle: handle.write((json.dumps(card, indent=2) + "\n").encode()))


def card_problems(card: Any) -> list[str]:
    """What a card lacks or holds wrongly, one sentence each; [] for a complete card."""
    if not isinstance(card, dict):
        return [f"must be a JSON object, got {type(card).__name__}"]
    problems = _field_problems(card, CARD_FIELDS, "")
    if isinstance(card.get("training"), dict):
        problems += _field_problems(card["training"], TRAINING_FIELDS, "training.")
        commands = card["training"].get("commands")
        if isinstance(commands, list) and not (commands and all(isinstance(c, str) and c for c in commands)):
            problems.append("training.commands must be a non-empty list of commands")
    figures = card.get("figures")
    if isinstance(figures, list):
        if not figures:
            problems.append("figures: none measured")
        for number, figure in enumerate(figures):
            if not isinstance(figure, dict):
                problems.append(f"figures[{number}] must be an object")
                continue
            problems += _field_problems(figure, FIGURE_FIELDS, f"figures[{number}].")
            optional = {key: field for key, field in FIGURE_OPTIONAL_FIELDS.items() if key in figure}
            problems += _field_problems(figure, optional, f"figures[{number}].")
            if isinstance(figure.get("sprt"), dict):
                problems += _sprt_problems(figure, f"figures[{number}].sprt")
            interval = figure.get("interval")
            if isinstance(interval, list) and not (
                len(interval) == 2 and all(isinstance(v, (int, float)) for v in interval) and interval[0] <= interval[1]
            ):
                problems.append(f"figures[{number}].interval must be [low, high], got {interval!r}")
    if "play" in card and not isinstance(card["play"], dict):
        problems.append(f"play must be an object of agent.search settings, got {card['play']!r}")
    game_ok = isinstance(card.get("game"), dict) and (
        isinstance(card["game"].get("name"), str) and isinstance(card["game"].get("params"), dict)
    )
    if isinstance(card.get("game"), dict) and not game_ok:
        problems.append("game must be {name, params}")
    if "sizes" in card and game_ok:
        problems += _sizes_problems(card)
    return problems


def _sizes_problems(record: dict) -> list[str]:
    """What a file's or card's ``sizes`` holds wrongly: it lists two or more board sizes, its
    game's size among them."""
    sizes, size = record["sizes"], record["game"]["params"].get("size")
    if not (
        isinstance(sizes, list)
        and len(sizes) >= 2
        and all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)
        and size in sizes
    ):
        return [f"sizes must list the two or more board sizes it was trained on, {size} among them; got {sizes!r}"]
    return []


def _sprt_problems(figure: dict, prefix: str) -> list[str]:
    """What a figure's sequential test lacks or contradicts: its fields, its counts against the
    figure's games, its decision against the figure's ``met``."""
    test = figure["sprt"]
    problems = _field_problems(test, SPRT_FIELDS, f"{prefix}.")
    if problems:
        return problems
    if test["decision"] not in ("high", "low") or test["stopped"] not in ("bound", "cap"):
        problems.append(f"{prefix}: decision must be high or low and stopped bound or cap, got {test!r}")
    pairs = test["pairs"]
    if not (len(pairs) == 5 and all(isinstance(n, int) and n >= 0 for n in pairs)):
        problems.append(f"{prefix}.pairs must be 5 counts of pairs, got {pairs!r}")
    elif 2 * sum(pairs) != figure.get("games"):
        problems.append(f"{prefix}.pairs count {2 * sum(pairs)} games, the figure {figure.get('games')!r}")
    if figure.get("met") != (test["decision"] == "high"):
        problems.append(f"{prefix}: decision {test['decision']} but met {figure.get('met')!r}")
    return problems


def journal_path(name: str, figure: str, directory: Path = ZOO_DIR) -> Path:
    """Where an unfinished measurement of network ``name``'s ``figure`` keeps its match journal:
    in the zoo's folder, committed with the repository (docs/zoo.md), so that another machine
    continues it from a fresh clone."""
    return journal_dir(name, directory) / f"{figure_slug(figure)}.jsonl"


def journal_dir(name: str, directory: Path = ZOO_DIR) -> Path:
    """The folder of network ``name``'s unfinished measurements' journals (:func:`journal_path`)."""
    return Path(directory) / "journals" / name


def figure_slug(figure: str) -> str:
    """A figure's name as a file name: ``score vs mcts:400`` -> ``score_vs_mcts_400``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", figure)


def _field_problems(record: dict, fields: dict, prefix: str) -> list[str]:
    problems = []
    for key, (kind, meaning) in fields.items():
        if key not in record:
            problems.append(f"{prefix}{key} is missing ({meaning})")
        elif not isinstance(record[key], kind) or (kind is int and isinstance(record[key], bool)):
            problems.append(f"{prefix}{key} must be {_kind_name(kind)}, got {record[key]!r}")
    return problems


def _kind_name(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(
        {"str": "text", "dict": "an object", "list": "a list"}.get(k.__name__, k.__name__) for k in kinds
    )


def load_network(name: str, game: Game, directory: Path = ZOO_DIR, any_size: bool = False) -> ZooNetwork:
    """Zoo network ``name`` for ``game``, the search settings it was trained with and those its
    player changes.

    Raises :class:`ZooError` for a network the zoo lacks (listing those it has), for a game or
    rule set other than its own and for a board size it was not trained on (naming both); with
    ``any_size`` (``init=``'s weights to train further, ``zoo:GAME@any``'s zero-shot play) any
    board size of its game is played."""
    path = weights_path(name, directory)
    if not path.is_file():
        have = ", ".join(zoo_names(directory)) or "none"
        raise ZooError(
            f"the zoo has no network {name!r} (it has: {have}); python evaluate.py mode=zoo lists them "
            "and the commands that would make the others"
        )
    return load_file(path, game, any_size, f"zoo:{name}@any")


def load_file(path: Path, game: Game, any_size: bool = False, any_spec: str | None = None) -> ZooNetwork:
    """The network of zoo-format file ``path`` for ``game`` (:func:`load_network`); ``any_spec``
    names, in the refusal of a size, the spec that would play it at any size."""
    entry = read_file(path)
    sizes, size = network_sizes(entry), game.info.params.get("size")
    try:
        check_game(entry, game, path, any_size=bool(sizes), what="zoo network")
    except CheckpointError as error:
        raise ZooError(f"{error}: it plays only the game and rules it was trained for") from None
    if sizes and size not in sizes and not any_size:
        anywhere = f"; {any_spec} plays it at any size, untrained there (zero-shot)" if any_spec else ""
        raise ZooError(
            f"zoo network {path} was trained on {game.info.name} at size{'s' if len(sizes) > 1 else ''} "
            f"{sizes_text(sizes)}, "
            f"not at the size asked, {size}{anywhere}"
        )
    net = PolicyValueNet.for_game(game.info, NetConfig(**entry["net_config"]))
    try:
        net.load_state_dict(entry["model"])  # float16 weights are copied into the float32 network
    except (RuntimeError, TypeError, ValueError) as error:
        raise ZooError(f"zoo network {path}: its weights do not fit its network ({error})") from None
    return ZooNetwork(net.eval(), dict(entry["search"]), dict(entry.get("play", {})))


def read_file(path: Path) -> dict:
    """The checked contents of zoo-format file ``path`` (:data:`WEIGHT_FIELDS`, ``play``, ``sizes``)."""
    try:
        entry = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many types for a damaged file
        raise ZooError(f"zoo network {path}: not readable ({type(error).__name__}: {error})") from None
    if not is_zoo_entry(entry):
        raise ZooError(f"zoo network {path}: not a zoo file (format {FORMAT!r} with {', '.join(WEIGHT_FIELDS)})")
    if not isinstance(entry.get("play", {}), dict):
        raise ZooError(f"zoo network {path}: its 'play' settings must be a dict, got {entry['play']!r}")
    problems = _sizes_problems(entry) if "sizes" in entry else []
    if problems:
        raise ZooError(f"zoo network {path}: {problems[0]}")
    return entry


def is_zoo_entry(entry: Any) -> bool:
    """Whether a loaded file is in the zoo's format (not, say, a training checkpoint)."""
    return isinstance(entry, dict) and entry.get("format") == FORMAT and all(k in entry for k in WEIGHT_FIELDS)


def is_zoo_file(path: Path) -> bool:
    """Whether ``path`` is a readable file in the zoo's format (``init=`` tells it from a checkpoint)."""
    try:
        return is_zoo_entry(torch.load(path, map_location="cpu", weights_only=True))
    except Exception:  # unreadable, or not a file: not a zoo file (the checkpoint loader says why)
        return False


def file_digest(path: Path) -> str:
    """The first 16 hex digits of the SHA-256 of the file's bytes: which version of a progress
    file a run started from."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def split_digest(source: str) -> tuple[str, str | None]:
    """``PATH@sha256:HEX`` -> ``(PATH, HEX)``; any other source -> ``(source, None)``."""
    path, mark, digest = source.partition(DIGEST)
    return (path, digest) if mark else (source, None)
