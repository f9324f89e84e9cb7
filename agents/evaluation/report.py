"""The game inventor's report: balance, depth, luck, decisiveness and length, branching.

:func:`game_report` plays every match the report needs and returns its
figures as a JSON-ready dict (``agents.evaluation.report_page`` writes it as
Markdown with PNG plots). Every section is measured from games played here,
by plain MCTS (``mcts:N``) unless an agent is given:

=================  ===========================================================================
balance            ``mcts:TOP`` against ``mcts:TOP/2``, each seat in turn (the stronger's edge
                   cancels between the seatings), ``balance_games`` games: seat 0's win and
                   draw rates, the pie rule's use; with and without the pie rule where the
                   game has one (``mode=stats`` with the same players and seed replays them)
depth              the ladder ``mcts:BASE`` .. ``mcts:TOP``, each rung against the one below,
                   ``rung_games`` each (``agents.evaluation.ladder``); with ``ladder=az:PATH``
                   or ``ladder=zoo`` also that agent at 2, 4, ... simulations, each of its games
                   from ``opening`` random turns (for a deterministic network's search)
luck               ``duplicate_pairs`` duplicate pairs of ``mcts:TOP`` against ``mcts:TOP/4``
                   (``agents.evaluation.luck``): the weaker's score against the Bradley-Terry
                   expectation of the ladder's gap, and the chance share of the outcome
decisiveness       the winner's value by a ``value_simulations`` search at every turn start of
                   ``value_games`` balance games (``agents.evaluation.decisiveness``); the
                   length distribution of all balance games
branching          complete legal turns at every turn start of ``branching_games`` balance games
=================  ===========================================================================

The ``budget`` names one row of :data:`BUDGETS`; the report's wall time grows
about linearly with ``rung_games`` and doubles with every extra doubling.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import asdict, dataclass

import numpy as np

from agents.config import ConfigError, game_from_config
from agents.evaluation.decisiveness import THRESHOLD, decided_turns, value_traces
from agents.evaluation.game_stats import first_seat_rates, game_statistics, legal_turns_by_turn
from agents.evaluation.ladder import (
    budget_specs,
    gap_per_doubling,
    highest_significant,
    play_ladder,
    significant_doublings,
)
from agents.evaluation.luck import chance_share, outcome_by_turns, play_duplicates, upset_rate
from agents.evaluation.runner import play_games


@dataclass(frozen=True)
class Budget:
    """How much a report plays (``budget=NAME``)."""

    base: int  # the ladder's lowest rung, mcts:BASE
    doublings: int  # rungs above it: the top is mcts:BASE * 2**doublings
    rung_games: int  # games per ladder rung
    balance_games: int  # games per balance variant (with / without the pie rule)
    duplicate_pairs: int  # duplicate pairs for luck
    value_games: int  # balance games whose turns are valued for decisiveness
    value_simulations: int  # the valuing search's simulations
    branching_games: int  # balance games whose legal turns are counted


BUDGETS = {
    "glance": Budget(8, 3, 10, 20, 10, 4, 32, 1),  # half quick's games, one doubling less
    "quick": Budget(8, 4, 20, 40, 20, 8, 64, 2),
    "standard": Budget(8, 5, 40, 100, 40, 12, 100, 3),
    "thorough": Budget(16, 8, 200, 400, 200, 60, 800, 10),
}


def budget_of(name) -> Budget:
    if name not in BUDGETS:
        raise ConfigError(f"budget: must be one of {', '.join(BUDGETS)}, got {name!r}")
    return BUDGETS[name]


def game_report(
    game_cfg: dict,
    budget: str,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    agent: str | None = None,
    opening: int = 0,
) -> dict:
    """Every figure of the report (module docstring) for the game of ``game_cfg``."""
    plan = budget_of(budget)
    game = game_from_config(game_cfg)
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    report = {
        "game": game.info.name,
        "params": dict(game.info.params),
        "game_cfg": dict(game_cfg),
        "budget": budget,
        "plan": asdict(plan),
        "seed": seed,
        "workers": workers,
        "cpu_count": os.cpu_count(),
        "sections": {},
    }
    ladder = budget_specs("mcts", plan.base, plan.doublings)
    top, second, fourth = ladder[-1], ladder[-2], ladder[-3]
    sections = report["sections"]

    clock = time.perf_counter()
    steps, chain = play_ladder(game_cfg, ladder, plan.rung_games, seed, workers, progress)
    per_doubling, per_doubling_ci = gap_per_doubling(chain)
    sections["depth"] = {
        "steps": [s.as_dict() for s in steps],
        "chain": chain.as_dict(),
        "elo_per_doubling": per_doubling,
        "elo_per_doubling_ci": per_doubling_ci,
        "significant_doublings": significant_doublings(steps),
        "highest_significant": highest_significant(steps),
    }
    if agent:
        agent_steps, agent_chain = play_ladder(
            game_cfg, budget_specs(agent, 2, plan.doublings), plan.rung_games, seed, workers, progress, opening=opening
        )
        agent_per_doubling, agent_per_doubling_ci = gap_per_doubling(agent_chain)
        sections["depth"]["agent"] = {
            "spec": agent,
            "opening": opening,
            "steps": [s.as_dict() for s in agent_steps],
            "chain": agent_chain.as_dict(),
            "elo_per_doubling": agent_per_doubling,
            "elo_per_doubling_ci": agent_per_doubling_ci,
            "significant_doublings": significant_doublings(agent_steps),
            "highest_significant": highest_significant(agent_steps),
        }
    sections["depth"]["seconds"] = time.perf_counter() - clock

    clock = time.perf_counter()
    balance_players = (top, second)
    variants = _balance_variants(game_cfg, game.info.params)
    lineups = [balance_players if g % 2 == 0 else balance_players[::-1] for g in range(plan.balance_games)]
    rows, default_results = [], None
    for label, variant_cfg, is_default in variants:
        results = play_games(variant_cfg, lineups, seed, workers, progress)
        stats = game_statistics(game_from_config(variant_cfg), results)
        by_first = {spec: first_seat_rates(results[parity::2]) for parity, spec in enumerate(balance_players)}
        rows.append({"variant": label, "game_cfg": variant_cfg, "default": is_default, **stats, "by_first": by_first})
        if is_default:
            default_results = results
    sections["balance"] = {"players": list(balance_players), "rows": rows, "seconds": time.perf_counter() - clock}

    clock = time.perf_counter()
    luck_players = (top, fourth)
    luck_lineups = [luck_players if k % 2 == 0 else luck_players[::-1] for k in range(plan.duplicate_pairs)]
    pairs = play_duplicates(game_cfg, luck_lineups, seed, workers, progress)
    seatings = [k % 2 for k in range(len(pairs))]
    games = [result for pair in pairs for result in pair]
    weaker_seats = [1 - s for s in seatings for _ in range(2)]  # pair k: the weaker sits at seat 1 when k is even
    gap = steps[-1].elo + steps[-2].elo
    gap_ci = float(np.hypot(steps[-1].elo_ci, steps[-2].elo_ci))
    sections["luck"] = {
        "players": list(luck_players),
        "has_chance": game.info.has_chance,
        "upsets": upset_rate(games, weaker_seats, gap, gap_ci),
        "chance_share": chance_share(pairs, seatings, seed).as_dict(),
        "by_turns": outcome_by_turns(game, default_results),
        "seat_names": list(game.info.seat_names),
        "seconds": time.perf_counter() - clock,
    }

    clock = time.perf_counter()
    won = [r for r in default_results if r.winner is not None][: plan.value_games]
    traces = value_traces(game_cfg, [r.actions for r in won], plan.value_simulations, seed, workers, progress)
    decided = [decided_turns(trace) for trace in traces]
    lengths = [r.num_turns for r in default_results]
    sections["decisiveness"] = {
        "lengths": lengths,
        "turns": next(row["turns"] for row in rows if row["default"]),
        "threshold": THRESHOLD,
        "value_simulations": plan.value_simulations,
        "traces": traces,
        "decided": decided,
        "decided_share": [d / len(t) for d, t in zip(decided, traces) if t],
        "seconds": time.perf_counter() - clock,
    }

    clock = time.perf_counter()
    counts = [legal_turns_by_turn(game, r.actions) for r in default_results[: plan.branching_games]]
    sections["branching"] = {
        "counts": counts,
        "per_decision": next(row["legal_actions"] for row in rows if row["default"]),
        "seconds": time.perf_counter() - clock,
    }
    report["seconds"] = time.perf_counter() - started
    report["cpu_seconds"] = _cpu_seconds() - cpu_started
    return report


def _cpu_seconds() -> float:
    """CPU time of this process and its finished worker processes (user + system)."""
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(u.ru_utime + u.ru_stime for u in usage)


def _balance_variants(game_cfg: dict, params: dict) -> list[tuple[str, dict, bool]]:
    """(label, game config, is the game's configured rule) for each balance variant."""
    if "pie_rule" not in params:
        return [("as configured", dict(game_cfg), True)]
    configured = bool(params["pie_rule"])
    return [
        (f"pie rule {'on' if pie else 'off'}", {**game_cfg, "pie_rule": pie}, pie == configured)
        for pie in (False, True)
    ]
