"""A training run's configuration: its structured config, its validation, and resuming.

``configs/train.yaml`` states the defaults; :class:`RunConfig` (registered in Hydra's
ConfigStore as ``train_schema``, the first entry of train.yaml's defaults list) states
the keys and their types, so Hydra refuses ``train.iterations=abc`` while composing and
:func:`build_settings` refuses an unknown key (``+train.nosuch=1``) by name, for a
composed configuration and a checkpoint's alike. :func:`build_settings` then checks
every value's range and builds the objects the loop uses (:class:`Settings`);
:func:`resume_config` makes a resumed run's configuration from its checkpoint's.
The ``agent`` group's sections are the dataclasses of
:mod:`agents.training.config_store`; ``game``, ``net`` and ``distributed`` are checked
by the game's constructor, :class:`~agents.net.network.NetConfig` and
:class:`~agents.training.ray_backend.RayConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence

import torch
from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, DictConfig, OmegaConf

from agents.config import ConfigError, check, game_from_config, typed
from agents.net.checkpoint import CheckpointError, latest_checkpoint, load_checkpoint
from agents.net.inference import check_backend
from agents.net.network import NetConfig, head_layout, resolve_device
from agents.players.registry import make_player
from agents.search.mcts import SearchConfig
from agents.sizes import SizeSchedule, parse_sizes
from agents.training.config_store import AGENT_SECTIONS
from agents.training.learner import LearnerConfig
from agents.training.selfplay import SelfPlayConfig
from agents.training.workers import resolve_workers
from envs.core import Game, has_heuristic

if TYPE_CHECKING:
    from agents.training.ray_backend import RayConfig

CONFIG_GROUPS = ("game", "agent", "net", "experiment")
FIXED_ON_RESUME = ("game", "net", "seed")  # the checkpoint's game, network shape and generators


# --- the structured config (defaults: configs/train.yaml) --------------------------------------
@dataclass
class TrainSection:
    """``train.*``: the run's length and its checkpoints."""

    iterations: int = MISSING
    checkpoint_every: int = MISSING
    keep_checkpoints: int = MISSING
    milestone_every: int = MISSING
    torch_threads: int = MISSING


@dataclass
class EvalSection:
    """``eval.*``: the evaluations during the run."""

    every: int = MISSING
    games: int = MISSING
    simulations: int = MISSING
    mcts_simulations: int = MISSING
    oracle_games: int = MISSING
    opponents: Optional[list[str]] = None  # more player specs; a configuration saved before the key: none


@dataclass
class AgentGroup:
    """``agent``: its sections, each checked by its dataclass (``AGENT_SECTIONS``)."""

    search: Any = MISSING
    selfplay: Any = MISSING
    learner: Any = MISSING


assert tuple(field.name for field in fields(AgentGroup)) == tuple(AGENT_SECTIONS)


@dataclass
class RunConfig:
    """Every top-level key of a training configuration; the groups are checked by their own classes."""

    seed: int = MISSING
    device: str = MISSING
    inference: str = "auto"  # absent from checkpoints written before the key existed
    resume: Optional[str] = None
    init: Optional[str] = None  # absent from checkpoints written before the key existed
    progress: bool = True
    record: Optional[str] = (
        None  # train.py: append the run's wall time as a record (agents/evaluation/figure_records.py)
    )
    train: TrainSection = field(default_factory=TrainSection)
    eval: EvalSection = field(default_factory=EvalSection)
    game: Any = MISSING
    agent: AgentGroup = field(default_factory=AgentGroup)
    net: Any = MISSING
    distributed: Any = None  # absent from checkpoints written before the key existed


ConfigStore.instance().store(name="train_schema", node=RunConfig)


@dataclass(frozen=True)
class Settings:
    """The validated run configuration, as the objects the loop uses."""

    game: Game  # at the run's largest board size: what its checkpoints record
    games: dict  # board size -> game, every size the run plays (one entry for a plain game.size)
    sizes: SizeSchedule  # game.size: the sizes each iteration's games draw from
    net: NetConfig
    search: SearchConfig
    selfplay: SelfPlayConfig
    learner: LearnerConfig
    device: torch.device
    inference: str  # the forward pass of everything but the learner (agents/net/inference.py)
    seed: int
    init: str | None  # init=: the weights a new run starts from (agents/training/init_weights.py)
    iterations: int
    checkpoint_every: int
    keep_checkpoints: int
    milestone_every: int  # iterations between milestone checkpoints, which are never pruned; 0: none
    torch_threads: int
    eval_every: int
    eval_games: int
    eval_simulations: int
    eval_mcts_simulations: int
    eval_oracle_games: int
    eval_opponents: tuple[str, ...]  # player specs played eval.games each, beside random and mcts:N
    workers: int  # agent.selfplay.workers resolved ("auto": the usable cores)
    distributed: "RayConfig | None"  # distributed=ray's placement; None: this machine


# --- validation ---------------------------------------------------------------------------------
def build_settings(cfg: DictConfig) -> Settings:
    """Validate every value before anything is trained; errors name the key."""
    cfg = typed(cfg, RunConfig)
    seed = _integer(cfg, "seed", 0)
    sizes, games = _games(_section(cfg, "game"))
    sections = {}
    kinds = {"net": NetConfig, **{f"agent.{section}": kind for section, kind in AGENT_SECTIONS.items()}}
    for key, kind in kinds.items():
        values = _section(cfg, key)
        try:
            sections[key] = kind(**values)
        except TypeError as error:  # an unknown key
            raise ConfigError(f"{key}: {error}") from None
        except ValueError as error:
            message = str(error)
            raise ConfigError(message if message.startswith(key) else f"{key}.{message}") from None
    if sections["agent.selfplay"].full_search_share < 1:
        sections["agent.selfplay"].fast_search(sections["agent.search"])  # fast below full, or a ConfigError
    first = next(iter(games.values()))
    if sections["agent.selfplay"].heuristic_mix and not has_heuristic(first):
        raise ConfigError(
            f"agent.selfplay.heuristic_mix needs a game with a heuristic value (Game.heuristic_returns); "
            f"{first.info.name} has none"
        )
    try:
        device = resolve_device(str(cfg.device))
        workers = resolve_workers(sections["agent.selfplay"].workers)
    except ValueError as error:
        message = str(error)
        raise ConfigError(message if message.startswith("agent.") else f"device: {message}") from None
    distributed = _distributed(cfg)
    if sections["agent.selfplay"].inference_server and (workers == 0 or distributed is not None):
        raise ConfigError(
            "agent.selfplay.inference_server=true serves worker processes on this machine: it needs "
            "agent.selfplay.workers >= 1 and distributed=local (distributed=ray has distributed.inference_actors)"
        )
    return Settings(
        game=games[max(games)] if sizes.mixed else next(iter(games.values())),
        games=games,
        sizes=sizes,
        net=sections["net"],
        search=sections["agent.search"],
        selfplay=sections["agent.selfplay"],
        learner=sections["agent.learner"],
        device=device,
        inference=_inference(cfg),
        seed=seed,
        init=OmegaConf.select(cfg, "init") or None,
        iterations=_integer(cfg, "train.iterations", 0),
        checkpoint_every=_integer(cfg, "train.checkpoint_every", 1),
        keep_checkpoints=_integer(cfg, "train.keep_checkpoints", 1),
        milestone_every=_milestone_every(cfg),
        torch_threads=_integer(cfg, "train.torch_threads", 0),
        eval_every=_integer(cfg, "eval.every", 0),
        eval_games=_integer(cfg, "eval.games", 0),
        eval_simulations=_integer(cfg, "eval.simulations", 0),
        eval_mcts_simulations=_integer(cfg, "eval.mcts_simulations", 0),
        eval_oracle_games=_integer(cfg, "eval.oracle_games", 0),
        eval_opponents=_eval_opponents(cfg, first),
        workers=workers,
        distributed=distributed,
    )


def _games(game_cfg: dict) -> tuple[SizeSchedule, dict]:
    """``game.size``'s schedule and a game per size; a size the game refuses, or sizes
    one network cannot serve, are ConfigErrors naming ``game.size``."""
    value = game_cfg.get("size")
    sizes = parse_sizes(value)
    games = {}
    for size in sizes.sizes:
        if size == value:  # a plain game.size
            games[size] = game_from_config(game_cfg)
            continue
        try:
            games[size] = game_from_config({**game_cfg, "size": size})
        except ConfigError as error:
            raise ConfigError(f"game.size={value!r}: size {size} is refused: {error}") from None
    layouts = {
        size: (g.info.obs_shape[0], *head_layout(g.info.num_actions, g.info.board_shape)) for size, g in games.items()
    }
    if len(set(layouts.values())) > 1:
        raise ConfigError(
            f"game.size={value!r}: one network cannot play these sizes (input planes, logits per cell, "
            f"global logits by size: {layouts})"
        )
    return sizes, games


def _milestone_every(cfg: DictConfig) -> int:
    """``train.milestone_every``; a configuration saved before the key existed ran without milestones."""
    if OmegaConf.select(cfg, "train") is not None and "milestone_every" not in cfg.train:
        return 0
    return _integer(cfg, "train.milestone_every", 0)


def _eval_opponents(cfg: DictConfig, game: Game) -> tuple[str, ...]:
    """``eval.opponents``: player specs the game can make (a spec it refuses is a ConfigError naming it)."""
    specs = tuple(OmegaConf.select(cfg, "eval.opponents") or ())
    for spec in specs:
        try:
            make_player(str(spec), game)
        except ValueError as error:
            raise ConfigError(f"eval.opponents: {error}") from None
    return tuple(str(spec) for spec in specs)


def _inference(cfg: DictConfig) -> str:
    value = OmegaConf.select(cfg, "inference", default="auto")
    try:
        return check_backend(value)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def _distributed(cfg: DictConfig):
    """``distributed=local`` (or no section, as in older checkpoints): None; ``distributed=ray``: its RayConfig."""
    values = _section(cfg, "distributed") if OmegaConf.select(cfg, "distributed") is not None else {"backend": "local"}
    backend = values.pop("backend", None)
    if backend == "local":
        return None
    if backend != "ray":
        raise ConfigError(f"distributed.backend must be 'local' or 'ray', got {backend!r}")
    from agents.training.ray_backend import RayConfig  # imports no ray: checking a config needs no install

    try:
        return RayConfig(**values)
    except TypeError as error:  # an unknown key
        raise ConfigError(f"distributed: {error}") from None
    except ValueError as error:
        raise ConfigError(str(error)) from None


def _section(cfg: DictConfig, key: str) -> dict:
    node = OmegaConf.select(cfg, key)
    if not isinstance(node, DictConfig):
        raise ConfigError(f"{key}: missing section")
    try:
        return OmegaConf.to_container(node, resolve=True)
    except Exception as error:  # a missing value (???) or a broken interpolation
        raise ConfigError(f"{key}: {error}") from None


def _integer(cfg: DictConfig, key: str, low: int) -> int:
    value = OmegaConf.select(cfg, key)
    check(key, value, "integer", low=low)
    return value


def resumed(cfg: DictConfig, overrides: Sequence[str]) -> tuple[DictConfig, dict | None, Path | None]:
    """The configuration to run, and the checkpoint (with its path) that ``resume=PATH`` names
    (PATH a checkpoint or a run directory: its newest); without ``resume``, ``cfg`` itself."""
    if not cfg.get("resume"):
        return cfg, None, None
    path = Path(str(cfg.resume))
    path = latest_checkpoint(path) if path.is_dir() else path
    checkpoint = load_checkpoint(path)
    cfg = resume_config(cfg, checkpoint, path, overrides)
    cfg.resume = str(path)
    return cfg, checkpoint, path


def resume_config(cfg: DictConfig, checkpoint: dict, path: Path, overrides: Sequence[str]) -> DictConfig:
    """The checkpoint's configuration with the command line's ``key=value`` overrides
    applied; an override of what the checkpoint fixes is a ConfigError naming the key."""
    stored = OmegaConf.create(checkpoint["config"])
    try:
        build_settings(stored)
    except ConfigError as error:  # e.g. a key renamed since the checkpoint was written
        raise CheckpointError(f"checkpoint {path}: field 'config' does not make a run ({error})") from None
    for override in overrides:
        key = override.split("=", 1)[0].lstrip("+~")
        if key == "resume":
            continue
        if key in CONFIG_GROUPS:
            raise ConfigError(
                f"{key}: a config group cannot change when resuming (the checkpoint fixes it); "
                f"override single keys such as train.iterations=N"
            )
        value, saved = OmegaConf.select(cfg, key), OmegaConf.select(stored, key)
        if key == "init" and value != saved:
            raise ConfigError(
                f"init: a resumed run continues from its checkpoint's weights; init={value} starts a new run "
                "(leave out resume=)"
            )
        if key.split(".")[0] in FIXED_ON_RESUME and value != saved:
            raise ConfigError(
                f"{key}: a resumed run keeps the checkpoint's {saved!r} (its game, network shape and "
                f"generators are fixed); start a new run to use {value!r}"
            )
        OmegaConf.update(stored, key, value, merge=False)
    stored.resume = cfg.resume
    return stored
