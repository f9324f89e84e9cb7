"""The report as a page: ``report.md`` with its PNG plots, from :func:`agents.evaluation.report.game_report`.

Every figure carries its 95% interval and the command that reproduces it:
``mode=match`` for a ladder rung and ``mode=stats`` for a balance row replay
exactly those games; luck, decisiveness and branching come from the report's
own command. Files written into the report folder: ``report.md``,
``depth.png`` (Elo against budget), ``lengths.png``, ``decided.png`` (the
winner's value over the last turns), ``branching.png``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.config import game_defaults
from agents.evaluation.game_stats import TURN_CAP
from agents.evaluation.intervals import mean_interval
from agents.players.registry import display_names

PLOTS = ("depth.png", "lengths.png", "decided.png", "branching.png")
SECTIONS = ("## Balance", "## Depth", "## Luck", "## Decisiveness and length", "## Branching")


def game_overrides(game_cfg: dict) -> str:
    """``game=NAME`` and every parameter that differs from the game's default, as command-line overrides."""
    defaults = game_defaults(game_cfg["name"])
    words = [f"game={game_cfg['name']}"]
    for key, value in game_cfg.items():
        if key != "name" and defaults.get(key) != value:
            words.append(f"game.{key}={str(value).lower() if isinstance(value, bool) else value}")
    return " ".join(words)


def write_report(report: dict, game_cfg: dict, folder: Path) -> Path:
    """Write ``report.md`` and the plots into ``folder``; returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    sections = report["sections"]
    seed = report["seed"]
    command = report_command(report, game_cfg)
    _plot_depth(sections["depth"], folder / "depth.png")
    _plot_lengths(sections["decisiveness"]["lengths"], folder / "lengths.png")
    _plot_decided(sections["decisiveness"], folder / "decided.png")
    _plot_branching(sections["branching"]["counts"], folder / "branching.png")
    params = ", ".join(f"{k} {v}" for k, v in report["params"].items() if v not in ("", None)) or "default"
    lines = [
        f"# {report['game']} ({params}): the game inventor's report",
        "",
        f"Reproduce the whole report: `{command}` (add `workers=N` to use N cores; the games are the same).",
        "",
        f"Budget `{report['budget']}` ({_plan_text(report['plan'])}); seed {seed}; "
        f"wall time **{report['seconds'] / 60:.1f} min** with `workers={report['workers']}` "
        f"({report['cpu_seconds'] / 60:.1f} min of CPU time) on a machine with {report['cpu_count']} CPU cores. "
        "Every interval is 95%.",
        "",
        *_balance(sections["balance"], game_cfg, seed),
        *_depth(sections["depth"], game_cfg, seed),
        *_luck(sections["luck"], command),
        *_decisiveness(sections["decisiveness"], command),
        *_branching(sections["branching"], command),
    ]
    page = folder / "report.md"
    page.write_text("\n".join(lines) + "\n")
    return page


def report_command(report: dict, game_cfg: dict) -> str:
    """The command that makes ``report`` again, for the game ``game_cfg``."""
    agent = report["sections"]["depth"].get("agent")
    ladder = f" ladder={agent['spec']}{_opening(agent)}" if agent else ""
    return (
        f"python evaluate.py mode=report {game_overrides(game_cfg)} budget={report['budget']}{ladder} "
        f"seed={report['seed']}"
    )


def headline(report: dict) -> list[tuple[str, str]]:
    """The report's headline figures as (measure, value) pairs, for a table of the game's reports:
    the first seat's share under the game's rule, the ladder's Elo per doubling, chance's share,
    the length, how long before the end the game was decided, and the branching."""
    sections = report["sections"]
    rule = next(row for row in sections["balance"]["rows"] if row["default"])
    depth, share = sections["depth"], sections["luck"]["chance_share"]
    decisive, flat = sections["decisiveness"], [c for game in sections["branching"]["counts"] for c in game]
    if decisive["decided"]:
        mean, half = mean_interval(decisive["decided"])
        decided = f"{mean:.1f} +- {half:.1f} turns"
    else:
        decided = "no balance game had a winner"
    return [
        (
            f"seat 0 wins, {rule['variant']} ({' against '.join(sections['balance']['players'])})",
            _pct(rule["first_seat"]["win"]),
        ),
        ("draws", _pct(rule["first_seat"]["draw"])),
        (
            "Elo per doubling of plain MCTS's search",
            f"{depth['elo_per_doubling']:.0f} +- {depth['elo_per_doubling_ci']:.0f}",
        ),
        ("doublings with a significant edge", f"{depth['significant_doublings']} of {len(depth['steps'])}"),
        (
            "share of the outcome's variance due to chance",
            f"{share['share']:.2f} ({share['ci_low']:.2f}..{share['ci_high']:.2f})",
        ),
        ("turns a game (mean)", f"{decisive['turns']['mean']:.1f}"),
        (f"the winner's value stays at or above {decisive['threshold']:+.1f} for the last", decided),
        ("complete legal turns at a turn start (mean)", f"{np.mean(flat):,.0f}{_capped(flat)}"),
    ]


def _plan_text(plan: dict) -> str:
    top = plan["base"] * 2 ** plan["doublings"]
    return (
        f"ladder mcts:{plan['base']}..mcts:{top}, {plan['rung_games']} games a rung; {plan['balance_games']} "
        f"balance games; {plan['duplicate_pairs']} duplicate pairs; {plan['value_games']} games valued by "
        f"mcts:{plan['value_simulations']}; legal turns counted in {_count(plan['branching_games'], 'game')}"
    )


def _count(n: int, noun: str) -> str:
    """``1 game``, ``4 games``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _pct(entry: dict) -> str:
    return f"{entry['rate']:.1%} ({entry['ci_low']:.1%}..{entry['ci_high']:.1%})"


def _balance(section: dict, game_cfg: dict, seed: int) -> list[str]:
    a, b = section["players"]
    lines = [
        "## Balance",
        "",
        f"`{a}` against `{b}`, each seat in turn, so the stronger player's edge cancels between the seatings "
        f"({section['seconds']:.0f} s).",
        "",
        f"| rule | games | seat 0 wins | draws | seat 0 wins, `{a}` there | seat 0 wins, `{b}` there "
        "| pie swap taken | command |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in section["rows"]:
        first, by_first, pie = row["first_seat"], row["by_first"], row["pie"]
        swap = f"{pie['taken']} of {pie['offered']}" if pie["offered"] else "not offered"
        mark = " (the game's rule)" if row["default"] and len(section["rows"]) > 1 else ""
        stats = f'python evaluate.py mode=stats {game_overrides(row["game_cfg"])} "players=[{a},{b}]"'
        lines.append(
            f"| {row['variant']}{mark} | {row['games']} | {_pct(first['win'])} | {_pct(first['draw'])} | "
            f"{_pct(by_first[a]['win'])} | {_pct(by_first[b]['win'])} | {swap} | "
            f"`{stats} games={row['games']} seed={seed}` |"
        )
    lines += ["", _verdict(section["rows"]), ""]
    for row in section["rows"]:
        kinds = ", ".join(f"{kind} {share:.1%}" for kind, share in row["turn_kinds"].items())
        lines.append(f"Turn kinds, {row['variant']}: {kinds}.")
    lines.append("")
    return lines


def _verdict(rows: list[dict]) -> str:
    parts = []
    for row in rows:
        win = row["first_seat"]["win"]
        decisive = 1 - row["first_seat"]["draw"]["rate"]
        if win["ci_low"] > 0.5 * decisive or win["ci_high"] < 0.5 * decisive:
            lean = "seat 0" if win["rate"] > 0.5 * decisive else "seat 1"
            parts.append(f"{row['variant']}: the first seat's share is separated from an even split ({lean} ahead)")
        else:
            parts.append(f"{row['variant']}: not separated from an even split of the decisive games")
    return "; ".join(parts) + "."


def _depth(section: dict, game_cfg: dict, seed: int) -> list[str]:
    lines = [
        "## Depth",
        "",
        f"Each rung doubles the search and plays the rung below ({section['seconds']:.0f} s for the whole section). "
        "A rung is significant when the stronger side's score interval lies above 50%.",
        "",
        *_ladder_table(section["steps"], game_cfg, seed),
        "",
        f"Elo per doubling over the ladder: **{section['elo_per_doubling']:.0f} +- "
        f"{section['elo_per_doubling_ci']:.0f}**; doublings with a significant edge: "
        f"**{section['significant_doublings']} of {len(section['steps'])}**, the highest "
        f"{_highest(section['highest_significant'])}.",
        "",
        "![Elo against search budget](depth.png)",
        "",
    ]
    if "agent" in section:
        agent = section["agent"]
        lines += [
            f"The agent `{agent['spec']}` at doubling search budgets: Elo per doubling "
            f"**{agent['elo_per_doubling']:.0f} +- {agent['elo_per_doubling_ci']:.0f}**; doublings with a "
            f"significant edge **{agent['significant_doublings']} of {len(agent['steps'])}**, the highest "
            f"{_highest(agent['highest_significant'])}."
            + (f" Each of its games starts from {agent['opening']} random turns." if agent.get("opening") else ""),
            "",
            *_ladder_table(agent["steps"], game_cfg, seed, _opening(agent)),
            "",
        ]
    return lines


def _highest(spec: str | None) -> str:
    return "none" if spec is None else f"up to `{spec}`"


def _opening(agent: dict) -> str:
    """`` opening=K`` where the agent's games start from K random turns, else nothing."""
    return f" opening={agent['opening']}" if agent.get("opening") else ""


def _ladder_table(steps: list[dict], game_cfg: dict, seed: int, opening: str = "") -> list[str]:
    lines = [
        "| stronger | weaker | games | W-D-L | score | Elo gap | significant | command |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in steps:
        match = f'python evaluate.py mode=match {game_overrides(game_cfg)} "players=[{s["stronger"]},{s["weaker"]}]"'
        lines.append(
            f"| `{s['stronger']}` | `{s['weaker']}` | {s['games']} | {s['wins']}-{s['draws']}-{s['losses']} | "
            f"{s['score']:.1%} ({s['ci_low']:.1%}..{s['ci_high']:.1%}) | {s['elo']:+.0f} +- {s['elo_ci']:.0f} | "
            f"{'yes' if s['significant'] else 'no'} | `{match} games={s['games']} seed={seed}{opening}` |"
        )
    return lines


def _luck(section: dict, command: str) -> list[str]:
    strong, weak = section["players"]
    up, share = section["upsets"], section["chance_share"]
    chance = (
        "The game has chance nodes: the pairs share them."
        if section["has_chance"]
        else "The game has no chance nodes, so the true share is 0 and the estimate shows the method's noise."
    )
    return [
        "## Luck",
        "",
        f"`{strong}` against `{weak}` (two rungs apart) in {share['pairs']} duplicate pairs: each lineup twice with "
        f"the same chance draws, the players' own choices drawn anew ({section['seconds']:.0f} s; `{command}`).",
        "",
        "| measure | value |",
        "|---|---|",
        f"| `{weak}`'s score (wins {up['wins']} of {up['games']}, draws half) | {up['score']:.1%} "
        f"({up['ci_low']:.1%}..{up['ci_high']:.1%}) |",
        f"| Bradley-Terry expectation for the ladder's gap of {up['gap']:.0f} +- {up['gap_ci']:.0f} Elo | "
        f"{up['expected']:.1%} ({up['expected_low']:.1%}..{up['expected_high']:.1%}) |",
        f"| share of the outcome's variance due to chance | {share['share']:.2f} ({share['ci_low']:.2f}.."
        f"{share['ci_high']:.2f}) |",
        "",
        chance,
        "",
        *_by_turns(section),
    ]


def _by_turns(section: dict) -> list[str]:
    table = section["by_turns"]
    if table is None:
        return []
    second = section["seat_names"][1]
    lines = [
        f"Chance decides who moves, so the seats' turns differ between games: the balance games (the game's rule) "
        f"by {second}'s number of turns, the outcome being {table['outcome']}:",
        "",
        f"| {second}'s turns | games | mean {table['outcome']} |",
        "|---|---|---|",
    ]
    lines += [
        f"| {row['turns']} | {row['games']} | {row['mean']:.2f}{_plus_minus(row['ci'])} |" for row in table["rows"]
    ]
    lines += [
        "",
        f"Least-squares slope: **{table['slope']:+.3f} +- {table['slope_ci']:.3f}** per extra turn of {second}.",
        "",
    ]
    return lines


def _decisiveness(section: dict, command: str) -> list[str]:
    turns, decided, shares = section["turns"], section["decided"], section["decided_share"]
    lines = [
        "## Decisiveness and length",
        "",
        f"Length of the balance games (the game's rule), in turns: mean {turns['mean']:.1f}, "
        f"10/50/90% {turns['p10']:g}/{turns['p50']:g}/{turns['p90']:g}, range {turns['min']}..{turns['max']}.",
        "",
        "![Game lengths](lengths.png)",
        "",
    ]
    if decided:
        mean, half = mean_interval(decided)
        share_mean, share_half = mean_interval(shares)
        lines += [
            f"The winner's value by `mcts:{section['value_simulations']}` at every turn start of {_count(len(decided), 'won game')}: "
            f"it stays at or above {section['threshold']:+.1f} for the last **{mean:.1f} +- {half:.1f}** "
            f"turns (median {np.median(decided):g}), **{share_mean:.0%} +- {share_half:.0%}** of a game "
            f"({section['seconds']:.0f} s; `{command}`).",
            "",
            "![The winner's value over the last turns](decided.png)",
            "",
        ]
    else:
        lines += ["No balance game had a winner, so no game was valued.", ""]
    return lines


def _branching(section: dict, command: str) -> list[str]:
    counts = section["counts"]
    flat = [c for game in counts for c in game]
    legal = section["per_decision"]
    return [
        "## Branching",
        "",
        f"Complete legal turns at every turn start of {_count(len(counts), 'balance game')}{_capped(flat)}: "
        f"mean {np.mean(flat):.0f}, "
        f"median {np.median(flat):g}, range {min(flat)}..{max(flat)}; legal actions per decision (every "
        f"micro-step) {legal['per_decision']:.1f}, per turn start {legal['per_turn_start']:.1f} over all balance "
        f"games ({section['seconds']:.0f} s; `{command}`).",
        "",
        "![Legal turns over a game](branching.png)",
        "",
    ]


def _capped(flat: list[int]) -> str:
    """Where counts reached ``TURN_CAP``: how many, since such a count means at least the cap."""
    at_cap = sum(c >= TURN_CAP for c in flat)
    return f" (counted up to {TURN_CAP:,}; {at_cap} of {len(flat)} counts at that cap)" if at_cap else ""


def _plus_minus(half: float) -> str:
    return "" if not np.isfinite(half) else f" +- {half:.2f}"


# --- plots -------------------------------------------------------------------------------
def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _plot_depth(section: dict, path: Path) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(5.5, 3.6))
    ladders = [("mcts", section["chain"])] + (
        [(section["agent"]["spec"], section["agent"]["chain"])] if "agent" in section else []
    )
    for label, chain in ladders:
        budgets = [int(name.rsplit(":", 1)[1]) for name in chain]
        axes.errorbar(
            budgets,
            [chain[n]["rating"] for n in chain],
            yerr=[chain[n]["ci"] for n in chain],
            fmt="o-",
            capsize=3,
            label=f"{display_names([label])[0]} ({display_names(list(chain))[0]} = 0)",  # each ladder its own zero
        )
    axes.set_xscale("log", base=2)
    budgets = sorted({int(name.rsplit(":", 1)[1]) for _, chain in ladders for name in chain})
    axes.set_xticks(budgets, [str(b) for b in budgets])
    axes.minorticks_off()
    axes.set_xlabel("simulations per move")
    axes.set_ylabel("Elo over the ladder's first rung\n(95% CI)")
    axes.legend()
    _save(figure, path, plt)


def _plot_lengths(lengths: list[int], path: Path) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(5.5, 3.2))
    span = max(lengths) - min(lengths) + 1
    # a bar a length on short games; on long ones (Blockdance: 66 to 500 turns) 40 bars, not 435 lines
    bins = np.arange(min(lengths), max(lengths) + 2) - 0.5 if span <= 60 else 40
    axes.hist(lengths, bins=bins)
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.set_xlabel("turns")
    axes.set_ylabel("games")
    _save(figure, path, plt)


def _plot_decided(section: dict, path: Path) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(5.5, 3.2))
    for trace in section["traces"]:
        if trace:
            axes.plot(-np.arange(len(trace))[::-1], trace, color="tab:blue", alpha=0.35, linewidth=1)
    axes.axhline(section["threshold"], color="grey", linestyle="--", linewidth=1)
    axes.set_xlabel("turns before the end")
    axes.set_ylabel("winner's value")
    axes.set_ylim(-1.05, 1.05)
    _save(figure, path, plt)


def _plot_branching(counts: list[list[int]], path: Path) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(5.5, 3.2))
    for game in counts:
        axes.plot(range(1, len(game) + 1), game, marker=".", alpha=0.6)
    if any(c >= TURN_CAP for game in counts for c in game):  # a count at the cap means at least that many
        axes.axhline(TURN_CAP, color="grey", linestyle="--", linewidth=1, label=f"the count's cap, {TURN_CAP:,}")
        axes.legend()
    axes.set_yscale("log")
    axes.set_xlabel("turn")
    axes.set_ylabel("complete legal turns")
    _save(figure, path, plt)


def _save(figure, path: Path, plt) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)
