"""The dependency map of docs/architecture.md, checked on every module's imports.

Every ``import`` and ``from ... import`` statement (top level or inside a
function) of every module under ``envs/`` and ``agents/`` is read from its
syntax tree, so a lazy import inside a function counts too.

Within ``envs/`` the rules sit lowest: a numba module (the compiled protocol
``envs.compiled``, the shared kernels, each game's ``kernels.py``/``compiled.py``)
imports no engine, that is no ``envs.core.Game``, no ``envs.kit`` and no module
that builds a ``Game`` (a game's ``game.py``...); the kit sits on the compiled
protocol; the games sit on the kit.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# agents' packages, lowest first: each may import envs, agents.config and the packages before it
LAYERS = ("search", "net", "players", "evaluation", "training", "web")
# envs' folders, lowest first ("" is the API at the top level): each imports only itself and those before it
ENVS_LAYERS = ("", "stones", "neutral", "schedule", "vector", "games")


def imports_of(path: Path) -> set[str]:
    """The absolute module names ``path`` imports (``from x import y`` gives ``x`` and ``x.y``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import; the project uses absolute imports"
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def forbidden(imported: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(name for name in imported if any(name == p or name.startswith(p + ".") for p in prefixes))


def layer_of(path: Path) -> str | None:
    parts = path.relative_to(ROOT / "agents").parts
    return parts[0] if len(parts) > 1 else None


@pytest.mark.parametrize("path", modules("envs"), ids=lambda p: str(p.relative_to(ROOT)))
def test_envs_never_import_agents(path):
    assert forbidden(imports_of(path), ("agents",)) == []


@pytest.mark.parametrize("path", modules("agents/search"), ids=lambda p: str(p.relative_to(ROOT)))
def test_search_imports_neither_torch_nor_other_agents_packages(path):
    assert (
        forbidden(imports_of(path), ("torch", "agents.net", "agents.players", "agents.evaluation", "agents.training"))
        == []
    )


@pytest.mark.parametrize("path", modules("agents"), ids=lambda p: str(p.relative_to(ROOT)))
def test_agents_packages_import_only_downwards(path):
    layer = layer_of(path)
    above = LAYERS[LAYERS.index(layer) + 1 :] if layer else LAYERS
    if path.relative_to(ROOT / "agents").parts == ("__init__.py",):
        above = ()  # the package's face re-exports the players API
    assert forbidden(imports_of(path), tuple(f"agents.{name}" for name in above)) == []


def envs_layer_of(path: Path) -> str:
    parts = path.relative_to(ROOT / "envs").parts
    return parts[0] if len(parts) > 1 else ""


def envs_layer_of_module(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ENVS_LAYERS else ""


@pytest.mark.parametrize("path", modules("envs"), ids=lambda p: str(p.relative_to(ROOT)))
def test_envs_folders_import_only_downwards(path):
    if path.relative_to(ROOT / "envs").parts == ("__init__.py",):
        return  # the package's face registers the games and offers make_vec
    allowed = ENVS_LAYERS[: ENVS_LAYERS.index(envs_layer_of(path)) + 1]
    imported = {name for name in imports_of(path) if name.startswith("envs.")}
    assert sorted(name for name in imported if envs_layer_of_module(name) not in allowed) == []


@pytest.mark.parametrize("path", modules("envs/games"), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_game_never_imports_another_game(path):
    parts = path.relative_to(ROOT / "envs" / "games").parts
    own = f"envs.games.{parts[0]}" if len(parts) > 1 else "envs.games"
    games = {name for name in imports_of(path) if name.startswith("envs.games.")}
    assert sorted(name for name in games if not (name == own or name.startswith(own + "."))) == []


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def is_engine(imported: set[str]) -> bool:
    """Whether a module that imports ``imported`` builds a ``Game`` (from ``envs.core`` or the kit)."""
    return "envs.core.Game" in imported or bool(forbidden(imported, ("envs.kit",)))


ENGINES = {module_name(path) for path in modules("envs") if is_engine(imports_of(path))} - {"envs", "envs.kit"}
NUMBA_MODULES = [
    path
    for path in modules("envs")
    if forbidden(imports_of(path), ("numba",)) and module_name(path) not in ("envs.kit", "envs.numba_cache")
]
# Rules modules that still read an engine's Python module, each to go once its game's rules live
# in its rows alone (the test below fails as soon as one no longer does, so the list only shrinks).
ENGINE_READERS: dict[str, str] = {}


def engine_imports(imported: set[str]) -> list[str]:
    """The engines among ``imported``: ``envs.core.Game``, the kit, a game's ``game.py``, any module
    that builds a ``Game``."""
    games = [name for name in imported if name.startswith("envs.games.") and name.split(".")[3:4] == ["game"]]
    return sorted({*forbidden(imported, ("envs.core.Game", "envs.kit", *ENGINES)), *games})


@pytest.mark.parametrize("path", NUMBA_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_modules_import_no_engine(path):
    found = engine_imports(imports_of(path))
    if module_name(path) in ENGINE_READERS:
        assert found, f"{module_name(path)} reads no engine any more: take it off ENGINE_READERS"
    else:
        assert found == []


def test_the_kit_sits_on_the_compiled_protocol():
    imported = imports_of(ROOT / "envs" / "kit.py")
    assert {"envs.compiled", "envs.row_playout"} <= imported
    assert forbidden(imported, tuple(ENGINES - {"envs.core"})) == []  # no env, records, game...


def test_the_engine_check_sees_a_rules_module_that_imports_an_engine(tmp_path):
    module = tmp_path / "kernels.py"
    module.write_text(
        "from envs.core import TERMINAL, Game\nfrom envs.compiled import register\n"
        "def f():\n    from envs.games.odoku.game import cell_name\n    import envs.kit\n"
    )
    assert engine_imports(imports_of(module)) == [
        "envs.core.Game",
        "envs.games.odoku.game",
        "envs.games.odoku.game.cell_name",
        "envs.kit",
    ]
    assert "envs.games.odoku.game" in ENGINES
    assert ROOT / "envs" / "games" / "odoku" / "compiled.py" in NUMBA_MODULES


def test_the_envs_layers_see_an_upward_import():
    assert envs_layer_of_module("envs.games.hex.game") == "games"
    assert envs_layer_of_module("envs.core") == ""
    assert envs_layer_of_module("envs.vector") == "vector"
    assert envs_layer_of(ROOT / "envs" / "stones" / "rules.py") == "stones"


def test_the_check_sees_a_forbidden_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from agents.players import make_player\n    import torch.nn\n")
    assert forbidden(imports_of(module), ("agents", "torch")) == [
        "agents.players",
        "agents.players.make_player",
        "torch.nn",
    ]
