"""What a search is given and what it returns: the leaf estimator it asks, its result,
and choosing an action from that result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numpy as np

from agents.config import check


class Estimator(Protocol):
    """What the search asks of a position: action priors and per-seat values."""

    def estimate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        """priors float32 [B, num_actions] (the search masks illegal actions and
        renormalises), values float32 [B, num_seats]: expected final return per
        seat. Called only on decision states (never chance or terminal ones),
        which it must not modify.

        An estimator that reads only the states' observations may also give
        ``estimate_planes(obs, masks, movers)``: the same answer from ``game.observe``
        of the states stacked (float32), their ``game.legal_mask`` stacked (bool) and
        their seats to move (int64), arrays the caller reuses after the call. The
        search driver calls it, with planes built from its rows, where the
        estimator's ``game`` is the search's and the game's rows can be observed
        (``envs.compiled.provides``)."""


def estimates(estimator: Estimator, states: Sequence, info) -> tuple[np.ndarray, np.ndarray]:
    """``estimator.estimate(states)`` as arrays (values float64), checked against the game's ``info``."""
    return checked(estimator.estimate(states), len(states), info)


def checked(estimate: tuple, count: int, info) -> tuple[np.ndarray, np.ndarray]:
    """An estimator's ``(priors, values)`` for ``count`` states as arrays (values float64),
    checked against the game's ``info``."""
    priors, values = estimate
    priors, values = np.asarray(priors), np.asarray(values, dtype=np.float64)
    if priors.shape != (count, info.num_actions) or values.shape != (count, info.num_seats):
        raise ValueError(
            f"estimator returned priors {priors.shape} and values {values.shape} for {count} states; "
            f"expected {(count, info.num_actions)} and {(count, info.num_seats)}"
        )
    return priors, values


@dataclass
class SearchResult:
    """What one search found at its root.

    ``visit_counts`` [num_actions]: visits of each root child (zeros for
    illegal actions; at a chance root, indexed by outcome id).
    ``root_values`` [num_seats]: the root's value estimate per seat.
    ``q_values`` [num_actions, num_seats]: each root child's mean value, NaN
    for children never visited. ``priors`` [num_actions]: the root priors the
    search used (noise included; outcome probabilities at a chance root).
    ``to_play``: the root's seat, or CHANCE.
    Gumbel search only (else None): ``selected``, the action sequential
    halving chose; ``improved_policy`` [num_actions], ``softmax(logits +
    sigma(completed q))``, the policy target of Gumbel MuZero.
    ``principal_variation``: the line of most visited children from the root
    (chance outcomes included), what the search expects to be played.
    """

    visit_counts: np.ndarray
    root_values: np.ndarray
    q_values: np.ndarray
    priors: np.ndarray
    to_play: int
    selected: int | None = None
    improved_policy: np.ndarray | None = None
    principal_variation: list[int] = field(default_factory=list)

    def policy(self, temperature: float) -> np.ndarray:
        """Visit distribution ``N(a)^(1/T)`` normalised; T = 0 puts equal mass on
        the most visited actions (all of it on ``selected`` after a Gumbel
        search). With no visits (one simulation) the priors stand in."""
        check("temperature", temperature, "number", low=0.0)
        counts = self.visit_counts if self.visit_counts.sum() > 0 else self.priors
        if temperature == 0.0 and self.selected is not None:
            return np.eye(len(counts))[self.selected]
        if temperature == 0.0:
            best = counts == counts.max()
            return best / best.sum()
        # scaled by the max first so large counts and small temperatures cannot overflow
        weights = (counts / counts.max()) ** (1.0 / temperature)
        return weights / weights.sum()


def select_action(result: SearchResult, temperature: float, rng: np.random.Generator) -> int:
    """Sample an action from ``result.policy(temperature)`` (T = 0: a random best one)."""
    policy = result.policy(temperature)
    return int(rng.choice(len(policy), p=policy))


def temperature_schedule(decision: int, sampling_decisions: int, temperature: float = 1.0) -> float:
    """``temperature`` for the first ``sampling_decisions`` decisions of a game
    (counted from 0, every micro-step one decision), then 0 (play the best)."""
    return temperature if decision < sampling_decisions else 0.0
