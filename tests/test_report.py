"""The game inventor's report: the ladder's Elo gap, the luck measures, a quick report end to end.

The synthetic game ``coin_duel`` has exact answers: each seat picks good (1)
or bad (0), seat 0 first; a good pick beats a bad one, and equal picks leave
the result to a fair coin. ``noisy:P`` picks at random with probability P,
else good. A player that picks bad with probability ``q`` against one that
never does scores ``q + (1 - q) / 2`` for the perfect side; two noisy players
with ``q_a``, ``q_b`` give the one with the smaller ``q`` the score
``(q_big - q_small) / 2 + 1 / 2`` for ``q = P / 2``.
"""

import io
import json
import math
from dataclasses import astuple
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hydra import compose, initialize_config_dir
from test_checkpoint import write_checkpoint
from test_zoo import fake_entry

import envs.core
from agents.config import ConfigError
from agents.evaluation.decisiveness import decided_turns, value_traces
from agents.evaluation.ladder import budget_specs, highest_significant, play_ladder, rung_lineups, significant_doublings
from agents.evaluation.luck import chance_share, outcome_by_turns, play_duplicates, turns_by_seat, upset_rate
from agents.evaluation.modes import evaluate
from agents.evaluation.report import BUDGETS
from agents.evaluation.report_page import PLOTS, SECTIONS, write_report
from agents.evaluation.runner import play_games
from agents.evaluation.tournament import round_robin
from agents.net.zoo import load_network
from agents.players import zoo_player
from agents.players.player import Player
from agents.players.registry import PLAYER_SPECS
from agents.search.solver import Solver
from envs.core import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError

ROOT = Path(__file__).resolve().parents[1]


class CoinDuel(Game):
    def __init__(self):
        self.info = GameInfo("coin_duel", ("first", "second"), 2, (1, 1, 1), 2, has_chance=True)

    def initial_state(self):
        return []

    def to_play(self, state):
        if len(state) < 2:
            return len(state)
        if len(state) == 2 and state[0] == state[1]:
            return CHANCE
        return TERMINAL

    def chance_outcomes(self, state):
        return [(0, 0.5), (1, 0.5)] if self.to_play(state) == CHANCE else []

    def legal_actions(self, state):
        return [0, 1] if len(state) < 2 else []

    def apply(self, state, action):
        if self.to_play(state) != CHANCE and action not in self.legal_actions(state):
            raise IllegalActionError(f"action {action} is illegal")
        state.append(self.check_action(state, action))

    def returns(self, state):
        if self.to_play(state) != TERMINAL:
            return (0.0, 0.0)
        winner = state[2] if len(state) == 3 else int(state[1] > state[0])
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def observe(self, state):
        return np.zeros((1, 1, 1), dtype=np.float32)

    def action_to_text(self, state, action):
        return str(action)

    def parse_turn(self, state, text):
        return [int(text)]

    def render_text(self, state):
        return " ".join(map(str, state))


class NoisyPlayer(Player):
    def __init__(self, p: float):
        self.p = p

    def act(self, state, rng):
        return int(rng.integers(2)) if rng.random() < self.p else 1


@pytest.fixture
def coin_duel(monkeypatch):
    monkeypatch.setitem(envs.core._GAMES, "coin_duel", CoinDuel)
    monkeypatch.setitem(PLAYER_SPECS, "noisy", (lambda game, args: NoisyPlayer(float(args[0])), "noisy:P"))
    return {"name": "coin_duel"}


def elo(score):
    return 400 * math.log10(score / (1 - score))


def test_the_ladder_recovers_the_known_elo_gap_of_each_rung(coin_duel):
    steps, chain = play_ladder(coin_duel, ["noisy:1", "noisy:0.5", "noisy:0"], games=600, seed=0)
    # a 95% interval misses the true gap one time in twenty: seeds 0, 1 and 2 hold it on both rungs,
    # seed 3 misses it by two standard errors on the second
    expected = elo(0.625)  # each rung halves q: (0.5 - 0.25) / 2 + 1/2, (0.25 - 0) / 2 + 1/2
    assert [(s.stronger, s.weaker) for s in steps] == [("noisy:0.5", "noisy:1"), ("noisy:0", "noisy:0.5")]
    for step in steps:
        assert step.pair.games == 600
        assert abs(step.elo - expected) < step.elo_ci < 100
        assert step.significant
    assert significant_doublings(steps) == 2 and highest_significant(steps) == "noisy:0"
    assert chain.names == ("noisy:1", "noisy:0.5", "noisy:0") and chain.rating[0] == 0.0
    assert chain.rating[0] < chain.rating[1] < chain.rating[2]


def test_a_ladder_of_equal_players_finds_no_significant_doubling(coin_duel):
    steps, _ = play_ladder(coin_duel, ["noisy:0.0", "noisy:0", "noisy:0.00"], games=200, seed=0)
    assert [s.significant for s in steps] == [False, False] and significant_doublings(steps) == 0
    assert highest_significant(steps) is None
    for step in steps:
        assert abs(step.elo) < step.elo_ci  # a fair coin: the gap 0 is inside every interval


def test_a_rung_is_the_match_mode_plays_with_the_same_seed():
    cfg = {"name": "hex", "size": 3}
    steps, _ = play_ladder(cfg, ["mcts:2", "mcts:8"], games=12, seed=5)
    match = round_robin(cfg, ["mcts:8", "mcts:2"], 12, 5).pairs()[0]
    assert (steps[0].pair.wins, steps[0].pair.draws, steps[0].pair.losses) == (match.wins, match.draws, match.losses)
    assert rung_lineups("a", "b", 3) == [("a", "b"), ("b", "a"), ("a", "b")]
    assert budget_specs("mcts", 8, 3) == ["mcts:8", "mcts:16", "mcts:32", "mcts:64"]


def test_luck_is_zero_when_the_solver_wins_a_deterministic_game_against_a_weak_player():
    cfg = {"name": "hex", "size": 3}
    assert Solver(envs.make_game("hex", size=3)).value(envs.make_game("hex", size=3).initial_state()) == 1.0
    pairs = play_duplicates(cfg, [("solver", "random")] * 30, seed=0)
    games = [g for pair in pairs for g in pair]
    assert all(g.winner == 0 for g in games)
    assert len({g.actions for g in games}) > 1  # the weak player's moves differ, the result does not
    upsets = upset_rate(games, [1] * len(games), gap=400.0, gap_ci=50.0)
    assert upsets["score"] == 0.0 and upsets["wins"] == 0 and upsets["ci_low"] == 0.0
    assert upsets["expected"] == pytest.approx(1 / 11)
    share = chance_share(pairs, [0] * len(pairs))
    assert (share.share, share.ci_low, share.ci_high) == (0.0, 0.0, 0.0)


def test_a_game_decided_by_a_coin_alone_has_a_chance_share_of_one(coin_duel):
    pairs = play_duplicates(coin_duel, [("noisy:0", "noisy:0")] * 40, seed=1)
    assert all(a.actions == b.actions for a, b in pairs)  # the same coin in both games of a pair
    assert {a.winner for a, _ in pairs} == {0, 1}
    assert chance_share(pairs, [0] * len(pairs)).share == 1.0


def test_the_chance_share_is_near_the_coins_share_of_the_variance(coin_duel):
    lineups = [("noisy:0", "noisy:0.5") if k % 2 == 0 else ("noisy:0.5", "noisy:0") for k in range(800)]
    pairs = play_duplicates(coin_duel, lineups, seed=2)
    q = 0.25  # noisy:0.5 picks bad with probability 1/4
    m = q + (1 - q) / 2  # the perfect side's expected points
    exact = ((1 - q) / 2) ** 2 / (m * (1 - m))  # Var(E[Y | coin]) / Var(Y) = 0.6
    share = chance_share(pairs, [k % 2 for k in range(len(pairs))], seed=0)
    assert exact == pytest.approx(0.6)
    assert share.ci_low < exact < share.ci_high and abs(share.share - exact) < 0.1
    assert share.ci_high - share.ci_low < 0.3


def test_a_pair_shares_its_chance_draws_but_not_its_players_choices(coin_duel):
    pairs = play_duplicates(coin_duel, [("noisy:1", "noisy:1")] * 60, seed=4)
    coins = [(a.actions[2:], b.actions[2:]) for a, b in pairs if len(a.actions) == len(b.actions) == 3]
    assert coins and all(x == y for x, y in coins)
    assert any(a.actions[:2] != b.actions[:2] for a, b in pairs)


def test_the_outcome_is_tabled_by_turns_only_where_chance_decides_who_moves():
    odoku = envs.make_game("odoku")
    results = play_games({"name": "odoku"}, [("random", "random")] * 60, 0)
    counts = [turns_by_seat(odoku, r.actions) for r in results]
    assert all(sum(c) == r.num_turns == 25 for c, r in zip(counts, results)) and len({c[1] for c in counts}) > 3
    table = outcome_by_turns(odoku, results)
    assert table["outcome"] == "score" and sum(row["games"] for row in table["rows"]) == 60
    for row in table["rows"]:
        scores = [r.info["score"] for r, c in zip(results, counts) if c[1] == row["turns"]]
        assert row["mean"] == pytest.approx(np.mean(scores))
    hex4 = envs.make_game("hex", size=4, pie_rule=True)
    alternating = play_games({"name": "hex", "size": 4, "pie_rule": True}, [("random", "random")] * 20, 0)
    assert all(sum(turns_by_seat(hex4, r.actions)) == r.num_turns for r in alternating)
    assert outcome_by_turns(hex4, alternating) is None


def test_decided_turns_count_the_winners_last_turns_above_the_threshold():
    assert decided_turns([0.1, 0.6, 0.2, 0.55, 0.7, 0.9], 0.5) == 3
    assert decided_turns([0.9, 0.9], 0.5) == 2 and decided_turns([0.9, 0.1], 0.5) == 0 and decided_turns([], 0.5) == 0


def run(tmp_path, *overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = compose("evaluate", overrides=["progress=false", "mode=report", *overrides])
    out = io.StringIO()
    return evaluate(cfg, tmp_path, out), out.getvalue()


def test_a_quick_report_on_a_small_board_writes_every_section_and_plot(tmp_path):
    folder = tmp_path / "hex3"
    result, text = run(tmp_path, "game=hex", "game.size=3", f"report_dir={folder}")
    page = (folder / "report.md").read_text()
    for heading in SECTIONS:
        assert heading in page
    for plot in PLOTS:
        assert (folder / plot).stat().st_size > 1000 and f"]({plot})" in page
    report = json.loads((folder / "report.json").read_text())
    depth, balance, luck = (report["sections"][key] for key in ("depth", "balance", "luck"))
    assert [s["stronger"] for s in depth["steps"]] == ["mcts:16", "mcts:32", "mcts:64", "mcts:128"]
    assert all(s["games"] == 20 for s in depth["steps"])
    assert [row["variant"] for row in balance["rows"]] == ["pie rule off", "pie rule on"]
    assert balance["rows"][0]["pie"]["offered"] == 0 and balance["rows"][1]["pie"]["offered"] == 40
    assert luck["players"] == ["mcts:128", "mcts:32"] and luck["upsets"]["games"] == 40
    assert report["sections"]["decisiveness"]["lengths"] and report["seconds"] > 0
    # the balance row's command replays its games: mode=stats with the same players and seed
    off = balance["rows"][0]
    replayed = play_games(
        {"name": "hex", "size": 3, "pie_rule": False}, [("mcts:128", "mcts:64"), ("mcts:64", "mcts:128")] * 20, 0
    )
    assert sum(r.winner == 0 for r in replayed) == off["first_seat"]["win"]["games"]
    assert 'mode=stats game=hex game.size=3 "players=[mcts:128,mcts:64]" games=40 seed=0' in page
    assert "depth:" in text and f"report: {folder / 'report.md'}" in text
    assert result["report"] == str(folder / "report.md")


def test_a_page_counts_one_game_in_the_singular(tmp_path):
    # glance counts one game's legal turns; redraw the committed Hop Chess page from its figures
    report = json.loads((ROOT / "docs" / "reports" / "hop_chess" / "report.json").read_text())
    page = write_report(report, report["game_cfg"], tmp_path).read_text()
    assert "legal turns counted in 1 game)" in page
    assert "every turn start of 1 balance game:" in page and "4 won games:" in page
    assert "1 games" not in page
    assert page == (ROOT / "docs" / "reports" / "hop_chess" / "report.md").read_text()


def test_an_agent_is_laddered_at_doubling_budgets_beside_mcts(tmp_path):
    path = tmp_path / "hex3.pt"
    write_checkpoint(path, envs.make_game("hex", size=3))
    folder = tmp_path / "report"
    run(tmp_path, "game=hex", "game.size=3", f"report_dir={folder}", f"ladder=az:{path}")
    agent = json.loads((folder / "report.json").read_text())["sections"]["depth"]["agent"]
    assert [s["stronger"] for s in agent["steps"]] == [f"az:{path}:{n}" for n in (4, 8, 16, 32)]
    assert list(agent["chain"]) == [f"az:{path}:{n}" for n in (2, 4, 8, 16, 32)]
    assert f"The agent `az:{path}`" in (folder / "report.md").read_text()


def test_the_zoo_network_is_laddered_at_doubling_budgets_and_the_page_names_it(tmp_path, monkeypatch):
    fake_entry(tmp_path, "hex", envs.make_game("hex", size=3))  # a zoo of one tiny Hex 3 network
    monkeypatch.setattr(zoo_player, "load_network", partial(load_network, directory=tmp_path))
    folder = tmp_path / "report"
    _, text = run(tmp_path, "game=hex", "game.size=3", f"report_dir={folder}", "ladder=zoo", "opening=1")
    agent = json.loads((folder / "report.json").read_text())["sections"]["depth"]["agent"]
    assert list(agent["chain"]) == [f"zoo:{n}" for n in (2, 4, 8, 16, 32)]
    assert math.isfinite(agent["elo_per_doubling"]) and agent["elo_per_doubling_ci"] > 0
    page = (folder / "report.md").read_text()
    assert agent["opening"] == 1 and "Each of its games starts from 1 random turns." in page
    assert "`python evaluate.py mode=report game=hex game.size=3 budget=quick ladder=zoo opening=1 seed=0`" in page
    assert 'mode=match game=hex game.size=3 "players=[zoo:4,zoo:2]" games=20 seed=0 opening=1`' in page
    assert 'mode=match game=hex game.size=3 "players=[mcts:16,mcts:8]" games=20 seed=0`' in page  # mcts: no opening
    assert "depth, zoo: " in text


def test_each_budget_plays_at_least_as_much_as_the_one_before_it():
    plans = [astuple(plan) for plan in BUDGETS.values()]
    assert list(BUDGETS) == ["glance", "quick", "standard", "thorough"]
    for smaller, larger in zip(plans, plans[1:]):
        assert all(a <= b for a, b in zip(smaller, larger)) and smaller != larger


@pytest.mark.parametrize(
    "override, message",
    [
        ("budget=huge", "budget: must be one of glance, quick, standard, thorough"),
        ("ladder=mcts:8", "ladder: must be null, a checkpoint spec az:PATH"),
        ("ladder=zoo:32", "ladder: must be null, a checkpoint spec az:PATH or the zoo's network zoo"),
        ("opening=2", "opening: in mode=report it starts the ladder=AGENT's games only"),
    ],
)
def test_bad_report_settings_name_the_key(tmp_path, override, message):
    with pytest.raises(ConfigError, match=message):
        run(tmp_path, "game=hex", "game.size=3", override)


def test_duplicates_and_value_traces_do_not_depend_on_the_workers():
    cfg = {"name": "odoku"}
    lineups = [("mcts:8", "mcts:4"), ("mcts:4", "mcts:8")]
    alone, pooled = play_duplicates(cfg, lineups, 0, workers=1), play_duplicates(cfg, lineups, 0, workers=2)
    assert [(a.actions, b.actions) for a, b in alone] == [(a.actions, b.actions) for a, b in pooled]
    games = [a.actions for a, _ in alone]
    assert value_traces(cfg, games, 8, 0, workers=1) == value_traces(cfg, games, 8, 0, workers=2)
