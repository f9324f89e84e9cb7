"""A match's journal: its games saved one by one as they end, so that a stopped match resumes.

``evaluate.py mode=match`` writes ``match.jsonl`` into its run directory: a first line
with the settings that decide the games (the game, the players, a digest of each network
file they load, the games per pair, seed, opening, duplicate, batch_games), then one line
per game as it ends (its number in the match and its result), flushed to disk. A match
killed or signalled keeps every game that ended; ``resume=DIR`` continues it::

    python evaluate.py game=blockdance game.size=6 "players=[zoo,mcts:1600]" games=200 hydra.run.dir=DIR
    python evaluate.py game=blockdance game.size=6 "players=[zoo,mcts:1600]" games=200 resume=DIR

The resumed command must decide the same games (a differing setting, or a network file
changed since, is refused, naming it); ``workers`` and ``progress`` may differ. A caller
may keep the journal elsewhere (``path``): ``benchmarks/zoo_measure.py`` keeps a card's in
the zoo's folder, where it is committed with the repository. Every game
draws only from its own seeds (:mod:`agents.evaluation.runner`), so the games a resumed
match plays are those one uninterrupted run plays, on the same code and machine.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from agents.config import ConfigError
from agents.evaluation.runner import GameResult
from agents.players.registry import network_file

JOURNAL = "match.jsonl"
FORMAT = "neuzero match journal 1"


def match_settings(game_cfg: dict, specs: list[str], **decisive: Any) -> dict:
    """The settings that decide a match's games: the game, the player specs and a digest of each
    network file they load (so that a network changed since is noticed), and ``decisive``."""
    networks = {}
    for spec in specs:
        path = network_file(spec, game_cfg["name"])
        if path is not None and path.is_file():
            networks[spec] = hashlib.sha256(path.read_bytes()).hexdigest()
    # as the journal keeps them: JSON's lists and numbers, compared alike when resumed
    return json.loads(json.dumps({"game": game_cfg, "players": list(specs), "networks": networks, **decisive}))


class MatchJournal:
    """The games of one match saved so far (``games``: number -> result), and where to add more."""

    def __init__(self, path: Path, games: dict[int, GameResult]):
        self.path = path
        self.games = games

    @classmethod
    def start(cls, run_dir: Path, settings: dict, path: Path | None = None) -> "MatchJournal":
        """A new journal in ``run_dir`` (or at ``path``); refused where one is already kept
        (``resume=`` continues it)."""
        path = Path(path) if path is not None else Path(run_dir) / JOURNAL
        if path.exists():
            raise ConfigError(
                f"{run_dir} already holds a match ({path}): resume={run_dir} continues it, "
                "another hydra.run.dir starts a new one"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        _append(path, {"format": FORMAT, "settings": settings})
        return cls(path, {})

    @classmethod
    def resume(cls, run_dir: Path, settings: dict, path: Path | None = None) -> "MatchJournal":
        """The journal kept in ``run_dir`` (or at ``path``), checked to be of a match with these ``settings``."""
        path = Path(path) if path is not None else Path(run_dir) / JOURNAL
        if not path.is_file():
            raise ConfigError(f"resume: {run_dir} holds no match to continue (no {path})")
        lines = path.read_bytes().split(b"\n")
        header = _parse(lines[0])
        if not isinstance(header, dict) or header.get("format") != FORMAT or "settings" not in header:
            raise ConfigError(f"resume: {path} is not a match journal (its first line is not a {FORMAT!r} header)")
        found = differences(header["settings"], settings)
        if found:
            raise ConfigError(
                f"resume: the match in {run_dir} was played with other settings; "
                + "; ".join(found)
                + " (resume with the same command, or start another hydra.run.dir)"
            )
        games = {}
        last = max(index for index, line in enumerate(lines) if line.strip())
        for index in range(1, last + 1):
            if not lines[index].strip():
                continue
            game = _game(_parse(lines[index]))
            if game is None:
                if index == last:  # cut off by a kill mid-write: that game is played again
                    path.write_bytes(b"\n".join(lines[:index]) + b"\n")
                    break
                raise ConfigError(f"resume: line {index + 1} of {path} is not a saved game: {lines[index][:80]!r}")
            games[game[0]] = game[1]
        return cls(path, games)

    def add(self, number: int, result: GameResult) -> None:
        """Save game ``number``'s result, on disk before this returns."""
        self.games[number] = result
        _append(self.path, {"number": number, **dataclasses.asdict(result)})


def _append(path: Path, record: dict) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, default=_plain) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def _plain(value: Any) -> Any:
    """numpy scalars and arrays in an outcome's info, as JSON takes them."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"a match journal cannot save {type(value).__name__} {value!r}")


def _parse(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def _game(record: Any) -> tuple[int, GameResult] | None:
    """A saved game's number and result, or None for a line that is not one."""
    fields = {field.name for field in dataclasses.fields(GameResult)}
    if not isinstance(record, dict) or set(record) != fields | {"number"} or not isinstance(record["number"], int):
        return None
    try:
        return record["number"], GameResult(
            returns=tuple(float(r) for r in record["returns"]),
            winner=record["winner"],
            actions=tuple(int(a) for a in record["actions"]),
            num_decisions=int(record["num_decisions"]),
            num_turns=int(record["num_turns"]),
            info=dict(record["info"]),
        )
    except (TypeError, ValueError):
        return None


def differences(saved: dict, now: dict) -> list[str]:
    """One phrase for each setting in which the saved match and this command differ."""
    phrases = []
    for key in sorted(set(saved) | set(now)):
        if saved.get(key) != now.get(key):
            if key == "networks":
                changed = sorted(
                    spec for spec in set(saved[key]) | set(now[key]) if saved[key].get(spec) != now[key].get(spec)
                )
                phrases.append(f"the network file of {', '.join(changed)} has changed since")
            else:
                phrases.append(f"{key}: {json.dumps(saved.get(key))} then, {json.dumps(now.get(key))} now")
    return phrases
