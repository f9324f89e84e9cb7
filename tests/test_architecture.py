"""The dependency map of docs/architecture.md, checked on every module's imports.

Every ``import`` and ``from ... import`` statement (top level or inside a
function) of every module under ``envs/`` and ``agents/`` is read from its
syntax tree, so a lazy import inside a function counts too.
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
