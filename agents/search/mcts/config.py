"""The search's parameters (``agent.search`` in the configs)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from agents.config import check

CHANCE_MODES = ("expectation", "sample")


@dataclass(frozen=True)
class SearchConfig:
    """Search parameters (``agent.search`` in the configs; these defaults are the config's).

    Invalid values raise ValueError naming the field.
    """

    num_simulations: int = 32  # simulations per search, the root expansion included
    c_puct: float = 1.25  # exploration constant of the PUCT formula
    dirichlet_alpha: float | None = None  # root noise concentration; None: 10 / number of legal actions
    dirichlet_fraction: float = 0.25  # weight of the noise in the root priors
    chance: str = "expectation"  # at chance nodes: "expectation" or "sample"
    fpu_reduction: float = 0.0  # an unvisited child's value: its node's value minus this
    playout_mix: float = 0.0  # a leaf's value: (1 - mix) * the estimator's + mix * one random playout's returns
    gumbel: bool = False  # Gumbel root search (sequential halving); self-play then learns its improved policy
    gumbel_actions: int = 16  # root actions sampled for sequential halving
    gumbel_c_visit: float = 50.0  # sigma(q) = (c_visit + max N) * c_scale * q,
    gumbel_c_scale: float = 1.0  # with q rescaled to [0, 1] over the root's children

    def __post_init__(self):
        check("num_simulations", self.num_simulations, "integer", low=1)
        check("c_puct", self.c_puct, "number", low=0.0)
        if self.dirichlet_alpha is not None:
            check("dirichlet_alpha", self.dirichlet_alpha, "number", low=0.0, strict=True)
        check("dirichlet_fraction", self.dirichlet_fraction, "number", low=0.0, high=1.0)
        check("fpu_reduction", self.fpu_reduction, "number")
        check("playout_mix", self.playout_mix, "number", low=0.0, high=1.0)
        check("chance", self.chance, "choice", choices=CHANCE_MODES)
        check("gumbel", self.gumbel, "bool")
        check("gumbel_actions", self.gumbel_actions, "integer", low=1)
        check("gumbel_c_visit", self.gumbel_c_visit, "number", low=0.0)
        check("gumbel_c_scale", self.gumbel_c_scale, "number", low=0.0)


def with_settings(base: dict, pairs: list[str]) -> dict:
    """``base`` (``agent.search`` settings) with each ``KEY=VALUE`` of ``pairs`` applied, the
    value read as the field's type; raises ValueError naming the pair for an unknown key or a bad
    value (the result is checked by :class:`SearchConfig`)."""
    fields = [field.name for field in dataclasses.fields(SearchConfig)]
    settings = {**dataclasses.asdict(SearchConfig()), **base}
    for pair in pairs:
        key, _, value = pair.partition("=")
        if key not in fields or not value:
            raise ValueError(f"{pair!r}: not KEY=VALUE of agent.search (keys: {', '.join(fields)})")
        current = settings[key]
        try:
            if isinstance(current, bool):
                if value not in ("true", "false"):
                    raise ValueError
                settings[key] = value == "true"
            else:
                settings[key] = float(value) if current is None else type(current)(value)
        except ValueError:
            raise ValueError(f"{pair!r}: {key} takes {_kind(current)}, got {value!r}") from None
    SearchConfig(**settings)
    return settings


def changed_settings(base: dict, pairs: list[str]) -> dict:
    """The settings ``KEY=VALUE`` ``pairs`` set over ``base``, each read as its field's type
    (:func:`with_settings` checks them)."""
    settings = with_settings(base, pairs)
    return {key: settings[key] for key in (pair.partition("=")[0] for pair in pairs)}


def _kind(current) -> str:
    if isinstance(current, bool):
        return "true or false"
    return "a number" if current is None or isinstance(current, float) else f"a {type(current).__name__}"
