"""Measure a zoo network's card: ``python benchmarks/zoo_measure.py NAME [--only TEXT] [--workers N]``.

Runs each figure's command (``agents.evaluation.zoo_cards.planned_figures``: the
``python evaluate.py`` overrides, composed with Hydra's compose API and run by
the same function ``evaluate.py`` calls) and writes the figure into
``agents/net/zoo/NAME.json``, replacing a figure of the same name. ``--workers``
plays the games in that many processes (the results do not depend on it, so the
card's commands leave it out); ``--batch-games B`` plays each worker's games in
lockstep groups of B, one network call per simulation for the group (evaluate.py's
``batch_games``: other games than B=1, of the same expected result, so the
figure's command names it); ``--only`` measures the figures whose name
contains the text (two processes may measure different figures of one card at
once: each re-reads the card before writing its figure). Each evaluation's
files go to ``--out/NAME/FIGURE``; a match stopped there (killed, signalled, the
machine gone) continues when the same figure is measured again with the same
``--out``: the games its journal saved are kept (``agents.evaluation.journal``).
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import time
from pathlib import Path

from hydra import compose, initialize_config_dir

from agents.config import LogLines
from agents.evaluation.journal import JOURNAL
from agents.evaluation.modes import evaluate
from agents.evaluation.zoo_cards import CONFIGS, planned_figures, read_figure
from agents.net.zoo import ZOO_DIR, card_path, write_card

log = logging.getLogger("zoo_measure")


def measure(
    name: str, only: str | None, workers: int, out_dir: Path, batch_games: int = 1, directory: Path = ZOO_DIR
) -> list[dict]:
    """Measure the figures of card ``name`` in ``directory`` (those whose name contains ``only``);
    returns them."""
    path = card_path(name, directory)
    card = json.loads(path.read_text())  # the export wrote it; its figures may still be missing
    documents: dict[str, dict] = {}
    measured = []
    for planned in planned_figures(card["game"]):
        if only and only not in planned.name:
            continue
        command = planned.command(batch_games)
        if command not in documents:  # one command may give several figures (Odoku's two seats)
            started = time.time()
            run_dir = out_dir / name / re.sub(r"[^A-Za-z0-9_.-]+", "_", planned.name)
            overrides = [*planned.overrides_for(batch_games), f"workers={workers}", "progress=false"]
            if (run_dir / JOURNAL).is_file():  # a match stopped before: its saved games count
                overrides.append(f"resume={run_dir}")
            with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
                cfg = compose("evaluate", overrides=overrides)
            documents[command] = evaluate(cfg, run_dir, LogLines(log))
            log.info("%s: %.1f min", command, (time.time() - started) / 60)
        figure = read_figure(planned, documents[command], batch_games=batch_games)
        card = json.loads(path.read_text())  # as it is now: another measuring process may have written to it
        card["figures"] = [f for f in card["figures"] if f["name"] != figure["name"]] + [figure]
        order = [p.name for p in planned_figures(card["game"])]
        card["figures"].sort(key=lambda f: order.index(f["name"]) if f["name"] in order else len(order))
        write_card(card, path)  # after each figure: an interrupted run keeps the rest
        log.info("%s: %s", figure["name"], figure["verdict"])
        measured.append(figure)
    return measured


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    arguments = argparse.ArgumentParser(
        prog="python benchmarks/zoo_measure.py", description=__doc__.split("\n\n")[1].replace("\n", " ")
    )
    arguments.add_argument("name", help="the zoo network (agents/net/zoo/NAME.pt)")
    arguments.add_argument("--only", help="measure only the figures whose name contains this text")
    arguments.add_argument("--workers", type=int, default=1, help="processes playing the games (default 1)")
    arguments.add_argument(
        "--batch-games",
        type=int,
        default=1,
        help="games a worker plays in lockstep, their network calls batched (evaluate.py's batch_games; "
        "default 1): faster, other games of the same expected result; "
        "the figure's command names it",
    )
    arguments.add_argument("--out", type=Path, default=Path("runs/zoo_measure"), help="evaluation outputs")
    args = arguments.parse_args(argv)
    if args.batch_games < 1 or args.workers < 1:
        log.error("error: --workers and --batch-games must be at least 1")
        return 1
    if not card_path(args.name).is_file():
        log.error("error: no card %s (python -m agents.net.zoo.export writes it)", card_path(args.name))
        return 1
    try:
        measure(args.name, args.only, args.workers, args.out, args.batch_games)
    except ValueError as error:
        log.error("error: %s", error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
