"""Every config composes and validates: each game, net and experiment."""

from pathlib import Path

import pytest
import yaml
from hydra import compose, initialize_config_dir

from agents.config import with_recipe_aliases
from agents.training.settings import build_settings
from envs import GAMES, game_defaults, make_game

CONFIGS = Path(__file__).parents[1] / "configs"


def options(group):
    if group == "game":  # made from the constructors (agents.config)
        return sorted(GAMES)
    return sorted(path.stem for path in (CONFIGS / group).glob("*.yaml"))


def settings_for(*overrides):
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=list(overrides))
    return cfg, build_settings(cfg)


def test_default_is_odoku_on_the_cpu_or_gpu():
    cfg, s = settings_for()
    assert s.game.info.name == "odoku" and cfg.device == "auto"
    assert s.device.type in ("cpu", "cuda")


@pytest.mark.parametrize("game", options("game"))
def test_every_game_composes(game):
    cfg, s = settings_for(f"game={game}")
    assert cfg.game == game_defaults(game)
    assert s.game.info == make_game(game).info


@pytest.mark.parametrize("net", options("net"))
def test_every_net_composes(net):
    _, s = settings_for(f"net={net}")
    expected = yaml.safe_load((CONFIGS / "net" / f"{net}.yaml").read_text())
    assert s.net.to_dict() == expected


@pytest.mark.parametrize("experiment", options("experiment"))
def test_every_experiment_composes_and_validates(experiment):
    cfg, s = settings_for(f"experiment={experiment}")
    assert s.iterations >= 1 and s.search.num_simulations >= 1
    assert cfg.eval.every >= 0


def test_experiments_cover_the_task_recipes():
    assert {"smoke", "odoku", "nex5", "neumoku9", "neuversi6"} <= set(options("experiment"))


def test_every_value_overridable_from_the_command_line():
    cfg, s = settings_for("experiment=smoke", "agent.search.c_puct=2.5", "net.blocks=3", "seed=7", "game.bias=0.6")
    assert s.search.c_puct == 2.5 and s.net.blocks == 3 and s.seed == 7 and s.game.info.params["bias"] == 0.6


def test_unknown_group_option_names_the_group():
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        with pytest.raises(Exception, match="game/chess"):
            compose("train", overrides=["game=chess"])


def composed(*overrides):
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        return compose("train", overrides=list(overrides))


@pytest.mark.parametrize("game", options("game"))
def test_a_recipe_never_leaks_into_another_game(game):
    cfg = composed(f"game={game}")
    own_recipe = game in options("experiment")
    expected = composed(f"experiment={game}" if own_recipe else "experiment=none", f"game={game}")
    assert cfg == expected
    if not own_recipe:  # a game's recipe (Odoku's playout targets, ...) stays with its game
        assert cfg.agent == composed("experiment=none").agent and cfg.train == composed("experiment=none").train


def test_the_default_run_is_the_odoku_recipe():
    assert composed() == composed("game=odoku") == composed("experiment=odoku")
    assert composed().agent != composed("experiment=none").agent


def test_experiment_null_means_no_recipe():
    assert with_recipe_aliases(["seed=1", "experiment=null"]) == ["seed=1", "experiment=none"]
    assert composed(*with_recipe_aliases(["experiment=null"])) == composed("experiment=none")
