"""Change how a zoo network plays: ``python -m agents.net.zoo.tune NAME --play KEY=VALUE ...``.

Sets the ``agent.search`` settings the network plays with (``NAME.pt``'s and its
card's ``play``, :mod:`agents.net.zoo`), as ``export --play`` does for a network
written from a checkpoint, without the checkpoint: e.g. a larger budget,
``--play num_simulations=256``. Its weights stay as they are; the command joins
the card's list of commands that regenerate the file, and the card's figures
that the search sets (all but the raw network's) are dropped, since they no
longer describe how it plays: ``PYTHONPATH=. python benchmarks/zoo_measure.py
NAME --only "score vs"`` measures them again. The journals of the network's unfinished
measurements (``journals/NAME/``) are removed: their games are of the network as it played.
"""

from __future__ import annotations

import argparse
import logging
import re
import shlex
import shutil
import sys
from pathlib import Path

import torch

from agents.net.zoo import (
    ZOO_DIR,
    ZooError,
    atomic_write,
    card_path,
    journal_dir,
    read_card,
    weights_path,
    write_card,
)
from agents.net.zoo.export import add_play_arguments
from agents.search.mcts.config import changed_settings

log = logging.getLogger("agents.zoo")


def tune_network(name: str, play: list[str], command: str, directory: Path = ZOO_DIR) -> dict:
    """Set network ``name``'s play settings to the ``KEY=VALUE`` pairs of ``play`` (replacing any
    it had; none: its training's search again); returns them. Raises ZooError for a network the
    zoo lacks, ValueError for a bad pair."""
    card = read_card(name, directory)
    path = weights_path(name, directory)
    if not path.is_file():
        raise ZooError(f"zoo network {name!r} has no weights file {path}")
    entry = torch.load(path, map_location="cpu", weights_only=True)
    changes = changed_settings(entry["search"], list(play))
    entry.pop("play", None)
    card.pop("play", None)
    if changes:
        entry["play"] = card["play"] = changes
    card["training"]["commands"].append(command)
    raw = re.compile(rf"zoo:{re.escape(name)}:0\b")  # the raw network: no search, whatever it plays with
    card["figures"] = [f for f in card["figures"] if raw.search(f["command"])]
    atomic_write(path, lambda handle: torch.save(entry, handle))
    write_card(card, card_path(name, directory))
    unfinished = journal_dir(name, directory)
    if unfinished.is_dir():  # games of the network as it was: a measurement resumed would refuse them
        shutil.rmtree(unfinished)
        log.info("removed %s: the unfinished measurements of zoo:%s start again", unfinished, name)
    return changes


def parser() -> argparse.ArgumentParser:
    arguments = argparse.ArgumentParser(
        prog="python -m agents.net.zoo.tune",
        description="Set the search settings a zoo network plays with (its weights unchanged); the card's "
        "search figures are dropped for benchmarks/zoo_measure.py to measure again.",
    )
    arguments.add_argument("name", help="the zoo network (agents/net/zoo/NAME.pt)")
    return add_play_arguments(arguments)


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args = parser().parse_args(argv)
    command = "python -m agents.net.zoo.tune " + shlex.join([args.name, *(w for p in args.play for w in ("--play", p))])
    try:
        changes = tune_network(args.name, args.play, command, args.directory)
    except (ZooError, ValueError) as error:
        log.error("error: %s", error)
        return 1
    shown = ", ".join(f"{k}={v}" for k, v in changes.items()) or "its training's search"
    log.info("zoo:%s now plays with %s; measure its search figures again (benchmarks/zoo_measure.py)", args.name, shown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
