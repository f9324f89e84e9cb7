"""Measuring players: games, matches, round robins, ratings, statistics, ``evaluate.py``.

:mod:`~agents.evaluation.runner` is the one game runner (``play_game``,
``play_match``, seeded parallel batches by player spec with ``play_games``; a game's
record is ``envs.records.game_record``); :mod:`~agents.evaluation.tournament` schedules round
robins and tallies them, or plays two players' pairs until :mod:`~agents.evaluation.sprt`'s
sequential test decides; :mod:`~agents.evaluation.ratings` fits Bradley-Terry
ratings; :mod:`~agents.evaluation.intervals` gives confidence intervals of
scores and means; :mod:`~agents.evaluation.game_stats` computes game-design
statistics; :mod:`~agents.evaluation.odoku_measures` holds Odoku's exact
yardsticks; :mod:`~agents.evaluation.ladder`, :mod:`~agents.evaluation.luck` and
:mod:`~agents.evaluation.decisiveness` measure depth, luck and decisiveness for
:mod:`~agents.evaluation.report` (the game inventor's report, written as a page by
:mod:`~agents.evaluation.report_page`); :mod:`~agents.evaluation.modes` is what ``evaluate.py`` runs, one
function per ``mode``. Depends on ``agents.players`` (and below), never on
``agents.training``.
"""
