"""What ``evaluate.py`` does: one function per ``mode``, dispatched through :data:`MODES`.

Every mode takes the composed config (``configs/evaluate.yaml``), the run
directory and a text stream for the console, writes its files into the run
directory and returns a JSON-ready summary, which :func:`evaluate` saves as
``results.json`` (with the config). See ``docs/evaluate.md``.

=============  ==============================================================================
``match``      seat-swapped round robin between ``players`` (``games`` per pair): console
               table, Bradley-Terry ratings, ``results.csv``, ``games/*.txt`` records,
               ``ratings.png``, TensorBoard scalars under ``tb/``; with ``test=sprt``, two
               players' seat-swapped pairs until a sequential test decides (at most ``games``)
``solve``      the exact game-theoretic value of the start and its optimal first turns
``accuracy``   share of ``players[0]``'s turns that are optimal, in ``games`` games against
               each other player (``random`` if none), seats alternating; with
               ``positions=lines``: each player's turn at every position of the solver's
               principal lines, with the first positions where it is not optimal
``stats``      game-design statistics over ``games`` games (one player: self-play; two:
               seats alternating)
``odoku``      each player's mean score against the oracle from both seats and its regret
``play``       a game with a person (``human``) at the terminal
``curve``      a run's learning curve: each checkpoint (milestones and the newest) against
               each of ``players``, ``games`` each: ``curve.csv``, ``curve.png``
``report``     the game inventor's report (balance, depth, luck, decisiveness, branching) at a
               ``budget``: ``report.md`` with PNG plots in ``report_dir`` (``agents.evaluation.report``)
``zoo``        the cards of the zoo's networks (``zoo[:GAME]`` players), and the games
               without one with the command that would make it
=============  ==============================================================================
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import sys
from pathlib import Path
from typing import Callable, TextIO

import numpy as np
import torch
from omegaconf import DictConfig, ListConfig, OmegaConf

from agents.config import ConfigError, game_from_config, typed
from agents.evaluation.curve import candidate_spec, curve_checkpoints, learning_curve, plot_curve
from agents.evaluation.exactness import judge_lines, lost_for_mover
from agents.evaluation.game_stats import distinct_games, first_seat_rates, game_statistics, repeats_warning
from agents.evaluation.intervals import score_interval
from agents.evaluation.journal import MatchJournal, match_settings
from agents.evaluation.odoku_measures import ORACLE, measure_against_oracle
from agents.evaluation.report import budget_of, game_report
from agents.evaluation.report_page import write_report
from agents.evaluation.runner import play_games
from agents.evaluation.settings import EvaluateConfig
from agents.evaluation.sprt import SPRT
from agents.evaluation.tournament import round_robin, round_robin_schedule, sequential_match
from agents.evaluation.zoo_cards import zoo_listing
from agents.net.inference import BACKENDS, set_default_backend
from agents.players.human import play_interactive
from agents.players.registry import display_names, make_player, split_name
from agents.pool import use_ray
from agents.search.solver import Solver, optimal_share
from envs.records import game_record


def evaluate(cfg: DictConfig, run_dir: str | Path, out: TextIO = sys.stdout, modes: dict | None = None) -> dict:
    """Run ``cfg.mode`` and write ``results.json`` into ``run_dir``; ``modes`` (default
    :data:`MODES`) is the table of modes (``agents.web.modes`` adds ``serve`` and ``analyse``)."""
    modes = MODES if modes is None else modes
    if cfg.mode not in modes:
        raise ConfigError(f"mode: unknown mode {cfg.mode!r}; the modes are {', '.join(modes)}")
    cfg = typed(cfg, EvaluateConfig)
    _check_ranges(cfg)
    if cfg.torch_threads:  # this process plays the games when workers=1; worker processes use one thread each
        torch.set_num_threads(cfg.torch_threads)
    set_default_backend(cfg.inference)  # every network of every player, in this process and its workers
    if cfg.ray:
        cpus = use_ray(cfg.ray_address)  # every pool of games below runs its workers on Ray actors
        if cfg.workers > cpus:  # an actor holds its CPU for life: one beyond them would never start
            raise ConfigError(
                f"workers={cfg.workers}: each Ray worker holds one CPU and the Ray runtime has {cpus}; "
                f"give workers<={cpus} or a larger cluster (ray_address=)"
            )
        where = f"{cfg.workers} Ray actors" if cfg.workers > 1 else "this process (workers=1)"
        print(f"workers: {where}, on a Ray runtime of {cpus} CPUs", file=out)
    elif cfg.ray_address is not None:
        raise ConfigError("ray_address: set only with ray=true (the workers as Ray actors)")
    run_dir = Path(run_dir)
    if cfg.resume is not None and Path(cfg.resume).resolve() != run_dir.resolve():
        raise ConfigError(f"resume: a match continues in its own directory {cfg.resume}, not in {run_dir}")
    run_dir.mkdir(parents=True, exist_ok=True)
    summary = modes[cfg.mode](cfg, run_dir, out)
    document = {"mode": cfg.mode, "config": OmegaConf.to_container(cfg, resolve=True), **summary}
    (run_dir / "results.json").write_text(json.dumps(document, indent=2) + "\n")
    print(f"results in {run_dir}", file=out)
    return document


# --- modes ----------------------------------------------------------------------------------
def run_match(cfg: DictConfig, run_dir: Path, out: TextIO, journal_path: Path | None = None) -> dict:
    """``journal_path``: where the match's journal is kept (default ``match.jsonl`` in ``run_dir``)."""
    specs = _players(cfg, at_least=2)
    names = display_names(specs)
    game = _game(cfg)
    test = _sequential_test(cfg, specs)
    game_cfg = _game_cfg(cfg)
    settings = match_settings_of(cfg)
    if cfg.resume:
        journal = MatchJournal.resume(run_dir, settings, journal_path)
        total = len(round_robin_schedule(len(specs), cfg.games))
        rest = "playing the rest" if test is None else "playing on until the test decides"
        print(f"resumed: {len(journal.games)} of {total} games saved in {journal.path}, {rest}", file=out)
    else:
        journal = MatchJournal.start(run_dir, settings, journal_path)
    verdict = None
    playing = (cfg.seed, cfg.workers, cfg.progress, cfg.batch_games, cfg.opening)
    saving = {"done": journal.games, "on_played": journal.add}
    try:
        if test is None:
            tournament = round_robin(game_cfg, specs, cfg.games, *playing, cfg.duplicate, **saving)
        else:
            tournament, verdict = sequential_match(game_cfg, specs, test, *playing, **saving)
    except KeyboardInterrupt:
        print(
            f"stopped: {len(journal.games)} games saved in {journal.path}; "
            f"the same command with resume={run_dir} plays the rest",
            file=out,
        )
        raise
    tournament = dataclasses.replace(tournament, players=tuple(names))  # tables, plots, ratings by name
    games_dir = run_dir / "games"
    games_dir.mkdir(exist_ok=True)
    records = []
    for number, (seats, result) in enumerate(zip(tournament.schedule, tournament.results), start=1):
        lineup = [names[p] for p in seats]
        path = games_dir / f"game_{number:05d}.txt"
        path.write_text(game_record(game, result.actions, [_named(specs[p], names[p]) for p in seats]))
        records.append({"file": str(path.relative_to(run_dir)), "players": lineup, "returns": list(result.returns)})
    ratings = tournament.ratings(cfg.prior_draws)  # after the records: a failed fit loses no game
    pairs, totals = tournament.pairs(), tournament.totals()

    rows = [_row(names[p.i], names[p.j], p) for p in pairs]
    rows += [_row(names[p.i], "all", p, ratings.rating[p.i], ratings.ci[p.i]) for p in totals]
    _print_table(rows, out)
    anchor_note = "" if ratings.anchor == "random" else " (no random player: the first player is the anchor)"
    print(f"ratings: Bradley-Terry, Elo scale, {ratings.anchor} = 0{anchor_note}", file=out)
    if cfg.duplicate:
        print(f"duplicate: {cfg.games // 2} chance setups per pair, each played twice with the seats swapped", file=out)
    by_seat = [{**_row(names[p.i], f"all, as seat {seat}", p), "seat": seat} for seat, p in tournament.seats()]
    print("by seat (a seat that wins whoever holds it shows the game's balance):", file=out)
    _print_table(by_seat, out)
    _warn_of_repeats(tournament.results, out)

    if verdict is not None:
        pair = rows[0]
        print(
            f"sequential test (SPRT on seat-swapped pairs, alpha {test.alpha:g}, beta {test.beta:g}, cap {test.cap}): "
            f"{names[0]} against {names[1]}: {verdict.sentence()}; score {pair['score']:.3f} "
            f"(95% CI {pair['ci_low']:.3f}..{pair['ci_high']:.3f})",
            file=out,
        )

    _write_csv(run_dir / "results.csv", rows)
    _plot_ratings(ratings, run_dir / "ratings.png", game.info.name)
    _tensorboard(run_dir, rows, ratings)
    return {
        "players": list(specs),
        "names": names,
        "anchor": ratings.anchor,
        "ratings": ratings.as_dict(),
        "table": rows,
        "by_seat": by_seat,
        "distinct_games": distinct_games(tournament.results),
        "games": records,
        **({"sprt": verdict.as_dict()} if verdict is not None else {}),
    }


def run_solve(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    game = _game(cfg)
    solver = Solver(game, cfg.max_nodes)
    start = game.initial_state()
    if game.is_chance(start):
        raise ConfigError(
            f"game: {game.info.name} starts at a chance node, so it has no optimal first turn; "
            "Odoku's exact values come from the random-turn theorem (mode=odoku, the oracle player)"
        )
    value = solver.value(start)
    turns = [game.format_turn(start, turn) for turn in solver.optimal_turns(start)]
    outcome = {1.0: "first player (seat 0) wins", -1.0: "second player (seat 1) wins", 0.0: "draw"}
    print(
        f"{game.info.name} {game.info.params}: value {value:+g} for seat 0 ({outcome.get(value, 'expected return')})",
        file=out,
    )
    print(f"optimal first turns ({len(turns)}): {' | '.join(turns)}", file=out)
    print(f"positions searched: {solver.nodes}", file=out)
    return {"value": value, "optimal_first_turns": turns, "positions": solver.nodes}


def run_accuracy(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    if cfg.positions == "lines":
        return _accuracy_on_lines(cfg, out)
    specs = _players(cfg, at_least=1)
    agent, opponents = specs[0], specs[1:] or ["random"]
    game = _game(cfg)
    judge = game.turn_judge() or Solver(game, cfg.max_nodes).turn_is_optimal
    lineups, agent_seats = [], []
    for opponent in opponents:
        for g in range(cfg.games):
            lineups.append((agent, opponent) if g % 2 == 0 else (opponent, agent))
            agent_seats.append(g % 2)
    results = play_games(_game_cfg(cfg), lineups, cfg.seed, cfg.workers, cfg.progress, cfg.batch_games)
    optimal, total = optimal_share(game, [(r.actions, s) for r, s in zip(results, agent_seats)], judge)
    low, high = score_interval(optimal, total)
    share = optimal / total if total else float("nan")
    print(
        f"{display_names([agent])[0]}: {optimal} of {total} turns optimal = {share:.1%} (95% CI {low:.1%}..{high:.1%}) "
        f"in {len(results)} games against {', '.join(opponents)}",
        file=out,
    )
    return {
        "agent": agent,
        "opponents": opponents,
        "optimal": optimal,
        "turns": total,
        "share": share,
        "ci_low": low,
        "ci_high": high,
    }


SHOWN_MISSES = 5  # positions printed per player where its turn is not optimal (results.json has all)


def _accuracy_on_lines(cfg: DictConfig, out: TextIO) -> dict:
    specs = _players(cfg, at_least=1)
    game = _game(cfg)
    if game.turn_judge() is not None:  # Odoku: exact values from its rules, a board far beyond the solver
        raise ConfigError(
            f"positions: positions=lines walks the exact solver's lines, which do not reach "
            f"{game.info.name}; its turns are judged exactly in games (positions=games)"
        )
    solver = Solver(game, cfg.max_nodes)
    positions = solver.principal_positions()
    lost = sum(lost_for_mover(solver, state) for _, state in positions)
    print(
        f"{game.info.name} {game.info.params}: {len(positions)} positions on the principal lines "
        f"({lost} lost for the mover: every turn optimal there), solver value {solver.value(game.initial_state()):+g}",
        file=out,
    )
    judged = {}
    for spec, name in zip(specs, display_names(specs)):
        result = judge_lines(
            solver, positions, make_player(spec, game), cfg.seed, progress=cfg.progress, batch=cfg.batch_games
        )
        judged[name] = result
        low, high = result.interval
        won, contested = result.contested
        seats = ", ".join(f"{game.info.seat_names[s]} {o}/{n}" for s, (o, n) in sorted(result.seats.items()))
        print(
            f"{name}: {result.optimal} of {result.positions} turns optimal = {result.share:.1%} "
            f"(95% CI {low:.1%}..{high:.1%}); not lost for the mover {won} of {contested}; by seat {seats}",
            file=out,
        )
        for miss in result.misses[:SHOWN_MISSES]:
            line = " ".join(f"{n}. {t}" for n, t in enumerate(miss["line"], start=1)) or "the start"
            print(f"  after {line}: played {miss['played']}; optimal {' | '.join(miss['optimal'])}", file=out)
        if len(result.misses) > SHOWN_MISSES:
            print(f"  ... {len(result.misses) - SHOWN_MISSES} more in results.json", file=out)
    return {
        "positions": "lines",
        "players": specs,
        "line_positions": len(positions),
        "lost_for_mover": lost,
        "solver_nodes": solver.nodes,
        "judged": {name: r.as_dict() for name, r in judged.items()},
    }


def run_stats(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    specs = _players(cfg, at_least=1)
    if len(specs) > 2:
        raise ConfigError(f"players: mode=stats takes one player (self-play) or two, got {len(specs)}")
    orders = [(specs[0], specs[-1]), (specs[-1], specs[0])]
    lineups = [orders[g % 2] for g in range(cfg.games)]
    results = play_games(_game_cfg(cfg), lineups, cfg.seed, cfg.workers, cfg.progress, cfg.batch_games, cfg.opening)
    stats = game_statistics(_game(cfg), results)
    first, turns, pie = stats["first_seat"], stats["turns"], stats["pie"]
    names = display_names(list(dict.fromkeys(specs)))
    who = " vs ".join(names) if len(specs) == 2 else f"{names[0]} self-play"
    opening = f", each from {cfg.opening} random turns" if cfg.opening else ""
    print(f"{stats['games']} games, {who}{opening}", file=out)
    for outcome, e in first.items():
        print(f"  first seat {outcome:4s} {e['rate']:6.1%}  (95% CI {e['ci_low']:.1%}..{e['ci_high']:.1%})", file=out)
    if len(set(specs)) == 2:  # each seating apart: the stronger player moves them apart, the seat's edge alike
        by_first = stats["first_seat_by_first_player"] = {}
        for parity, (first_spec, name) in enumerate(zip(specs, names)):
            seated = results[parity::2]  # lineups alternate, specs[0] first in the even games
            if not seated:
                continue
            by_first[first_spec] = first_seat_rates(seated)
            win = by_first[first_spec]["win"]
            print(
                f"    with {name} first: first seat wins {win['games']} of {len(seated)}, {win['rate']:.1%} "
                f"(95% CI {win['ci_low']:.1%}..{win['ci_high']:.1%})",
                file=out,
            )
    print(
        f"  turns: mean {turns['mean']:.1f}, 10/50/90% {turns['p10']:g}/{turns['p50']:g}/{turns['p90']:g}, "
        f"range {turns['min']}..{turns['max']}",
        file=out,
    )
    print("  turn kinds: " + ", ".join(f"{k} {v:.1%}" for k, v in stats["turn_kinds"].items()), file=out)
    if pie["offered"]:
        print(f"  pie swap taken in {pie['taken']} of {pie['offered']} games where offered", file=out)
    legal = stats["legal_actions"]
    print(
        f"  legal actions: {legal['per_decision']:.1f} per decision, {legal['per_turn_start']:.1f} per turn start",
        file=out,
    )
    print(f"  distinct games: {stats['distinct_games']}", file=out)
    _warn_of_repeats(results, out)
    return {"players": specs, "statistics": stats}


def run_odoku(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    game = _game(cfg)
    if game.reference_player != ORACLE:
        raise ConfigError(f"mode: mode=odoku needs game=odoku, not {game.info.name}")
    if cfg.games < 2:
        raise ConfigError(f"games: mode=odoku needs at least 2 games per seat, got {cfg.games}")
    measures = {}
    specs = _players(cfg, at_least=1)
    names = display_names(specs)
    width = max(len(name) for name in names + ["player"]) + 2
    print(f"{'player':{width}s}{'seat':4s} {'mean score':>17s} {'regret/move':>20s} {'regret/game':>11s}", file=out)
    for spec, name in zip(specs, names):
        seats = measure_against_oracle(
            _game_cfg(cfg), spec, cfg.games, cfg.seed, cfg.workers, cfg.progress, cfg.batch_games
        )
        measures[name] = [m.as_dict() for m in seats]
        for m in seats:
            print(
                f"{name:{width}s}{'BA'[m.seat]:4s} {m.mean_score:8.3f} +- {m.score_ci:5.3f} "
                f"{m.regret_per_move:11.4f} +- {m.regret_per_move_ci:.4f} {m.regret_per_game:11.3f}",
                file=out,
            )
    print("reference (docs/games/odoku.md): oracle 9.375 from either seat; random as B 3.40, as A 14.33", file=out)
    return {"measures": measures}


def run_play(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    specs = _players(cfg, at_least=2)
    if len(specs) != 2 or "human" not in [split_name(spec)[1] for spec in specs]:
        raise ConfigError(f"players: mode=play needs two players, one of them human, got {specs}")
    game = _game(cfg)
    players = [make_player(spec, game) for spec in specs]
    played = play_interactive(game, players, np.random.default_rng(cfg.seed), out)
    record = run_dir / "game.txt"  # abandoned games too: the record replays to where play stopped
    record.write_text(game_record(game, played.actions, specs))
    print(f"record: {record}", file=out)
    return {"players": specs, "finished": played.finished, "actions": played.actions}


def run_curve(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    source = cfg.get("checkpoints")
    if source is None or isinstance(source, bool) or not isinstance(source, (str, ListConfig)):
        raise ConfigError(
            f"checkpoints: mode=curve needs a run directory or a list of checkpoint files, got {source!r}"
        )
    simulations = cfg.get("simulations")
    if simulations is not None and (
        not isinstance(simulations, int) or isinstance(simulations, bool) or simulations < 0
    ):
        raise ConfigError(
            f"simulations: must be null (each checkpoint's own search) or an integer >= 0, got {simulations!r}"
        )
    checkpoints = curve_checkpoints(source if isinstance(source, str) else list(source))
    opponents = _players(cfg, at_least=1)
    game = _game(cfg)
    for path in checkpoints:
        make_player(candidate_spec(path, simulations), game)  # a foreign or damaged checkpoint fails before any game
    names = dict(zip(opponents, display_names(opponents)))
    points = learning_curve(
        _game_cfg(cfg),
        checkpoints,
        opponents,
        cfg.games,
        cfg.seed,
        cfg.workers,
        cfg.progress,
        simulations,
        cfg.batch_games,
        cfg.opening,
    )
    points = [dataclasses.replace(p, opponent=names[p.opponent]) for p in points]
    rows = [p.as_row() for p in points]
    _write_csv(run_dir / "curve.csv", rows)
    axis = plot_curve(points, run_dir / "curve.png", game.info.name)
    _print_curve(rows, out)
    if axis != "wall_minutes":
        untimed = sorted({Path(r["checkpoint"]).name for r in rows if r["wall_minutes"] == ""})
        print(
            f"curve.png is drawn against iterations: {', '.join(untimed)} record no wall-clock time "
            "(written before checkpoints recorded it)",
            file=out,
        )
    return {"checkpoints": [str(p) for p in checkpoints], "opponents": opponents, "x_axis": axis, "table": rows}


def run_report(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    budget_of(cfg.budget)  # an unknown budget fails before any game
    agent = cfg.get("ladder")
    if agent is not None:
        if not _ladder_agent(agent):
            raise ConfigError(
                "ladder: must be null, a checkpoint spec az:PATH or the zoo's network zoo[:GAME] "
                f"(laddered at 2, 4, ... simulations), got {agent!r}"
            )
        make_player(f"{agent}:1", _game(cfg))  # a wrong checkpoint or network fails before any game
    folder = Path(cfg.report_dir) if cfg.get("report_dir") else run_dir / "report"
    game_cfg = _game_cfg(cfg)
    if cfg.opening and agent is None:
        raise ConfigError("opening: in mode=report it starts the ladder=AGENT's games only; give ladder= too")
    report = game_report(game_cfg, cfg.budget, cfg.seed, cfg.workers, cfg.progress, agent, cfg.opening)
    page = write_report(report, game_cfg, folder)
    (folder / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    depth, balance, luck = (report["sections"][key] for key in ("depth", "balance", "luck"))
    for row in balance["rows"]:
        win = row["first_seat"]["win"]
        print(
            f"balance, {row['variant']}: seat 0 wins {win['rate']:.1%} ({win['ci_low']:.1%}..{win['ci_high']:.1%})",
            file=out,
        )
    print(
        f"depth: {depth['elo_per_doubling']:.0f} +- {depth['elo_per_doubling_ci']:.0f} Elo per doubling, "
        f"{depth['significant_doublings']} of {len(depth['steps'])} doublings with a significant edge",
        file=out,
    )
    if "agent" in depth:
        agent = depth["agent"]
        print(
            f"depth, {agent['spec']}: {agent['elo_per_doubling']:.0f} +- {agent['elo_per_doubling_ci']:.0f} Elo per "
            f"doubling, {agent['significant_doublings']} of {len(agent['steps'])} doublings with a significant edge",
            file=out,
        )
    share = luck["chance_share"]
    print(f"luck: chance share {share['share']:.2f} ({share['ci_low']:.2f}..{share['ci_high']:.2f})", file=out)
    print(f"report: {page} ({report['seconds'] / 60:.1f} min)", file=out)
    return {"report": str(page), "seconds": report["seconds"]}


def run_zoo(cfg: DictConfig, run_dir: Path, out: TextIO) -> dict:
    text, names, missing = zoo_listing()
    print(text, file=out)
    return {"networks": names, "missing": missing}


MODES: dict[str, Callable[[DictConfig, Path, TextIO], dict]] = {
    "match": run_match,
    "solve": run_solve,
    "accuracy": run_accuracy,
    "stats": run_stats,
    "odoku": run_odoku,
    "play": run_play,
    "curve": run_curve,
    "report": run_report,
    "zoo": run_zoo,
}


# --- helpers ---------------------------------------------------------------------------------
ACCURACY_POSITIONS = ("games", "lines")


def _check_ranges(cfg: DictConfig) -> None:
    for key, low in (
        ("games", 1),
        ("workers", 1),
        ("batch_games", 1),
        ("opening", 0),
        ("torch_threads", 0),
        ("max_nodes", 1),
        ("seed", 0),
    ):
        value = cfg.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ConfigError(f"{key}: must be an integer >= {low}, got {value!r}")
    if not isinstance(cfg.get("prior_draws"), (int, float)) or cfg.prior_draws < 0:
        raise ConfigError(f"prior_draws: must be a number >= 0, got {cfg.get('prior_draws')!r}")
    if not isinstance(cfg.get("duplicate"), bool):
        raise ConfigError(f"duplicate: must be true or false, got {cfg.get('duplicate')!r}")
    if cfg.duplicate and cfg.mode != "match":
        raise ConfigError(f"duplicate: duplicate=true plays in mode=match, not mode={cfg.mode}")
    if cfg.resume is not None and cfg.mode != "match":
        raise ConfigError(f"resume: continues a stopped mode=match, not mode={cfg.mode}")
    if cfg.get("test") not in TESTS:
        raise ConfigError(f"test: must be one of {', '.join(TESTS)}, got {cfg.get('test')!r}")
    if cfg.test != "fixed" and cfg.mode != "match":
        raise ConfigError(f"test: test={cfg.test} decides a mode=match, not mode={cfg.mode}")
    if cfg.get("inference") not in BACKENDS:
        raise ConfigError(f"inference: must be one of {', '.join(BACKENDS)}, got {cfg.get('inference')!r}")
    if cfg.get("positions") not in ACCURACY_POSITIONS:
        raise ConfigError(f"positions: must be one of {', '.join(ACCURACY_POSITIONS)}, got {cfg.get('positions')!r}")


TESTS = ("fixed", "sprt")


def match_settings_of(cfg: DictConfig) -> dict:
    """The settings that decide the games of match ``cfg``, as its journal keeps them."""
    specs = _players(cfg, at_least=2)
    if cfg.duplicate and cfg.games % 2:
        raise ConfigError(f"games: duplicate=true plays each setup twice, so games must be even, got {cfg.games}")
    decisive = {key: cfg[key] for key in ("games", "seed", "opening", "duplicate", "batch_games")}
    if _sequential_test(cfg, specs) is not None:  # its pairs are duplicate pairs, its question decides where it stops
        decisive |= {"duplicate": True, "sprt": {key: cfg.sprt[key] for key in ("low", "high", "alpha", "beta")}}
    return match_settings(_game_cfg(cfg), specs, **decisive)


def _sequential_test(cfg: DictConfig, specs: list[str]) -> SPRT | None:
    """The match's sequential test (test=sprt), checked; None for a fixed-count match."""
    if cfg.test == "fixed":
        for key in ("low", "high"):
            if cfg.sprt[key] is not None:
                raise ConfigError(f"sprt.{key}: the test's bounds are for test=sprt; give test=sprt too")
        return None
    if len(specs) != 2:
        raise ConfigError(f"players: test=sprt tests players[0] against players[1]; give two players, got {specs}")
    for key in ("low", "high"):
        if cfg.sprt[key] is None:
            raise ConfigError(f"sprt.{key}: test=sprt needs both bounds, e.g. sprt.low=0.85 sprt.high=0.95")
    try:
        return SPRT(cfg.sprt.low, cfg.sprt.high, cfg.sprt.alpha, cfg.sprt.beta, cfg.games)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def _warn_of_repeats(results, out: TextIO) -> None:
    warning = repeats_warning(results)
    if warning:
        print(warning, file=out)


def _players(cfg: DictConfig, at_least: int) -> list[str]:
    players = cfg.get("players")
    if isinstance(players, str):
        players = [players]
    if not isinstance(players, (list, ListConfig)) or not all(isinstance(p, str) and p for p in players):
        raise ConfigError(f"players: must be a list of player specs, e.g. players=[oracle,random]; got {players!r}")
    if len(players) < at_least:
        raise ConfigError(f"players: mode={cfg.mode} needs at least {at_least} players, got {list(players)}")
    players = [str(p) for p in players]
    if cfg.mode != "play":
        if "human" in [split_name(spec)[1] for spec in players]:
            raise ConfigError(f"players: 'human' plays in mode=play only, not mode={cfg.mode}")
        game = _game(cfg)
        for spec in dict.fromkeys(players):
            make_player(spec, game)  # unknown specs and wrong checkpoints fail here, before any game
    return players


def _game_cfg(cfg: DictConfig) -> dict:
    return OmegaConf.to_container(cfg.game, resolve=True)


def _ladder_agent(agent) -> bool:
    """Whether ``ladder=`` names an agent whose budget a ladder can set: ``az:PATH`` or ``zoo[:GAME]``."""
    if not isinstance(agent, str):
        return False
    kind, *args = split_name(agent)[1].split(":")
    if kind == "az":
        return bool(args)
    return kind == "zoo" and len(args) <= 1 and not any(arg == "" or arg.isdigit() for arg in args)


def _game(cfg: DictConfig):
    return game_from_config(_game_cfg(cfg))


def _row(player: str, opponent: str, pair, rating=None, rating_ci=None) -> dict:
    low, high = pair.interval
    row = {
        "player": player,
        "opponent": opponent,
        "games": pair.games,
        "wins": pair.wins,
        "draws": pair.draws,
        "losses": pair.losses,
        "score": round(pair.score, 4),
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
    }
    row["rating"] = "" if rating is None else round(float(rating), 1)
    row["rating_ci"] = "" if rating_ci is None else round(float(rating_ci), 1)
    return row


def _print_table(rows: list[dict], out: TextIO) -> None:
    width = max(len(r["player"]) for r in rows) + 2
    owidth = max(len(r["opponent"]) for r in rows) + 2
    rated = any(r["rating"] != "" for r in rows)
    print(
        f"{'player':{width}s}{'opponent':{owidth}s}{'games':>6s}{'W':>6s}{'D':>6s}{'L':>6s}"
        f"{'score':>8s}  {'95% CI':13s}" + (f"{'Elo':>8s}{'+-':>7s}" if rated else ""),
        file=out,
    )
    for r in rows:
        rating = "" if r["rating"] == "" else f"{r['rating']:8.1f}{r['rating_ci']:7.1f}"
        print(
            f"{r['player']:{width}s}{r['opponent']:{owidth}s}{r['games']:6d}{r['wins']:6d}{r['draws']:6d}"
            f"{r['losses']:6d}{r['score']:8.3f}  {r['ci_low']:.3f}..{r['ci_high']:.3f} {rating}",
            file=out,
        )


def _print_curve(rows: list[dict], out: TextIO) -> None:
    width = max(len(Path(r["checkpoint"]).stem) for r in rows) + 2
    owidth = max(len(r["opponent"]) for r in rows) + 2
    print(
        f"{'checkpoint':{width}s}{'iter':>5s}{'step':>8s}{'minutes':>9s}  {'opponent':{owidth}s}{'games':>6s}"
        f"{'W':>6s}{'D':>6s}{'L':>6s}{'win rate':>10s}  95% CI",
        file=out,
    )
    for r in rows:
        minutes = "?" if r["wall_minutes"] == "" else f"{r['wall_minutes']:.1f}"
        print(
            f"{Path(r['checkpoint']).stem:{width}s}{r['iteration']:5d}{r['step']:8d}{minutes:>9s}  "
            f"{r['opponent']:{owidth}s}{r['games']:6d}{r['wins']:6d}{r['draws']:6d}{r['losses']:6d}"
            f"{r['win_rate']:10.3f}  {r['ci_low']:.3f}..{r['ci_high']:.3f}",
            file=out,
        )


def _write_csv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _named(spec: str, name: str) -> str:
    """A record's seat line: the name, and the full spec where the name shortens it."""
    return spec if name == spec else f"{name} = {split_name(spec)[1]}"


def _tag(spec: str) -> str:
    """A player spec as a TensorBoard tag part (no slashes)."""
    return re.sub(r"[^A-Za-z0-9_.:=-]+", "_", spec)


def _plot_ratings(ratings, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = np.argsort(ratings.rating)
    longest = max(len(name) for name in ratings.names)  # room for the names beside the axis
    figure, axes = plt.subplots(figsize=(5 + 0.09 * longest, 1.4 + 0.45 * len(order)))
    axes.errorbar(ratings.rating[order], range(len(order)), xerr=ratings.ci[order], fmt="o", capsize=4)
    axes.set_yticks(range(len(order)), [ratings.names[i] for i in order])
    axes.axvline(0.0, color="grey", linewidth=0.8)
    axes.set_xlabel(f"Elo (Bradley-Terry, {ratings.anchor} = 0, 95% CI)")
    axes.set_title(f"{title} ratings")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _tensorboard(run_dir: Path, rows: list[dict], ratings) -> None:
    from torch.utils.tensorboard import SummaryWriter  # slow import: only when writing

    with SummaryWriter(str(run_dir / "tb")) as writer:
        for name, rating, ci in zip(ratings.names, ratings.rating, ratings.ci):
            writer.add_scalar(f"eval/rating/{_tag(name)}", float(rating), 0)
            writer.add_scalar(f"eval/rating_ci/{_tag(name)}", float(ci), 0)
        for row in rows:
            if row["opponent"] == "all":
                writer.add_scalar(f"eval/score/{_tag(row['player'])}", row["score"], 0)
        header = "| " + " | ".join(rows[0]) + " |\n|" + "---|" * len(rows[0]) + "\n"
        body = "".join("| " + " | ".join(str(v) for v in row.values()) + " |\n" for row in rows)
        writer.add_text("eval/summary", header + body, 0)
