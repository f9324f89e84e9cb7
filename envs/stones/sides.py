"""Chains touching sides, as a union-find whose roots hold the sides they touch (a goal like Y's).

Neu-Y judges its goal by ``envs.kernels.chain_sides`` (a swap gives stones back); plain Y's rows
and playout (``envs.stones.compiled``) keep this union-find, since
stones are only ever added there.
"""

from __future__ import annotations

from numba import njit

from envs.kernels import find

ALL_SIDES = 7  # a chain touching sides 1, 2 and 4 (``envs.games.y.game``: BOTTOM, LEFT, RIGHT)


@njit(cache=True)
def join_sides(board, parent, touched, neighbours, cell):
    """Union the stone on ``cell`` with its neighbours of its colour; the sides its chain touches."""
    root = find(parent, cell)
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] == board[cell]:
            top = find(parent, other)
            if top != root:
                parent[top] = root
                touched[root] |= touched[top]
    return touched[root]
