"""The JSON-lines analysis engine (``evaluate.py mode=analyse``), in the manner of KataGo's
analysis engine: one query a line in, one answer a line out, in the order of the queries.

A query::

    {"id": "q1", "game": "nex", "params": {"size": 5}, "moves": ["c3 b2", "d2"],
     "player": "mcts:400", "simulations": 400, "seed": 0}

``moves`` are record turns (``envs.records``; ``actions``, a list of action numbers, may
stand instead), ``params`` the game's parameters, ``player`` any spec of
:class:`agents.web.players.PlayerSource` (``az:NAME`` from the ``checkpoint_dir``),
``simulations`` and ``seed`` optional. The answer is :func:`agents.web.analysis.analyse`'s
with the query's ``id``: per move its visits, share, prior and values per seat, the root's
values, the principal variation. A query that cannot be answered gets ``{"id", "error"}``
and the engine reads on.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import TextIO

import numpy as np

from agents.web.analysis import analyse
from agents.web.players import PlayerSource
from envs.core import Game, make_game
from envs.records import replay

MAX_LINE = 1_000_000  # characters: a longer query is refused
PLAYER_CACHE = 8  # players kept between queries (a checkpoint loads once)


class Engine:
    """Answers queries; players (and the games they play) are kept for the next query."""

    def __init__(self, source: PlayerSource):
        self.source = source
        self.players: OrderedDict = OrderedDict()

    def answer(self, line: str) -> dict:
        """The answer to one query line (an error answer for a bad one)."""
        query_id = None
        try:
            if len(line) > MAX_LINE:
                raise ValueError(f"the query is over {MAX_LINE} characters")
            try:
                query = json.loads(line)
            except ValueError as error:
                raise ValueError(f"the query is not JSON: {error}") from None
            if not isinstance(query, dict):
                raise ValueError("a query must be a JSON object")
            query_id = query.get("id")
            return {"id": query_id} | self._analyse(query)
        except ValueError as error:  # GameError, SpecError, AnalysisError, bad fields
            return {"id": query_id, "error": str(error)}

    def _analyse(self, query: dict) -> dict:
        game, player = self._player(query.get("game"), query.get("params", {}), query.get("player", "mcts:200"))
        state = game.initial_state()
        if "actions" in query:
            actions = query["actions"]
            if not isinstance(actions, list):
                raise ValueError("actions must be a list of action numbers")
            for action in actions:
                game.apply(state, action)
        else:
            moves = query.get("moves", [])
            if not isinstance(moves, list):
                raise ValueError("moves must be a list of record turns, e.g. ['c3 b2', 'd2']")
            for state in replay(game, moves, state):
                pass
        seed = query.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
        return analyse(game, state, player, np.random.default_rng(seed), query.get("simulations"))

    def _player(self, name, params, spec) -> tuple[Game, object]:
        if not isinstance(name, str) or not isinstance(params, dict):
            raise ValueError("a query names its game ('game': 'nex') and may give 'params' as an object")
        key = json.dumps([name, params, spec], sort_keys=True, default=str)
        if key not in self.players:
            game = make_game(name, **params)
            self.players[key] = (game, self.source.make(spec, game))
            while len(self.players) > PLAYER_CACHE:
                self.players.popitem(last=False)
        self.players.move_to_end(key)
        return self.players[key]

    def run(self, queries: TextIO, answers: TextIO) -> int:
        """Answer every non-blank line of ``queries``; the number of queries answered."""
        count = 0
        for line in queries:
            if not line.strip():
                continue
            answers.write(json.dumps(self.answer(line)) + "\n")
            answers.flush()
            count += 1
        return count
