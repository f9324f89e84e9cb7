"""Train an AlphaZero agent: ``python train.py [experiment=NAME] [key=value ...]``.

Composes ``configs/train.yaml`` with Hydra and hands it to
:func:`agents.training.train`; see ``docs/training.md``.
"""

import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from agents.checkpoint import CheckpointError
from agents.config import ConfigError, with_recipe_aliases
from agents.training import train


@hydra.main(config_path="configs", config_name="train", version_base="1.3")
def main(cfg: DictConfig) -> None:
    hydra_cfg = HydraConfig.get()
    try:
        result = train(cfg, hydra_cfg.runtime.output_dir, hydra_cfg.overrides.task)
    except (ConfigError, CheckpointError) as error:  # stop before training, no traceback
        sys.exit(f"error: {error}")
    if result.interrupted:
        sys.exit(130)


if __name__ == "__main__":
    sys.argv = with_recipe_aliases(sys.argv)
    main()
