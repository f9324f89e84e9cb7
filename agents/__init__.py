"""neuzero agents, one package per concern; dependencies point one way, down this list.

``search`` (tree search and estimators without a network; never imports torch),
``net`` (the PyTorch network, the network as a batched search estimator, loading
checkpoints as networks), ``players`` (the ``Player`` interface, the spec
registry and every player), ``evaluation`` (the game runner, matches, round
robins, ratings, statistics and ``evaluate.py``'s modes) and ``training`` (the
loop, self-play, learner, replay buffer, saving and resuming). Two modules
serve them all: ``agents.config`` (what ``train.py`` and ``evaluate.py`` share
about their configs) and ``agents.pool`` (the one worker pool, for self-play
and for batches of games). Every package depends only on ``envs``, those two
modules and the packages above it in this list.
"""

import envs.numba_cache  # noqa: F401  (first: numba's cache folder before any kernel)
from agents.players import PLAYER_SPECS, Player, make_player

__all__ = ["PLAYER_SPECS", "Player", "make_player"]
