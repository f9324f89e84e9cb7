"""Player specs that arrive from outside (a browser, a JSON query): the registry's specs, with
checkpoints only from the directory the command line names.

``az:NAME[:SIMS]`` names a file inside ``checkpoint_dir`` by its path relative to it; an
absolute path, a ``..`` or a link that leads out of the directory is refused, and without
a ``checkpoint_dir`` there is no ``az`` at all. ``human`` is the person at the board, not a
spec an agent seat can take.
"""

from __future__ import annotations

from pathlib import Path

from agents.players.player import Player
from agents.players.registry import PLAYER_SPECS, make_player, split_name
from envs.core import Game

MAX_SPEC_LENGTH = 200
MAX_SIMULATIONS = 100_000  # an agent's budget a move: more would hold the server for minutes


class SpecError(ValueError):
    """A player spec that is not allowed from outside; the message says why."""


class PlayerSource:
    """Builds players for ``game`` from outside specs; ``checkpoint_dir`` holds the ``az`` checkpoints."""

    def __init__(self, checkpoint_dir: str | Path | None = None):
        self.checkpoint_dir = None if checkpoint_dir is None else Path(checkpoint_dir).resolve()
        if self.checkpoint_dir is not None and not self.checkpoint_dir.is_dir():
            raise SpecError(f"checkpoint_dir: {checkpoint_dir} is not a directory")

    def kinds(self) -> list[str]:
        """The spec forms an agent seat may take, for the page's menu and error messages."""
        forms = [kind for kind in PLAYER_SPECS if kind != "human"]
        return [form for form in forms if form != "az" or self.checkpoint_dir is not None]

    def checkpoints(self) -> list[str]:
        """The checkpoint files in ``checkpoint_dir`` (paths relative to it), for ``az:NAME``."""
        if self.checkpoint_dir is None:
            return []
        return sorted(str(path.relative_to(self.checkpoint_dir)) for path in self.checkpoint_dir.rglob("*.pt"))

    def make(self, spec, game: Game) -> Player:
        """The player of ``spec`` for ``game``; SpecError or the registry's ValueError otherwise."""
        if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC_LENGTH:
            raise SpecError(f"a player spec must be a non-empty string of at most {MAX_SPEC_LENGTH} characters")
        name, bare = split_name(spec)
        kind, *args = bare.split(":")
        if kind == "human":
            raise SpecError("'human' is the person at the board; an agent seat takes random, mcts:N, az:NAME, ...")
        budget = args[-1] if kind in ("mcts", "zoo") and args or (kind == "az" and len(args) > 1) else ""
        if budget.strip().isdigit() and int(budget) > MAX_SIMULATIONS:
            raise SpecError(f"{bare}: at most {MAX_SIMULATIONS} simulations a move here")
        if kind == "az":
            bare = ":".join(["az", str(self._checkpoint(args[0] if args else "")), *args[1:]])
        player = make_player(bare, game)
        player.name = name or spec.strip()
        return player

    def _checkpoint(self, name: str) -> Path:
        if self.checkpoint_dir is None:
            raise SpecError("az: no checkpoint directory was named on the command line (checkpoint_dir=DIR)")
        if not name or Path(name).is_absolute() or ".." in Path(name).parts:
            raise SpecError(f"az:{name}: name a checkpoint by its path inside the checkpoint directory")
        path = (self.checkpoint_dir / name).resolve()
        if not path.is_relative_to(self.checkpoint_dir) or not path.is_file():
            raise SpecError(f"az:{name}: no such checkpoint in the checkpoint directory")
        return path
