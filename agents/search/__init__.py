"""Tree search over the engine API, and what it needs without a network (no torch).

:mod:`~agents.search.mcts` is the PUCT Monte Carlo tree search (``MCTS``,
``SearchConfig``, the ``Estimator`` protocol, action selection);
:mod:`~agents.search.estimators` holds estimators that need no network (uniform
priors, random rollouts, a plain function) for baselines and tests;
:mod:`~agents.search.solver` computes exact game values of tiny boards by
alpha-beta. Nothing in this package imports torch or any other ``agents``
package: it depends on ``envs`` alone.
"""
