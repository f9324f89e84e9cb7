"""The opponents of a single-agent env: a registry of spec kinds that ``envs`` owns and player packages fill.

An opponent is anything with ``act(state, rng) -> action`` (and optionally
``reset()``, called at every ``env.reset``), or a plain callable
``policy(state, rng) -> action``, or a spec string such as ``"random"``,
``"mcts:200"`` or ``"az:PATH[:SIMS]"``. A spec's kind (the text before its first
``:``) names a factory ``(spec, game) -> opponent`` (or a policy callable) registered here with
:func:`register_opponent_kind`; ``agents`` registers every player kind when it
is imported (``agents.players.registry``).

``envs`` never imports ``agents``. Instead, the first time a spec names a kind
that nobody has registered, :func:`make_opponent` imports each module listed in
:data:`PROVIDERS` (``["agents"]``; a plugin entry point in all but name, and
another package of players can append itself), so
``gymnasium.make("Odoku-v0", opponent="mcts:200")`` works after ``import envs``
alone. A spec whose kind is still unknown raises a ``ValueError`` naming the
spec, the registered kinds and the providers it tried.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

from envs.core import Game

OpponentFactory = Callable[[str, Game], Any]

# kind -> factory(spec, game); filled by the providers when they are imported
_KINDS: dict[str, OpponentFactory] = {}

# modules imported, once, on the first lookup of a kind nobody registered
PROVIDERS: list[str] = ["agents"]
_loaded: set[str] = set()


def register_opponent_kind(kind: str, factory: OpponentFactory) -> None:
    """Make specs ``KIND`` and ``KIND:ARGS`` build opponents with ``factory(spec, game)``."""
    _KINDS[kind] = factory


def make_opponent(spec: str, game: Game) -> Any:
    """The opponent a spec string names, built for ``game``."""
    kind = spec.strip().split(":", 1)[0]
    if kind not in _KINDS:
        _load_providers()
    if kind not in _KINDS:
        raise ValueError(
            f"unknown opponent spec {spec!r}: no opponent kind {kind!r} is registered "
            f"(registered: {', '.join(sorted(_KINDS)) or 'none'}; providers imported: "
            f"{', '.join(PROVIDERS) or 'none'}). Kinds are registered by importing the package "
            f"that defines them, e.g. `import agents`, or with envs.opponents.register_opponent_kind"
        )
    return _as_opponent(_KINDS[kind](spec, game), spec)


def resolve_opponent(opponent: Any, game: Game) -> Any:
    """None, a spec string, an object with ``act(state, rng)``, or a callable ``(state, rng) -> action``."""
    if opponent is None:
        return None
    if isinstance(opponent, str):
        return make_opponent(opponent, game)
    return _as_opponent(opponent, opponent)


def _as_opponent(opponent: Any, given: Any) -> Any:
    if callable(getattr(opponent, "act", None)):
        return opponent
    if callable(opponent):
        return _Policy(opponent)
    raise ValueError(
        f"opponent must be None, a player spec string, an object with act(state, rng) or a callable, got {given!r}"
    )


class _Policy:
    """A plain function ``policy(state, rng) -> action`` as an opponent."""

    def __init__(self, policy: Callable):
        self.policy = policy

    def act(self, state, rng) -> int:
        return int(self.policy(state, rng))


def _load_providers() -> None:
    for module in PROVIDERS:
        if module not in _loaded:
            _loaded.add(module)
            import_module(module)
