"""Every registered game has what docs/architecture.md's "Where to add things" asks of a game.

A rules section in docs/rules.md, a printed sample or a test module of its own,
a picture that shows a move, and batched kernels for ``envs.make_vec`` (or a
stated reason why the engine steps it). A game added without one of them fails here, and so
does a "docs/rules.md section N" in a game's samples, engine or tests that is not its section.
"""

import re
from pathlib import Path

import numpy as np
import pytest

import envs
from envs.core import make_game
from envs.vector.engine_batch import EngineBatch
from envs.vector.vector_env import _batch_for

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(envs.GAMES)


def headings() -> list[str]:
    """docs/rules.md's headings, lower case, hyphens dropped (``Neu-Y`` reads ``neuy``)."""
    text = (ROOT / "docs" / "rules.md").read_text()
    return [line.lower().replace("-", "") for line in text.splitlines() if line.startswith("#")]


def named_in(name: str, heading: str) -> bool:
    return re.search(r"\b" + r"\W+".join(map(re.escape, name.split("_"))) + r"\b", heading) is not None


@pytest.mark.parametrize("name", NAMES)
def test_the_rule_book_has_a_section(name):
    assert any(named_in(name, heading) for heading in headings()), f"docs/rules.md has no heading naming {name}"


def test_the_heading_match_is_by_whole_words():
    assert named_in("sudoku_moyo", "## 5. sudoku moyo")
    assert named_in("y", "### 2d. neuy = y + mutator")
    assert not named_in("y", "### 2a. nex = hex + mutator")
    assert not named_in("hex", "### hexxagon")


def sections() -> dict[str, list[str]]:
    """docs/rules.md's numbered sections (``12``, ``7b``): each one's lines, its heading first,
    lower case with hyphens dropped as in :func:`headings`."""
    found: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in (ROOT / "docs" / "rules.md").read_text().lower().replace("-", "").splitlines():
        number = re.match(r"#{2,3} (\d+[a-z]?)\. ", line)
        if number:
            lines = found.setdefault(number.group(1), [])
        elif line.startswith("## "):
            lines = []  # an unnumbered section ends the one before
        lines.append(line)
    return found


def section_names(number: str, name: str, book: dict[str, list[str]]) -> bool:
    """Whether section ``number`` is game ``name``'s: its heading names the game, or it is the
    errata section and one of its entries opens with the game's name in bold (``**Nex sample.**``)."""
    lines = book.get(number, [])
    entries = [m.group(1) for line in lines if (m := re.match(r" \*\*([^*]+)\*\*", line))]
    return bool(lines) and (
        named_in(name, lines[0]) or ("errata" in lines[0] and any(named_in(name, e) for e in entries))
    )


def section_references(text: str) -> list[str]:
    """The section numbers a file cites as ``docs/rules.md section N`` or ``docs/rules.md N``
    (a citation may run over a line break and its comment mark)."""
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


def test_every_rule_book_section_a_sample_or_an_engine_cites_is_its_games():
    book = sections()
    cited = [(name, path, number) for name, path in citing_files() for number in section_references(path.read_text())]
    assert len(cited) >= 20  # the samples and the engines do cite their sections
    wrong = [
        f"{path.relative_to(ROOT)} cites section {number}"
        for name, path, number in cited
        if not section_names(number, name, book)
    ]
    assert not wrong, f"docs/rules.md sections that are not the citing game's: {wrong}"


def test_a_stale_section_reference_is_caught():
    book = sections()
    assert section_names("12", "hop_chess", book) and not section_names("9", "hop_chess", book)
    assert section_names("4", "nex", book) and section_names("4", "neuy", book)  # the errata's entries
    assert not section_names("4", "blockdance", book) and not section_names("99", "hop_chess", book)
    assert section_names("7b", "amazons", book) and not section_names("7", "progressive_amazons", book)
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
def test_batched_kernels_or_a_stated_reason(name):
    game = make_game(name)
    batch = _batch_for(game, 2, single_agent=False, seat_option=0)
    if isinstance(batch, EngineBatch):
        assert len(game.engine_batch_reason) > 20, f"{name}: make_vec steps the engine; say why in engine_batch_reason"
    else:
        assert game.engine_batch_reason == "", f"{name} has batched kernels but states a reason not to"
