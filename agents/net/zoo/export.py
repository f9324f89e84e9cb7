"""Put a training checkpoint into the zoo: ``python -m agents.net.zoo.export CHECKPOINT``.

Writes ``agents/net/zoo/NAME.pt`` (the network alone, :mod:`agents.net.zoo`) and
the training part of its card ``NAME.json`` from the checkpoint and its run
directory (the overrides Hydra recorded in ``RUN/.hydra/overrides.yaml``); the
card's figures start empty, and ``PYTHONPATH=. python benchmarks/zoo_measure.py NAME`` fills
them. ``--half`` stores the weights in float16 (half the file; use it only where
the measured strength is unchanged). ``--play KEY=VALUE`` (repeatable) changes an
``agent.search`` setting the network plays with from the one it trained with, e.g.
``--play num_simulations=128`` or ``--play playout_mix=0.5``; the card shows them.
A run that started from other weights (``train.py init=``) continues their training on
the card: the zoo card of ``init=zoo[:GAME]`` (read from the export's zoo folder) or the
checkpoint it names gives the earlier commands, wall time, steps and iterations.
"""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from pathlib import Path

import torch
import yaml

from agents.net.checkpoint import CheckpointError, load_checkpoint, stored_config
from agents.net.zoo import (
    FORMAT,
    ZOO_DIR,
    ZooError,
    atomic_write,
    card_path,
    named_network,
    read_card,
    weights_path,
    write_card,
)
from agents.search.mcts.config import changed_settings

log = logging.getLogger("agents.zoo")


def export_network(
    checkpoint_path: str | Path,
    commands: list[str],
    commit: str,
    machine: str,
    name: str | None = None,
    half: bool = False,
    directory: Path = ZOO_DIR,
    play: list[str] = (),
) -> tuple[Path, Path]:
    """Write the zoo files of the checkpoint (``name``: default the game's name; ``play``: the
    ``KEY=VALUE`` search settings its player changes); returns their paths. Raises ValueError for
    a bad ``play`` pair."""
    checkpoint = load_checkpoint(checkpoint_path)
    config = stored_config(checkpoint, checkpoint_path)
    if not isinstance(config.get("seed"), int) or not isinstance(config.get("agent", {}).get("search"), dict):
        raise CheckpointError(f"checkpoint {checkpoint_path}: field 'config' lacks the run's seed or agent.search")
    name = name or checkpoint["game"]["name"]
    trained = dict(config["agent"]["search"])
    changes = changed_settings(trained, list(play))
    model = {key: (t.half() if half and t.is_floating_point() else t).clone() for key, t in checkpoint["model"].items()}
    entry = {
        "format": FORMAT,
        "game": checkpoint["game"],
        "net_config": checkpoint["net_config"],
        "model": model,
        "search": trained,
        **({"play": changes} if changes else {}),
    }
    card = {
        "name": name,
        "game": checkpoint["game"],
        "training": {
            "recipe": _recipe(checkpoint_path, config),
            "overrides": _overrides(checkpoint_path),
            "commands": list(commands),
            "commit": commit,
            "seed": int(config["seed"]),
            "wall_seconds": float(checkpoint.get("wall_seconds", 0.0)),
            "machine": machine,
            "steps": checkpoint["step"],
            "iterations": checkpoint["iteration"],
            "weights": "float16" if half else "float32",
        },
        "figures": [],
        **({"play": changes} if changes else {}),
    }
    directory = Path(directory)
    if config.get("init"):
        _count_from(card["training"], str(config["init"]), checkpoint["game"]["name"], directory)
    card["training"]["wall_seconds"] = round(card["training"]["wall_seconds"], 1)
    directory.mkdir(parents=True, exist_ok=True)
    weights, card_file = weights_path(name, directory), card_path(name, directory)
    atomic_write(weights, lambda handle: torch.save(entry, handle))
    write_card(card, card_file)
    return weights, card_file


def _count_from(training: dict, source: str, game_name: str, directory: Path) -> None:
    """A run that started from another network's weights (``init=``) continues that network's
    training: its commands come first and its wall time, steps and iterations are added."""
    before = _trained_before(source, game_name, directory)
    training["commands"] = [*before["commands"], *training["commands"]]
    training["wall_seconds"] = before["wall_seconds"] + training["wall_seconds"]
    training["steps"] += before["steps"]
    training["iterations"] += before["iterations"]
    if before["machine"] and before["machine"] != training["machine"]:
        training["machine"] = f"{before['machine']}; then (init={source}) {training['machine']}"


def _trained_before(source: str, game_name: str, directory: Path) -> dict:
    """The training behind ``init=source``: a zoo card's (already the whole of it), or a
    checkpoint's own run plus whatever that run started from."""
    zoo_name = named_network(source, game_name)
    if zoo_name:
        try:
            return read_card(zoo_name, directory)["training"]
        except ZooError as error:
            raise CheckpointError(f"the run started from init={source}, whose card is needed: {error}") from None
    try:
        checkpoint = load_checkpoint(source)  # the run recorded the file it started from
    except CheckpointError as error:
        raise CheckpointError(f"the run started from init={source}, whose training is needed: {error}") from None
    training = {
        "commands": [],
        "wall_seconds": float(checkpoint.get("wall_seconds", 0.0)),
        "steps": checkpoint["step"],
        "iterations": checkpoint["iteration"],
        "machine": None,
    }
    earlier = stored_config(checkpoint, source).get("init")
    if earlier:
        _count_from(training, str(earlier), game_name, directory)
    return training


def _recipe(checkpoint_path: str | Path, config: dict) -> str:
    """The recipe the run composed: the ``experiment=`` override, else the game's own recipe
    (``configs/train.yaml``'s ``optional experiment: ${game}``), else ``none``."""
    for override in _overrides(checkpoint_path):
        if override.startswith("experiment="):
            return override.split("=", 1)[1]
    recipes = Path(__file__).resolve().parents[3] / "configs" / "experiment"
    return config["game"]["name"] if (recipes / f"{config['game']['name']}.yaml").is_file() else "none"


def _overrides(checkpoint_path: str | Path) -> list[str]:
    """The run's command-line overrides (``RUN/.hydra/overrides.yaml``; [] when absent)."""
    path = Path(checkpoint_path).resolve()
    for run in path.parents[:3]:
        recorded = run / ".hydra" / "overrides.yaml"
        if recorded.is_file():
            return [str(o) for o in yaml.safe_load(recorded.read_text()) or []]
    return []


def parser() -> argparse.ArgumentParser:
    arguments = argparse.ArgumentParser(
        prog="python -m agents.net.zoo.export",
        description="Write a training checkpoint's network and its card into the zoo (agents/net/zoo/); "
        "then PYTHONPATH=. python benchmarks/zoo_measure.py NAME measures its figures.",
    )
    arguments.add_argument("checkpoint", help="a training checkpoint, RUN/checkpoints/ckpt_*.pt")
    arguments.add_argument("--name", help="the network's name (default: the checkpoint's game)")
    arguments.add_argument(
        "--command",
        action="append",
        required=True,
        dest="commands",
        help="a command that made the checkpoint, in order (repeat: train, then each resume)",
    )
    arguments.add_argument("--commit", required=True, help="the commit the run trained at")
    arguments.add_argument("--machine", required=True, help="where it trained, e.g. '2 CPU cores, shared'")
    arguments.add_argument("--half", action="store_true", help="store the weights in float16")
    return add_play_arguments(arguments)


def add_play_arguments(arguments: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``--play KEY=VALUE`` (repeatable) and ``--directory``, as export and tune take them."""
    arguments.add_argument(
        "--play",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an agent.search setting the network plays with instead of its training's, e.g. "
        "num_simulations=256 (repeat for more; none: as trained)",
    )
    arguments.add_argument("--directory", type=Path, default=ZOO_DIR, help="the zoo folder (default: %(default)s)")
    return arguments


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args = parser().parse_args(argv)
    export_command = "python -m agents.net.zoo.export " + shlex.join(sys.argv[1:] if argv is None else argv)
    try:
        weights, card = export_network(
            args.checkpoint,
            [*args.commands, export_command],
            args.commit,
            args.machine,
            args.name,
            args.half,
            args.directory,
            args.play,
        )
    except (CheckpointError, ValueError) as error:
        log.error("error: %s", error)
        return 1
    log.info("wrote %s (%.0f kB) and %s", weights, weights.stat().st_size / 1024, card)
    return 0


if __name__ == "__main__":
    sys.exit(main())
