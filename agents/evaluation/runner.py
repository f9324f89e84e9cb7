"""The game runner: one game (:func:`play_game`), a match (:func:`play_match`), seeded
parallel batches of games between player specs (:func:`play_games`, several at once
:func:`play_batches`); a game's record is :func:`envs.records.game_record`.

Every evaluation (training's periodic checks, ``evaluate.py``) goes through
these functions, so chance nodes, resets and results are handled once; a game
is played by :func:`envs.core.play_out`, the loop the env plays its opponents
with too::

    result = play_game(game, [make_player("random", game), make_player("oracle", game)], rng)
    result.returns, result.winner, result.num_turns, result.info   # info: e.g. Odoku's score

In a batch, game ``k`` draws every random choice (chance outcomes and the
players' own) from its own generator, spawned as child ``k`` of
``np.random.SeedSequence(seed)``, and every player is reset before each game,
so a batch's results do not depend on the number of worker processes
(:class:`agents.pool.WorkerPool`). Each worker builds the game and one player
per (seat, spec) once, from the game config (``{"name": ..., **params}``) and
the spec strings.

``batch_games=B`` cuts the games into fixed groups of ``B`` consecutive games
and plays each group in lockstep (:func:`play_lockstep`): one ``act_many`` per
player per wave, so an ``az`` player's network sees one batch of positions per
simulation for all the games of its group instead of one position at a time.
A game still draws only from its own generator and the groups do not depend on
the workers, so results stay independent of ``workers``. They equal the games
of ``batch_games=1`` exactly for every player but ``az``: the network's outputs
for a position differ in the last float bits (about 1e-8) with the batch it is
evaluated in (CPU, measured), so an ``az`` game may take another turn where two
choices are that close, and the games differ from ``batch_games=1`` (each
``batch_games`` is reproducible in itself, on the same machine).

``opening=K`` starts every game with K whole turns played at random from the
game's own generator (:func:`random_turns`), so that deterministic players play
varied games; the turns are part of the game's actions and record.

``duplicate=True`` plays duplicate matches, for games with a chance setup (Sudoku
Moyo's puzzle, Odoku's coin): the lineups come in pairs, the second the first
with the seats swapped, and both games of pair ``j`` draw every chance outcome
(and the ``opening``) from one chance generator, child ``j`` of
``SeedSequence([seed, DUPLICATE_STREAM])``: the same puzzle, the same sequence of
coins, the same opening, each player once in each seat. The players' own choices
still draw from the game's generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from agents.config import game_from_config
from agents.players.player import Player, RandomPlayer
from agents.players.registry import make_player
from agents.pool import WorkerPool
from envs.core import Game, play_out
from envs.records import split_turns


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game.

    ``returns`` per seat, ``winner`` (seat or None for a draw), ``actions`` (every
    action including chance outcomes, in order: replayable from the start),
    ``num_decisions`` (actions chosen by players), ``num_turns`` (record turns,
    ``envs.records.split_turns``), ``info`` (``game.outcome_info``, e.g. Odoku's
    ``score``).
    """

    returns: tuple[float, ...]
    winner: int | None
    actions: tuple[int, ...]
    num_decisions: int
    num_turns: int
    info: dict[str, Any] = field(default_factory=dict)


def play_game(
    game: Game,
    players: Sequence[Player],
    rng: np.random.Generator,
    state=None,
    opening: int = 0,
    chance_rng: np.random.Generator | None = None,
) -> GameResult:
    """Play one game: ``players[seat]`` acts for ``seat``; chance outcomes drawn from ``rng``,
    or from ``chance_rng`` when given (which then plays the opening too: duplicate matches).

    Every player is ``reset()`` first. An illegal action from a player raises the
    engine's ``IllegalActionError`` (naming the action); it is never skipped.
    ``opening=K``: the first K turns are random (:func:`random_turns`), then the players play.
    """
    _check_lineup(game, players)
    for player in players:
        player.reset()
    start = game.initial_state() if state is None else state.copy()
    state = start.copy()
    actions: list[int] = []
    decisions = random_turns(game, state, rng if chance_rng is None else chance_rng, opening, actions)
    decisions += play_out(game, state, rng, dict(enumerate(players)), actions, chance_rng)
    return _result(game, start, state, actions, decisions)


def random_turns(game: Game, state, rng: np.random.Generator, turns: int, actions: list[int]) -> int:
    """Play ``turns`` whole turns in place, each decision uniform among the legal actions
    and chance drawn from ``rng`` (fewer if the game ends); returns the decisions made.
    A random opening gives deterministic players varied games (``evaluate.py opening=K``)."""
    decisions, random = 0, RandomPlayer(game)
    for _ in range(turns):
        play_out(game, state, rng, {}, actions)  # chance, up to a decision or the end
        if game.is_terminal(state):
            break
        mover = game.to_play(state)
        while game.to_play(state) == mover:
            action = int(random.act(state, rng))
            game.apply(state, action)
            actions.append(action)
            decisions += 1
    return decisions


def play_lockstep(
    game: Game,
    lineups: Sequence[Sequence[Player]],
    rngs: Sequence[np.random.Generator],
    opening: int = 0,
    chance_rngs: Sequence[np.random.Generator | None] | None = None,
) -> list[GameResult]:
    """Play one game per lineup together: game ``k`` as ``play_game(game, lineups[k],
    rngs[k])`` plays it, but in waves: every unfinished game advances through chance
    (drawn from its own generator) to its next decision, then the player object
    that most games wait on decides for all of them with one ``act_many`` (the
    other games wait, so that each call gets as many positions as it can).

    With players whose ``act_many`` draws for position ``i`` exactly what ``act``
    draws (every player here), each game equals its ``play_game`` as long as
    the players' evaluations do not depend on which positions share a call.
    Games with a player that keeps state between moves (``Player.keeps_state``)
    are played alone, one after another. ``opening`` and ``chance_rngs`` (one per game
    or None) as ``opening`` and ``chance_rng`` in :func:`play_game`.
    """
    if len(rngs) != len(lineups):
        raise ValueError(f"play_lockstep needs one generator per game: {len(lineups)} games, {len(rngs)} generators")
    chance = list(chance_rngs) if chance_rngs is not None else [None] * len(lineups)
    if len(chance) != len(lineups):
        raise ValueError(f"play_lockstep needs one chance generator per game: {len(lineups)} games, {len(chance)}")
    chance = [rng if c is None else c for rng, c in zip(rngs, chance)]
    results: dict[int, GameResult] = {}
    for k, players in enumerate(lineups):
        _check_lineup(game, players)
        if any(player.keeps_state for player in players):
            results[k] = play_game(game, players, rngs[k], opening=opening, chance_rng=chance[k])
    together = [k for k in range(len(lineups)) if k not in results]
    for player in {id(p): p for k in together for p in lineups[k]}.values():
        player.reset()
    start = game.initial_state()
    states = {k: start.copy() for k in together}
    actions: dict[int, list[int]] = {k: [] for k in together}
    decisions = {k: random_turns(game, states[k], chance[k], opening, actions[k]) for k in together}
    while together:
        waiting: dict[int, tuple[Player, list[int]]] = {}  # id(player) -> (player, its games)
        for k in together:
            play_out(game, states[k], rngs[k], {}, actions[k], chance[k])  # chance, up to a decision or the end
            if not game.is_terminal(states[k]):
                player = lineups[k][game.to_play(states[k])]
                waiting.setdefault(id(player), (player, []))[1].append(k)
        if waiting:  # the player most games wait on decides; the others' games wait for a larger batch
            player, games = max(waiting.values(), key=lambda entry: len(entry[1]))
            chosen = player.act_many([states[k] for k in games], [rngs[k] for k in games])
            for k, action in zip(games, chosen, strict=True):
                game.apply(states[k], action)
                actions[k].append(int(action))
                decisions[k] += 1
        for k in together:
            if game.is_terminal(states[k]):
                results[k] = _result(game, start, states[k], actions[k], decisions[k])
        together = [k for k in together if k not in results]
    return [results[k] for k in range(len(lineups))]


def _check_lineup(game: Game, players: Sequence[Player]) -> None:
    if len(players) != game.info.num_seats:
        raise ValueError(f"{game.info.name} needs {game.info.num_seats} players, got {len(players)}")


def _result(game: Game, start, state, actions: list[int], decisions: int) -> GameResult:
    """The result of the game played from ``start`` to the final ``state`` by ``actions``."""
    return GameResult(
        returns=tuple(float(r) for r in game.returns(state)),
        winner=game.winner(state),
        actions=tuple(actions),
        num_decisions=decisions,
        num_turns=len(split_turns(game, actions, start)),
        info=dict(game.outcome_info(state)),
    )


@dataclass(frozen=True)
class MatchResult:
    """Many games of ``players[0]`` (the candidate) against ``players[1]``.

    ``seats[i]`` is the seat the candidate held in game i, ``games[i]`` its
    result. ``score`` is the candidate's mean of win 1, draw 0.5, loss 0;
    ``mean_return`` its mean return (Odoku: the normalised score from its seat).
    """

    seats: tuple[int, ...]
    games: tuple[GameResult, ...]

    @property
    def score(self) -> float:
        points = [0.5 if g.winner is None else float(g.winner == seat) for seat, g in zip(self.seats, self.games)]
        return float(np.mean(points)) if points else float("nan")

    @property
    def mean_return(self) -> float:
        values = [g.returns[seat] for seat, g in zip(self.seats, self.games)]
        return float(np.mean(values)) if values else float("nan")

    def info_mean(self, key: str) -> float:
        """Mean of an outcome fact over the games, e.g. ``info_mean("score")`` for Odoku."""
        return float(np.mean([g.info[key] for g in self.games]))


def play_match(
    game: Game,
    candidate: Player,
    opponent: Player,
    num_games: int,
    rng: np.random.Generator,
    seats: Sequence[int] | None = None,
) -> MatchResult:
    """Play ``num_games`` games; the candidate alternates seats (0, 1, 0, ...) unless
    ``seats`` fixes them (e.g. ``[0]`` to always play seat 0)."""
    if num_games < 0:
        raise ValueError(f"num_games must be >= 0, got {num_games}")
    seat_cycle = tuple(seats) if seats is not None else tuple(range(game.info.num_seats))
    if not seat_cycle or any(s not in range(game.info.num_seats) for s in seat_cycle):
        raise ValueError(f"seats must be seats of {game.info.name}, got {seats!r}")
    played_seats, results = [], []
    for i in range(num_games):
        seat = seat_cycle[i % len(seat_cycle)]
        lineup = [opponent] * game.info.num_seats
        lineup[seat] = candidate
        results.append(play_game(game, lineup, rng))
        played_seats.append(seat)
    return MatchResult(seats=tuple(played_seats), games=tuple(results))


# --- seeded, parallel batches of games ----------------------------------------------
def play_games(
    game_cfg: dict,
    lineups: Sequence[Sequence[str]],
    seed: int,
    workers: int = 1,
    progress: bool = False,
    batch_games: int = 1,
    opening: int = 0,
    duplicate: bool = False,
    done: Mapping[int, GameResult] | None = None,
    on_played: Callable[[int, GameResult], None] | None = None,
) -> list[GameResult]:
    """Play one game per lineup (the spec of each seat); results in lineup order.
    ``opening=K``: every game starts with K random turns (:func:`random_turns`);
    ``duplicate``: the lineups are seat-swapped pairs sharing their chance (the module's docstring);
    ``done``, ``on_played``: games already played and a callback for each new one
    (:func:`play_batches`)."""
    (results,) = play_batches(
        game_cfg, [lineups], seed, workers, progress, batch_games, opening, duplicate, done, on_played
    )
    return results


def play_batches(
    game_cfg: dict,
    batches: Sequence[Sequence[Sequence[str]]],
    seed: int,
    workers: int = 1,
    progress: bool = False,
    batch_games: int = 1,
    opening: int = 0,
    duplicate: bool = False,
    done: Mapping[int, GameResult] | None = None,
    on_played: Callable[[int, GameResult], None] | None = None,
) -> list[list[GameResult]]:
    """Play several batches of lineups on one pool of workers; each batch's games are
    those :func:`play_games` plays for it with the same ``seed`` (game ``k`` of every
    batch draws from child ``k`` of ``SeedSequence(seed)``).

    The games of all batches, in order, are cut into groups of ``batch_games``
    consecutive games (the same groups for any number of workers); a worker plays
    a group's games in lockstep (:func:`play_lockstep`). ``duplicate``: every batch's
    lineups are seat-swapped pairs, and each pair shares one chance generator.

    Games are numbered across the batches, from 0. ``done`` holds games already played
    (a resumed match's, :mod:`agents.evaluation.journal`): a group whose games are all there
    is not played again (one with some of its games there is, and those keep their saved
    results), and since every game draws only from its own seeds, the results are those of
    one uninterrupted run. ``on_played(number, result)`` is called for each new game, group by
    group, in order, as soon as its group and those before it are done."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if not isinstance(batch_games, int) or isinstance(batch_games, bool) or batch_games < 1:
        raise ValueError(f"batch_games must be an integer >= 1, got {batch_games!r}")
    if not isinstance(opening, int) or isinstance(opening, bool) or opening < 0:
        raise ValueError(f"opening must be an integer >= 0, got {opening!r}")
    jobs = []
    for lineups in batches:
        seeds = np.random.SeedSequence(seed).spawn(len(lineups))
        chance = duplicate_chance_seeds(lineups, seed) if duplicate else [None] * len(lineups)
        jobs += [(tuple(lineup), child, luck) for lineup, child, luck in zip(lineups, seeds, chance)]
    done = dict(done or {})
    starts = [
        start
        for start in range(0, len(jobs), batch_games)
        if not all(number in done for number in range(start, min(start + batch_games, len(jobs))))
    ]
    groups = [jobs[start : start + batch_games] for start in starts]

    def save(position: int, group_results: list[GameResult]) -> None:
        for number, result in enumerate(group_results, start=starts[position]):
            if number in done:  # saved before, with the rest of its group unplayed: the same game
                continue
            done[number] = result
            if on_played is not None:
                on_played(number, result)

    processes = workers if workers > 1 and len(groups) > 1 else 0
    with WorkerPool(processes, _seating, dict(game_cfg), opening) as pool:
        pool.map(_play_group, groups, progress="game" if progress else "", count=len, each=save)
    results = [done[number] for number in range(len(jobs))]
    ends = np.cumsum([len(lineups) for lineups in batches]).tolist()
    return [results[end - len(lineups) : end] for lineups, end in zip(batches, ends)]


DUPLICATE_STREAM = 0x6475706C  # "dupl": the chance generators of duplicate pairs, apart from the games' own


def duplicate_chance_seeds(lineups: Sequence[Sequence[str]], seed: int) -> list[np.random.SeedSequence]:
    """One chance seed per game, the same for both games of each seat-swapped pair; a ValueError
    unless the lineups come in such pairs (``[a, b], [b, a], ...``)."""
    pairs = [tuple(lineups[k : k + 2]) for k in range(0, len(lineups), 2)]
    for number, pair in enumerate(pairs):
        if len(pair) != 2 or tuple(pair[1]) != tuple(pair[0])[::-1] or len(pair[0]) != 2:
            raise ValueError(
                f"duplicate matches need the games in seat-swapped pairs of two players ([a, b] then [b, a]); "
                f"games {2 * number + 1}.. are {[list(lineup) for lineup in pair]}"
            )
    children = np.random.SeedSequence([seed, DUPLICATE_STREAM]).spawn(len(pairs))
    return [children[k // 2] for k in range(len(lineups))]


def _seating(game_cfg: dict, opening: int) -> dict:
    """A worker's game and its players, built once per (seat, spec) and reused."""
    return {"game": game_from_config(game_cfg), "players": {}, "opening": opening}


def _play_group(seating: dict, group) -> list[GameResult]:
    game: Game = seating["game"]
    players: dict[tuple[int, str], Player] = seating["players"]
    lineups = []
    for lineup, _, _ in group:
        for seat, spec in enumerate(lineup):
            if (seat, spec) not in players:
                players[seat, spec] = make_player(spec, game)
        lineups.append([players[seat, spec] for seat, spec in enumerate(lineup)])
    rngs = [np.random.default_rng(seed_seq) for _, seed_seq, _ in group]
    chance = [None if luck is None else np.random.default_rng(luck) for _, _, luck in group]
    return play_lockstep(game, lineups, rngs, seating["opening"], chance)
