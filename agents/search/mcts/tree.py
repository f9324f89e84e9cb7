"""A search's nodes and edges in flat arrays (:class:`Tree`), so that numba kernels
select and back up without touching Python objects."""

from __future__ import annotations

import numpy as np

from agents.search.mcts.kernels import FIRST_EDGE, NUM_EDGES, PLAYER, VISITS, child_stats


class Tree:
    """A view of the nodes and edges of one ``search_many`` call, which the driver
    (``agents.search.mcts.driver``) keeps in flat arrays.

    ``nodes[i]``: PLAYER (seat, CHANCE or TERMINAL), VISITS, FIRST_EDGE (-1
    until expanded), NUM_EDGES. ``values[i]``: the per-seat value sum, so
    ``values[i, s] / nodes[i, VISITS]`` is the mean value for seat ``s``.
    An edge (a legal action, or a chance outcome) holds its prior (the outcome
    probability at a chance node) and its child node (-1 until created); a
    child's visits and mean value are the edge's N and Q. ``actions[i]``: node
    ``i``'s legal actions or outcome ids (None until expanded).
    """

    def __init__(self, nodes: np.ndarray, values: np.ndarray, edge_child, edge_prior, actions):
        self.nodes, self.values, self.edge_child, self.edge_prior = nodes, values, edge_child, edge_prior
        self.actions = actions

    @classmethod
    def of_arrays(cls, nodes: np.ndarray, values: np.ndarray, edge_child, edge_prior, edge_action) -> "Tree":
        """The tree whose ``actions[i]`` reads node ``i``'s actions from ``edge_action``."""
        return cls(nodes, values, edge_child, edge_prior, EdgeActions(nodes, edge_action))

    def priors(self, node: int) -> np.ndarray:
        """The priors of ``node``'s edges (a view: writing it changes the tree)."""
        return self.edge_prior[self._edges(node)]

    def children(self, node: int) -> np.ndarray:
        """The child node of each of ``node``'s edges, -1 where none was created."""
        return self.edge_child[self._edges(node)]

    def _edges(self, node: int) -> slice:
        start = self.nodes[node, FIRST_EDGE]
        return slice(start, start + self.nodes[node, NUM_EDGES])

    def child_stats(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Visits (float) and mean value for ``node``'s mover (0 where unvisited) of each edge."""
        return child_stats(self.nodes, self.values, self.children(node), max(self.nodes[node, PLAYER], 0))

    def principal_variation(self, root: int) -> list[int]:
        """The actions (or outcomes) of the most visited child at each node from ``root``, down to
        a node whose children were never visited (ties: the first action)."""
        line, node = [], root
        while self.nodes[node, FIRST_EDGE] >= 0:
            children = self.children(node)
            visits = np.where(children >= 0, self.nodes[children, VISITS], 0)
            if visits.max() <= 0:
                break
            best = int(np.argmax(visits))
            line.append(int(self.actions[node][best]))
            node = int(children[best])
        return line


class EdgeActions:
    """``Tree.actions`` of a tree in arrays: node -> the list of its edges' actions (None until expanded)."""

    def __init__(self, nodes: np.ndarray, edge_action: np.ndarray):
        self.nodes, self.edge_action = nodes, edge_action

    def __getitem__(self, node: int) -> list[int] | None:
        start = self.nodes[node, FIRST_EDGE]
        return None if start < 0 else self.edge_action[start : start + self.nodes[node, NUM_EDGES]].tolist()


def blank_nodes(count: int) -> np.ndarray:
    nodes = np.zeros((count, 4), dtype=np.int64)
    nodes[:, FIRST_EDGE] = -1
    return nodes


def doubled(array: np.ndarray, fill) -> np.ndarray:
    """``array`` followed by as many rows again, holding ``fill``."""
    return np.concatenate([array, np.full_like(array, fill)])
