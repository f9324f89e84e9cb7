"""The look of an Amazons board's cells: amazons as stones, an arrow a neutral stone on a dark cell."""

from __future__ import annotations

from envs.board_view import WOOD

ARROW_FILL = "#5a3c28"
AMAZON_OF_VALUE = ("", "white", "black")


def amazons_cell_look(value: int) -> tuple[str, str, tuple[str, ...]]:
    """The board view of a cell holding ``value``: the first seat's amazons white, the second's
    black, an arrow a neutral stone on a dark cell (tagged ``arrow``)."""
    if value == 3:
        return "neutral", ARROW_FILL, ("arrow",)
    return AMAZON_OF_VALUE[value], WOOD, ()
