"""Tree search over the engine API, and what it needs without a network (no torch).

:mod:`~agents.search.mcts` is the PUCT Monte Carlo tree search (``MCTS``,
``SearchConfig``, the ``Evaluator`` protocol, action selection);
:mod:`~agents.search.evaluators` holds evaluators that need no network (uniform
priors, random rollouts, a plain function) for baselines and tests;
:mod:`~agents.search.solver` computes exact game values of tiny boards by
alpha-beta. Nothing in this package imports torch or any other ``agents``
package: it depends on ``envs`` alone.
"""
