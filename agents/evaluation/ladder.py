"""The skill ladder: does more thinking keep paying off, and for how many doublings?

A ladder is a list of player specs, each meant to be stronger than the one
before (``mcts:16, mcts:32, mcts:64 ...``: every rung doubles the search).
Each rung's match is the round robin of ``mode=match`` between the stronger
spec and the weaker one (``players=[STRONGER,WEAKER]``, seats alternating,
the same ``seed``), so every rung's figure is reproduced by that command::

    steps, chain = play_ladder(game_cfg, budget_specs("mcts", 16, 4), games=40, seed=0)
    steps[0].elo, steps[0].elo_ci, steps[0].significant   # the first doubling's Elo gap
    chain.rating                                           # Elo of every rung, the first at 0

A rung's **Elo gap** is the Bradley-Terry fit of its match alone
(:mod:`agents.evaluation.ratings`, ``prior_draws`` virtual draws) with its 95%
interval; the gap is **significant** when the Wilson interval of the stronger
player's score lies wholly above 50%. The **chain** fits all rungs' games at
once, anchored at the first rung, for the plot of Elo against budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from agents.evaluation.ratings import Ratings
from agents.evaluation.runner import play_batches
from agents.evaluation.tournament import PairResult, Tournament, round_robin_schedule


@dataclass(frozen=True)
class LadderStep:
    """One rung: ``stronger`` against ``weaker``, counted from the stronger side."""

    weaker: str
    stronger: str
    pair: PairResult
    elo: float
    elo_ci: float

    @property
    def significant(self) -> bool:
        return self.pair.interval[0] > 0.5

    def as_dict(self) -> dict:
        low, high = self.pair.interval
        return {
            "weaker": self.weaker,
            "stronger": self.stronger,
            "games": self.pair.games,
            "wins": self.pair.wins,
            "draws": self.pair.draws,
            "losses": self.pair.losses,
            "score": self.pair.score,
            "ci_low": low,
            "ci_high": high,
            "elo": self.elo,
            "elo_ci": self.elo_ci,
            "significant": self.significant,
        }


def budget_specs(kind: str, base: int, doublings: int) -> list[str]:
    """``kind:base``, ``kind:2*base``, ... ``doublings`` times (``kind`` e.g. ``mcts`` or ``az:PATH``)."""
    if base < 1 or doublings < 1:
        raise ValueError(f"a ladder needs a base budget >= 1 and at least one doubling, got {base}, {doublings}")
    return [f"{kind}:{base * 2**k}" for k in range(doublings + 1)]


def rung_lineups(stronger: str, weaker: str, games: int) -> list[tuple[str, str]]:
    """The lineups ``mode=match players=[STRONGER,WEAKER] games=G`` plays, in its order."""
    specs = (stronger, weaker)
    return [tuple(specs[p] for p in seats) for seats in round_robin_schedule(2, games)]


def play_ladder(
    game_cfg: dict,
    specs: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    prior_draws: float = 1.0,
    opening: int = 0,
) -> tuple[list[LadderStep], Ratings]:
    """Play every rung (``specs[k + 1]`` against ``specs[k]``, ``games`` each) on one pool;
    the rungs' steps and the chain's ratings (``specs[0]`` = 0). ``opening``: every game starts
    with that many random turns (``mode=match opening=K``), for players without randomness."""
    if len(specs) < 2 or len(set(specs)) != len(specs):
        raise ValueError(f"a ladder needs at least two distinct specs, got {list(specs)}")
    rungs = [(specs[k + 1], specs[k]) for k in range(len(specs) - 1)]
    batches = [rung_lineups(stronger, weaker, games) for stronger, weaker in rungs]
    played = play_batches(game_cfg, batches, seed, workers, progress, opening=opening)
    schedule = round_robin_schedule(2, games)
    steps, chain_schedule, chain_results = [], [], []
    for k, ((stronger, weaker), results) in enumerate(zip(rungs, played)):
        match = Tournament(players=(stronger, weaker), schedule=tuple(schedule), results=tuple(results))
        ratings = match.ratings(prior_draws)  # the stronger is the first player: the anchor at 0
        steps.append(LadderStep(weaker, stronger, match.pairs()[0], -float(ratings.rating[1]), float(ratings.ci[1])))
        chain_schedule += [tuple(k + 1 if p == 0 else k for p in seats) for seats in schedule]
        chain_results += results
    chain = Tournament(players=tuple(specs), schedule=tuple(chain_schedule), results=tuple(chain_results))
    return steps, chain.ratings(prior_draws)


def significant_doublings(steps: Sequence[LadderStep]) -> int:
    """How many rungs (doublings) give the stronger side a significant edge."""
    return sum(step.significant for step in steps)


def highest_significant(steps: Sequence[LadderStep]) -> str | None:
    """The stronger spec of the highest rung with a significant edge (None: no rung has one)."""
    significant = [step.stronger for step in steps if step.significant]
    return significant[-1] if significant else None


def gap_per_doubling(chain: Ratings) -> tuple[float, float]:
    """The chain's mean Elo gain per rung (top rung's rating over the number of rungs) and its
    95% half-width (the top rung's interval, relative to the anchored first rung, over the rungs)."""
    rungs = len(chain.names) - 1
    return float(chain.rating[-1]) / rungs, float(chain.ci[-1]) / rungs
