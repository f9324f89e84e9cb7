"""Board sizes of a run: ``game.size`` as one size, a mix drawn per game, or a schedule.

``game.size`` takes four shapes (each a YAML value and a Hydra override):

===========================================  ===============================================
``11``                                       every game on 11x11
``[5, 7, 11]``                               each self-play game draws its size uniformly
``{sizes: [5, 11], weights: [1, 3]}``        each game draws its size with these weights
``[{from_iteration: 1, sizes: [5]},``        a schedule: from iteration I (1 is the first)
``{from_iteration: 20, sizes: [5, 11]}]``    on, games draw from that step's sizes (and
                                             ``weights``), until the next step begins
===========================================  ===============================================

:func:`parse_sizes` turns the value into a :class:`SizeSchedule`; every problem
is a ConfigError naming ``game.size``. A run with one size draws nothing, so it
plays exactly the games of a plain integer ``game.size``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from agents.config import ConfigError

KEY = "game.size"
SHAPES = (
    "an integer (11), a list of sizes ([5, 7, 11]), {sizes: [5, 11], weights: [1, 3]}, "
    "or a schedule [{from_iteration: 1, sizes: [5]}, {from_iteration: 20, sizes: [5, 11]}]"
)


@dataclass(frozen=True)
class SizeMix:
    """Sizes a game may be played at, with the probability of each (summing to 1)."""

    sizes: tuple[Any, ...]
    probabilities: tuple[float, ...]

    def counts(self, num_games: int, rng: np.random.Generator) -> dict[Any, int]:
        """Games per size when each of ``num_games`` games draws its size (one size: no draw)."""
        if len(self.sizes) == 1:
            return {self.sizes[0]: num_games}
        drawn = rng.choice(len(self.sizes), size=num_games, p=self.probabilities)
        return {size: int(n) for size, n in zip(self.sizes, np.bincount(drawn, minlength=len(self.sizes)))}


@dataclass(frozen=True)
class SizeSchedule:
    """``(from_iteration, mix)`` steps, the first from iteration 1, iterations increasing."""

    steps: tuple[tuple[int, SizeMix], ...]

    def at(self, iteration: int) -> SizeMix:
        """The mix of 1-based ``iteration``."""
        mix = self.steps[0][1]
        for start, step_mix in self.steps:
            if start <= iteration:
                mix = step_mix
        return mix

    @property
    def sizes(self) -> tuple[Any, ...]:
        """Every size the run plays, in the order first named."""
        return tuple(dict.fromkeys(size for _, mix in self.steps for size in mix.sizes))

    @property
    def mixed(self) -> bool:
        return len(self.sizes) > 1


def parse_sizes(value: Any) -> SizeSchedule:
    """The schedule ``game.size`` describes (see the module docstring); ConfigError otherwise."""
    if value is None:  # a game config without a size key: the game's own size
        return SizeSchedule(((1, SizeMix((None,), (1.0,))),))
    if _is_schedule(value):
        return SizeSchedule(_schedule_steps(value))
    return SizeSchedule(((1, _mix(value, KEY)),))


def _is_schedule(value) -> bool:
    return isinstance(value, list) and any(isinstance(step, dict) and "from_iteration" in step for step in value)


def _schedule_steps(value: list) -> tuple[tuple[int, SizeMix], ...]:
    steps = []
    for index, step in enumerate(value):
        key = f"{KEY}[{index}]"
        if (
            not isinstance(step, dict)
            or set(step) - {"from_iteration", "sizes", "weights"}
            or not {"from_iteration", "sizes"} <= set(step)
        ):
            raise ConfigError(
                f"{key}: a schedule step is {{from_iteration: I, sizes: [...]}} (weights optional), got {step!r}"
            )
        start = step["from_iteration"]
        if not _is_int(start) or start < 1:
            raise ConfigError(f"{key}.from_iteration must be an integer >= 1, got {start!r}")
        if not steps and start != 1:
            raise ConfigError(
                f"{key}.from_iteration must be 1: the schedule's first step says what iteration 1 plays, got {start}"
            )
        if steps and start <= steps[-1][0]:
            raise ConfigError(
                f"{key}.from_iteration ({start}) must be greater than the step before it ({steps[-1][0]}): "
                f"a schedule's iterations increase"
            )
        mix_value = {"sizes": step["sizes"], **({"weights": step["weights"]} if "weights" in step else {})}
        steps.append((start, _mix(mix_value, key)))
    return tuple(steps)


def _mix(value, key: str) -> SizeMix:
    """One size, a list of sizes, or ``{sizes: [...], weights: [...]}``."""
    weights = None
    if isinstance(value, dict):
        if set(value) - {"sizes", "weights"} or "sizes" not in value:
            raise ConfigError(f"{key} must be {SHAPES}; got {value!r}")
        value, weights = value["sizes"], value.get("weights")
    sizes = value if isinstance(value, list) else [value]
    if not sizes:
        raise ConfigError(f"{key}: the list of sizes is empty; name at least one size")
    for size in sizes:
        if not _is_int(size):
            raise ConfigError(f"{key} must be {SHAPES}; got {value!r}")
    repeated = sorted({size for size in sizes if sizes.count(size) > 1})
    if repeated:
        raise ConfigError(f"{key} names size {repeated[0]} twice in {value!r} (to draw it more often, give weights)")
    if weights is None:
        return SizeMix(tuple(sizes), tuple(1.0 / len(sizes) for _ in sizes))
    if not isinstance(weights, list) or len(weights) != len(sizes):
        raise ConfigError(f"{key}: weights must be a list with one number per size ({len(sizes)}), got {weights!r}")
    if not all(_is_number(w) and w >= 0 for w in weights) or sum(weights) <= 0:
        raise ConfigError(f"{key}: weights must be numbers >= 0, not all zero, got {weights!r}")
    total = float(sum(weights))
    return SizeMix(tuple(sizes), tuple(float(w) / total for w in weights))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value)


def describe(schedule: SizeSchedule) -> str:
    """``sizes 5, 11`` or ``sizes 5 from iteration 1, 5, 11 from iteration 20``: for the log."""

    def mix_text(mix: SizeMix) -> str:
        uniform = len(set(mix.probabilities)) == 1
        return ", ".join(str(s) if uniform else f"{s} ({p:.0%})" for s, p in zip(mix.sizes, mix.probabilities))

    if len(schedule.steps) == 1:
        return f"sizes {mix_text(schedule.steps[0][1])}"
    return "sizes " + "; ".join(f"{mix_text(mix)} from iteration {start}" for start, mix in schedule.steps)


__all__: Sequence[str] = ["SizeMix", "SizeSchedule", "parse_sizes", "describe"]
