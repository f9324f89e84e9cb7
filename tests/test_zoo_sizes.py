"""A zoo network trained across board sizes plays each of them and refuses the others, naming
both; ``zoo:GAME@any`` plays it at any size (zero-shot); single-size files load as before."""

import json

import numpy as np
import pytest
import torch
from test_init_weights import train

from agents.evaluation.runner import play_game
from agents.evaluation.zoo_cards import default_changes, format_card
from agents.net.checkpoint import load_checkpoint
from agents.net.zoo import ZooError, card_problems, load_network, read_card, weights_path, zoo_boards
from agents.net.zoo.export import export_network, trained_sizes
from agents.players.player import RandomPlayer
from agents.players.registry import make_player
from envs.core import make_game

MEASURED = {"name": "f", "command": "x", "games": 1, "value": 1.0, "interval": [0.0, 1.0]}
MEASURED |= {"target": "none", "met": True, "verdict": "v", "date": "2026-12-07"}


@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    """A tiny Nex run over sizes 3 and 4 (one iteration that learned), exported into a zoo
    folder with a measured card."""
    directory = tmp_path_factory.mktemp("mixed")
    overrides = ["experiment=smoke", "game=nex", "game.size=[3,4]", "eval.every=0", "agent.learner.min_replay=1"]
    run = train(directory / "run", *overrides, "train.iterations=1")
    assert load_checkpoint(run.checkpoint)["step"] == 3  # it learned
    _, card = export_network(run.checkpoint, ["python train.py"], "c", "m", directory=directory / "zoo")
    card.write_text(json.dumps(json.loads(card.read_text()) | {"figures": [MEASURED]}))
    return directory / "zoo"


@pytest.fixture
def players_from(monkeypatch):
    """``zoo`` specs play the networks of the folder given."""

    def use(directory):
        monkeypatch.setattr(
            "agents.players.zoo_player.load_network",
            lambda name, game, any_size=False: load_network(name, game, directory, any_size),
        )

    return use


def plays_a_legal_game(spec: str, game) -> None:
    """``spec`` plays a whole game against random from each seat (an illegal action raises)."""
    rng = np.random.default_rng(0)
    for seat in (0, 1):
        lineup = [RandomPlayer(game), RandomPlayer(game)]
        lineup[seat] = make_player(spec, game)
        result = play_game(game, lineup, rng)
        assert result.winner in (0, 1) and len(result.actions) >= game.info.params["size"]


def test_the_export_records_every_size_of_the_run(zoo):
    entry = torch.load(zoo / "nex.pt", weights_only=True)
    assert entry["sizes"] == [3, 4] and entry["game"]["params"]["size"] == 4  # the game at its largest size
    card = read_card("nex", zoo)
    assert card["sizes"] == [3, 4] and card_problems(card) == []
    assert zoo_boards(zoo) == {"nex": {"board": {"size": 4}, "sizes": [3, 4]}}


def test_a_network_plays_each_size_it_was_trained_on_and_refuses_the_others(zoo, players_from):
    players_from(zoo)
    for size in (3, 4):
        plays_a_legal_game("zoo:nex:2", make_game("nex", size=size))
        plays_a_legal_game("zoo:nex:0", make_game("nex", size=size))
    with pytest.raises(
        ZooError,
        match=r"nex.pt was trained on nex at sizes 3 and 4, not at the size asked, 5; "
        r"zoo:nex@any plays it at any size, untrained there \(zero-shot\)$",
    ):
        make_player("zoo:nex", make_game("nex", size=5))
    with pytest.raises(ZooError, match=r"is for nex\(pie_rule=False, size=4\), not nex\(pie_rule=True, size=4\)"):
        make_player("zoo:nex@any", make_game("nex", size=4, pie_rule=True))  # @any: any size, never other rules


def test_any_plays_a_size_it_was_not_trained_on(zoo, players_from):
    players_from(zoo)
    plays_a_legal_game("zoo:nex@any:2", make_game("nex", size=5))
    plays_a_legal_game("zoo:nex@any", make_game("nex", size=3))  # its own sizes too
    assert make_player("zoo:nex@any:2", make_game("nex", size=5)).name == "zoo:nex@any:2"
    for bad in ("zoo:@any", "zoo:nex@all", "zoo:ne@x@any"):
        with pytest.raises(ValueError, match="@any follows the network's name, as in zoo:GAME@any"):
            make_player(bad, make_game("nex", size=5))


def test_az_plays_a_zoo_format_file_at_any_size_and_only_its_game(zoo):
    """A progress file (agents/net/zoo/training/, the zoo's format) is a player where no run
    directory is left: ``az:PATH`` at its sizes and others, never another game."""
    spec = f"az:{zoo / 'nex.pt'}"
    plays_a_legal_game(f"{spec}:2", make_game("nex", size=5))
    plays_a_legal_game(f"{spec}:0", make_game("nex", size=3))
    with pytest.raises(ZooError, match=r"is for nex\(pie_rule=False, size=4\), not nex\(pie_rule=True, size=4\)"):
        make_player(spec, make_game("nex", size=4, pie_rule=True))
    with pytest.raises(ZooError, match="zoo network .*nex.pt.* hex"):
        make_player(spec, make_game("hex", size=4))


def test_mode_zoo_shows_the_sizes_and_the_board_they_leave_out(zoo):
    card = read_card("nex", zoo)
    text = format_card(card).splitlines()
    assert "  sizes: trained on 3 and 4, plays each (zoo:nex@any: any size, zero-shot)" in text
    assert "  board: size=3 and 4 (default 11); it refuses the default board" in text
    assert default_changes(card) == {"size": 4}
    assert default_changes(card | {"sizes": [4, 11]}) == {}  # the default size among them: its default board


def test_a_single_size_file_plays_its_one_size_and_any_with_the_override():
    """The shipped files record one size and no list: Hex 11's network plays 11 alone."""
    assert "sizes" not in torch.load(weights_path("hex"), weights_only=True)
    assert read_card("hex")["game"]["params"]["size"] == 11 and "sizes" not in read_card("hex")
    with pytest.raises(ZooError, match=r"hex.pt was trained on hex at size 11, not at the size asked, 5; zoo:hex@any"):
        make_player("zoo:hex", make_game("hex", size=5))
    plays_a_legal_game("zoo:hex@any:0", make_game("hex", size=5))


def test_sizes_on_a_card_are_checked():
    card = read_card("hex")
    assert card_problems(card | {"sizes": [5, 11]}) == []
    for bad in ([11], [5, 7], [5, "11"], 11):
        assert card_problems(card | {"sizes": bad}) == [
            f"sizes must list the two or more board sizes it was trained on, 11 among them; got {bad!r}"
        ]


def test_trained_sizes_are_the_union_of_a_schedule():
    schedule = [{"from_iteration": 1, "sizes": [5]}, {"from_iteration": 3, "sizes": [7, 5], "weights": [1, 3]}]
    assert trained_sizes({"game": {"size": schedule}}, "x.pt") == [5, 7]
    assert trained_sizes({"game": {"size": {"sizes": [9, 5], "weights": [1, 1]}}}, "x.pt") == [5, 9]
    assert trained_sizes({"game": {"size": 11}}, "x.pt") == [11]
    assert trained_sizes({"game": {"name": "odoku"}}, "x.pt") == []
