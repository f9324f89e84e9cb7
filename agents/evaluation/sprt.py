"""A capped sequential probability ratio test (SPRT) of a match score, on seat-swapped pairs.

The question: is the candidate's score (win 1, draw 0.5, loss 0) against an opponent at
least ``high`` rather than at most ``low``? A fixed-count match plays its ``games`` whatever
the answer; the SPRT stops as soon as the games played answer it with the error rates asked:

* ``alpha``: the chance of accepting "at least ``high``" when the score is ``low`` or below;
* ``beta``: the chance of accepting "at most ``low``" when the score is ``high`` or above.

A score between the bounds may be decided either way. Games come in **pairs**, the same
opening and chance (a duplicate pair, :mod:`agents.evaluation.runner`) with the candidate in
each seat; a pair scores 0, 1/4, 1/2, 3/4 or 1 (its two games' points over 2), and the pairs
are the test's independent units, so a seat's edge and a shared opening's luck are counted
once a pair, not as independent evidence.

**The statistic** is the generalized log-likelihood ratio over these five pair outcomes
(the pentanomial model, as Fishtest's): for each bound ``s``, the distribution ``p_s`` over
the five outcomes that gives the pairs seen the highest likelihood among those whose mean
pair score is ``s``; then

    LLR = sum_k n_k * log(p_high[k] / p_low[k])

over the counts ``n_k`` of each outcome, each count of 0 taken as ``REGULARIZE`` (so that a
clean sweep, which no distribution of mean ``high`` < 1 explains alone, still has a finite
LLR). The constrained maximum is ``p_s[k] = n_k / (N * (1 + t * (x_k - s)))`` with ``t``
the root of ``sum_k n_k (x_k - s) / (1 + t (x_k - s)) = 0`` (:func:`constrained_mle`).
After each pair the LLR is compared with Wald's bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)``: at or below the lower one the test accepts "at most ``low``",
at or above the upper one "at least ``high``".

**The cap**: the test plays at most ``cap`` games (``cap / 2`` pairs). A test still between
its bounds there decides by the bound its LLR is nearer (Wald's truncated test: "at least
``high``" where the LLR is above the bounds' midpoint; a tie, as when every pair is split
and the bounds are symmetric, is "at most ``low``": not shown good enough), and says that the
cap decided. The
error rates measured with the cap in place (``tests/test_sprt.py``, docs/evaluate.md) include
such decisions.

The decision depends only on the pairs in order (the first pair whose LLR reaches a bound
stops the test), so a match played by several workers, or stopped and resumed, reaches the
same verdict after the same games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])  # a pair's points (0, 0.5, ..., 2) over 2
REGULARIZE = 1e-3  # the count an outcome not seen yet stands for
TIE = 1e-9  # at the cap, an LLR this near the bounds' midpoint is a tie: "at most low" (not shown good enough)
NEWTON_STEPS = 60  # the most safeguarded Newton steps for the constrained maximum (it converges in about 6)


@dataclass(frozen=True)
class SPRT:
    """A capped SPRT between a score of at most ``low`` and at least ``high``, at most ``cap`` games."""

    low: float
    high: float
    alpha: float
    beta: float
    cap: int

    def __post_init__(self):
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not _number(value) or not 0 < value < 0.5:
                raise ValueError(f"sprt.{name}: an error rate must be a number in (0, 0.5), got {value!r}")
        for name in ("low", "high"):
            value = getattr(self, name)
            if not _number(value) or not 0 < value < 1:
                raise ValueError(f"sprt.{name}: a bound on the score must be a number in (0, 1), got {value!r}")
        if not self.low < self.high:
            raise ValueError(f"sprt.low: must be below sprt.high, got low {self.low} and high {self.high}")
        if not isinstance(self.cap, int) or isinstance(self.cap, bool) or self.cap < 2 or self.cap % 2:
            raise ValueError(f"games: the test's cap counts seat-swapped pairs, so it must be even, got {self.cap!r}")
        fewest = self.fewest_games()
        if self.cap < fewest:
            raise ValueError(
                f"games: a cap of {self.cap} games is below the {fewest} this test needs to reach a decision "
                f"(a clean sweep, or its opposite, reaches a bound after {fewest} games at sprt.low={self.low:g}, "
                f"sprt.high={self.high:g}, sprt.alpha={self.alpha:g}, sprt.beta={self.beta:g})"
            )

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's bounds on the LLR: (accept "at most low" at or below, accept "at least high" at or above)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: np.ndarray) -> np.ndarray:
        """The LLR of pair-outcome ``counts`` (shape ``(..., 5)``, the pairs scoring 0, 1/4, ..., 1)."""
        counts = np.asarray(counts, dtype=np.int64)
        # the runs of a simulation pass through the same counts many times: each is solved once
        flat = counts.reshape(-1, 5)
        base = int(flat.max(initial=0)) + 1
        if base**5 < 2**62:  # each row as one integer: much faster to sort than rows
            _, first, where = np.unique(flat @ base ** np.arange(5), return_index=True, return_inverse=True)
        else:
            _, first, where = np.unique(flat, axis=0, return_index=True, return_inverse=True)
        rows = np.maximum(flat[first].astype(float), REGULARIZE)
        p_low, p_high = constrained_mle(rows, self.low), constrained_mle(rows, self.high)
        llr = np.sum(rows * (np.log(p_high) - np.log(p_low)), axis=-1)
        return llr[where.reshape(-1)].reshape(counts.shape[:-1])

    def fewest_games(self) -> int:
        """The fewest games after which the test can decide either way: the games a clean sweep
        takes to reach the upper bound, or all pairs lost to reach the lower one, the longer."""
        lower, upper = self.bounds
        return 2 * max(
            _fewest_pairs(lambda n: self.llr([0, 0, 0, 0, n]) >= upper),
            _fewest_pairs(lambda n: self.llr([n, 0, 0, 0, 0]) <= lower),
        )

    def decide(self, pair_points: np.ndarray) -> "Verdict":
        """The test's verdict over pairs in order (``pair_points``: each pair's candidate points,
        0 to 2 in halves): at the first pair whose LLR reaches a bound, else at the cap, else
        undecided (``decision`` None: more pairs are needed)."""
        points = np.asarray(pair_points, dtype=float)[: self.cap // 2]
        outcomes = np.rint(points * 2).astype(int)
        if len(outcomes) and (outcomes.min() < 0 or outcomes.max() > 4):
            raise ValueError(f"a pair's points are 0 to 2, got {points.min()}..{points.max()}")
        cumulative = np.cumsum(np.eye(5, dtype=int)[outcomes], axis=0)
        llrs = self.llr(cumulative) if len(outcomes) else np.zeros(0)
        lower, upper = self.bounds
        crossed = np.flatnonzero((llrs <= lower) | (llrs >= upper))
        if len(crossed):
            pairs, stopped = int(crossed[0]) + 1, "bound"
        elif len(outcomes) == self.cap // 2:
            pairs, stopped = len(outcomes), "cap"
        else:
            pairs, stopped = len(outcomes), None
        llr = float(llrs[pairs - 1]) if pairs else 0.0
        decision = None if stopped is None else ("high" if llr > (lower + upper) / 2 + TIE else "low")
        counts = cumulative[pairs - 1] if pairs else np.zeros(5, dtype=int)
        return Verdict(self, pairs, tuple(int(c) for c in counts), llr, decision, stopped)


@dataclass(frozen=True)
class Verdict:
    """Where a test stands after ``pairs`` pairs: their outcome ``counts`` (pairs scoring 0, 1/4,
    ..., 1), the ``llr``, the ``decision`` ("high": at least ``test.high``; "low": at most
    ``test.low``; None: undecided yet) and what ``stopped`` it ("bound", "cap" or None)."""

    test: SPRT
    pairs: int
    counts: tuple[int, ...]
    llr: float
    decision: str | None
    stopped: str | None

    @classmethod
    def from_dict(cls, record: dict) -> "Verdict":
        """The verdict that :meth:`as_dict` wrote (a zoo card's figure keeps it)."""
        test = SPRT(record["low"], record["high"], record["alpha"], record["beta"], record["cap"])
        counts = tuple(record["pairs"])
        return cls(test, sum(counts), counts, record["llr"], record["decision"], record["stopped"])

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def points(self) -> float:
        return float(np.dot(self.counts, PAIR_SCORES) * 2)

    def sentence(self) -> str:
        """The verdict in words, e.g. "accepted >= 0.95 (not <= 0.85) after 46 games: LLR 2.98 reached 2.94"."""
        lower, upper = self.test.bounds
        if self.decision is None:
            return f"undecided after {self.games} games: LLR {self.llr:.3g} between {lower:.3g} and {upper:.3g}"
        accepted, rejected = (
            (f">= {self.test.high:g}", f"<= {self.test.low:g}")
            if self.decision == "high"
            else (f"<= {self.test.low:g}", f">= {self.test.high:g}")
        )
        if self.stopped == "bound":
            how = f"LLR {self.llr:.3g} reached {upper if self.decision == 'high' else lower:.3g}"
        else:
            how = f"the cap decided: LLR {self.llr:.3g} nearer {upper if self.decision == 'high' else lower:.3g}"
        return f"accepted {accepted} (not {rejected}) after {self.games} games: {how}"

    def as_dict(self) -> dict:
        """The test's settings and verdict, as ``results.json`` and a zoo card's figure keep them."""
        lower, upper = self.test.bounds
        return {
            "low": self.test.low,
            "high": self.test.high,
            "alpha": self.test.alpha,
            "beta": self.test.beta,
            "cap": self.test.cap,
            "llr": round(self.llr, 4),
            "llr_bounds": [round(lower, 4), round(upper, 4)],
            "pairs": list(self.counts),
            "decision": self.decision,
            "stopped": self.stopped,
        }


def _fewest_pairs(reaches) -> int:
    """The fewest pairs ``n`` with ``reaches(n)``, for a condition that holds from some ``n`` on
    (a clean run's LLR grows with its length); a huge number where none up to 2**30 does."""
    high = 1
    while not reaches(high):
        high *= 2
        if high > 2**30:
            return 2**30
    low = high // 2  # reaches(low) is false (or low is 0)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return high


def constrained_mle(counts: np.ndarray, mean: float) -> np.ndarray:
    """The distribution over :data:`PAIR_SCORES` of highest likelihood for ``counts`` (all > 0,
    shape ``(..., 5)``) among those of mean ``mean`` (in (0, 1)): ``counts / (N * (1 + t * d))``
    with ``d = PAIR_SCORES - mean`` and ``t`` where ``sum(counts * d / (1 + t * d)) = 0``.

    That sum falls as ``t`` rises across ``(-1 / (1 - mean), 1 / mean)``, where every
    ``1 + t * d`` is positive; the root is found by Newton's method kept inside a shrinking bracket."""
    d = PAIR_SCORES - mean
    shape = counts.shape[:-1]
    low, high = np.full(shape, -1 / (1 - mean)), np.full(shape, 1 / mean)
    t = np.zeros(shape)
    settled = np.zeros(shape, dtype=bool)  # a row stops moving once its step is negligible: its result
    for _ in range(NEWTON_STEPS):  # then depends on its own counts alone, not on the rows beside it
        denominator = 1 + t[..., None] * d
        value = np.sum(counts * d / denominator, axis=-1)
        slope = -np.sum(counts * d * d / denominator**2, axis=-1)
        low, high = np.where(value > 0, t, low), np.where(value > 0, high, t)
        step = t - value / slope
        step = np.where((step > low) & (step < high), step, (low + high) / 2)
        settled |= np.abs(step - t) <= 1e-13 * (1 + np.abs(t))
        t = np.where(settled, t, step)
        if settled.all():
            break
    p = counts / (1 + t[..., None] * d)
    return p / np.sum(p, axis=-1, keepdims=True)


def simulate(
    test: SPRT, pair_probabilities: np.ndarray, runs: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` tests of a candidate whose pairs score 0, 1/4, ..., 1 with ``pair_probabilities``:
    each run's decision (True: "at least high") and games played."""
    pairs = test.cap // 2
    outcomes = rng.choice(5, size=(runs, pairs), p=pair_probabilities)
    cumulative = np.cumsum(np.eye(5, dtype=np.int32)[outcomes], axis=1)
    llrs = test.llr(cumulative)
    lower, upper = test.bounds
    crossed = (llrs <= lower) | (llrs >= upper)
    stop = np.where(crossed.any(axis=1), crossed.argmax(axis=1), pairs - 1)
    final = llrs[np.arange(runs), stop]
    return final > (lower + upper) / 2 + TIE, 2 * (stop + 1)


def pair_probabilities(win: float, draw: float = 0.0, seat_edge: float = 0.0) -> np.ndarray:
    """The chances of a pair's five outcomes for a candidate that wins a game with chance ``win``
    and draws with chance ``draw``, its games independent; ``seat_edge`` moves that many wins to
    the first seat's game from the second's (the score stays ``win + draw / 2``)."""
    games = [np.array([1 - w - draw, draw, w]) for w in (win + seat_edge, win - seat_edge)]
    if any((g < -1e-12).any() for g in games):
        raise ValueError(f"no such player: win {win}, draw {draw}, seat edge {seat_edge}")
    return np.convolve(*[np.maximum(g, 0.0) for g in games])


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
