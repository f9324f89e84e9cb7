"""Every registered game has what docs/architecture.md's "Where to add things" asks of a game.

A rule source in docs/rules/ (its page's rules), a printed sample or a test module of its own,
a picture that shows a move, and batched kernels for ``envs.make_vec`` (or a
stated reason why the engine steps it). A game added without one of them fails here.
"""

import re
from pathlib import Path

import numpy as np
import pytest
import yaml

import envs
from envs.core import make_game
from envs.vector.engine_batch import EngineBatch
from envs.vector.vector_env import _batch_for

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
