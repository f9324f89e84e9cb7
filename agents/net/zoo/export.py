"""Put a training checkpoint into the zoo: ``python -m agents.net.zoo.export CHECKPOINT``.

Writes ``agents/net/zoo/NAME.pt`` (the network alone, :mod:`agents.net.zoo`) and
the training part of its card ``NAME.json`` from the checkpoint (or a run directory's
newest) and its run directory (the overrides Hydra recorded in ``RUN/.hydra/overrides.yaml``);
the card's figures start empty, and ``PYTHONPATH=. python benchmarks/zoo_measure.py NAME`` fills
them. A run over several board sizes (``game.size`` a list or a schedule) records them all
(``sizes``): its network plays each. ``--half`` stores the weights in float16 (half the file; use it only where
the measured strength is unchanged). ``--play KEY=VALUE`` (repeatable) changes an
``agent.search`` setting the network plays with from the one it trained with, e.g.
``--play num_simulations=128`` or ``--play playout_mix=0.5``; the card shows them.
A run that started from other weights (``train.py init=``) continues their training on
the card: the zoo card of ``init=zoo[:GAME]`` (read from the export's zoo folder), the
JSON beside a zoo-format file (a progress file) or the checkpoint it names gives the
earlier commands, wall time, steps and iterations.

``--progress`` writes a network still training instead: ``agents/net/zoo/training/NAME.pt``
(the zoo's format, float32, with ``progress``: the chain's commands, wall time, steps and
iterations so far) and ``NAME.json`` (the card's ``training`` part, covering every run
of the chain so far, and ``progress``: the run's ``init``, the training before it and the
file's digest), committed so that ``train.py init=agents/net/zoo/training/NAME.pt`` continues
on a fresh clone. Written again from the same run it is refreshed; from a run that started
from it, the chain grows by that run.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import shlex
import sys
from pathlib import Path

import torch
import yaml

from agents.config import ConfigError
from agents.net.checkpoint import CheckpointError, latest_checkpoint, load_checkpoint, stored_config
from agents.net.zoo import (
    FORMAT,
    PROGRESS,
    ZOO_DIR,
    ZooError,
    atomic_write,
    card_path,
    file_digest,
    named_network,
    read_card,
    split_digest,
    weights_path,
    write_card,
)
from agents.search.mcts.config import changed_settings
from agents.sizes import parse_sizes

log = logging.getLogger("agents.zoo")
CHAIN_FIELDS = ("commands", "wall_seconds", "steps", "iterations")  # what init= runs add up


def export_network(
    checkpoint_path: str | Path,
    commands: list[str],
    commit: str,
    machine: str,
    name: str | None = None,
    half: bool = False,
    directory: Path = ZOO_DIR,
    play: list[str] = (),
    progress: bool = False,
) -> tuple[Path, Path]:
    """Write the zoo files of the checkpoint (or a run directory's newest; ``name``: default the
    game's name; ``play``: the ``KEY=VALUE`` search settings its player changes) into the zoo
    folder ``directory``, or with ``progress`` its progress files into ``directory/training``;
    returns their paths. Raises ValueError for a bad ``play`` pair."""
    if progress and half:
        raise ValueError("--half: a progress file keeps float32 weights, so that training goes on from exactly them")
    checkpoint_path = Path(checkpoint_path)
    checkpoint_path = latest_checkpoint(checkpoint_path) if checkpoint_path.is_dir() else checkpoint_path
    checkpoint = load_checkpoint(checkpoint_path)
    config = stored_config(checkpoint, checkpoint_path)
    if not isinstance(config.get("seed"), int) or not isinstance(config.get("agent", {}).get("search"), dict):
        raise CheckpointError(f"checkpoint {checkpoint_path}: field 'config' lacks the run's seed or agent.search")
    name = name or checkpoint["game"]["name"]
    trained = dict(config["agent"]["search"])
    changes = changed_settings(trained, list(play))
    sizes = trained_sizes(config, checkpoint_path)
    model = {key: (t.half() if half and t.is_floating_point() else t).clone() for key, t in checkpoint["model"].items()}
    entry = {
        "format": FORMAT,
        "game": checkpoint["game"],
        **({"sizes": sizes} if len(sizes) > 1 else {}),
        "net_config": checkpoint["net_config"],
        "model": model,
        "search": trained,
        **({"play": changes} if changes else {}),
    }
    card = {
        "name": name,
        "game": checkpoint["game"],
        **({"sizes": sizes} if len(sizes) > 1 else {}),
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
    target = directory / PROGRESS if progress else directory
    init = str(config["init"]) if config.get("init") else None
    before = None
    if progress:
        before = _progress_before(card_path(name, target), init, checkpoint["game"]["name"], directory)
    elif init:
        before = _trained_before(init, checkpoint["game"]["name"], directory)
    if before:
        _count_from(card["training"], before, init)
    card["training"]["wall_seconds"] = round(card["training"]["wall_seconds"], 1)
    if progress:  # the chain so far travels with the weights: each version of the file differs
        entry["progress"] = {key: card["training"][key] for key in CHAIN_FIELDS}
    target.mkdir(parents=True, exist_ok=True)
    weights, card_file = weights_path(name, target), card_path(name, target)
    buffer = io.BytesIO()
    torch.save(entry, buffer)
    atomic_write(weights, lambda handle: handle.write(buffer.getvalue()))
    if progress:
        del card["figures"]  # not a card: the training so far, and how the chain continues
        card["progress"] = {"init": init, "before": before, "sha256": file_digest(weights)}
    write_card(card, card_file)
    return weights, card_file


def trained_sizes(config: dict, path: Path) -> list:
    """The board sizes the run's ``game.size`` plays, ascending (every step of a schedule);
    [] for a game without sizes (or a configuration without ``game.size``)."""
    try:
        sizes = parse_sizes((config.get("game") or {}).get("size")).sizes
    except ConfigError as error:
        raise CheckpointError(f"checkpoint {path}: field 'config' has a bad game.size ({error})") from None
    return sorted(size for size in sizes if size is not None)


def _count_from(training: dict, before: dict, source: str) -> None:
    """A run that started from another network's weights (``init=source``) continues that
    network's training (``before``): its commands come first and its wall time, steps and
    iterations are added."""
    training["commands"] = [*before["commands"], *training["commands"]]
    training["wall_seconds"] = before["wall_seconds"] + training["wall_seconds"]
    training["steps"] += before["steps"]
    training["iterations"] += before["iterations"]
    if before["machine"] and before["machine"] != training["machine"]:
        training["machine"] = f"{before['machine']}; then (init={split_digest(source)[0]}) {training['machine']}"


def _progress_before(path: Path, init: str | None, game_name: str, directory: Path) -> dict | None:
    """The training before the run whose progress goes to ``path``: the one recorded there when
    it is this run's own progress (a refresh), else what ``init`` names. A file holding another
    run's progress, not the one this run started from, is refused."""
    if path.is_file():
        recorded = _read_json(path).get("progress")
        if not isinstance(recorded, dict) or {"init", "before", "sha256"} - set(recorded):
            raise CheckpointError(f"{path}: not a progress file (no 'progress' with init, before and sha256)")
        if recorded["init"] == init:
            return recorded["before"]
        if split_digest(init or "")[1] != recorded["sha256"]:  # else this run started from these weights
            raise CheckpointError(
                f"{path} holds the progress of another run (started from init={recorded['init']}); this run "
                f"started from init={init}: give it another --name, or remove that file first"
            )
    return _trained_before(init, game_name, directory) if init else None


def _trained_before(source: str, game_name: str, directory: Path) -> dict:
    """The training behind ``init=source``: a zoo card's (already the whole of it), a zoo-format
    file's JSON beside it (a progress file's: the chain up to the weights the run started from),
    or a checkpoint's own run plus whatever that run started from."""
    zoo_name = named_network(source, game_name)
    if zoo_name:
        try:
            return read_card(zoo_name, directory)["training"]
        except ZooError as error:
            raise CheckpointError(f"the run started from init={source}, whose card is needed: {error}") from None
    path, digest = split_digest(source)
    if digest is not None:
        return _file_training(Path(path), source, digest)
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
        _count_from(training, _trained_before(str(earlier), game_name, directory), str(earlier))
    return training


def _file_training(path: Path, source: str, digest: str) -> dict:
    """The training behind zoo-format file ``path`` as it was when a run started from it
    (``digest``): its card's, or its progress file's as of then."""
    recorded = _read_json(path.with_suffix(".json"), f"the run started from init={source}, whose training is needed")
    progress = recorded.get("progress")
    if not isinstance(progress, dict):  # a zoo card: it describes its file
        return recorded["training"]
    if progress["sha256"] == digest:
        return recorded["training"]
    if progress["init"] == source:  # since then the file took this run's own progress
        return progress["before"]
    raise CheckpointError(
        f"the run started from init={source}, but {path} has since been replaced by another run's "
        f"(started from init={progress['init']}): the training before this run is no longer recorded"
    )


def _read_json(path: Path, context: str = "") -> dict:
    prefix = f"{context}: " if context else ""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise CheckpointError(f"{prefix}{path} is missing") from None
    except json.JSONDecodeError as error:
        raise CheckpointError(f"{prefix}{path}: not readable JSON ({error})") from None


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
    arguments.add_argument(
        "checkpoint", help="a training checkpoint, RUN/checkpoints/ckpt_*.pt, or a run directory (its newest)"
    )
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
    arguments.add_argument(
        "--progress",
        action="store_true",
        help="write a network still training, ZOO/training/NAME.pt and NAME.json (not shipped; "
        "python train.py init=ZOO/training/NAME.pt continues it), refreshed from the same run",
    )
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
            args.progress,
        )
    except (CheckpointError, ValueError) as error:
        log.error("error: %s", error)
        return 1
    log.info("wrote %s (%.0f kB) and %s", weights, weights.stat().st_size / 1024, card)
    return 0


if __name__ == "__main__":
    sys.exit(main())
