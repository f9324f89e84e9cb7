"""evaluate.py's structured config: every key and its type (defaults: ``configs/evaluate.yaml``).

Registered in Hydra's ConfigStore as ``evaluate_schema``, the first entry of
evaluate.yaml's defaults list, so Hydra refuses ``games=many`` while composing;
:func:`agents.evaluation.modes.evaluate` checks a configuration against it again
(``agents.config.typed``: an unknown key such as ``+nosuchkey=1`` is refused by
name) and then each value's range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING


@dataclass
class SprtConfig:
    """test=sprt's question and error rates (agents/evaluation/sprt.py)."""

    low: Optional[float] = MISSING
    high: Optional[float] = MISSING
    alpha: float = MISSING
    beta: float = MISSING


@dataclass
class EvaluateConfig:
    mode: str = MISSING
    players: Any = MISSING  # a list of player specs
    games: int = MISSING
    seed: int = MISSING
    workers: int = MISSING
    ray: bool = False  # the workers as Ray actors (agents/pool.py), on ray_address's cluster
    ray_address: Optional[str] = None  # null: a local Ray runtime; auto: this machine's cluster; HOST:PORT
    batch_games: int = MISSING
    opening: int = MISSING
    torch_threads: int = MISSING
    inference: str = "auto"  # how networks run their forward passes (agents/net/inference.py)
    progress: bool = True
    prior_draws: float = MISSING
    max_nodes: int = MISSING
    positions: str = MISSING
    checkpoints: Any = None  # a run directory or a list of checkpoint paths
    simulations: Optional[int] = None
    host: str = MISSING  # host, port, checkpoint_dir: mode=serve and mode=analyse (agents/web/modes.py)
    port: int = MISSING
    checkpoint_dir: Optional[str] = None
    duplicate: bool = False  # match: every chance setup played twice, seats swapped
    record: Optional[str] = None  # match, accuracy: append the figures as records (agents/evaluation/figure_records.py)
    test: str = MISSING  # match: fixed (every game) | sprt (until a sequential test decides; games: its cap)
    sprt: SprtConfig = field(default_factory=SprtConfig)
    resume: Optional[str] = None  # match: the run directory of a stopped match to continue (its match.jsonl)
    budget: str = MISSING  # budget, report_dir, ladder: mode=report (agents/evaluation/report.py)
    report_dir: Optional[str] = None
    ladder: Optional[str] = None  # not "agent": train.py's config group of that name would take it
    game: Any = MISSING


ConfigStore.instance().store(name="evaluate_schema", node=EvaluateConfig)
