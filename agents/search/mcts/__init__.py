"""PUCT Monte Carlo tree search over the engine API (no torch).

One :class:`MCTS` object holds the game and a :class:`SearchConfig`; it
searches any number of states against an :class:`Estimator` that returns
priors and per-seat values::

    mcts = MCTS(game, SearchConfig(num_simulations=200))
    result = mcts.search(state, RolloutEstimator(game, rng), rng)
    action = select_action(result, temperature=0.0, rng=rng)

Values per seat
---------------
Every node keeps the sum of backed-up value *vectors* (one entry per seat) and
a node where seat ``s`` acts ranks its children by their value for ``s``. No
sign is ever flipped, so a seat that moves several times in a row (the
micro-steps of a neutral-game turn, Odoku's coin picking the same seat twice,
the pie-rule swap) is handled like any other move.

Selection (PUCT) at a decision node with visit count ``N`` picks the child
``a`` that maximises::

    Q_s(a) + c_puct * P(a) * sqrt(N) / (1 + N(a))

``Q_s(a)`` is the child's mean value for the mover ``s``; an unvisited child
counts as the node's own mean value for ``s`` minus ``fpu_reduction``
(first-play urgency). ``N`` includes the visit that expanded the node, so the
first choice follows the priors. ``P`` is the estimator's prior restricted to
the legal actions and renormalised (uniform when that row has no positive
mass over them, or a negative or NaN entry).

Chance nodes
------------
``chance="expectation"``: expanding a chance node expands all its outcomes at
once; its value is the probability-weighted mean of its outcome children's
values (exact for Odoku's two coin outcomes). Later simulations descend into
the outcome whose share of visits lags its probability the most
(``argmax p_i * (n + 1) - n_i``), a deterministic stratified choice.
``chance="sample"``: each simulation samples one outcome with the search's
rng, and the node's value is the mean of what was backed up through it.

Simulations
-----------
``num_simulations`` counts every simulation, including the first one that
expands the root, so a decision root's children share
``num_simulations - 1`` visits. Each simulation adds one leaf (all the outcome
children at once for an expanded chance node in expectation mode) and calls
the estimator for the new decision states. :meth:`MCTS.search_many` runs
independent searches in lockstep and estimates the leaves of one simulation
wave, one per search, in a single ``estimate`` call (how self-play and
evaluation games batch a network); each search may draw from a generator of its
own, so that its result does not depend on which searches share its waves.

Leaf values mixed with playouts
-------------------------------
With ``playout_mix = m > 0`` a new leaf's value is ``(1 - m) * v + m * z``:
``v`` the estimator's value, ``z`` the returns of one random playout from the
leaf (``game.random_playout`` with the search's rng), as AlphaGo mixed its
value network with rollouts. Where a random playout already says much about a
position (the end of a normal-play game, Odoku), a young network's value
gains from it at the cost of one playout per leaf.

Root noise
----------
With ``add_noise=True`` a decision root's priors become
``(1 - dirichlet_fraction) * P + dirichlet_fraction * Dir(alpha)`` with
``alpha = dirichlet_alpha`` or, when that is None, ``10 / n_legal`` (AlphaZero's
0.3 for chess, 0.03 for Go scale like this). A chance root gets no noise.

Gumbel root search
------------------
With ``gumbel=True`` a decision root follows Gumbel MuZero (Danihelka et al.,
ICLR 2022), which improves the policy even with a handful of simulations:
``gumbel_actions`` root actions with the top ``g + logits`` (``g`` Gumbel noise
when ``add_noise``, else zero) share the budget by sequential halving on
``g + logits + sigma(q)`` (:mod:`~agents.search.mcts.halving`); the result's
``selected`` is the action to play and ``improved_policy`` the policy target.
Below the root, selection is PUCT as above; Dirichlet noise is not used.

Representation
--------------
The nodes of one ``search_many`` call live in flat arrays
(:class:`~agents.search.mcts.tree.Tree`), and each node's position in an int32 row.
One driver (:mod:`~agents.search.mcts.driver`) runs every game, micro-steps and chance
nodes included, under PUCT with any estimator, ``fpu_reduction``, either chance mode, root
noise, the playout mix and the Gumbel root: selection (``kernels.walk``), expansion (chance
nodes' outcomes too), terminal detection and backup (``kernels.backup``) of every root run
in its kernels, with Python only between estimator calls and, with ``gumbel``, sequential
halving's choice of each root child per wave. For a game with compiled rules
(``game.compiled()``, an ``envs.compiled.CompiledGame``: every registered game) the kernels
are numba over the game's rows. A game written in plain Python against ``envs.core.Game``
(``compiled()`` is None, the on-ramp for a first try) runs the same kernels as Python over
:class:`~agents.search.mcts.python_rows.PythonRows`, whose rows are handles into a table of
engine states and whose ``legal``/``apply``/``to_play``/``returns``/``chance`` call the
game's methods: slower, with the results of a Python loop over engine states
(``tests/reference_search.py``), where a playout is ``game.random_playout`` with a generator
seeded by the playout's seed.

A network (an estimator with ``estimate_planes`` over the search's game) gets the new
leaves' observation planes, legal masks and movers built from the rows in numba, where the
game registers ``observe`` (every registered game); any other estimator gets the leaves
decoded into engine states. Random rollouts (``RolloutEstimator`` of the search's game) and
uniform estimates run the whole search in one kernel call (one per wave with ``gumbel``). A
rollout's seed is one raw draw of the estimator's generator (``envs.kernels.playout_seed``)
and the rollout plays ``game.random_playout`` for it; with ``playout_mix`` each new leaf's
playout is seeded from its root's generator in leaf order. A sampled chance outcome takes
``rng.random()`` as one raw draw of its root's generator, so a sampling search of a game with
chance nodes needs generators whose ``random()`` is one raw draw (numpy's ``default_rng``,
PCG64; MT19937 is refused with a ValueError).

Leaf estimates
--------------
The search asks an *estimator* (:class:`Estimator`: ``estimate(states)`` gives
priors and per-seat values) at each new leaf: a network (``agents.net.NetEstimator``),
random rollouts or uniform priors (``agents.search.estimators``). The word is the
search's own, apart from *evaluation*, which in this project measures players
(``agents.evaluation``, ``evaluate.py``).

Modules
-------
``config`` (:class:`SearchConfig`), ``interface`` (the leaf estimator's protocol,
:class:`SearchResult`, choosing an action), ``search`` (:class:`MCTS`), ``driver`` (the
driver: its kernels and the arrays of one search), ``python_rows`` (plain-Python games' rows),
``tree`` (the node and edge arrays), ``kernels`` (numba over those arrays), ``halving``
(Gumbel sequential halving at the root).
"""

from agents.search.mcts.config import CHANCE_MODES, SearchConfig
from agents.search.mcts.halving import considered_visits
from agents.search.mcts.interface import Estimator, SearchResult, select_action, temperature_schedule
from agents.search.mcts.search import MCTS

__all__ = [
    "CHANCE_MODES",
    "MCTS",
    "Estimator",
    "SearchConfig",
    "SearchResult",
    "considered_visits",
    "select_action",
    "temperature_schedule",
]
