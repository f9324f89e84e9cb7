"""The zoo's cards: the figures every network is measured by, their verdicts, and the listing.

:func:`planned_figures` says, for a game, which figures its card carries, each
with the ``python evaluate.py`` command that measures it and the target set for
it (issue 36): the zoo network's score against ``mcts:400`` and ``mcts:1600``
over 200 games, seats alternating (duplicate matches for a game with a chance
setup at its start: Sudoku Moyo's puzzle), its raw network against ``mcts:400``,
and for Odoku the regret per move against the oracle from each seat.
A card on a text's own board where such matches would take some 7 to 350 hours
of one core (:data:`TEXT_BOARD_CARDS`) carries two figures instead, against one
baseline named with its reason: the network's score decided by
:data:`TEXT_BOARD_TEST` (at least 0.90), and its raw network's over
:data:`TEXT_BOARD_RAW_GAMES` games. :func:`read_figure` turns an evaluation's ``results.json`` document into a
card's figure; ``benchmarks/zoo_measure.py`` runs the commands and writes the
figures. :func:`zoo_listing` is what ``python evaluate.py mode=zoo`` prints: every
card, then every registered game that has no network on its default board, with
the command that would make one.
"""

from __future__ import annotations

import datetime
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from agents.evaluation.sprt import SPRT, Verdict
from agents.net.zoo import board_changes, network_sizes, read_card, sizes_text, zoo_names
from envs import GAMES, game_defaults

CONFIGS = Path(__file__).resolve().parents[2] / "configs"  # beside train.py and evaluate.py in a checkout
SCORE_GAMES = 200  # games per score figure, seats alternating
ODOKU_GAMES = 2000  # games per seat against the oracle
STRONG = 0.90  # the target score against mcts:1600 (and Neu-Y's, Y's against mcts:400)
ODOKU_REGRET = 0.002  # the target regret per move, each seat
# Sudoku Moyo's target against mcts:400: the ceiling that sixteen times its rollouts reach,
# mcts:6400's duplicate score against it over 200 games (results/strength.jsonl, "mcts:6400 on Sudoku Moyo")
SUDOKU_CEILING = 0.665


@dataclass(frozen=True)
class PlannedFigure:
    """A figure a card carries: what ``evaluate.py`` overrides measure it, how to read it and its target;
    ``test``: the sequential test that always decides it (else it is played as planned, or decided by
    the test ``zoo_measure.py --sprt`` asks)."""

    name: str
    overrides: tuple[str, ...]
    reads: tuple[str, str, str]  # ("score", SPEC, OPPONENT): a match row; ("regret", SPEC, SEAT): mode=odoku
    target: str
    goal: tuple[str, float] | None  # (">=" or "<=", bound); None: reported, no target
    test: SPRT | None = None

    def command(self, batch_games: int = 1, test: SPRT | None = None) -> str:
        """The command that measures it; ``batch_games``: its games played in lockstep groups of
        that many, which changes the games but not their expected results (docs/evaluate.md);
        ``test``: decided by that sequential test, its cap in place of the planned games."""
        return "python evaluate.py " + shlex.join(self.overrides_for(batch_games, test))

    def overrides_for(self, batch_games: int = 1, test: SPRT | None = None) -> tuple[str, ...]:
        overrides = self.overrides
        test = test or self.test
        if test is not None:
            overrides = tuple(o for o in overrides if not o.startswith("games=")) + (
                f"games={test.cap}",
                "test=sprt",
                *(f"sprt.{key}={getattr(test, key):g}" for key in ("low", "high", "alpha", "beta")),
            )
        return overrides + ((f"batch_games={batch_games}",) if batch_games != 1 else ())

    @property
    def sequential(self) -> bool:
        """Whether a sequential test can decide it: a score with a lower bound as its target."""
        return self.reads[0] == "score" and self.goal is not None and self.goal[0] in (">=", ">")


def batch_games_of(command: str) -> int:
    """The ``batch_games`` a figure's command plays its games with (1 where it names none)."""
    words = [word for word in shlex.split(command) if word.startswith("batch_games=")]
    return int(words[-1].partition("=")[2]) if words else 1


def has_chance_setup(name: str) -> bool:
    """Whether game ``name`` draws a setup at its start that decides much of a game (Sudoku Moyo's
    puzzle): its matches are duplicate, every setup played twice with the seats swapped."""
    return name == "sudoku_moyo"


@dataclass(frozen=True)
class TextBoardCard:
    """How the card of a network on its text's own board is decided: against ``baseline``, for ``why``."""

    baseline: str
    why: str


# The texts' boards where plain MCTS's 200-game matches (against mcts:400 and mcts:1600) would take
# some 7 to 350 hours of one core (benchmarks/zoo_card_cost.py estimates them): such a card is decided by a
# sequential test against one baseline. Plain MCTS's random rollouts cost as many moves as a game
# has left; where even 60 games of mcts:400 would take most of a day, the baseline is hmcts:400, whose
# rollouts stop after four turns and are scored by the game's heuristic (docs/search.md).
_PLAIN = (
    "mcts:400, as on the smaller boards' cards: the test's games against it (about 60 for a network "
    "scoring 0.97) fit in a few hours of one core"
)
_CUT = "hmcts:400 (rollouts cut after four turns, scored by {}): a move of mcts:400 takes seconds on this board; {}"
TEXT_BOARD_CARDS = {
    "progressive_amazons": TextBoardCard("mcts:400", _PLAIN),
    "hexxagon_1344": TextBoardCard("mcts:400", _PLAIN),
    "send_it": TextBoardCard("mcts:400", _PLAIN),
    "blockdance": TextBoardCard("mcts:400", _PLAIN),
    "four_way_walls": TextBoardCard(
        "hmcts:400",
        _CUT.format(
            "the steps each side has to go", "on the 5x5 board it beat mcts:400 in 18 of 20 games (docs/results.md)"
        ),
    ),
    "hop_chess": TextBoardCard(
        "hmcts:400", _CUT.format("material", "hmcts:100 beat mcts:100 in 3 of 4 games (docs/results.md)")
    ),
}
# decides ">= 0.90"; a cap of 120 games keeps both error rates within 0.05 (benchmarks/sprt_games.py --cap 120)
TEXT_BOARD_TEST = SPRT(low=0.85, high=0.95, alpha=0.05, beta=0.05, cap=120)
TEXT_BOARD_RAW_GAMES = 20


def text_board_card(game: dict) -> TextBoardCard | None:
    """How a card for ``game`` on its text's board is decided; None where the full plan serves
    (the game is not among :data:`TEXT_BOARD_CARDS`, or ``game`` is another board than its default)."""
    plan = TEXT_BOARD_CARDS.get(game["name"])
    return plan if plan is not None and not default_changes({"game": game}) else None


def planned_figures(game: dict) -> list[PlannedFigure]:
    """The figures of a card for ``game`` (``{"name", "params"}``, as on the card)."""
    name = game["name"]
    base = [f"game={name}"] + [f"game.{key}={_override_text(value)}" for key, value in board_changes(game).items()]
    zoo, raw = f"zoo:{name}", f"zoo:{name}:0"
    text_board = text_board_card(game)
    if text_board is not None:
        baseline, test = text_board.baseline, TEXT_BOARD_TEST
        return [
            PlannedFigure(
                f"score vs {baseline}",
                (*base, f"players=[{zoo},{baseline}]", f"games={test.cap}"),
                ("score", zoo, baseline),
                f">= {STRONG:.2f} by the sequential test (<= {test.low:g} against >= {test.high:g})",
                (">=", STRONG),
                test,
            ),
            PlannedFigure(
                f"raw network (no search) vs {baseline}",
                (*base, f"players=[{raw},{baseline}]", f"games={TEXT_BOARD_RAW_GAMES}"),
                ("score", raw, baseline),
                "none set (reported)",
                None,
            ),
        ]
    chance_setup = has_chance_setup(name)
    match = [f"games={SCORE_GAMES}"] + (["duplicate=true"] if chance_setup else [])
    small_board = name in ("neuy", "y")
    if chance_setup:
        target_400 = f">= {SUDOKU_CEILING} in duplicate (mcts:6400's score against mcts:400)", (">=", SUDOKU_CEILING)
    elif small_board:
        target_400 = f">= {STRONG:.2f}", (">=", STRONG)
    else:
        target_400 = "none set (reported)", None
    figures = [
        PlannedFigure(
            "score vs mcts:400", (*base, f"players=[{zoo},mcts:400]", *match), ("score", zoo, "mcts:400"), *target_400
        ),
        PlannedFigure(
            "score vs mcts:1600",
            (*base, f"players=[{zoo},mcts:1600]", *match),
            ("score", zoo, "mcts:1600"),
            f">= {STRONG:.2f}" if not chance_setup else "> 0.50 in duplicate",
            (">=", STRONG) if not chance_setup else (">", 0.5),
        ),
        PlannedFigure(
            "raw network (no search) vs mcts:400",
            (*base, f"players=[{raw},mcts:400]", *match),
            ("score", raw, "mcts:400"),
            "none set (reported)",
            None,
        ),
    ]
    if name == "odoku":
        command = (*base, "mode=odoku", f"players=[{raw}]", f"games={ODOKU_GAMES}")
        for seat, seat_name in enumerate("BA"):
            figures.append(
                PlannedFigure(
                    f"raw network's regret per move as {seat_name} (oracle opponent)",
                    command,
                    ("regret", raw, str(seat)),
                    f"<= {ODOKU_REGRET} points a move",
                    ("<=", ODOKU_REGRET),
                )
            )
    return figures


def default_changes(card: dict) -> dict:
    """The parameters in which the board of a card's network differs from the game at its
    defaults, the board the README and ``evaluate.py`` play: {} for a network that plays the
    default board (its rules, and the default size among the sizes it was trained on)."""
    defaults = game_defaults(card["game"]["name"])
    sizes = network_sizes(card)
    return {
        key: value
        for key, value in board_changes(card["game"]).items()
        if defaults.get(key) != value and not (key == "size" and defaults.get(key) in sizes)
    }


def board_note(card: dict) -> str:
    """How a network's board differs from the game's default one, in words."""
    defaults = game_defaults(card["game"]["name"])
    changes = ", ".join(
        f"{key}={sizes_text(network_sizes(card)) if key == 'size' else value} (default {defaults.get(key)})"
        for key, value in default_changes(card).items()
    )
    return f"{changes}; it refuses the default board"


def _override_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def read_figure(
    planned: PlannedFigure, document: dict, date: datetime.date | None = None, batch_games: int = 1
) -> dict:
    """The card's figure from the ``results.json`` document of ``planned``'s command, its games
    played in lockstep groups of ``batch_games``; a match decided by a sequential test
    (``test=sprt``) is met where the test accepted its upper bound, and keeps the test."""
    kind, spec, which = planned.reads
    if kind == "score":
        row = next(r for r in document["table"] if r["player"] == spec and r["opponent"] == which)
        value, interval, games = row["score"], [row["ci_low"], row["ci_high"]], row["games"]
    else:
        measure = document["measures"][spec][int(which)]
        value, half, games = measure["regret_per_move"], measure["regret_per_move_ci"], measure["games"]
        value, interval = round(value, 5), [round(max(0.0, value - half), 5), round(value + half, 5)]
    verdict = Verdict.from_dict(document["sprt"]) if "sprt" in document else None
    met, words = judge(value, interval, planned.goal) if verdict is None else sequential_judgement(verdict)
    figure = {
        "name": planned.name,
        "command": planned.command(batch_games, None if verdict is None else verdict.test),
        "games": games,
        "value": value,
        "interval": interval,
        "target": planned.target,
        "met": met,
        "verdict": words,
        "date": (date or datetime.date.today()).isoformat(),
    }
    return figure if verdict is None else {**figure, "sprt": document["sprt"]}


def sequential_judgement(verdict: Verdict) -> tuple[bool, str]:
    """Whether a sequential test's verdict meets the target its bounds bracket, in words."""
    met = verdict.decision == "high"
    return met, f"{'met' if met else 'missed'} by the sequential test: {verdict.sentence()}"


def figure_test(figure: dict) -> SPRT | None:
    """The sequential test that decided a card's figure; None for a fixed-count figure."""
    return Verdict.from_dict(figure["sprt"]).test if "sprt" in figure else None


def judge(value: float, interval: list[float], goal: tuple[str, float] | None) -> tuple[bool, str]:
    """Whether ``value`` meets ``goal``, and a verdict naming the margin."""
    if goal is None:
        return True, "reported; no target"
    relation, bound = goal
    met = {">=": value >= bound, ">": value > bound, "<=": value <= bound}[relation]
    gap = abs(value - bound)
    low, high = interval
    beyond = (high < bound) if relation in (">=", ">") else (low > bound)
    if met:
        return True, f"met: {value:g} {relation} {bound:g}, by {gap:.4g}"
    sure = "its whole interval misses it" if beyond else "its interval still reaches it"
    margin = f"by {gap:.4g}" if gap else "level with the bound"  # a strict bound reached exactly
    return False, f"missed {margin}: {value:g} against {relation} {bound:g} ({sure})"


def recipe_command(name: str) -> str:
    """The training command that would make ``name``'s network at its default size."""
    size = game_defaults(name).get("size")
    recipes = CONFIGS / "experiment"
    # a recipe for one size is named after the game, then the size (amazons10; hexxagon_1344_5)
    by_size = {
        int(match[1]): path.stem
        for path in recipes.glob(f"{name}*.yaml")
        if (match := re.fullmatch(r"_?(\d+)", path.stem[len(name) :]))
    }
    if size in by_size:
        return f"python train.py experiment={by_size[size]}"
    if (recipes / f"{name}.yaml").is_file():
        return f"python train.py game={name}"
    others = sorted(by_size.values())
    known = f" (recipes for other sizes: {', '.join(others)})" if others else ""
    if size is None:  # a game of one board (Biqala, Hop Chess)
        return f"python train.py game={name}  # no recipe: the plain defaults"
    return f"python train.py game={name} game.size={size}  # no recipe at size {size}{known}: the plain defaults"


def format_card(card: dict) -> str:
    """A card as text, for the console."""
    params = ", ".join(f"{k}={v}" for k, v in sorted(card["game"]["params"].items()))
    training = card["training"]
    lines = [
        f"== zoo:{card['name']}: {card['game']['name']}({params})",
        f"  trained: recipe {training['recipe']}, overrides {training['overrides']}, commit {training['commit']}, "
        f"seed {training['seed']}, {training['iterations']} iterations / {training['steps']} learner steps, "
        f"{training['wall_seconds'] / 60:.1f} min on {training['machine']}",
        *([f"  board: {board_note(card)}"] if default_changes(card) else []),
        *(
            [
                f"  sizes: trained on {sizes_text(card['sizes'])}, plays each (zoo:{card['name']}@any: any size, zero-shot)"
            ]
            if "sizes" in card
            else []
        ),
        *([f"  baseline: {text_board.why}"] if (text_board := text_board_card(card["game"])) else []),
        *(
            [f"  plays with: {', '.join(f'{k}={v}' for k, v in card['play'].items())} (changed from its training's)"]
            if card.get("play")
            else []
        ),
        "  made by:",
        *[f"    {command}" for command in training["commands"]],
        "  figures:",
    ]
    for figure in card["figures"]:
        low, high = figure["interval"]
        lines += [
            f"    {figure['name']}: {figure['value']:g} (95% CI {low:g}..{high:g}, {figure['games']} games, "
            f"{figure['date']}); target {figure['target']}: {figure['verdict']}",
            f"      {figure['command']}",
        ]
        if figure.get("sprt"):  # optional: the sequential test that decided it
            test = figure["sprt"]
            lower, upper = test["llr_bounds"]
            lines.append(
                f"      sequential test: SPRT on seat-swapped pairs, <= {test['low']:g} against >= {test['high']:g}, "
                f"alpha {test['alpha']:g}, beta {test['beta']:g}, cap {test['cap']} games; LLR {test['llr']:g} "
                f"(bounds {lower:g}..{upper:g}), stopped at the {test['stopped']}"
            )
        if figure.get("note"):  # optional: what the figure means beside a reference (e.g. the oracle's ceiling)
            lines.append(f"      note: {figure['note']}")
    return "\n".join(lines)


def zoo_listing() -> tuple[str, list[str], dict[str, str]]:
    """The text ``mode=zoo`` prints, the zoo's names, and each game without a network on its
    default board with the command that would make one (a network on another board, such as
    Progressive Amazons 10x10, is named under it)."""
    names = zoo_names()
    cards = [read_card(name) for name in names]
    blocks = [format_card(card) for card in cards]
    changed = [bool(default_changes(card)) for card in cards]
    on_default_board = {card["game"]["name"] for card, other in zip(cards, changed) if not other}
    on_other_board = {card["game"]["name"]: card for card, other in zip(cards, changed) if other}
    missing = {name: recipe_command(name) for name in GAMES if name not in on_default_board}
    if missing:
        lines = ["== games without a zoo network on their default board, and the training command that would make one:"]
        width = max(len(name) for name in missing) + 2
        for name, command in missing.items():
            lines.append(f"  {name:{width}s}{command}")
            if name in on_other_board:
                card = on_other_board[name]
                lines.append(f"  {'':{width}s}(zoo:{card['name']} plays {board_note(card)})")
        lines.append(
            "  then: python -m agents.net.zoo.export RUN/checkpoints/CHECKPOINT.pt --command '...' --commit C "
            "--machine M, and PYTHONPATH=. python benchmarks/zoo_measure.py GAME (docs/zoo.md)"
        )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks), names, missing
