"""Chains as a union-find, where stones are only ever added (plain Hex's and Y's rows and
playouts, ``envs.stones.compiled``; the neutral playout's per-colour sets, ``envs.neutral.compiled.play``,
which a give-back leaves stale). Hex (Nex) joins edges: in a union-find over ``n * n + 4``
nodes cell ``c`` is node ``c`` and colour ``k``'s two edges are nodes ``n * n + 2 * (k - 1)``
and the next one, so a join is one comparison. Y touches sides: each root holds the sides its
chain touches (:func:`join_sides`). Where a stone can be given back (the neutral rows) the goal
is judged by the chain search ``envs.kernels.chain_sides``.
"""

from __future__ import annotations

from numba import njit

from envs.kernels import find

UNTRACKED, EXACT, STALE = 0, 1, 2  # a colour's union-find in a neutral playout (``joined``)


@njit(cache=True)
def link(board, n, parent, neighbours, cell):
    """Union a Hex stone with its same-coloured neighbours and its colour's edge nodes."""
    colour, cells = board[cell], n * n
    along = cell // n if colour == 1 else cell % n
    base = cells + 2 * (colour - 1)  # colour 1: nodes cells, cells+1; colour 2: cells+2, cells+3
    if along == 0:
        parent[find(parent, cell)] = find(parent, base)
    if along == n - 1:
        parent[find(parent, cell)] = find(parent, base + 1)
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] == colour:
            parent[find(parent, cell)] = find(parent, other)


@njit(cache=True)
def link_joins(board, n, parent, neighbours, cell):
    """``link`` the stone on ``cell``; whether its colour's edges are now joined."""
    link(board, n, parent, neighbours, cell)
    base = n * n + 2 * (board[cell] - 1)
    return find(parent, base) == find(parent, base + 1)


@njit(cache=True)
def joined(board, n, parent, neighbours, sets, colour):
    """Whether ``colour`` joins its edges: untracked sets are built, stale ones that claim a join rebuilt."""
    base = n * n + 2 * (colour - 1)
    if sets[colour] == UNTRACKED:
        relink(board, n, parent, neighbours, colour)
        sets[colour] = EXACT
    if find(parent, base) != find(parent, base + 1):
        return False
    if sets[colour] == STALE:
        relink(board, n, parent, neighbours, colour)
        sets[colour] = EXACT
        return find(parent, base) == find(parent, base + 1)
    return True


@njit(cache=True)
def relink(board, n, parent, neighbours, colour):
    """Build ``colour``'s union-find ``parent`` afresh from its stones on ``board``."""
    for i in range(len(parent)):
        parent[i] = i
    for cell in range(n * n):
        if board[cell] == colour:
            link(board, n, parent, neighbours, cell)


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
