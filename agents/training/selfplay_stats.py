"""What an iteration's self-play games say about whether a run can learn.

A value head learns nothing from games that all end in draws, and little from games
that end by a turn cap rather than by play; a policy head learns nothing from
targets as flat as its own output. :func:`outcome_scalars` gives, for any game,
the shares of the games each seat won outright and of draws, the length's
percentiles, and the share that ended for each reason the game states
(``Game.outcome_info(state)["reason"]``: Hop Chess's ``"400 turns"`` is its turn
cap); :func:`entropy` is the entropy of policy rows, which the learner logs for
its targets and for the network.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import numpy as np

from envs.core import winner_of

LENGTH_PERCENTILES = (10, 50, 90)


def outcome_scalars(
    returns: Sequence[Sequence[float]], lengths: Sequence[int], reasons: Sequence[str | None], known: Iterable[str] = ()
) -> dict[str, float]:
    """TensorBoard scalars of a set of finished games: ``selfplay/won_by_seat<k>``,
    ``selfplay/draws``, ``selfplay/game_length_p<q>`` and ``selfplay/end/<reason>`` (a
    share of the games; reasons in ``known`` that no game gave are logged as 0, so a
    curve has no gaps). Games without a reason count in no ``end/`` share."""
    scalars: dict[str, float] = {}
    if not returns:
        return scalars
    winners = [winner_of(r) for r in returns]
    for seat in range(len(returns[0])):
        scalars[f"selfplay/won_by_seat{seat}"] = winners.count(seat) / len(winners)
    scalars["selfplay/draws"] = winners.count(None) / len(winners)
    for q in LENGTH_PERCENTILES:
        scalars[f"selfplay/game_length_p{q}"] = float(np.percentile(lengths, q))
    for reason in dict.fromkeys([*known, *(r for r in reasons if r)]):
        scalars[f"selfplay/end/{reason_tag(reason)}"] = sum(r == reason for r in reasons) / len(reasons)
    return scalars


def reason_tag(reason: str) -> str:
    """A tag from a game's stated reason: ``"400 turns"`` -> ``"400_turns"``."""
    return re.sub(r"[^a-z0-9]+", "_", reason.lower()).strip("_")


def entropy(policy: np.ndarray) -> np.ndarray:
    """Entropy in nats of each row of ``policy`` (probabilities; zeros add nothing)."""
    p = np.asarray(policy, dtype=np.float64)
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=-1)
