"""The search's numba kernels over :class:`~agents.search.mcts.tree.Tree`'s arrays:
selection down the tree (:func:`walk`), backing values up (:func:`backup`), and the
chance-node arithmetic they share."""

from __future__ import annotations

import numba
import numpy as np

from envs.core import CHANCE, TERMINAL

# Columns of the nodes array (agents.search.mcts.tree.Tree.nodes). A node's edges are edge_child/edge_prior[FIRST_EDGE : FIRST_EDGE + NUM_EDGES].
PLAYER, VISITS, FIRST_EDGE, NUM_EDGES = range(4)
# What walk stopped at.
AT_TERMINAL, UNEXPANDED, NEW_CHILD, SAMPLE, PATH_FULL = range(5)


@numba.njit(cache=True)
def walk(nodes, values, edge_child, edge_prior, path, length, node, first, c_puct, fpu_reduction, expect):
    """Select from ``node`` down the tree, appending (node, child index) rows
    to ``path`` after its first ``length``; take child ``first`` at ``node``
    when it is not -1. Stop at a terminal node (appended as (node, -1)), an
    unexpanded node, a chosen child not created yet, a chance node to sample
    or a full path; return (length, node, what it stopped at)."""
    while True:
        player = nodes[node, PLAYER]
        if player == TERMINAL:
            if length == path.shape[0]:
                return length, node, PATH_FULL
            path[length, 0], path[length, 1] = node, -1
            return length + 1, node, AT_TERMINAL
        start = nodes[node, FIRST_EDGE]
        if start < 0:
            return length, node, UNEXPANDED
        count = nodes[node, NUM_EDGES]
        if first >= 0:
            index = first
        elif player >= 0:
            visits = nodes[node, VISITS]
            fpu = values[node, player] / visits - fpu_reduction
            index = puct_choice(
                nodes,
                values,
                edge_child[start : start + count],
                edge_prior[start : start + count],
                player,
                fpu,
                c_puct * np.sqrt(visits),
            )
        elif expect:
            index = lagging_outcome(
                nodes, edge_child[start : start + count], edge_prior[start : start + count], nodes[node, VISITS]
            )
        else:
            return length, node, SAMPLE
        if length == path.shape[0]:
            return length, node, PATH_FULL
        first = -1
        path[length, 0], path[length, 1] = node, index
        length += 1
        child = edge_child[start + index]
        if child < 0:
            return length, node, NEW_CHILD
        node = child


@numba.njit(cache=True)
def puct_choice(nodes, values, children, priors, player, fpu, scale):
    """Index of the child with the highest PUCT score for ``player`` (the first one on ties)."""
    best, choice = -np.inf, 0
    for i in range(children.shape[0]):
        child = children[i]
        n = nodes[child, VISITS] if child >= 0 else 0
        score = (values[child, player] / n if n > 0 else fpu) + priors[i] * scale / (1.0 + n)
        if score > best:
            best, choice = score, i
    return choice


@numba.njit(cache=True)
def child_stats(nodes, values, children, player):
    """Visits (float) and mean value for ``player`` (0 where unvisited) of these children."""
    visits, means = np.zeros(children.shape[0]), np.zeros(children.shape[0])
    for i in range(children.shape[0]):
        child = children[i]
        if child >= 0 and nodes[child, VISITS] > 0:
            visits[i] = nodes[child, VISITS]
            means[i] = values[child, player] / visits[i]
    return visits, means


@numba.njit(cache=True)
def lagging_outcome(nodes, children, probs, visits):
    """Index of the outcome whose visits lag its probability the most."""
    best, choice = -np.inf, 0
    for i in range(children.shape[0]):
        child = children[i]
        lag = probs[i] * (visits + 1) - (nodes[child, VISITS] if child >= 0 else 0)
        if lag > best:
            best, choice = lag, i
    return choice


@numba.njit(cache=True)
def backup(nodes, values, edge_child, edge_prior, path, length, expect):
    """Back the leaf's value up the path: a new decision leaf's estimate, a
    terminal leaf's returns, or a chance leaf's expectation."""
    leaf = path[length - 1, 0]
    player = nodes[leaf, PLAYER]
    if player >= 0:
        value = values[leaf].copy()  # just estimated: one visit
    elif player == TERMINAL:
        value = visit_terminal(nodes, values, leaf)
    else:
        value = expectation(nodes, values, edge_child, edge_prior, leaf)
    for i in range(length - 2, -1, -1):
        node = path[i, 0]
        if expect and nodes[node, PLAYER] == CHANCE:
            value = expectation(nodes, values, edge_child, edge_prior, node)
            continue
        nodes[node, VISITS] += 1
        for seat in range(value.shape[0]):
            values[node, seat] += value[seat]


@numba.njit(cache=True)
def visit_terminal(nodes, values, node):
    """Count a visit to a terminal node (its value sum starts as the returns); return its value."""
    visits = nodes[node, VISITS]
    if visits == 0:
        nodes[node, VISITS] = 1
        return values[node].copy()
    value = values[node] / visits
    nodes[node, VISITS] = visits + 1
    values[node] = value * (visits + 1)
    return value


@numba.njit(cache=True)
def expectation(nodes, values, edge_child, edge_prior, node):
    """Count a visit to an expanded chance node (expectation mode) and return its
    value: the probability-weighted mean of its outcome children, visiting
    those created in this simulation (terminal, or chance ones recursively)."""
    value = np.zeros(values.shape[1])
    start = nodes[node, FIRST_EDGE]
    for edge in range(start, start + nodes[node, NUM_EDGES]):
        child = edge_child[edge]
        if nodes[child, VISITS] == 0:  # created in this simulation
            if nodes[child, PLAYER] == TERMINAL:
                visit_terminal(nodes, values, child)
            else:
                expectation(nodes, values, edge_child, edge_prior, child)
        p, visits = edge_prior[edge], nodes[child, VISITS]
        for seat in range(value.shape[0]):
            value[seat] = value[seat] + p * values[child, seat] / visits
    nodes[node, VISITS] += 1
    values[node] = value * nodes[node, VISITS]
    return value


@numba.njit(cache=True)
def normalise(probs, out):
    """``probs`` divided by their sum (summed in order) into ``out``: a chance node's edge priors."""
    total = 0.0
    for p in probs:
        total += p
    for i in range(probs.shape[0]):
        out[i] = probs[i] / total


@numba.njit(cache=True)
def sampled_outcome(priors, u):
    """The outcome that the uniform draw ``u`` picks by the cumulative ``priors`` (the last one
    where rounding leaves the sum below ``u``)."""
    cumulative = 0.0
    for i in range(priors.shape[0]):
        cumulative += priors[i]
        if u < cumulative:
            return i
    return priors.shape[0] - 1


@numba.njit(cache=True)
def is_uniform(row):
    """Whether every entry of ``row`` is the same positive finite number."""
    first = row[0]
    if not 0.0 < first < np.inf:  # NaN fails too
        return False
    for x in row:
        if x != first:
            return False
    return True
