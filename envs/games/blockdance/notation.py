"""Blockdance's text: cells listed compactly by row, as the text writes a block's men.

``xz5wy6`` is x5, z5, w6, y6: the letters of one row, then its number. ``not(s6)`` is the
pivot's whole group of connected men less the cells listed inside the brackets.
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import Iterable

from envs.core import NotationError
from envs.stones import hexagon

_GROUP = re.compile(r"([a-zA-Z]+)([0-9]{1,2})")
NOT = re.compile(r"^not\((.*)\)$")


def cells_text(side: int, cells: Iterable[int]) -> str:
    """``[x5, z5, w6, y6]`` (in any order) -> ``"xz5wy6"``: row by row, each row's letters in
    order and then its number."""
    names = sorted((hexagon.cell_name(side, c) for c in cells), key=_row_then_letter)
    words = []
    for row, names_in_row in groupby(names, key=lambda name: name[1:]):
        words.append("".join(name[0] for name in names_in_row) + row)
    return "".join(words)


def _row_then_letter(name: str) -> tuple[int, int]:
    return int(name[1:]), hexagon.LETTERS.index(name[0])


def read_cells(side: int, text: str) -> list[int]:
    """The cells of ``xz5wy6`` (also ``x5z5w6y6``), in the order written."""
    if not text:
        return []
    groups = _GROUP.findall(text)
    if "".join(letters + row for letters, row in groups) != text:
        raise NotationError(f"cannot read cells {text!r}: expected letters then a row number, e.g. 'xz5wy6'")
    return [hexagon.parse_cell(side, letter + row) for letters, row in groups for letter in letters]
