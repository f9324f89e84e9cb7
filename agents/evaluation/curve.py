"""Learning curves: a run's checkpoints, each against the same opponents, by wall-clock time.

:func:`curve_checkpoints` finds a run's points (its milestones, kept by
``train.milestone_every``, and its newest checkpoint); :func:`learning_curve`
plays every checkpoint against every opponent, ``games`` games a pair with the
seats alternating, all on one pool of workers; :func:`plot_curve` draws the win
rate with its 95% interval against the run's wall-clock minutes, one line per
opponent. Each (checkpoint, opponent) pair plays exactly the games ``evaluate.py
mode=match players=[az:CHECKPOINT,OPPONENT]`` plays with the same ``seed`` and
``opening``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

from agents.config import ConfigError
from agents.evaluation.runner import play_batches
from agents.evaluation.tournament import Tournament, round_robin_schedule
from agents.net.checkpoint import MILESTONES, checkpoint_files, checkpoint_order, load_checkpoint


@dataclass(frozen=True)
class CurvePoint:
    """One checkpoint's results against one opponent, counted from the checkpoint's side."""

    checkpoint: str
    iteration: int
    step: int
    wall_minutes: float | None  # the run's training time when it was written; None: not recorded
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float  # a draw counts 1/2, as in training's eval/win_rate_vs_* tags
    ci_low: float  # Wilson 95% interval of the win rate
    ci_high: float

    def as_row(self) -> dict:
        row = asdict(self)
        row["wall_minutes"] = "" if self.wall_minutes is None else round(self.wall_minutes, 3)
        row.update({key: round(row[key], 4) for key in ("win_rate", "ci_low", "ci_high")})
        return row


def curve_checkpoints(source: str | Path | Sequence[str | Path]) -> list[Path]:
    """The checkpoints a curve evaluates. A run directory (or its ``checkpoints/`` folder):
    its milestones and its newest checkpoint, oldest first; one checkpoint file, or a
    list of them: as given."""
    if not isinstance(source, (str, Path)):
        paths = [Path(str(p)) for p in source]
        if not paths:
            raise ConfigError("checkpoints: the list is empty; give a run directory or checkpoint files")
        for path in paths:
            if not path.is_file():
                raise ConfigError(f"checkpoints: {path} is not a checkpoint file")
        return paths
    path = Path(source)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise ConfigError(f"checkpoints: {path} is neither a run directory nor a checkpoint file")
    folder = path if path.name == "checkpoints" else path / "checkpoints"
    newest = checkpoint_files(folder)[-1:]
    milestones = [m for m in checkpoint_files(folder / MILESTONES) if m.name not in {n.name for n in newest}]
    if not newest and not milestones:
        raise ConfigError(
            f"checkpoints: {path} is not a training run: no checkpoint (ckpt_step*.pt) in {folder} "
            f"or {folder / MILESTONES}; give a run directory or a list of checkpoint files"
        )
    return sorted([*milestones, *newest], key=checkpoint_order)


def candidate_spec(path: Path, simulations: int | None = None) -> str:
    """The player spec of checkpoint ``path``: its own search budget, or ``simulations``."""
    return f"az:{path}" if simulations is None else f"az:{path}:{simulations}"


def learning_curve(
    game_cfg: dict,
    checkpoints: Sequence[Path],
    opponents: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    simulations: int | None = None,
    batch_games: int = 1,
    opening: int = 0,
) -> list[CurvePoint]:
    """Every checkpoint (:func:`candidate_spec`) against every opponent spec, ``games``
    games each, seats alternating, each game from ``opening`` random turns; points in
    checkpoint order, then opponent order."""
    schedule = tuple(round_robin_schedule(2, games))  # (0, 1), (1, 0), ...: the candidate takes seat 0 first
    pairs = [(path, candidate_spec(path, simulations), opponent) for path in checkpoints for opponent in opponents]
    batches = [
        [tuple((candidate, opponent)[p] for p in seats) for seats in schedule] for _, candidate, opponent in pairs
    ]
    played = play_batches(game_cfg, batches, seed, workers, progress, batch_games, opening)
    saved = {path: load_checkpoint(path) for path in checkpoints}
    points = []
    for (path, candidate, opponent), results in zip(pairs, played):
        tally = Tournament((candidate, opponent), schedule, tuple(results)).pairs()[0]
        seconds = saved[path].get("wall_seconds")
        low, high = tally.interval
        points.append(
            CurvePoint(
                checkpoint=str(path),
                iteration=saved[path]["iteration"],
                step=saved[path]["step"],
                wall_minutes=None if seconds is None else seconds / 60,
                opponent=opponent,
                games=tally.games,
                wins=tally.wins,
                draws=tally.draws,
                losses=tally.losses,
                win_rate=tally.score,
                ci_low=low,
                ci_high=high,
            )
        )
    return points


def plot_curve(points: Sequence[CurvePoint], path: Path, title: str) -> str:
    """Win rate (95% interval bars) against wall-clock minutes, one line per opponent;
    against iterations when some checkpoint records no time. Returns the x axis used."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timed = all(p.wall_minutes is not None for p in points)
    axis = "wall_minutes" if timed else "iteration"
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for opponent in dict.fromkeys(p.opponent for p in points):
        line = sorted((p for p in points if p.opponent == opponent), key=lambda p: getattr(p, axis))
        errors = [[p.win_rate - p.ci_low for p in line], [p.ci_high - p.win_rate for p in line]]
        axes.errorbar(
            [getattr(p, axis) for p in line],
            [p.win_rate for p in line],
            yerr=errors,
            fmt="o-",
            capsize=4,
            label=f"vs {opponent}",
        )
    axes.set_ylim(-0.03, 1.03)
    axes.set_xlabel(
        "training wall-clock minutes" if timed else "iterations (some checkpoints record no wall-clock time)"
    )
    axes.set_ylabel("win rate (draw 1/2), 95% CI")
    axes.set_title(f"{title} learning curve")
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return axis
