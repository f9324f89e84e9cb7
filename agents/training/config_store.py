"""The ``agent`` config group, built from the dataclasses' defaults (Hydra's ConfigStore).

``agent: alphazero`` in ``configs/train.yaml`` is the node registered here: its
``search``, ``selfplay`` and ``learner`` sections hold every field of
:class:`~agents.search.mcts.SearchConfig`,
:class:`~agents.training.selfplay.SelfPlayConfig` and
:class:`~agents.training.learner.LearnerConfig` with its default. So each
default is stated once, in its dataclass (with a comment saying what it does),
and every key is still overridable on the command line
(``agent.search.num_simulations=100``) and by the recipes in
``configs/experiment/``. The node is plain data, not a typed structured config:
the dataclasses validate the values, and their errors name the key. Importing
this module registers the node (``agents.training.loop`` imports it).
"""

from __future__ import annotations

from dataclasses import asdict

from hydra.core.config_store import ConfigStore

from agents.search.mcts import SearchConfig
from agents.training.learner import LearnerConfig
from agents.training.selfplay import SelfPlayConfig

# section of the agent group -> the dataclass that holds its defaults and validates it
AGENT_SECTIONS = {"search": SearchConfig, "selfplay": SelfPlayConfig, "learner": LearnerConfig}


def agent_defaults() -> dict:
    """The ``agent: alphazero`` node: every section's fields with their defaults."""
    return {section: asdict(kind()) for section, kind in AGENT_SECTIONS.items()}


ConfigStore.instance().store(group="agent", name="alphazero", node=agent_defaults())
