"""Measure a zoo network's card: ``python benchmarks/zoo_measure.py NAME [--only TEXT] [--workers N] [--sprt]``.

Runs each figure's command (``agents.evaluation.zoo_cards.planned_figures``: the
``python evaluate.py`` overrides, composed with Hydra's compose API and run by
the same function ``evaluate.py`` calls) and writes the figure into
``agents/net/zoo/NAME.json``, replacing a figure of the same name; a figure the card
holds already with the same command is kept unless ``--only`` names it or ``--again``. ``--workers``
plays the games in that many processes (the results do not depend on it, so the
card's commands leave it out); ``--batch-games B`` plays each worker's games in
lockstep groups of B, one network call per simulation for the group (evaluate.py's
``batch_games``: other games than B=1, of the same expected result, so the
figure's command names it); ``--only`` measures the figures whose name
contains the text (two processes may measure different figures of one card at
once: each re-reads the card before writing its figure). ``--sprt`` decides each
figure whose target is a lowest score by a sequential test (evaluate.py
``test=sprt``) between the target minus and plus ``--sprt-margin`` (or
``--sprt-low``, ``--sprt-high``), at error rates ``--sprt-alpha``, ``--sprt-beta``,
in at most ``--sprt-cap`` games (the planned games); the others are measured as planned.
A figure whose plan names its own test (a card on a text's board) is always decided by it.
``--adopt JOURNAL`` takes over a match the network played before it was in the zoo, under
another spec that builds the same player (its training progress file as ``az:PATH``): the
journal becomes its figure's and is resumed (:mod:`agents.evaluation.adopt`).

Each evaluation's files go to ``--out/NAME/FIGURE``, but a match figure's journal
is kept in the zoo's folder, ``agents/net/zoo/journals/NAME/FIGURE.jsonl``, while the
figure is unfinished: committed with the repository as it grows, it lets the same
command continue the card from a fresh clone on another machine, to the figure one
uninterrupted run writes (docs/zoo.md). Once the figure is on the card its journal
moves to ``--out/NAME/FIGURE/match.jsonl``.
"""

import argparse
import functools
import json
import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hydra import compose, initialize_config_dir
from omegaconf import DictConfig

from agents.config import LogLines, game_from_config
from agents.evaluation.adopt import adopt, adoption_differences, journal_settings
from agents.evaluation.journal import JOURNAL
from agents.evaluation.modes import MODES, evaluate, match_settings_of, run_match
from agents.evaluation.sprt import SPRT
from agents.evaluation.zoo_cards import CONFIGS, PlannedFigure, planned_figures, read_figure
from agents.net.zoo import ZOO_DIR, card_path, figure_slug, journal_path, write_card

log = logging.getLogger("zoo_measure")


@dataclass(frozen=True)
class Sequential:
    """How ``--sprt`` decides a figure: bounds ``margin`` either side of its target (or ``low``
    and ``high`` for every figure), error rates, and a cap (None: the planned games)."""

    margin: float = 0.05
    low: float | None = None
    high: float | None = None
    alpha: float = 0.05
    beta: float = 0.05
    cap: int | None = None

    def test_for(self, planned: PlannedFigure) -> SPRT | None:
        """The test of ``planned``: None for a figure without a lowest score as its target."""
        if not planned.sequential:
            return None
        target = planned.goal[1]
        low = round(target - self.margin, 6) if self.low is None else self.low
        high = round(target + self.margin, 6) if self.high is None else self.high
        if not low <= target <= high:
            raise ValueError(
                f"--sprt-low/--sprt-high: {low:g}..{high:g} must bracket the target {target:g} of {planned.name!r}"
            )
        cap = self.cap if self.cap is not None else _planned_games(planned)
        try:
            return SPRT(low, high, self.alpha, self.beta, cap)
        except ValueError as error:  # named as evaluate.py's keys: say which option sets them
            raise ValueError(
                f"{error} (--sprt-low, --sprt-high, --sprt-margin, --sprt-alpha, --sprt-beta, --sprt-cap)"
            ) from None


def measure(
    name: str,
    only: str | None,
    workers: int,
    out_dir: Path,
    batch_games: int = 1,
    directory: Path = ZOO_DIR,
    sequential: Sequential | None = None,
    again: bool = False,
) -> list[dict]:
    """Measure the figures of card ``name`` in ``directory`` (those whose name contains ``only``),
    each decided by a sequential test where ``sequential`` is given and the figure allows one;
    returns them. Without ``only`` or ``again``, a figure the card holds already with the same
    command is kept (a card continued on another machine measures only what it lacks)."""
    path = card_path(name, directory)
    card = json.loads(path.read_text())  # the export wrote it; its figures may still be missing
    documents: dict[str, dict] = {}
    measured = []
    for planned in planned_figures(card["game"]):
        if only and only not in planned.name:
            continue
        test = _test_of(planned, sequential)
        command = planned.command(batch_games, test)
        if not (only or again) and any(f["name"] == planned.name and f["command"] == command for f in card["figures"]):
            log.info("%s: on the card already (--again measures it anew)", planned.name)
            continue
        run_dir = out_dir / name / figure_slug(planned.name)
        journal = journal_path(name, planned.name, directory) if planned.reads[0] == "score" else None
        if command not in documents:  # one command may give several figures (Odoku's two seats)
            started = time.time()
            overrides = [*planned.overrides_for(batch_games, test), f"workers={workers}", "progress=false"]
            modes = MODES
            if journal is not None:  # a match: its journal in the zoo's folder, resumed where it is there
                modes = {**MODES, "match": functools.partial(run_match, journal_path=journal)}
                if journal.is_file():
                    overrides.append(f"resume={run_dir}")
            cfg = _compose(overrides)
            documents[command] = evaluate(cfg, run_dir, LogLines(log), modes)
            log.info("%s: %.1f min", command, (time.time() - started) / 60)
        figure = read_figure(planned, documents[command], batch_games=batch_games)
        card = json.loads(path.read_text())  # as it is now: another measuring process may have written to it
        card["figures"] = [f for f in card["figures"] if f["name"] != figure["name"]] + [figure]
        order = [p.name for p in planned_figures(card["game"])]
        card["figures"].sort(key=lambda f: order.index(f["name"]) if f["name"] in order else len(order))
        write_card(card, path)  # after each figure: an interrupted run keeps the rest
        if journal is not None and journal.is_file():  # finished: the journal leaves the repository
            journal.replace(run_dir / JOURNAL)
            _remove_empty(journal.parent, directory)
        log.info("%s: %s", figure["name"], figure["verdict"])
        measured.append(figure)
    return measured


def adopt_journals(
    name: str, sources: list[Path], directory: Path = ZOO_DIR, sequential: Sequential | None = None
) -> None:
    """Make each match journal in ``sources`` the journal of the figure of card ``name`` whose match
    it plays under other player specs that build the same players (:mod:`agents.evaluation.adopt`),
    so that measuring resumes it; a journal no figure's match takes is refused, naming why."""
    card = json.loads(card_path(name, directory).read_text())
    for source in sources:
        saved = journal_settings(source)
        why = []
        for planned in planned_figures(card["game"]):
            if planned.reads[0] != "score":
                continue
            test = _test_of(planned, sequential)
            settings = match_settings_of(_compose(planned.overrides_for(1, test)))
            found = adoption_differences(saved, settings, game_from_config(settings["game"]))
            if not found:
                games = adopt(source, journal_path(name, planned.name, directory), settings)
                log.info("%s: %d games adopted from %s", planned.name, games, source)
                break
            why.append(f"{planned.name}: {'; '.join(found)}")
        else:
            raise ValueError(f"--adopt {source}: no figure of card {name!r} plays its match ({' | '.join(why)})")


def _test_of(planned: PlannedFigure, sequential: Sequential | None) -> SPRT | None:
    """The test that decides ``planned``: its plan's own, else the one ``--sprt`` asks (None: as planned)."""
    return planned.test or (sequential.test_for(planned) if sequential is not None else None)


def _compose(overrides) -> DictConfig:
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        return compose("evaluate", overrides=list(overrides))


def _planned_games(planned: PlannedFigure) -> int:
    return int(next(o for o in planned.overrides if o.startswith("games=")).partition("=")[2])


def _remove_empty(folder: Path, directory: Path) -> None:
    """Remove ``folder`` and the folders above it up to ``directory`` while they are empty."""
    while folder != Path(directory) and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


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
    arguments.add_argument(
        "--again", action="store_true", help="measure figures the card holds already (default: only those it lacks)"
    )
    arguments.add_argument(
        "--adopt",
        type=Path,
        action="append",
        default=[],
        metavar="JOURNAL",
        help="a match journal (match.jsonl) the network played under another spec, e.g. as its progress file "
        "az:agents/net/zoo/training/NAME.pt: it becomes the journal of the figure whose match it plays, "
        "where both specs build the same player (kind, search settings, every weight), and is resumed",
    )
    sprt = arguments.add_argument_group("sequential test (evaluate.py test=sprt, docs/evaluate.md)")
    sprt.add_argument(
        "--sprt", action="store_true", help="decide each figure whose target is a lowest score by a sequential test"
    )
    sprt.add_argument("--sprt-margin", type=float, default=0.05, help="bounds: the target -+ this (default 0.05)")
    sprt.add_argument("--sprt-low", type=float, help="the lower bound for every such figure, in place of the margin")
    sprt.add_argument("--sprt-high", type=float, help="the upper bound for every such figure, in place of the margin")
    sprt.add_argument("--sprt-alpha", type=float, default=0.05, help="the chance of 'met' at the lower bound")
    sprt.add_argument("--sprt-beta", type=float, default=0.05, help="the chance of 'missed' at the upper bound")
    sprt.add_argument("--sprt-cap", type=int, help="the most games (default: the figure's planned games)")
    args = arguments.parse_args(argv)
    if args.batch_games < 1 or args.workers < 1:
        log.error("error: --workers and --batch-games must be at least 1")
        return 1
    if not card_path(args.name).is_file():
        log.error("error: no card %s (python -m agents.net.zoo.export writes it)", card_path(args.name))
        return 1
    if not args.sprt and (args.sprt_low, args.sprt_high, args.sprt_cap) != (None, None, None):
        log.error("error: --sprt-low, --sprt-high and --sprt-cap set a sequential test: give --sprt too")
        return 1
    sequential = None
    if args.sprt:
        sequential = Sequential(
            args.sprt_margin, args.sprt_low, args.sprt_high, args.sprt_alpha, args.sprt_beta, args.sprt_cap
        )
    try:
        adopt_journals(args.name, args.adopt, sequential=sequential)
        measure(args.name, args.only, args.workers, args.out, args.batch_games, sequential=sequential, again=args.again)
    except ValueError as error:
        log.error("error: %s", error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
