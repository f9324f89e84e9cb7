"""What train.py and evaluate.py share about their Hydra configs."""

from __future__ import annotations

import io
import logging
from typing import Any, Mapping

from envs.core import Game, make_game


NO_RECIPE = "experiment=none"


def with_recipe_aliases(overrides: list[str]) -> list[str]:
    """``experiment=null`` spelled as Hydra accepts it (``experiment=none``).

    Hydra refuses a null group choice with a traceback, but ``experiment=null`` is the
    natural way to ask for no recipe, so both mean the plain group defaults.
    """
    return [NO_RECIPE if item in ("experiment=null", "experiment=None") else item for item in overrides]


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
