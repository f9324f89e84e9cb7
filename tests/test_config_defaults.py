"""Every default of the training config is stated exactly once.

The ``agent`` group's defaults live in the dataclasses (``agents.training.config_store``
registers them), the ``game`` group's in the games' constructors (``agents.config``
registers them); ``net`` options, ``train.*``, ``eval.*`` and the run keys live in
YAML, and the dataclasses that receive them (``NetConfig``, ``Settings``) have no
defaults. Recipes (``configs/experiment/``) override on purpose and are not defaults.
"""

import dataclasses
from pathlib import Path

import yaml
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from agents.net.network import NetConfig
from agents.training.config_store import AGENT_SECTIONS
from agents.training.settings import Settings
from envs import GAMES, game_defaults

CONFIGS = Path(__file__).parents[1] / "configs"


def leaves(tree, prefix=""):
    """Dotted key paths of every leaf value in a nested mapping."""
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from leaves(value, path + ".")
        else:
            yield path


def statements() -> dict[str, list[str]]:
    """Where each key of the default training config gets its default value."""
    where: dict[str, list[str]] = {}
    for section, kind in AGENT_SECTIONS.items():
        for f in dataclasses.fields(kind):
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                where.setdefault(f"agent.{section}.{f.name}", []).append(kind.__name__)
    for f in dataclasses.fields(NetConfig):
        if f.default is not dataclasses.MISSING:
            where.setdefault(f"net.{f.name}", []).append("NetConfig")
    train = yaml.safe_load((CONFIGS / "train.yaml").read_text())
    for key in leaves({k: v for k, v in train.items() if k not in ("defaults", "hydra")}):
        where.setdefault(key, []).append("train.yaml")
    for entry in train["defaults"]:
        if not isinstance(entry, dict) or "experiment" in " ".join(entry):
            continue
        ((group, option),) = entry.items()
        if group == "game":
            for key, places in game_statements(option).items():
                where.setdefault(f"game.{key}", []).extend(places)
            continue
        path = CONFIGS / group / f"{option}.yaml"
        if path.is_file():
            for key in leaves(yaml.safe_load(path.read_text()), f"{group}."):
                where.setdefault(key, []).append(f"{group}/{option}.yaml")
    return where


def game_statements(name: str) -> dict[str, list[str]]:
    """Where each key of game ``name``'s config gets its default: the constructor (``name``
    itself: the registry), and a ``configs/game/NAME.yaml`` or a ``game:`` section of the
    top-level configs if one states it again."""
    where = {key: ["registry" if key == "name" else "constructor"] for key in game_defaults(name)}
    path = CONFIGS / "game" / f"{name}.yaml"
    if path.is_file():
        for key in leaves(yaml.safe_load(path.read_text()) or {}):
            where.setdefault(key, []).append(f"game/{name}.yaml")
    for top in ("train.yaml", "evaluate.yaml"):
        for key in leaves(yaml.safe_load((CONFIGS / top).read_text()).get("game") or {}):
            where.setdefault(key, []).append(top)
    return where


def test_every_default_is_stated_exactly_once():
    where = statements()
    twice = {key: places for key, places in where.items() if len(places) > 1}
    assert twice == {}
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=["experiment=none"])
    composed = set(leaves(OmegaConf.to_container(cfg)))
    assert composed - set(where) == set()  # every key's default comes from somewhere we checked


def test_the_dataclasses_fed_by_yaml_have_no_defaults():
    for kind in (NetConfig, Settings):
        assert [f.name for f in dataclasses.fields(kind) if f.default is not dataclasses.MISSING] == []


def test_the_check_sees_a_default_stated_twice(tmp_path, monkeypatch):
    @dataclasses.dataclass(frozen=True)
    class Restated:
        channels: int = 32

    monkeypatch.setattr(f"{__name__}.NetConfig", Restated)
    assert statements()["net.channels"] == ["NetConfig", "net/small.yaml"]


def test_every_game_default_is_stated_exactly_once():
    twice = {
        f"{name}.{key}": places for name in GAMES for key, places in game_statements(name).items() if len(places) > 1
    }
    assert twice == {}
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        for name in GAMES:  # the group's entries are the constructors' defaults, every one a key
            assert OmegaConf.to_container(
                compose("train", overrides=[f"game={name}", "experiment=none"]).game
            ) == game_defaults(name)


def test_the_check_sees_a_game_default_stated_twice(tmp_path, monkeypatch):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "nex.yaml").write_text("name: nex\nsize: 11\n")
    for top in ("train.yaml", "evaluate.yaml"):
        (tmp_path / top).write_text((CONFIGS / top).read_text())
    monkeypatch.setattr(f"{__name__}.CONFIGS", tmp_path)
    assert game_statements("nex") == {
        "name": ["registry", "game/nex.yaml"],
        "size": ["constructor", "game/nex.yaml"],
        "pie_rule": ["constructor"],
    }
