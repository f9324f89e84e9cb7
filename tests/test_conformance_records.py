"""Every registered game's records read back: random games written by each writer in the
project (``envs.records.game_record``, the board's download, ``evaluate.py``'s match records
and mode=play's ``game.txt``) and read by each reader (``envs.records.replay_record``, the
board's "Open record") replay to the same end: the same game, position and result."""

from __future__ import annotations

import io
import json
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hydra import compose, initialize_config_dir
from small_games import SMALL
from test_envs import random_game

from agents.evaluation.modes import evaluate
from envs import GAMES, make_game
from envs.records import format_game, game_record, parse_header, read_record, replay_record

ROOT = Path(__file__).resolve().parents[1]
# boards where a random game takes a few dozen actions, Hop Chess long enough for captures
# after the first turn (its notation's "Bc1:h6" once read as a header)
BOARDS = SMALL | {"hop_chess": {"max_turns": 20}}
# the long record of each game: its default board, or a smaller one where a random game there
# takes seconds to play and replay
LONG = {name: {} for name in GAMES} | {"send_it": {"size": 9}, "hexxagon_1344": {"size": 7}}
NAMES = list(GAMES)


def played(game, seed: int):
    return random_game(game, np.random.default_rng(seed))


def assert_same_end(game, state, other_game, other) -> None:
    """Two games (one built from a record's header) at the same position with the same result."""
    assert other_game.info == game.info
    assert other_game.render_text(other) == game.render_text(state)
    np.testing.assert_array_equal(other_game.observe(other), game.observe(state))
    assert other_game.is_terminal(other) == game.is_terminal(state)
    assert list(other_game.returns(other)) == list(game.returns(state))


def assert_captures_after_the_first_turn(name: str, turns: list[str]) -> None:
    """Hop Chess's records hold what broke them (a capture after the first turn)."""
    if name == "hop_chess":
        assert any(":" in turn for turn in turns[1:]), turns


@pytest.mark.parametrize("name", NAMES)
def test_random_games_written_as_records_read_back_to_the_same_end(name):
    cases = [(BOARDS[name], seed) for seed in range(3)] + [(LONG[name], 3)]
    for params, seed in cases:
        game = make_game(name, **params)
        actions, final = played(game, seed)
        text = game_record(game, actions, ["random", "random"])
        record = read_record(text)
        assert record.turns == format_game(game, actions)
        assert parse_header(record) == {"game": name, **game.info.params}
        assert_same_end(game, final, *replay_record(text))
        assert_captures_after_the_first_turn(name, record.turns)
    assert len(record.turns) >= 10  # the long game is long


# --- the board's download and "Open record" ---------------------------------------------------
@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")
    from agents.web.server import make_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note on httpx versions
        from starlette.testclient import TestClient

        yield TestClient(make_app(), raise_server_exceptions=False)


def answer(response) -> dict:
    assert response.status_code == 200, response.text
    return response.json()


SHOWN = ["game", "params", "board", "to_play", "over", "result", "winner", "returns", "turns"]


@pytest.mark.parametrize("name", NAMES)
def test_the_boards_download_opens_at_the_games_end(client, name):
    new = {"game": name, "params": BOARDS[name], "seats": ["random", "random"], "seed": 1}
    view = answer(client.post("/api/new", json=new))
    session = view["session"]
    while not view["over"]:
        view = answer(client.post("/api/step", json={"session": session}))
    download = client.get(f"/api/record/{session}")
    assert download.status_code == 200, download.text
    opened = answer(client.post("/api/replay", json={"record": download.text}))
    assert opened["positions"] == len(view["turns"]) + 1
    assert {key: opened.get(key) for key in SHOWN} == {key: view.get(key) for key in SHOWN}
    assert_captures_after_the_first_turn(name, view["turns"])


# --- evaluate.py's records ----------------------------------------------------------------------
def run_evaluate(run_dir: Path, name: str, *overrides: str) -> dict:
    board = [f"game.{key}={value}" for key, value in BOARDS[name].items()]
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = compose("evaluate", overrides=["progress=false", f"game={name}", *board, *overrides])
    return evaluate(cfg, run_dir, io.StringIO())


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_match_records_replay_to_each_games_end(tmp_path, name):
    """Each game's record (``games/*.txt``) ends where its actions in the match's journal do."""
    result = run_evaluate(tmp_path, name, "players=['one=random','two=random']", "games=2")
    lines = [json.loads(line) for line in (tmp_path / "match.jsonl").read_text().splitlines()]
    journal = sorted((line for line in lines if "actions" in line), key=lambda line: line["number"])
    assert len(result["games"]) == len(journal) == 2
    game = make_game(name, **BOARDS[name])
    for entry, saved in zip(result["games"], journal):
        state = game.initial_state()
        for action in saved["actions"]:
            game.apply(state, action)
        assert game.is_terminal(state) and list(game.returns(state)) == entry["returns"]
        assert_same_end(game, state, *replay_record((tmp_path / entry["file"]).read_text()))


class HintTaker(io.StringIO):
    """A person at mode=play's prompt who asks for a hint each turn and types it: the console
    (stdin and stdout) of a game against a random agent with random turns of one's own."""

    def __init__(self):
        super().__init__()
        self.hint: str | None = None

    def write(self, text: str) -> int:
        found = re.match(r"hint: (.+)", text)
        self.hint = found.group(1) if found else self.hint
        return len(text)

    def readline(self, size: int = -1) -> str:
        hint, self.hint = self.hint, None
        return f"{hint or 'hint'}\n"

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("name", NAMES)
def test_evaluate_play_game_txt_replays_to_the_games_end(tmp_path, monkeypatch, name):
    person = HintTaker()
    monkeypatch.setattr(sys, "stdin", person)
    monkeypatch.setattr(sys, "stdout", person)
    result = run_evaluate(tmp_path, name, "mode=play", "players=[human,random]")
    assert result["finished"]
    game = make_game(name, **BOARDS[name])
    state = game.initial_state()
    for action in result["actions"]:
        game.apply(state, action)
    replayed_game, replayed = replay_record((tmp_path / "game.txt").read_text())
    assert_same_end(game, state, replayed_game, replayed)
    assert_captures_after_the_first_turn(name, read_record((tmp_path / "game.txt").read_text()).turns)
