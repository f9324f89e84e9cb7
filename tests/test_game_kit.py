"""Every registered game has what docs/architecture.md's "Where to add things" asks of a game.

A rule source in docs/rules/ (its page's rules), a printed sample or a test module of its own,
a picture that shows a move, and compiled rules that ``envs.make_vec`` batches. A game added
without one of them fails here, and so does a citation of another game's page in a game's
samples, engine, tests or recipes.
"""

import re
from pathlib import Path

import numpy as np
import pytest
import yaml

import envs
from envs.core import make_game
from envs.vector.compiled_batch import CompiledBatch
from envs.vector.vector_env import BatchedBoardGameEnv

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(envs.GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_rule_source_titles_the_game(name):
    """A file in docs/rules/ whose front matter gives the game its title and summary (its page's
    rules: docs/make_game_pages.py, tests/test_game_pages.py)."""
    titled = [
        path.name
        for path in sorted((ROOT / "docs" / "rules").glob("*.md"))
        if (entry := (yaml.safe_load(path.read_text().split("---")[1])["pages"] or {}).get(name)) and entry.get("title")
    ]
    assert len(titled) == 1, f"docs/rules/*.md should title {name} exactly once, found {titled}"


def rule_families() -> dict[str, set[str]]:
    """Each game's family: the games whose pages show a rule source that its page shows too
    (docs/rules/*.md's front matter lists the pages that show it)."""
    families: dict[str, set[str]] = {name: {name} for name in NAMES}
    for path in (ROOT / "docs" / "rules").glob("*.md"):
        pages = set(yaml.safe_load(path.read_text().split("---")[1])["pages"] or {})
        for name in pages & set(NAMES):
            families[name] |= pages
    return families


def page_references(text: str) -> list[str]:
    """The game pages a file cites as ``docs/games/NAME.md``."""
    return re.findall(r"docs/games/(\w+)\.md", text)


def section_references(text: str) -> list[str]:
    """The numbered sections a file cites as ``docs/rules.md section N`` or ``docs/rules.md N``
    (a citation may run over a line break and its comment mark): the rule book has none now, its
    games' rules being on their pages, so every such citation is stale."""
    flat = re.sub(r"\s*\n\s*#*\s*", " ", text)
    return re.findall(r"docs/rules\.md,?\s+(?:section\s+)?(\d+[a-z]?)\b", flat)


def citing_files() -> list[tuple[str, Path]]:
    """(game, file) for the sample files of tests/data (the game the longest registry name that
    opens the file's name), the modules of each game's own folder in envs/games, each game's own
    test module, and the training recipes (the game a recipe overrides, or the one it is named
    after)."""
    pairs = []
    for path in sorted((ROOT / "tests" / "data").iterdir()):
        owners = [name for name in NAMES if path.name.startswith(name + "_")]
        assert owners, f"tests/data/{path.name} does not open with a game's registry name"
        pairs.append((max(owners, key=len), path))
    for name in NAMES:
        pairs += [(name, path) for path in sorted((ROOT / "envs" / "games" / name).glob("*.py"))]
        pairs += [(name, path) for path in (ROOT / "tests").glob(f"test_{name}.py")]
    for path in sorted((ROOT / "configs" / "experiment").glob("*.yaml")):
        game = re.search(r"/game: (\w+)", path.read_text())
        name = game.group(1) if game else path.stem
        pairs += [(name, path)] if name in NAMES else []
    return pairs


def test_every_game_page_a_sample_or_an_engine_cites_is_its_games():
    families = rule_families()
    cited = [(name, path, page) for name, path in citing_files() for page in page_references(path.read_text())]
    assert len(cited) >= 20  # the samples and the engines do cite their pages
    wrong = [
        f"{path.relative_to(ROOT)} cites docs/games/{page}.md"
        for name, path, page in cited
        if page not in families[name]
    ]
    numbered = [
        f"{path.relative_to(ROOT)} cites docs/rules.md {number}"
        for name, path in citing_files()
        for number in section_references(path.read_text())
    ]
    assert not wrong, f"game pages that are not the citing game's: {wrong}"
    assert not numbered, f"numbered rule-book sections (the rules are on the game pages now): {numbered}"


def test_a_stale_page_reference_is_caught():
    families = rule_families()
    assert "hop_chess" in families["hop_chess"] and "send_it" not in families["hop_chess"]
    assert "amazons" in families["progressive_amazons"] and "nex" in families["hex"]
    assert "blockdance" not in families["nex"]
    assert page_references("# Errata (docs/games/hop_chess.md): 10...") == ["hop_chess"]
    assert section_references("# Errata (docs/rules.md section 12): 10...") == ["12"]
    assert section_references("# as docs/rules.md\n# section 9 reconstructs") == ["9"]
    assert section_references("(docs/rules.md 2d: the same game)") == ["2d"]
    assert section_references("Biqala (docs/rules.md), the double mancala") == []


def files_of(name: str) -> list[Path]:
    tests = ROOT / "tests"
    return sorted(tests.glob(f"data/{name}_*")) + sorted(tests.glob(f"test_{name}.py"))


@pytest.mark.parametrize("name", NAMES)
def test_a_sample_or_a_test_module(name):
    """A printed sample in tests/data, a test module named after the game, or hypothesis properties that name it."""
    own = files_of(name)
    properties = [
        path
        for path in (ROOT / "tests").glob("test_*.py")
        if "hypothesis" in (text := path.read_text()) and re.search(rf"[\"']{name}[\"']", text)
    ]
    assert own or properties, f"no tests/data/{name}_*, tests/test_{name}.py or hypothesis test naming {name!r}"


@pytest.mark.parametrize("name", NAMES)
def test_a_picture_that_shows_a_move(name):
    game = make_game(name)
    state, rng = game.initial_state(), np.random.default_rng(0)
    while game.is_chance(state):
        game.apply(state, game.sample_chance(state, rng))
    before = game.render_rgb(state)
    game.apply(state, game.legal_actions(state)[0])
    after = game.render_rgb(state)
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    assert after.shape == before.shape and not np.array_equal(before, after)


@pytest.mark.parametrize("name", NAMES)
def test_compiled_rules(name):
    """Every game has compiled rules, which ``make_vec`` steps as rows."""
    game = make_game(name)
    assert game.compiled() is not None, f"{name}: no compiled rules, so make_vec cannot batch it"
    assert isinstance(BatchedBoardGameEnv(game, num_envs=2).batch, CompiledBatch)
