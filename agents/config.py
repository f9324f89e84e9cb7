"""What train.py and evaluate.py share about their Hydra configs, and the one value check.

The ``game`` config group is made here from the games' constructors (``envs.game_defaults``):
``game=nex`` selects ``{name: nex, size: 11, pie_rule: false}``, and every constructor argument
is a key (``game.size=5``), with its default stated once, in the constructor. Importing this
module registers the group (``train.py`` and ``evaluate.py`` do).

:func:`check` is how every config dataclass (``SearchConfig``, ``SelfPlayConfig``,
``LearnerConfig``, ``NetConfig``) and the training loop's settings validate a
value: the error names the key, the rule and the value, e.g.
``agent.search.num_simulations must be a positive integer, got -3``.
:func:`typed` checks a whole configuration against its structured config (the
dataclasses of ``agents.training.settings`` and ``agents.evaluation.settings``,
registered in Hydra's ConfigStore): an unknown key or a value of the wrong type
is an error naming the key.
"""

from __future__ import annotations

import io
import logging
import math
from typing import Any, Mapping, Sequence

import numpy as np
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import ConfigKeyError, OmegaConfBaseException

from envs import GAMES, game_defaults
from envs.core import Game, make_game

NO_RECIPE = "experiment=none"


def with_recipe_aliases(overrides: list[str]) -> list[str]:
    """``experiment=null`` spelled as Hydra accepts it (``experiment=none``).

    Hydra refuses a null group choice with a traceback, but ``experiment=null`` is the
    natural way to ask for no recipe, so both mean the plain group defaults.
    """
    return [NO_RECIPE if item in ("experiment=null", "experiment=None") else item for item in overrides]


def check_recipe_game(recipe: str | None, game: str, games: Sequence[str]) -> None:
    """A recipe named after a game belongs to that game (``game=X`` brings it); chosen by
    name for another game it would train that game with the wrong settings."""
    if recipe in games and recipe != game:
        raise ConfigError(
            f"experiment={recipe} is the recipe of game {recipe}; train it with game={recipe} "
            f"(the recipe follows the game), or pick a recipe made for {game}"
        )


class ConfigError(ValueError):
    """An invalid configuration value; the message names the key."""


def game_from_config(game_cfg: Mapping[str, Any]) -> Game:
    """The game of a ``game/`` config entry, e.g. ``{"name": "nex", "size": 5}``.

    Errors are ConfigErrors naming ``game`` and its values, e.g.
    ``game (name='hex', size=1): size must be ...``.
    """
    kwargs = dict(game_cfg)
    if "name" not in kwargs:
        raise ConfigError(f"game: the game config needs a 'name' key, got {sorted(kwargs)}")
    name = kwargs.pop("name")
    try:
        return make_game(name, **kwargs)
    except ValueError as error:
        values = "".join(f", {key}={value!r}" for key, value in kwargs.items())
        raise ConfigError(f"game (name={name!r}{values}): {error}") from None


def typed(cfg: Mapping | DictConfig, schema: type) -> DictConfig:
    """``cfg`` merged onto the structured config ``schema`` (a dataclass): its keys and their
    types are the dataclass's fields, so an unknown key or a value of the wrong type is a
    ConfigError naming the key and what is allowed."""
    base = OmegaConf.structured(schema)
    if isinstance(cfg, DictConfig):  # as plain data: a composed config may hold a key added with +KEY=
        cfg = OmegaConf.to_container(cfg, resolve=False)
    try:
        return OmegaConf.merge(base, cfg)
    except ConfigKeyError as error:
        parent = error.full_key.rpartition(".")[0]
        node = OmegaConf.select(base, parent) if parent else base
        where = parent or "the top level"
        raise ConfigError(f"{error.full_key}: unknown key ({where} has {', '.join(node)})") from None
    except OmegaConfBaseException as error:  # a value that is not of the field's type
        raise ConfigError(f"{error.full_key}: {str(error.msg).splitlines()[0]}") from None


def check(
    key: str,
    value: Any,
    kind: str,
    low: float | None = None,
    high: float | None = None,
    strict: bool = False,
    choices: Sequence[Any] = (),
) -> None:
    """Raise ConfigError unless ``value`` is of ``kind`` and in range.

    ``kind`` is ``"integer"`` (bools refused), ``"number"`` (finite int or float),
    ``"bool"`` or ``"choice"`` (one of ``choices``); ``low``/``high`` bound it
    (``strict``: ``low`` itself is excluded).
    """
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"{key} must be true or false, got {value!r}")
        return
    if kind == "choice":
        if value not in choices:
            raise ConfigError(f"{key} must be one of {tuple(choices)}, got {value!r}")
        return
    integral = (int, np.integer) if kind == "integer" else (int, float, np.integer, np.floating)
    ok = isinstance(value, integral) and not isinstance(value, (bool, np.bool_)) and math.isfinite(value)
    ok = ok and (low is None or (value > low if strict else value >= low))
    ok = ok and (high is None or value <= high)
    if not ok:
        raise ConfigError(f"{key} must be {_rule(kind, low, high, strict)}, got {value!r}")


def _rule(kind: str, low, high, strict: bool) -> str:
    if kind == "integer" and low == 1 and high is None and not strict:
        return "a positive integer"
    bounds = [f"{'>' if strict else '>='} {low}"] if low is not None else []
    bounds += [f"<= {high}"] if high is not None else []
    noun = "an integer" if kind == "integer" else "a finite number"
    return " ".join([noun, " and ".join(bounds)]).strip()


def below_level(level: str):
    """A logging filter passing records below ``level`` (the console's stdout handler)."""
    limit = logging.getLevelName(level)
    return lambda record: record.levelno < limit


class LogLines(io.TextIOBase):
    """A text stream that hands each complete line to ``logger.info``, so a report
    printed to it reaches the console and the run's log file alike."""

    def __init__(self, logger: logging.Logger):
        self.logger = logger
        self.pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        *lines, self.pending = (self.pending + text).split("\n")
        for line in lines:
            self.logger.info(line)
        return len(text)

    def flush(self) -> None:
        if self.pending:
            self.logger.info(self.pending)
            self.pending = ""


for _name in GAMES:
    ConfigStore.instance().store(group="game", name=_name, node=game_defaults(_name))
