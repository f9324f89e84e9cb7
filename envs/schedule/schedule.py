"""Turn schedules: how many moves each turn holds (docs/rules.md, the turn-schedule mutator).

A schedule is a list of move counts, the last repeated for ever: ``134`` (the
text's "13(4)") is one move for the first turn, three for the second, then four
a turn; ``1344`` is the same schedule written longer; ``1`` is the base game.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np


class TurnSchedule:
    """The move count of every turn: ``TurnSchedule("134").moves(5) == 4``."""

    def __init__(self, counts: str | int | Sequence[int]):
        self.counts = parse_schedule(counts)

    def moves(self, turn: int) -> int:
        """How many moves turn ``turn`` (0 = the first turn of the game) holds."""
        return self.counts[min(turn, len(self.counts) - 1)]

    @property
    def most(self) -> int:
        return max(self.counts)

    @property
    def text(self) -> str:
        """The schedule as the game's parameter writes it, ``"134"``."""
        return "".join(map(str, self.counts))

    def __repr__(self) -> str:
        return f"TurnSchedule({self.text!r})"


def parse_schedule(counts: str | int | Sequence[int]) -> tuple[int, ...]:
    """``"134"``, ``134``, ``"1,3,4"`` or ``[1, 3, 4]`` -> ``(1, 3, 4)``; a ValueError naming
    ``schedule`` for anything else (no digit may be 0: every turn holds at least one move)."""
    if isinstance(counts, (bool, np.bool_)):
        raise ValueError(f"schedule must be digits such as '134' or a list of move counts, got {counts!r}")
    if isinstance(counts, (int, np.integer)):
        counts = str(int(counts))
    if isinstance(counts, str):
        text = counts.replace(",", "").replace(" ", "")
        if not text.isdigit():
            raise ValueError(f"schedule must be digits such as '134' (1, 3, then 4 a turn), got {counts!r}")
        values = [int(ch) for ch in text]
    else:
        try:
            values = list(counts)
        except TypeError:
            raise ValueError(
                f"schedule must be digits such as '134' or a list of move counts, got {counts!r}"
            ) from None
        if not values or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in values):
            raise ValueError(f"schedule must be a list of positive move counts, got {counts!r}")
        values = [int(v) for v in values]
    if not values or min(values) < 1:
        raise ValueError(f"schedule: every turn holds at least one move, got {counts!r}")
    return tuple(values)
