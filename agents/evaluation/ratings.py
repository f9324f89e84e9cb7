"""Bradley-Terry ratings on the Elo scale, with confidence intervals.

The model: player ``i`` scores against ``j`` with probability
``p_ij = 1 / (1 + 10 ** (-(r_i - r_j) / 400))``. Ratings are the maximum
likelihood estimate given the points of every pair:

* **Draws count as half a win for each side** (a draw adds 0.5 to both players'
  points), so the likelihood of a pair is ``p_ij ** s_ij * (1 - p_ij) ** (n_ij - s_ij)``
  with ``s_ij`` the points of ``i`` over ``n_ij`` games.
* **Anchor:** the anchor player's rating is fixed at exactly 0 and left out of
  the fit (the model sees only differences).
* **Prior:** ``prior_draws`` virtual draws (default 1) are added to every pair
  that met, so a player who won every game gets a large but finite rating.
  Their weight vanishes as games accumulate; pass 0 for the pure MLE.
* **Confidence intervals** come from the inverse of the observed Fisher
  information (the negative Hessian of the log-likelihood at the optimum, anchor
  removed): ``r_i +- z * sqrt(cov_ii)``, z = 1.96 for 95%. They measure each
  rating's uncertainty *relative to the anchor*; the anchor's own interval is 0.

Players who are not connected to the anchor by a chain of games have no
defined rating and raise :class:`RatingError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

ELO = 400.0 / np.log(10.0)  # Elo points per natural-log unit of odds
Z95 = 1.959963984540054


class RatingError(ValueError):
    """Results from which ratings cannot be computed."""


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings: ``rating[i]`` (Elo) and the half-width ``ci[i]`` of its interval."""

    names: tuple[str, ...]
    rating: np.ndarray
    ci: np.ndarray
    anchor: str

    def as_dict(self) -> dict[str, dict[str, float]]:
        return {name: {"rating": float(r), "ci": float(c)} for name, r, c in zip(self.names, self.rating, self.ci)}


def fit_ratings(
    names: Sequence[str],
    games: np.ndarray,
    points: np.ndarray,
    anchor: str | None = None,
    prior_draws: float = 1.0,
    confidence: float = Z95,
) -> Ratings:
    """Fit Bradley-Terry ratings.

    ``games[i, j]``: games between ``i`` and ``j`` (symmetric); ``points[i, j]``:
    the points ``i`` scored in them (win 1, draw 0.5), so ``points + points.T ==
    games``. ``anchor`` defaults to ``"random"`` if present, else the first name.
    ``confidence`` is the z multiplier of the interval half-width.
    """
    names = tuple(names)
    k = len(names)
    games = np.asarray(games, dtype=float)
    points = np.asarray(points, dtype=float)
    _check(names, games, points, prior_draws)
    if anchor is None:
        anchor = "random" if "random" in names else names[0]
    if anchor not in names:
        raise RatingError(f"anchor {anchor!r} is not among the players {list(names)}")
    a = names.index(anchor)
    met = games > 0
    n = games + prior_draws * met
    s = points + 0.5 * prior_draws * met
    _check_connected(names, met, a)

    free = np.array([i for i in range(k) if i != a], dtype=int)
    theta = np.zeros(k)  # natural-log odds scale
    diverged = RatingError("the rating fit did not converge: some player won or lost every game; use prior_draws > 0")
    for _ in range(100):
        gradient, hessian = _derivatives(theta, n, s)
        try:
            step = np.linalg.solve(hessian[np.ix_(free, free)], gradient[free])
        except np.linalg.LinAlgError:
            raise diverged from None
        theta[free] -= _damped(step)
        if len(free) == 0 or np.max(np.abs(step)) < 1e-10:
            break
    else:
        raise diverged
    _, hessian = _derivatives(theta, n, s)
    ci = np.zeros(k)
    if len(free):
        cov = np.linalg.inv(-hessian[np.ix_(free, free)])
        ci[free] = confidence * np.sqrt(np.diag(cov)) * ELO
    rating = theta * ELO
    rating[a] = 0.0
    return Ratings(names=names, rating=rating, ci=ci, anchor=anchor)


def expected_score(rating_a: float, rating_b: float) -> float:
    """The Bradley-Terry probability that a player rated ``rating_a`` beats ``rating_b``."""
    return 1.0 / (1.0 + 10.0 ** (-(rating_a - rating_b) / 400.0))


def _derivatives(theta: np.ndarray, n: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the log-likelihood in the natural-log parametrisation."""
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    gradient = (s - n * p).sum(axis=1)
    w = n * p * (1.0 - p)
    hessian = w.copy()
    np.fill_diagonal(hessian, 0.0)
    hessian[np.diag_indices_from(hessian)] = -hessian.sum(axis=1)
    return gradient, hessian


def _damped(step: np.ndarray, limit: float = 2.0) -> np.ndarray:
    """Cap Newton steps so early iterations far from the optimum cannot overshoot."""
    largest = np.max(np.abs(step)) if len(step) else 0.0
    return step * (limit / largest) if largest > limit else step


def _check(names, games, points, prior_draws) -> None:
    k = len(names)
    if k < 1 or len(set(names)) != k:
        raise RatingError(f"player names must be distinct and non-empty, got {list(names)}")
    for label, table in (("games", games), ("points", points)):
        if table.shape != (k, k):
            raise RatingError(f"{label} must be a {k}x{k} table, got shape {table.shape}")
        if not np.all(np.isfinite(table)) or np.any(table < 0):
            raise RatingError(f"{label} must hold finite non-negative numbers")
    if not np.allclose(games, games.T) or np.any(np.diag(games) != 0):
        raise RatingError("games must be symmetric with a zero diagonal")
    if not np.allclose(points + points.T, games):
        raise RatingError("points[i, j] + points[j, i] must equal games[i, j]")
    if not prior_draws >= 0:
        raise RatingError(f"prior_draws must be >= 0, got {prior_draws}")


def _check_connected(names, met: np.ndarray, anchor: int) -> None:
    reached = {anchor}
    frontier = [anchor]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(met[i]):
            if j not in reached:
                reached.add(int(j))
                frontier.append(int(j))
    missing = [names[i] for i in range(len(names)) if i not in reached]
    if missing:
        raise RatingError(f"no chain of games links {missing} to the anchor {names[anchor]!r}")
