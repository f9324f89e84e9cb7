"""The zoo: every shipped network loads, plays legally and beats random; every card is
complete and its commands compose; a network refuses any other game, rules or size."""

import dataclasses
import io
import json
import re
import shlex
import shutil
import subprocess

import gymnasium as gym
import numpy as np
import pytest
import torch
from checkout_scripts import load_script
from ctrl_c import stop_after
from hydra import compose, initialize_config_dir

import envs
from agents.evaluation.modes import evaluate
from agents.evaluation.runner import play_game, play_games
from agents.evaluation.sprt import SPRT
from agents.evaluation.zoo_cards import (
    CONFIGS,
    TEXT_BOARD_CARDS,
    TEXT_BOARD_TEST,
    PlannedFigure,
    batch_games_of,
    default_changes,
    figure_test,
    format_card,
    has_chance_setup,
    judge,
    planned_figures,
    read_figure,
    recipe_command,
)
from agents.net.network import NetConfig, PolicyValueNet
from agents.net.zoo import (
    FORMAT,
    ZooError,
    board_changes,
    card_path,
    card_problems,
    journal_path,
    load_network,
    read_card,
    weights_path,
    zoo_names,
)
from agents.net.zoo.export import export_network
from agents.net.zoo.export import parser as export_parser
from agents.net.zoo.tune import main as tune_main
from agents.net.zoo.tune import parser as tune_parser
from agents.players.az_player import NetworkPlayer
from agents.players.mcts_player import SearchPlayer
from agents.players.registry import make_player
from agents.search.mcts import SearchConfig
from agents.search.mcts.config import with_settings
from agents.training.loop import build_settings
from envs.core import make_game

NAMES = zoo_names()
TEST_SIMULATIONS = 128  # the most a network searches in its games against random here


def test_the_zoo_ships_a_network_for_odoku():
    assert "odoku" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_every_network_plays_legal_games_and_beats_random_10_of_10(name):
    """Sudoku Moyo's puzzle can hand random play a game that no player wins (mcts:400 won
    36 of 40 games against random), so there the ten games are five duplicate pairs
    (each puzzle twice, seats swapped): the network must win nine and at least one of every pair.

    A network searches with its own budget capped at 128 simulations: at their own (256 to 512),
    the ten networks above 128 took 581 s of a busy suite run; their cards measure them at their own."""
    card = read_card(name)
    game_cfg = {"name": card["game"]["name"], **card["game"]["params"]}
    game = make_game(**game_cfg)
    network = load_network(name, game)
    own = {**network.search, **network.play}["num_simulations"]  # as its player searches
    zoo = "zoo" if own <= TEST_SIMULATIONS else f"zoo:{TEST_SIMULATIONS}"
    lineups = [(zoo, "random"), ("random", zoo)] * 5
    chance_setup = has_chance_setup(card["game"]["name"])
    # the ten games in lockstep: one network call per simulation for all of them (faster)
    results = play_games(game_cfg, lineups, seed=0, batch_games=10, duplicate=chance_setup)
    won = []
    for lineup, result in zip(lineups, results):
        state = game.initial_state()
        for action in result.actions:  # the engine's apply validates every action
            game.apply(state, action)
        assert game.is_terminal(state)
        won.append(result.winner == lineup.index(zoo))
    if chance_setup:
        assert sum(won) >= 9 and all(won[k] or won[k + 1] for k in range(0, 10, 2)), f"{name}: zoo's wins {won}"
    else:
        assert all(won), f"{name}: zoo lost or drew the games {[k for k, w in enumerate(won) if not w]}"


@pytest.mark.parametrize("name", NAMES)
def test_every_card_is_complete_with_every_planned_figure(name):
    card = read_card(name)  # raises on any problem
    assert card_problems(card) == []
    assert card["name"] == name
    planned = planned_figures(card["game"])
    assert [f["name"] for f in card["figures"]] == [p.name for p in planned]
    for figure, plan in zip(card["figures"], planned):
        assert figure["command"] == plan.command(batch_games_of(figure["command"]), figure_test(figure))
        low, high = figure["interval"]
        assert low <= figure["value"] <= high
        if "sprt" not in figure:  # a sequential test's figure: card_problems checked met against its decision
            assert figure["met"] == judge(figure["value"], figure["interval"], plan.goal)[0]
    weights = torch.load(weights_path(name), weights_only=True)
    assert weights["format"] == FORMAT and weights["game"] == card["game"]
    assert weights.get("play", {}) == card.get("play", {})  # the card shows how it plays


@pytest.mark.parametrize("name", NAMES)
def test_every_card_command_composes_and_its_players_build(name):
    card = read_card(name)
    game_cfg = {"name": card["game"]["name"], **card["game"]["params"]}
    commands = [*card["training"]["commands"], *(f["command"] for f in card["figures"])]
    for command in commands:
        words = shlex.split(command)
        if words[:3] == ["python", "-m", "agents.net.zoo.export"]:
            export_parser().parse_args(words[3:])
            continue
        if words[:3] == ["python", "-m", "agents.net.zoo.tune"]:
            tuned = tune_parser().parse_args(words[3:])
            assert tuned.name == name
            with_settings(load_network(name, make_game(**game_cfg)).search, tuned.play)  # raises on a bad setting
            continue
        assert words[0] == "python" and words[1] in ("train.py", "evaluate.py"), command
        overrides = [w for w in words[2:] if not w.startswith("hydra.")]  # where a run writes is no config
        with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
            cfg = compose(words[1].removesuffix(".py"), overrides=overrides)  # what --cfg job prints
        if words[1] == "train.py":
            build_settings(cfg)  # the run's settings validate, as train.py checks them
        if words[1] == "evaluate.py":
            game = make_game(**cfg.game)
            for spec in cfg.players:
                make_player(spec, game)


def test_the_zoo_spec_forms():
    game = make_game("odoku")
    trained = load_network("odoku", game)[1]["num_simulations"]
    assert isinstance(make_player("zoo", game), SearchPlayer)
    assert make_player("zoo", game).mcts.config.num_simulations == trained
    assert make_player("zoo:odoku:7", game).mcts.config.num_simulations == 7
    assert make_player("zoo:7", game).mcts.config.num_simulations == 7
    assert isinstance(make_player("zoo:odoku:0", game), NetworkPlayer)
    for bad in ("zoo:odoku:x", "zoo:odoku:-1", "zoo:odoku:1:2", "zoo::3"):
        with pytest.raises(ValueError, match="zoo"):
            make_player(bad, game)


def test_a_network_plays_without_the_playout_mix_it_trained_with():
    """Y 13's network trained with playout_mix=0.5; its player values leaves by the network
    alone: its move does not depend on the generator, and it beats the mixed search."""
    game = make_game("y", size=13)
    net, search, play = load_network("y", game)
    assert search["playout_mix"] == 0.5 and play == {}
    player = make_player("zoo", game)
    assert player.mcts.config.playout_mix == 0.0
    mixed = SearchPlayer(game, player.estimator, SearchConfig(**search))
    state = game.initial_state()
    for index in (0, 40, 20):  # three stones, each the index-th legal cell
        game.apply(state, game.legal_actions(state)[index])
    assert len({player.act(state, np.random.default_rng(seed)) for seed in range(6)}) == 1
    assert len({mixed.act(state, np.random.default_rng(seed)) for seed in range(6)}) > 1
    rng, wins = np.random.default_rng(0), 0
    for seat in (0, 1) * 5:
        lineup = [mixed, mixed]
        lineup[seat] = player
        wins += play_game(game, lineup, rng, opening=2).winner == seat
    assert wins >= 9


def test_the_zoo_is_an_env_opponent():
    env = gym.make("Odoku-v0", opponent="zoo", agent_seat=0)
    observation, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, info = env.step(action)
    assert info["winner"] in (0, 1, -1)


def test_a_network_refuses_other_rules_and_other_games_naming_both():
    with pytest.raises(ZooError, match=r"is for odoku\(bias=0\.5\), not odoku\(bias=0\.3\)"):
        make_player("zoo:odoku", make_game("odoku", bias=0.3))
    with pytest.raises(ZooError, match=r"is for odoku\(bias=0\.5\), not nex\(pie_rule=False, size=5\)"):
        make_player("zoo:odoku", make_game("nex", size=5))
    with pytest.raises(ZooError, match=r"is for push_go\(ko=simple, .*\), not push_go\(ko=push, "):
        make_player("zoo:push_go", make_game("push_go", ko="push"))  # trained under simple ko


def fake_entry(directory, name, game):
    net = PolicyValueNet.for_game(game.info, NetConfig(channels=4, blocks=1, value_hidden=4))
    entry = {
        "format": FORMAT,
        "game": {"name": game.info.name, "params": dict(game.info.params)},
        "net_config": {"channels": 4, "blocks": 1, "value_hidden": 4},
        "model": {k: v.half() for k, v in net.state_dict().items()},
        "search": {"num_simulations": 4},
    }
    torch.save(entry, directory / f"{name}.pt")


def test_a_network_refuses_another_board_size_naming_both(tmp_path):
    fake_entry(tmp_path, "hex", make_game("hex", size=5))
    net, search, play = load_network("hex", make_game("hex", size=5), tmp_path)  # float16 weights load
    assert next(net.parameters()).dtype == torch.float32 and (search, play) == ({"num_simulations": 4}, {})
    with pytest.raises(ZooError, match=r"hex.pt was trained on hex at size 5, not at the size asked, 7; zoo:hex@any"):
        load_network("hex", make_game("hex", size=7), tmp_path)
    assert load_network("hex", make_game("hex", size=7), tmp_path, any_size=True).net.config.channels == 4


def test_a_missing_network_names_the_zoo(tmp_path):
    fake_entry(tmp_path, "hex", make_game("hex", size=5))
    (tmp_path / "hex.json").write_text("{}")
    with pytest.raises(ZooError, match=r"the zoo has no network 'nex' \(it has: hex\)"):
        load_network("nex", make_game("nex"), tmp_path)
    (tmp_path / "broken.pt").write_bytes(b"not a torch file")
    with pytest.raises(ZooError, match="broken.pt: not readable"):
        load_network("broken", make_game("nex"), tmp_path)


def test_card_problems_name_each_missing_field():
    card = json.loads(card_path("odoku").read_text())
    del card["training"]["seed"]
    card["figures"][0]["interval"] = [0.9, 0.1]
    del card["figures"][1]["command"]
    assert card_problems(card) == [
        "training.seed is missing (the run's seed)",
        "figures[0].interval must be [low, high], got [0.9, 0.1]",
        "figures[1].command is missing (the command that measures it (python evaluate.py ...))",
    ]
    assert (
        card_problems({"name": "x"})[0]
        == "game is missing ({name, params}: the game and rules it was trained for, at its largest size, as in NAME.pt)"
    )


def test_verdicts_name_the_margin():
    assert judge(0.93, [0.89, 0.96], (">=", 0.9)) == (True, "met: 0.93 >= 0.9, by 0.03")
    assert judge(0.6, [0.53, 0.66], (">=", 0.9)) == (
        False,
        "missed by 0.3: 0.6 against >= 0.9 (its whole interval misses it)",
    )
    assert judge(0.0025, [0.0015, 0.0035], ("<=", 0.002)) == (
        False,
        "missed by 0.0005: 0.0025 against <= 0.002 (its interval still reaches it)",
    )
    assert judge(0.5, [0.43, 0.57], (">", 0.5)) == (
        False,
        "missed level with the bound: 0.5 against > 0.5 (its interval still reaches it)",
    )
    assert judge(0.4, [0.3, 0.5], None) == (True, "reported; no target")


def test_planned_figures_follow_the_game():
    odoku = planned_figures({"name": "odoku", "params": {"bias": 0.5}})
    assert [f.command() for f in odoku[:3]] == [
        "python evaluate.py game=odoku 'players=[zoo:odoku,mcts:400]' games=200",
        "python evaluate.py game=odoku 'players=[zoo:odoku,mcts:1600]' games=200",
        "python evaluate.py game=odoku 'players=[zoo:odoku:0,mcts:400]' games=200",
    ]
    assert odoku[3].command() == "python evaluate.py game=odoku mode=odoku 'players=[zoo:odoku:0]' games=2000"
    moyo = planned_figures({"name": "sudoku_moyo", "params": {"size": 9, "puzzle": ""}})
    assert all("duplicate=true" in f.overrides for f in moyo) and moyo[1].goal == (">", 0.5)
    assert moyo[0].goal == (">=", 0.665) and "mcts:6400" in moyo[0].target  # the ceiling of plain search
    assert planned_figures({"name": "neuy", "params": {"size": 13}})[0].goal == (">=", 0.9)


def test_a_card_on_another_board_measures_and_names_that_board():
    walls = {"name": "four_way_walls", "params": dict(make_game("four_way_walls", size=5, walls=2).info.params)}
    assert board_changes(walls) == {"size": 5, "walls": 2}  # the start, derived from the size, is not set
    assert planned_figures(walls)[0].command() == (
        "python evaluate.py game=four_way_walls game.size=5 game.walls=2 "
        "'players=[zoo:four_way_walls,mcts:400]' games=200"
    )
    assert board_changes({"name": "biqala", "params": dict(make_game("biqala").info.params)}) == {}
    smaller = read_card("progressive_amazons")
    assert default_changes(smaller) == {"size": 10} and default_changes(read_card("hexxagon")) == {}
    assert "  board: size=10 (default 19); it refuses the default board" in format_card(smaller).splitlines()
    # trained across sides 5 and 9: on its text's side-9 board, which it plays
    assert default_changes(read_card("hexxagon_1344")) == {}


def test_a_card_on_its_texts_board_is_decided_by_the_sequential_test_against_its_baseline():
    side_9 = {"name": "hexxagon_1344", "params": dict(make_game("hexxagon_1344").info.params)}
    decided, raw = planned_figures(side_9)
    assert decided.test == TEXT_BOARD_TEST and decided.sequential and decided.goal == (">=", 0.9)
    assert decided.command() == (
        "python evaluate.py game=hexxagon_1344 game.size=9 'players=[zoo:hexxagon_1344,mcts:400]' games=120 "
        "test=sprt sprt.low=0.85 sprt.high=0.95 sprt.alpha=0.05 sprt.beta=0.05"
    )
    assert raw.command() == (
        "python evaluate.py game=hexxagon_1344 game.size=9 'players=[zoo:hexxagon_1344:0,mcts:400]' games=20"
    )
    assert raw.test is None and raw.goal is None
    # the smaller board keeps the full plan; a long game's baseline cuts its rollouts
    side_5 = {"name": "hexxagon_1344", "params": dict(make_game("hexxagon_1344", size=5).info.params)}
    assert [p.name for p in planned_figures(side_5)] == [
        "score vs mcts:400",
        "score vs mcts:1600",
        "raw network (no search) vs mcts:400",
    ]
    hop_chess = planned_figures({"name": "hop_chess", "params": dict(make_game("hop_chess").info.params)})
    assert [p.name for p in hop_chess] == ["score vs hmcts:400", "raw network (no search) vs hmcts:400"]
    assert set(TEXT_BOARD_CARDS) <= set(envs.GAMES)
    why = TEXT_BOARD_CARDS["hexxagon_1344"].why
    assert f"  baseline: {why}" in format_card(read_card("hexxagon_1344")).splitlines()


def test_recipe_commands_for_the_missing_networks():
    assert recipe_command("nex") == "python train.py experiment=nex11"
    assert recipe_command("sudoku_moyo") == "python train.py game=sudoku_moyo"
    assert recipe_command("neuy") == "python train.py experiment=neuy13"
    assert recipe_command("amazons") == "python train.py experiment=amazons10"
    assert recipe_command("biqala") == "python train.py game=biqala"
    assert recipe_command("send_it") == (
        "python train.py game=send_it game.size=13  # no recipe at size 13 (recipes for other sizes: send_it7): "
        "the plain defaults"
    )
    assert recipe_command("hop_chess") == "python train.py game=hop_chess"
    assert recipe_command("hexxagon_1344") == (
        "python train.py game=hexxagon_1344 game.size=9  # no recipe at size 9 (recipes for other sizes: "
        "hexxagon_1344_5): the plain defaults"
    )
    assert recipe_command("blockdance") == "python train.py experiment=blockdance8"


def test_read_figure_from_a_match_document():
    planned = planned_figures({"name": "nex", "params": {"size": 11}})[1]
    document = {
        "table": [
            {"player": "zoo:nex", "opponent": "mcts:1600", "games": 200, "score": 0.7, "ci_low": 0.63, "ci_high": 0.76}
        ]
    }
    figure = read_figure(planned, document)
    assert (figure["value"], figure["interval"], figure["games"], figure["met"]) == (0.7, [0.63, 0.76], 200, False)


def test_zoo_measure_writes_a_lockstep_figure_with_its_batch_and_resumes_it(tmp_path, monkeypatch):
    monkeypatch.setattr("agents.evaluation.zoo_cards.SCORE_GAMES", 4)
    zoo = tmp_path / "zoo"
    zoo.mkdir()
    card = read_card("odoku")
    card["figures"] = []
    card_path("odoku", zoo).write_text(json.dumps(card))
    shutil.copy(weights_path("odoku"), weights_path("odoku", zoo))
    measure = load_script("benchmarks/zoo_measure.py").measure
    plan = planned_figures(card["game"])[2]
    journal = journal_path("odoku", plan.name, zoo)
    stop_after(monkeypatch, 2)
    with pytest.raises(KeyboardInterrupt):
        measure("odoku", "raw network (no", 1, tmp_path / "out", batch_games=2, directory=zoo)
    monkeypatch.undo()
    monkeypatch.setattr("agents.evaluation.zoo_cards.SCORE_GAMES", 4)
    # the unfinished match's journal is in the zoo's folder, where it is committed
    assert journal == zoo / "journals" / "odoku" / "raw_network_no_search_vs_mcts_400.jsonl"
    assert len(journal.read_text().splitlines()) == 1 + 2
    with pytest.raises(Exception, match="batch_games: 2 then, 1 now"):
        measure("odoku", "raw network (no", 1, tmp_path / "out", batch_games=1, directory=zoo)
    [figure] = measure("odoku", "raw network (no", 1, tmp_path / "out", batch_games=2, directory=zoo)
    assert figure["command"] == plan.command(2) == plan.command() + " batch_games=2"
    assert batch_games_of(figure["command"]) == 2 and batch_games_of(plan.command()) == 1
    assert figure["games"] == 4 and read_card("odoku", zoo)["figures"] == [figure]
    # finished: the journal leaves the zoo's folder for the figure's run directory
    assert not (zoo / "journals").exists()
    run_dir = tmp_path / "out" / "odoku" / "raw_network_no_search_vs_mcts_400"
    lines = (run_dir / "match.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["settings"]["batch_games"] == 2 and len(lines) == 1 + 4


def hex4_figure(player: str, games: int) -> PlannedFigure:
    """A cheap figure: ``player``'s score against random on Hex 4x4, at least 0.50 in ``games`` games."""
    overrides = ("game=hex", "game.size=4", f"players=[{player},random]", f"games={games}")
    return PlannedFigure("score vs random", overrides, ("score", player, "random"), ">= 0.50", (">=", 0.5))


CHEAP_FIGURE = hex4_figure("mcts:8", 40)


def git(folder, *words):
    return subprocess.run(["git", "-C", str(folder), *words], check=True, capture_output=True, text=True).stdout


def test_a_card_measurement_continues_from_a_fresh_clone_to_the_verdict_of_one_run(tmp_path, monkeypatch):
    """A sequential figure stopped part-way, its journal committed, continued from a clone of the
    repository on another 'machine': the card ends as one run straight through writes it."""
    script = load_script("benchmarks/zoo_measure.py")
    monkeypatch.setattr(script, "planned_figures", lambda game: [CHEAP_FIGURE])
    monkeypatch.setattr("agents.evaluation.zoo_cards.planned_figures", lambda game: [CHEAP_FIGURE])
    sequential = script.Sequential(margin=0.2)  # 0.3 against 0.7, alpha = beta = 0.05, 40 games at most
    card = read_card("hex")
    card["figures"] = []
    for repository in ("straight", "first"):
        (tmp_path / repository / "zoo").mkdir(parents=True)
        card_path("hex", tmp_path / repository / "zoo").write_text(json.dumps(card))
    [straight] = script.measure(
        "hex", None, 1, tmp_path / "out0", directory=tmp_path / "straight" / "zoo", sequential=sequential
    )

    first = tmp_path / "first"
    git(first, "init", "-q")
    git(first, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "card", "--allow-empty")
    stop_after(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt):
        script.measure("hex", None, 1, tmp_path / "out1", directory=first / "zoo", sequential=sequential)
    monkeypatch.undo()
    monkeypatch.setattr(script, "planned_figures", lambda game: [CHEAP_FIGURE])
    monkeypatch.setattr("agents.evaluation.zoo_cards.planned_figures", lambda game: [CHEAP_FIGURE])
    git(first, "add", "zoo")  # the card and the journal as it stands: what docs/zoo.md commits
    git(first, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "journal")
    assert git(first, "ls-files", "zoo/journals") == "zoo/journals/hex/score_vs_random.jsonl\n"

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(first), str(clone)], check=True)
    assert len((clone / "zoo/journals/hex/score_vs_random.jsonl").read_text().splitlines()) == 1 + 3
    [figure] = script.measure("hex", None, 1, tmp_path / "out2", directory=clone / "zoo", sequential=sequential)
    assert figure == straight and read_card("hex", clone / "zoo")["figures"] == [straight]
    assert not (clone / "zoo" / "journals").exists()  # finished: nothing left to continue
    assert script.measure("hex", None, 1, tmp_path / "out2", directory=clone / "zoo", sequential=sequential) == []
    test = figure["sprt"]
    assert figure["met"] and test["decision"] == "high" and test["stopped"] == "bound"
    assert figure["games"] == 2 * sum(test["pairs"]) < 40
    assert figure["command"] == (
        "python evaluate.py game=hex game.size=4 'players=[mcts:8,random]' games=40 test=sprt "
        "sprt.low=0.3 sprt.high=0.7 sprt.alpha=0.05 sprt.beta=0.05"
    )
    text = format_card(read_card("hex", clone / "zoo"))  # what mode=zoo prints
    assert (
        f"target >= 0.50: met by the sequential test: accepted >= 0.7 (not <= 0.3) after {figure['games']} games"
        in text
    )
    assert "sequential test: SPRT on seat-swapped pairs, <= 0.3 against >= 0.7, alpha 0.05, beta 0.05, cap 40" in text


def test_a_figure_that_plans_its_own_test_is_always_decided_by_it(tmp_path, monkeypatch):
    planned = dataclasses.replace(CHEAP_FIGURE, test=SPRT(0.3, 0.7, 0.05, 0.05, 40))
    script = load_script("benchmarks/zoo_measure.py")
    monkeypatch.setattr(script, "planned_figures", lambda game: [planned])
    monkeypatch.setattr("agents.evaluation.zoo_cards.planned_figures", lambda game: [planned])
    card = {**read_card("hex"), "figures": []}
    for folder, sequential in (("plain", None), ("asked", script.Sequential(margin=0.1))):
        (tmp_path / folder).mkdir()
        card_path("hex", tmp_path / folder).write_text(json.dumps(card))
        [figure] = script.measure("hex", None, 1, tmp_path / "out", directory=tmp_path / folder, sequential=sequential)
        assert figure["command"] == planned.command() and figure["command"].endswith(
            "games=40 test=sprt sprt.low=0.3 sprt.high=0.7 sprt.alpha=0.05 sprt.beta=0.05"
        )
        assert figure["sprt"]["decision"] == "high" and figure["games"] < 40


ADOPTED_FIGURE = hex4_figure("zoo:hex@any:4", 12)


def _match_as(spec: str, run_dir, games: int = 12) -> None:
    """Play ADOPTED_FIGURE's match with ``spec`` as the first player (its network before it was in
    the zoo), stopped after three games as a machine going away stops it."""
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        overrides = ["game=hex", "game.size=4", f"players=[{spec},random]", f"games={games}", "progress=false"]
        cfg = compose("evaluate", overrides=overrides)
    with pytest.raises(KeyboardInterrupt):
        evaluate(cfg, run_dir, io.StringIO())


def test_a_match_played_as_the_progress_file_is_adopted_by_the_zoo_card(tmp_path, monkeypatch):
    """Games the network played as its progress file (``az:PATH``) count for its zoo card, which
    then ends as a card measured straight through ends; other players or settings are refused."""
    script = load_script("benchmarks/zoo_measure.py")
    card = {**read_card("hex"), "figures": []}
    progress = tmp_path / "training" / "hex_progress.pt"  # the same weights, in the zoo's format
    progress.parent.mkdir()
    shutil.copy(weights_path("hex"), progress)
    other = torch.load(progress, weights_only=True)
    other["model"] = {
        key: tensor + 1 if tensor.is_floating_point() else tensor for key, tensor in other["model"].items()
    }
    torch.save(other, tmp_path / "training" / "other.pt")
    (tmp_path / "adopting").mkdir()
    card_path("hex", tmp_path / "adopting").write_text(json.dumps(card))
    monkeypatch.setattr(script, "planned_figures", lambda game: [ADOPTED_FIGURE])
    [straight] = script.measure("hex", None, 1, tmp_path / "out0", directory=tmp_path / "adopting")
    card_path("hex", tmp_path / "adopting").write_text(json.dumps(card))
    shutil.rmtree(tmp_path / "out0")
    stop_after(monkeypatch, 3)
    for name, spec, games in (
        ("same", f"az:{progress}:4", 12),
        ("sims", f"az:{progress}:8", 12),
        ("weights", f"az:{tmp_path / 'training' / 'other.pt'}:4", 12),
        ("games", f"az:{progress}:4", 10),
    ):
        _match_as(spec, tmp_path / name, games)
    monkeypatch.undo()
    monkeypatch.setattr(script, "planned_figures", lambda game: [ADOPTED_FIGURE])
    refusals = {
        "sims": "zoo:hex@any:4: search settings differ: num_simulations 8 and 4",
        "weights": "zoo:hex@any:4: network weights differ in",
        "games": "games: 10 then, 12 now",
    }
    for name, why in refusals.items():
        with pytest.raises(ValueError, match=re.escape(why)):
            script.adopt_journals("hex", [tmp_path / name / "match.jsonl"], tmp_path / "adopting")
    assert not (tmp_path / "adopting" / "journals").exists()
    with pytest.raises(ValueError, match="is not a match journal"):
        script.adopt_journals("hex", [progress], tmp_path / "adopting")
    with pytest.raises(ValueError, match="cannot read the journal"):
        script.adopt_journals("hex", [tmp_path / "none.jsonl"], tmp_path / "adopting")

    script.adopt_journals("hex", [tmp_path / "same" / "match.jsonl"], tmp_path / "adopting")
    journal = journal_path("hex", "score vs random", tmp_path / "adopting")
    header, *games = journal.read_text().splitlines()
    assert json.loads(header)["settings"]["players"] == ["zoo:hex@any:4", "random"] and len(games) == 3
    with pytest.raises(ValueError, match="holds a journal already"):
        script.adopt_journals("hex", [tmp_path / "same" / "match.jsonl"], tmp_path / "adopting")
    [figure] = script.measure("hex", None, 1, tmp_path / "out0", directory=tmp_path / "adopting")
    assert figure == straight and figure["games"] == 12


def test_a_sequential_figure_that_contradicts_its_test_is_refused():
    figure = {
        "name": "score vs mcts:1600",
        "command": "python evaluate.py ...",
        "games": 20,
        "value": 1.0,
        "interval": [0.84, 1.0],
        "target": ">= 0.90",
        "met": False,
        "verdict": "...",
        "date": "2026-12-07",
        "sprt": {
            "low": 0.85,
            "high": 0.95,
            "alpha": 0.05,
            "beta": 0.05,
            "cap": 200,
            "llr": 3.0,
            "llr_bounds": [-2.94, 2.94],
            "pairs": [0, 0, 0, 0, 27],
            "decision": "high",
            "stopped": "bound",
        },
    }
    card = {**read_card("hex"), "figures": [figure]}
    assert card_problems(card) == [
        "figures[0].sprt.pairs count 54 games, the figure 20",
        "figures[0].sprt: decision high but met False",
    ]
    del figure["sprt"]["llr"]
    figure["note"] = 3
    assert card_problems(card) == [
        "figures[0].note must be text, got 3",
        "figures[0].sprt.llr is missing (its log-likelihood ratio where it stopped)",
    ]


def test_mode_zoo_prints_the_cards_and_the_missing_games(tmp_path):
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("evaluate", overrides=["mode=zoo"])
    lines = []

    class Out:
        def write(self, text):
            lines.append(text)

    document = evaluate(cfg, tmp_path, Out())
    text = "".join(lines)
    assert document["networks"] == NAMES
    assert "== zoo:odoku: odoku(bias=0.5)" in text
    assert document["missing"]["blockdance"] == "python train.py experiment=blockdance8"
    assert "python train.py game=hop_chess" in text
    on_default_board = {read_card(n)["game"]["name"] for n in NAMES if not default_changes(read_card(n))}
    assert sorted(document["missing"]) == sorted(set(envs.GAMES) - on_default_board)
    assert "progressive_amazons" in document["missing"]  # its network plays 10x10, not the default 19x19
    assert "(zoo:progressive_amazons plays size=10 (default 19); it refuses the default board)" in text
    assert "hexxagon_1344" not in document["missing"]  # trained across sides 5 and 9, the default


def test_export_writes_the_network_alone_and_the_training_part_of_its_card(tmp_path, monkeypatch):
    import tests.test_checkpoint as checkpoints

    game = make_game("nex", size=3)
    with pytest.raises(ValueError, match="lacks the run's seed"):
        checkpoints.write_checkpoint(tmp_path / "no_seed.pt", game)
        export_network(tmp_path / "no_seed.pt", ["python train.py"], "c", "m", directory=tmp_path / "zoo")
    monkeypatch.setattr(checkpoints, "CONFIG", checkpoints.CONFIG + "seed: 4\n")
    write_checkpoint = checkpoints.write_checkpoint
    game = make_game("nex", size=3)
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / ".hydra").mkdir()
    (run / ".hydra" / "overrides.yaml").write_text("- experiment=nex3\n- seed=4\n")
    checkpoint = run / "checkpoints" / "ckpt_step0000002_iter0001.pt"
    trained = write_checkpoint(checkpoint, game)[0]
    weights, card = export_network(
        checkpoint,
        ["python train.py experiment=nex3 seed=4"],
        "abc1234",
        "a test",
        half=True,
        directory=tmp_path / "zoo",
    )
    entry = torch.load(weights, weights_only=True)
    assert sorted(entry) == ["format", "game", "model", "net_config", "search"]
    assert all(t.dtype == torch.float16 for t in entry["model"].values() if t.is_floating_point())
    net, search, play = load_network("nex", game, tmp_path / "zoo")
    assert search == entry["search"] and search["num_simulations"] > 0 and play == {}
    observation = torch.rand(2, *game.info.obs_shape)
    trained.eval()
    with torch.no_grad():
        assert torch.allclose(net(observation)[0], trained(observation)[0], atol=0.05)
    written = json.loads(card.read_text())
    assert written["training"]["recipe"] == "nex3"
    assert written["training"]["overrides"] == ["experiment=nex3", "seed=4"]
    assert written["training"]["commands"] == ["python train.py experiment=nex3 seed=4"]
    assert (written["training"]["steps"], written["training"]["iterations"], written["training"]["weights"]) == (
        2,
        1,
        "float16",
    )
    assert card_problems(written) == ["figures: none measured"]


def test_export_play_settings_change_how_the_network_plays_and_show_on_its_card(tmp_path, monkeypatch):
    import tests.test_checkpoint as checkpoints

    monkeypatch.setattr(checkpoints, "CONFIG", checkpoints.CONFIG + "seed: 4\n")
    game = make_game("nex", size=3)
    (tmp_path / ".hydra").mkdir()
    (tmp_path / ".hydra" / "overrides.yaml").write_text("- experiment=nex3\n")
    checkpoint = tmp_path / "ckpt.pt"
    checkpoints.write_checkpoint(checkpoint, game)
    zoo = tmp_path / "zoo"
    for bad, message in (
        ("playout_mix=2", "playout_mix must be"),
        ("num_simulations=many", "'num_simulations=many': num_simulations takes a int, got 'many'"),
        ("depth=3", "'depth=3': not KEY=VALUE of agent.search"),
        ("gumbel=yes", "gumbel takes true or false"),
    ):
        with pytest.raises(ValueError, match=message):
            export_network(checkpoint, ["python train.py"], "c", "m", directory=zoo, play=[bad])
    assert not zoo.exists()  # nothing written for a bad setting
    weights, card = export_network(
        checkpoint, ["python train.py"], "c", "m", directory=zoo, play=["num_simulations=9", "playout_mix=0.5"]
    )
    expected = {"num_simulations": 9, "playout_mix": 0.5}
    assert torch.load(weights, weights_only=True)["play"] == expected
    written = json.loads(card.read_text())
    assert written["play"] == expected and card_problems({**written, "play": 3})[-1].startswith("play must be")
    net, search, play = load_network("nex", game, zoo)
    assert play == expected and search["num_simulations"] != 9
    monkeypatch.setattr("agents.players.zoo_player.load_network", lambda name, g, any_size: load_network(name, g, zoo))
    player = make_player("zoo", game)
    assert (player.mcts.config.num_simulations, player.mcts.config.playout_mix) == (9, 0.5)
    assert make_player("zoo:4", game).mcts.config.num_simulations == 4  # the spec's budget still rules
    assert "plays with: num_simulations=9, playout_mix=0.5" in format_card({**written, "figures": []})


def test_tune_changes_how_a_zoo_network_plays_and_drops_the_figures_its_search_set(tmp_path, caplog):
    for suffix in (".pt", ".json"):
        (tmp_path / f"odoku{suffix}").write_bytes((card_path("odoku").parent / f"odoku{suffix}").read_bytes())
    before = read_card("odoku", tmp_path)
    assert tune_main(["odoku", "--play", "num_simulations=lots", "--directory", str(tmp_path)]) == 1
    assert "num_simulations takes a int, got 'lots'" in caplog.text
    assert read_card("odoku", tmp_path) == before  # a refused setting changes nothing
    assert tune_main(["odoku", "--play", "num_simulations=96", "--directory", str(tmp_path)]) == 0
    card = read_card("odoku", tmp_path)
    assert card["play"] == {"num_simulations": 96} and load_network("odoku", make_game("odoku"), tmp_path).play == {
        "num_simulations": 96
    }
    assert card["training"]["commands"] == [
        *before["training"]["commands"],
        "python -m agents.net.zoo.tune odoku --play num_simulations=96",
    ]
    kept = [f["name"] for f in card["figures"]]  # the raw network's figures: no search, so still true
    assert kept == [f["name"] for f in before["figures"] if "zoo:odoku:0" in f["command"]] and len(kept) == 3
    assert tune_main(["odoku", "--directory", str(tmp_path)]) == 0  # no --play: as trained again
    assert "play" not in read_card("odoku", tmp_path) and load_network("odoku", make_game("odoku"), tmp_path).play == {}
    assert tune_main(["chess", "--play", "num_simulations=4", "--directory", str(tmp_path)]) == 1
    assert "has no card" in caplog.text
