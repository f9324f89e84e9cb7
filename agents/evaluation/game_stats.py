"""Game-design statistics from finished games: fairness, length, kinds of turn, pie rule.

Every game is replayed from its action list, so the figures come from the
engine alone. Per batch of games (:func:`game_statistics`):

=======================  ====================================================================
``first_seat``           seat 0's win / draw / loss counts and rates, each with its 95% Wilson interval
``turns``                game length in record turns: mean, min, 10/50/90th percentile, max
``turn_kinds``           share of all turns of each kind (below)
``pie``                  games in which ``swap-sides`` was offered, and the share of those
                         in which it was taken
``legal_actions``        mean number of legal actions per decision (every micro-step) and
                         per turn start (the first step of a turn)
``distinct_games``       how many different games (action lists) were played: two players
                         that choose deterministically repeat one game per seating
=======================  ====================================================================

Branching (:func:`legal_turns_by_turn`): the number of complete legal turns
(``envs.turns``: every way to finish the turn, a drop and its neutral counted
as one turn) at each turn start of a game, counted up to a cap.

Turn kinds (docs/rules.md, the neutral mutator; each game names its own, ``game.turn_kind``):
``drop`` (stone then neutral, or a NeuVersi stone whose neutral is left out),
``swap`` (two neutrals and a stone given back), ``fill`` and ``convert`` (the
end-game rules), ``pass``, ``swap-sides``; ``place`` for one stone in the plain
games (Hex, Gomoku, Reversi) and Odoku, and for a turn of the schedule's full count in the
scheduled games (Amazons, Hexxagon); ``short`` for a scheduled turn that ended before its
count (docs/rules.md, the turn-schedule mutator).
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from agents.evaluation.intervals import score_interval
from agents.evaluation.runner import GameResult
from envs.core import CHANCE, Game
from envs.records import split_turns
from envs.turns import iter_turns

TURN_CAP = 20000  # legal turns counted per position at most (a neutral turn on a big board has more)

KINDS = ("drop", "swap", "fill", "convert", "pass", "swap-sides", "place", "short")


def game_facts(game: Game, actions: Sequence[int]) -> dict:
    """Turn kinds, legal-action counts and pie facts of one game."""
    state = game.initial_state()
    kinds: Counter = Counter()
    per_decision, per_turn = [], []
    pie_offered = False
    swap_sides = getattr(game, "SWAP_SIDES", None)
    for turn in split_turns(game, actions):
        turn = list(turn)
        while turn and game.to_play(state) == CHANCE:
            game.apply(state, turn.pop(0))
        if not turn:
            continue
        kinds[game.turn_kind(state, turn)] += 1
        for step, action in enumerate(turn):
            legal = game.legal_actions(state)
            per_decision.append(len(legal))
            if step == 0:
                per_turn.append(len(legal))
                pie_offered |= swap_sides is not None and swap_sides in legal
            game.apply(state, action)
    return {
        "turns": sum(kinds.values()),
        "kinds": kinds,
        "per_decision": per_decision,
        "per_turn": per_turn,
        "pie_offered": pie_offered,
        "pie_taken": kinds["swap-sides"] > 0,
    }


def first_seat_rates(results: Sequence[GameResult]) -> dict:
    """Seat 0's win / draw / loss counts and rates over ``results``, each with its 95% Wilson interval."""
    n = len(results)
    outcomes = Counter("draw" if r.winner is None else ("win" if r.winner == 0 else "loss") for r in results)
    rates = {}
    for outcome in ("win", "draw", "loss"):
        low, high = score_interval(outcomes[outcome], n)
        rates[outcome] = {"rate": outcomes[outcome] / n, "ci_low": low, "ci_high": high, "games": outcomes[outcome]}
    return rates


def distinct_games(results: Sequence[GameResult]) -> int:
    """The number of different action lists among ``results``."""
    return len({r.actions for r in results})


def repeats_warning(results: Sequence[GameResult]) -> str | None:
    """A warning when games repeat: their rates then count far fewer independent games
    than they seem to (deterministic players; ``opening=K`` varies the starts)."""
    distinct = distinct_games(results)
    if distinct > len(results) // 2:
        return None
    return (
        f"warning: only {distinct} distinct games among {len(results)}: the players choose deterministically, "
        "so the intervals overstate what was measured; opening=K starts each game from K random turns"
    )


def game_statistics(game: Game, results: Sequence[GameResult]) -> dict:
    """The table in the module docstring, as a JSON-ready dict."""
    if not results:
        raise ValueError("game statistics need at least one game")
    facts = [game_facts(game, r.actions) for r in results]
    n = len(results)
    lengths = np.array([f["turns"] for f in facts])
    kinds = sum((f["kinds"] for f in facts), Counter())
    total_turns = sum(kinds.values())
    offered = sum(f["pie_offered"] for f in facts)
    taken = sum(f["pie_taken"] for f in facts)
    return {
        "games": n,
        "first_seat": first_seat_rates(results),
        "turns": {
            "mean": float(lengths.mean()),
            "min": int(lengths.min()),
            **{f"p{q}": float(np.percentile(lengths, q)) for q in (10, 50, 90)},
            "max": int(lengths.max()),
        },
        "turn_kinds": {kind: kinds[kind] / total_turns for kind in KINDS if kinds[kind]},
        "pie": {"offered": offered, "taken": taken, "taken_share": taken / offered if offered else None},
        "distinct_games": distinct_games(results),
        "legal_actions": {
            "per_decision": float(np.mean([x for f in facts for x in f["per_decision"]])),
            "per_turn_start": float(np.mean([x for f in facts for x in f["per_turn"]])),
        },
    }


def legal_turns_by_turn(game: Game, actions: Sequence[int], cap: int = TURN_CAP) -> list[int]:
    """The number of complete legal turns at each turn start of the game ``actions``
    (at most ``cap``: a count equal to ``cap`` means at least that many)."""
    state, counts = game.initial_state(), []
    for turn in split_turns(game, actions):
        turn = list(turn)
        while turn and game.to_play(state) == CHANCE:
            game.apply(state, turn.pop(0))
        if not turn:
            continue
        count = 0
        for count, _ in enumerate(iter_turns(game, state), start=1):
            if count >= cap:
                break
        counts.append(count)
        for action in turn:
            game.apply(state, action)
    return counts
