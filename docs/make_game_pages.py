"""Write a page for every registered game, from the code: ``python docs/make_game_pages.py``.

For each game of ``envs.GAMES`` it writes ``docs/games/NAME.md`` and the picture of its board,
``docs/games/NAME.svg``; then ``docs/games/index.md``, which lists every game, and the games
table of ``README.md`` and of ``docs/index.md`` (between their marker comments). A page holds:

* the game's title and one line about it, and its rules: the rule sources in ``docs/rules/``
  whose front matter names the game (``pages: {NAME: {title, summary}}``; a base game's source
  names its variants too, so their pages carry the base rules first), with their errata and
  decisions;
* what the engine declares (``GameInfo``: the Gymnasium id, seats, action space, observation
  shape; the constructor's parameters; the symmetries; the frameworks it is built on) and its
  class's documentation table;
* the start of the game at its defaults, drawn from the game's ``board_view`` (the browser
  board's drawing, ``envs.board_view.board_svg``);
* the zoo network's card (``agents/net/zoo/*.json``), the game's recipes
  (``configs/experiment/*.yaml`` that set ``game`` to it, or are named after it) and the
  headline figures of its game inventor's reports (``docs/reports/*/report.json``).

``--check`` writes nothing: it exits 1 naming every page that differs from what the code makes
now (or is missing, or belongs to no registered game), so a test and CI keep the pages true.
The script lives in ``docs/`` beside the rule sources it reads and the pages it writes; it
imports the checkout it sits in, whatever ``envs`` is installed.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the checkout's code, not another installed copy
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from agents.evaluation.report_page import headline, report_command  # noqa: E402
from agents.evaluation.zoo_cards import (  # noqa: E402
    board_note,
    default_changes,
    planned_figures,
    recipe_command,
    text_board_card,
)
from agents.net.zoo import ZOO_DIR, board_changes, read_card, weights_path, zoo_names  # noqa: E402
from envs import CHANCE, GAMES, game_defaults, make_game  # noqa: E402
from envs.board_view import board_svg  # noqa: E402
from envs.compiled import rules_module  # noqa: E402
from envs.kit import RowGame  # noqa: E402
from envs.neutral.mutator import NeutralGame  # noqa: E402
from envs.schedule.game import TurnGame  # noqa: E402
from envs.stones.rules import StoneGame  # noqa: E402

RULES = "docs/rules"  # the rule sources, relative to a checkout's root
PAGES = "docs/games"  # the generated pages
TABLE_START = "<!-- games table: written by python docs/make_game_pages.py; edit docs/rules/, not this table -->"
TABLE_END = "<!-- end of the games table -->"
GENERATED = "<!-- Written by python docs/make_game_pages.py from the code and {sources}: edit those, not this page. -->"
# the frameworks a game may be built on, most specific first: (class, what it is, its page under docs/)
FRAMEWORKS = (
    (NeutralGame, "the neutral mutator", "rules.md#the-neutral-mutator"),
    (TurnGame, "the turn-schedule mutator", "rules.md#the-turn-schedule-mutator"),
    (StoneGame, "the stone games' framework", "games.md"),
    (RowGame, "the rules-once kit: its compiled rules are its engine", "architecture.md#add-your-game"),
)


class PageError(ValueError):
    """A rule source or the registry that cannot make a page: names the file or game."""


class RuleSource(NamedTuple):
    name: str  # its file's stem, docs/rules/NAME.md
    pages: dict  # game -> {"title", "summary"} or {} (shown on that game's page, titled elsewhere)
    body: str


def read_rule_sources(root: Path) -> list[RuleSource]:
    """Every ``docs/rules/*.md``, in name order, its front matter checked."""
    sources = []
    for path in sorted((root / RULES).glob("*.md")):
        match = re.match(r"---\n(.*?)\n---\n", path.read_text(), re.S)
        if not match:
            raise PageError(
                f"{path.relative_to(root)}: no front matter (---, pages: {{GAME: {{title, summary}}}}, ---)"
            )
        front = yaml.safe_load(match[1]) or {}
        pages = front.get("pages")
        if not isinstance(pages, dict) or not pages:
            raise PageError(f"{path.relative_to(root)}: its front matter names no game under 'pages'")
        for game, about in pages.items():
            if game not in GAMES:
                raise PageError(f"{path.relative_to(root)}: names {game!r}, which is not a registered game")
            if about and set(about) != {"title", "summary"}:
                raise PageError(f"{path.relative_to(root)}: the entry of {game!r} needs exactly 'title' and 'summary'")
        body = path.read_text()[match.end() :].strip()
        sources.append(RuleSource(path.stem, {g: a or {} for g, a in pages.items()}, body))
    return sources


def sources_by_game(sources: list[RuleSource]) -> dict[str, tuple[dict, list[RuleSource]]]:
    """Each registered game's title and summary and its rule sources, base rules first."""
    found = {}
    for game in GAMES:
        mine = [source for source in sources if game in source.pages]
        titled = [source.pages[game] for source in mine if source.pages[game]]
        if len(titled) != 1:
            where = ", ".join(f"{RULES}/{s.name}.md" for s in mine) or f"no file in {RULES}/"
            raise PageError(
                f"game {game!r} needs a title and summary in exactly one rule source; found {len(titled)} ({where})"
            )
        # a source that shows several games holds the base rules: it comes first
        found[game] = (titled[0], sorted(mine, key=lambda s: (len(s.pages) == 1, s.name)))
    return found


# --- what the code says about a game -----------------------------------------------------------
def start_state(game):
    """The start of the game; a chance node at the start takes its first outcome."""
    state = game.initial_state()
    while game.to_play(state) == CHANCE:
        game.apply(state, game.chance_outcomes(state)[0][0])
    return state


def documented_class(cls: type) -> type:
    """The nearest class in ``cls``'s ancestry whose docstring holds a documentation table."""
    return next(c for c in cls.__mro__ if c.__doc__ and "===" in c.__doc__)


def built_on(name: str) -> str:
    """The frameworks game ``name`` is built on, as links from a page in docs/games/."""
    game = make_game(name)
    links = [f"[{what}](../{link})" for cls, what, link in FRAMEWORKS if isinstance(game, cls)]
    return "; ".join(links) or "its own engine alone"


def recipes(root: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Each game's recipes: (name, training command, the recipe's own description). A recipe
    belongs to the game its defaults override (``override /game: NAME``), to the game of a recipe
    it builds on (``defaults: [odoku]``), or to the game it is named after (it then follows the
    game: ``python train.py game=NAME``); ``none``, the plain defaults, belongs to none."""
    folder = root / "configs" / "experiment"
    configs = {path.stem: yaml.safe_load(path.read_text()) or {} for path in sorted(folder.glob("*.yaml"))}

    def game_of(stem: str) -> str | None:
        defaults = configs[stem].get("defaults", [])
        chosen = [
            entry["override /game"] for entry in defaults if isinstance(entry, dict) and "override /game" in entry
        ]
        bases = [game_of(entry) for entry in defaults if isinstance(entry, str) and entry in configs]
        return (chosen or bases or [stem if stem in GAMES else None])[-1]

    found: dict[str, list] = {}
    for stem in configs:
        game = game_of(stem)
        if game is None:
            continue
        command = f"python train.py game={game}" if stem == game else f"python train.py experiment={stem}"
        comment = []
        for line in (folder / f"{stem}.yaml").read_text().splitlines():
            if not line.startswith("#"):
                break
            if "@package" not in line:
                comment.append(line.lstrip("#").strip())
        found.setdefault(game, []).append((stem, command, " ".join(comment)))
    return found


def reports(root: Path) -> dict[str, list[tuple[str, dict]]]:
    """Each game's recorded reports: (folder name under docs/reports/, report.json)."""
    found: dict[str, list] = {}
    for path in sorted((root / "docs" / "reports").glob("*/report.json")):
        report = json.loads(path.read_text())
        found.setdefault(report["game"], []).append((path.parent.name, report))
    return found


def cards(zoo: Path) -> dict[str, list[dict]]:
    """Each game's zoo cards."""
    found: dict[str, list] = {}
    for name in zoo_names(zoo):
        card = read_card(name, zoo)
        found.setdefault(card["game"]["name"], []).append(card)
    return found


# --- the page -----------------------------------------------------------------------------------
def _value(value) -> str:
    return f"`{value!r}`" if isinstance(value, str) else f"`{value}`"


def _overrides(changes: dict) -> str:
    return "".join(
        f" game.{key}={str(value).lower() if isinstance(value, bool) else value}" for key, value in changes.items()
    )


def glance(name: str, game) -> list[str]:
    info = game.info
    env_id, target, _ = GAMES[name]
    module, cls = target.split(":")
    seats = ", ".join(f"{seat} `{seat_name}`" for seat, seat_name in enumerate(info.seat_names))
    params = ", ".join(f"`{key}={value!r}`" for key, value in game_defaults(name).items() if key != "name") or "none"
    built = built_on(name)
    return [
        "## At a glance",
        "",
        "What the engine declares at the game's defaults (`envs.make_game(\"" + name + '").info`):',
        "",
        "| | |",
        "|---|---|",
        f'| registry name | `{name}` (`envs.make_game("{name}")`, `game={name}`) |',
        f'| Gymnasium id | `{env_id}` (`gymnasium.make("{env_id}")`) |',
        f"| engine | `{cls}` in `{module.replace('.', '/')}.py` |",
        f"| built on | {built} |",
        f"| seats | {seats}; seat 0 moves first |",
        f"| actions | `Discrete({info.num_actions})` |",
        f"| observation | `{info.obs_shape}` float32 planes (planes, rows, columns), from the mover's view |",
        f"| chance nodes | {'yes' if info.has_chance else 'no'} |",
        f"| compiled rules | {compiled_rules(game)} |",
        f"| symmetries | {len(game.symmetries())} (the maps the networks augment with) |",
        f"| decisions in a game | at most {info.max_decisions:,} |",
        f"| parameters (defaults) | {params} |",
        "",
    ]


def compiled_rules(game) -> str:
    """Whether the game has compiled rules (``Game.compiled()``) and where they are written."""
    compiled = game.compiled()
    if compiled is None:
        return "no: the search driver and the engine batch step its Python engine"
    module = rules_module(compiled).replace(".", "/")
    return f"yes, in `{module}.py` (`Game.compiled()`: the search driver and playouts)"


def engine_table(game) -> list[str]:
    cls = documented_class(type(game))
    extends = "" if cls is type(game) else f", which `{type(game).__name__}` extends"
    return [
        "## The engine's table",
        "",
        f"The docstring of `{cls.__name__}` (`{cls.__module__.replace('.', '/')}.py`{extends}): its actions, "
        "observation planes and notation in the code's words.",
        "",
        "```text",
        inspect.getdoc(cls),
        "```",
        "",
    ]


def zoo_section(name: str, game_cards: list[dict], zoo: Path) -> list[str]:
    lines = ["## The zoo network", ""]
    if not game_cards:
        return lines + [
            "The zoo has no network for this game yet. The command that would train one at the default size:",
            "",
            f"    {recipe_command(name)}",
            "",
            "then `python -m agents.net.zoo.export` and `benchmarks/zoo_measure.py` ([docs/zoo.md](../zoo.md)).",
            "",
        ]
    for card in game_cards:
        training = card["training"]
        params = ", ".join(f"{key}={value}" for key, value in sorted(card["game"]["params"].items()))
        where = f" It plays only that board: {board_note(card)}." if default_changes(card) else ""
        plays = (
            f" It plays with {', '.join(f'`{k}={v}`' for k, v in card['play'].items())} (changed from its training's)."
            if card.get("play")
            else ""
        )
        text_board = text_board_card(card["game"])
        if text_board is not None:
            plays += f" Its card is decided on the text's board against `{text_board.baseline}`: {text_board.why}."
        lines += [
            f"`zoo:{card['name']}` ([its card](../../agents/net/zoo/{card['name']}.json)) plays `{name}({params})`: "
            f'`python evaluate.py mode=play game={name}{_overrides(default_changes(card))} "players=[human,zoo]"`.{where}{plays}',
            "",
            "| figure | value | 95% interval | games | target | verdict | measured |",
            "|---|---|---|---|---|---|---|",
        ]
        for figure in card["figures"]:
            low, high = figure["interval"]
            lines.append(
                f"| {figure['name']} | {figure['value']:g} | {low:g}..{high:g} | {figure['games']} | {figure['target']} "
                f"| {figure['verdict']} | {figure['date']} |"
            )
        lines += ["", "Each figure's command:", "", "```bash"]
        lines += [figure["command"] for figure in card["figures"]]
        lines += [
            "```",
            "",
            f"Its weights, `agents/net/zoo/{card['name']}.pt`, are {weights_path(card['name'], zoo).stat().st_size / 1024:.0f} kB"
            + (f" ({training['weights']})" if training.get("weights") else "")
            + ".",
            "",
            f"How it was made: recipe `{training['recipe']}`, {training['iterations']} iterations "
            f"({training['steps']:,} learner steps), {training['wall_seconds'] / 60:.1f} minutes on {training['machine']}, "
            f"seed {training['seed']}, commit `{training['commit']}`:",
            "",
            "```bash",
            *training["commands"],
            "```",
            "",
        ]
    return lines


def recipe_section(name: str, game_recipes: list[tuple[str, str, str]]) -> list[str]:
    lines = ["## Recipes", ""]
    if not game_recipes:
        return lines + [
            "No recipe in `configs/experiment/` trains this game; `python train.py game="
            f"{name}` trains it with the plain defaults ([docs/training.md](../training.md)).",
            "",
        ]
    lines += ["The training recipes in `configs/experiment/` for this game ([docs/training.md](../training.md)):", ""]
    lines += [
        f"- `{stem}`: `{command}`. {text}" if text else f"- `{stem}`: `{command}`."
        for stem, command, text in game_recipes
    ]
    return lines + [""]


def report_section(name: str, game_reports: list[tuple[str, dict]]) -> list[str]:
    lines = ["## The game inventor's reports", ""]
    if not game_reports:
        return lines + [
            "No report is recorded for this game. This command makes one (balance, depth, luck, "
            "decisiveness and branching by plain MCTS; [docs/evaluate.md](../evaluate.md)):",
            "",
            f"    python evaluate.py mode=report game={name} budget=quick report_dir=docs/reports/{name}",
            "",
        ]
    lines += [
        "Headline figures of the reports recorded in [docs/reports/](../reports/) (every interval 95%; "
        "each report's page has the rest, and the commands of every match; [docs/design.md](../design.md) reads them):",
        "",
    ]
    for folder, report in game_reports:
        cfg = game_defaults(name) | board_changes({"name": name, "params": report["params"]})
        plan = report["plan"]
        lines += [
            f"**[{folder}](../reports/{folder}/report.md)**: budget `{report['budget']}` (ladder "
            f"`mcts:{plan['base']}`..`mcts:{plan['base'] * 2 ** plan['doublings']}`), "
            f"`{report_command(report, cfg)}`",
            "",
            "| measure | value |",
            "|---|---|",
            *[f"| {measure} | {value} |" for measure, value in headline(report)],
            "",
        ]
    return lines


def game_page(name: str, about: dict, sources: list[RuleSource], facts: dict) -> str:
    game = make_game(name)
    env_id = GAMES[name][0]
    on_default = any(not default_changes(card) for card in facts["cards"].get(name, []))
    opponent = "zoo" if on_default else "mcts:400"
    names = ", ".join(f"[{RULES}/{s.name}.md](../rules/{s.name}.md)" for s in sources)
    chance = " (the chance node at the start takes its first outcome)" if game.info.has_chance else ""
    lines = [
        GENERATED.format(sources=", ".join(f"{RULES}/{s.name}.md" for s in sources)),
        "",
        f"# {about['title']}",
        "",
        about["summary"][0].upper() + about["summary"][1:],
        "",
        f"![The start of {about['title']}]({name}.svg)",
        "",
        f"*The start at the default size{chance}, drawn from the engine's `board_view`.*",
        "",
        "```bash",
        f'python evaluate.py mode=play game={name} "players=[human,{opponent}]"  # play it at the terminal',
        "python evaluate.py mode=serve  # or in the browser, every game (docs/play.md)",
        f"{training_command(name, facts)}  # train an agent",
        "```",
        "",
        "```python",
        "import envs, gymnasium as gym",
        f'env = gym.make("{env_id}", opponent="{opponent}")',
        "```",
        "",
        "Contents: [at a glance](#at-a-glance), the rules ("
        + ", ".join(f"[{title}](#{anchor(title)})" for title in rule_titles(sources))
        + "), [the engine's table](#the-engines-table), [the zoo network](#the-zoo-network), "
        "[recipes](#recipes), [the game inventor's reports](#the-game-inventors-reports).",
        "",
        *glance(name, game),
        f"The rules below are {names}; what several games share is in [the rule book](../rules.md).",
        "",
    ]
    for source in sources:
        lines += [source.body, ""]
    lines += engine_table(game)
    lines += zoo_section(name, facts["cards"].get(name, []), facts["zoo"])
    lines += recipe_section(name, facts["recipes"].get(name, []))
    lines += report_section(name, facts["reports"].get(name, []))
    return "\n".join(lines).rstrip() + "\n"


def training_command(name: str, facts: dict) -> str:
    """The command of the recipe that made the game's zoo network, else of its first recipe,
    else the plain defaults."""
    game_recipes = {stem: command for stem, command, _ in facts["recipes"].get(name, [])}
    made = [card["training"]["recipe"] for card in facts["cards"].get(name, [])]
    for stem in made + list(game_recipes):
        if stem in game_recipes:
            return game_recipes[stem]
    return f"python train.py game={name}"


def rule_titles(sources: list[RuleSource]) -> list[str]:
    return [line[3:] for source in sources for line in source.body.splitlines() if line.startswith("## ")]


def anchor(title: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def picture(name: str) -> str:
    game = make_game(name)
    return board_svg(game.board_view(start_state(game)))


def index_page(found: dict, facts: dict) -> str:
    lines = [
        GENERATED.format(sources=f"{RULES}/"),
        "",
        "# The games",
        "",
        "Every registered game (`envs.GAMES`), each with its page: its rules, errata and decisions, "
        "encoding, a picture of its board, its zoo network, recipes and reports. What several games "
        "share is in [the rule book](../rules.md).",
        "",
        "| game | Gymnasium id | what it is | built on | compiled rules | zoo network | recipes | reports |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, (about, _) in found.items():
        game_cards = facts["cards"].get(name, [])
        zoo = (
            ", ".join(
                f"`zoo:{c['name']}`" + (f" ({_overrides(default_changes(c)).strip()})" if default_changes(c) else "")
                for c in game_cards
            )
            or "none yet"
        )
        recipes_text = ", ".join(f"`{stem}`" for stem, _, _ in facts["recipes"].get(name, [])) or "none"
        report_text = (
            ", ".join(f"[{folder}](../reports/{folder}/report.md)" for folder, _ in facts["reports"].get(name, []))
            or "none"
        )
        lines.append(
            f"| [{about['title']}]({name}.md) | `{GAMES[name][0]}` | {about['summary']} | {built_on(name)} "
            f"| {'yes' if make_game(name).compiled() is not None else 'no'} | {zoo} "
            f"| {recipes_text} | {report_text} |"
        )
    return "\n".join(lines) + "\n"


def network_verdicts(game_cards: list[dict]) -> str:
    """A game's zoo networks in a word each: the board each plays where it is not the default
    (the text's) board, and the verdict of every figure its card sets a target for."""
    if not game_cards:
        return "none yet"
    words = []
    for card in game_cards:
        goals = {planned.name: planned.goal for planned in planned_figures(card["game"])}
        board = _overrides(default_changes(card)).strip()
        verdicts = "; ".join(
            f"{figure['name']}: {figure['value']:g}, {'met' if figure['met'] else 'missed'} ({figure['target']})"
            for figure in card["figures"]
            if goals.get(figure["name"]) is not None
        )
        where = f" at {board}, not the default board" if board else ""
        words.append(f"`zoo:{card['name']}`{where}: {verdicts or 'no target set'}")
    return "<br>".join(words)


def games_table(found: dict, facts: dict, pages: str = "docs/games") -> str:
    """The games table of README.md (and of docs/index.md, whose links start at ``pages="games"``):
    each game linked to its page, which holds its rules, network and recipes, and its zoo
    network's verdicts (its card's targets, docs/zoo.md)."""
    lines = [
        TABLE_START,
        "",
        "| game | Gymnasium id | what it is | zoo network: verdicts |",
        "|------|--------------|------------|------------------------|",
    ]
    lines += [
        f"| [{about['title']}]({pages}/{name}.md) | `{GAMES[name][0]}` | {about['summary']} "
        f"| {network_verdicts(facts['cards'].get(name, []))} |"
        for name, (about, _) in found.items()
    ]
    return "\n".join(lines + ["", TABLE_END])


def with_games_table(readme: str, table: str, path: str = "README.md") -> str:
    start, end = readme.find(TABLE_START), readme.find(TABLE_END)
    if start < 0 or end < start:
        raise PageError(f"{path} lacks the games table's markers ({TABLE_START} ... {TABLE_END})")
    return readme[:start] + table + readme[end + len(TABLE_END) :]


def expected_files(root: Path = ROOT, zoo: Path = ZOO_DIR) -> dict[str, str]:
    """Every file the script writes, by its path relative to ``root``, with its content."""
    found = sources_by_game(read_rule_sources(root))
    facts = {"cards": cards(zoo), "zoo": zoo, "recipes": recipes(root), "reports": reports(root)}
    files = {}
    for name, (about, sources) in found.items():
        files[f"{PAGES}/{name}.md"] = game_page(name, about, sources, facts)
        files[f"{PAGES}/{name}.svg"] = picture(name)
    files[f"{PAGES}/index.md"] = index_page(found, facts)
    files["README.md"] = with_games_table((root / "README.md").read_text(), games_table(found, facts))
    index = "docs/index.md"
    files[index] = with_games_table((root / index).read_text(), games_table(found, facts, "games"), index)
    return files


def stale(root: Path, expected: dict[str, str]) -> list[str]:
    """The paths under ``root`` that differ from ``expected``, are missing, or are pages of no game."""
    out = [path for path, text in expected.items() if not (root / path).is_file() or (root / path).read_text() != text]
    pages = root / PAGES
    extra = [
        str(path.relative_to(root))
        for path in sorted(pages.glob("*"))
        if path.is_file() and str(path.relative_to(root)) not in expected
    ]
    return out + extra


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(
        description="Write docs/games/ (a page and a picture per registered game, and the index) and README.md's "
        "games table from the code and the rule sources in docs/rules/.",
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming every stale page")
    args = parser.parse_args(argv)
    try:
        expected = expected_files(root)
    except PageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    behind = stale(root, expected)
    if args.check:
        if behind:
            print(
                "stale, missing or unknown game pages (run python docs/make_game_pages.py): " + ", ".join(behind),
                file=sys.stderr,
            )
            return 1
        print(f"{len(expected)} files up to date")
        return 0
    for path in behind:
        target = root / path
        if path in expected:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(expected[path])
        else:
            target.unlink()  # a page of a game no longer registered
        print(f"wrote {path}" if path in expected else f"removed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
