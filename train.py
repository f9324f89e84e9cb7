"""Train an AlphaZero agent: ``python train.py [experiment=NAME] [key=value ...]``.

Composes ``configs/train.yaml`` with Hydra and hands it to
:func:`agents.training.loop.train`; see ``docs/training.md``. Messages go through
Python ``logging`` (Hydra writes them to ``<run directory>/train.log`` too).
"""

import logging
import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig
from tqdm.contrib.logging import logging_redirect_tqdm

from agents.config import ConfigError, with_recipe_aliases
from agents.net.checkpoint import CheckpointError
from agents.training.loop import train


@hydra.main(config_path="configs", config_name="train", version_base="1.3")
def main(cfg: DictConfig) -> None:
    hydra_cfg = HydraConfig.get()
    logging.captureWarnings(True)
    try:
        with logging_redirect_tqdm():  # log lines above the progress bar, not through it
            result = train(cfg, hydra_cfg.runtime.output_dir, hydra_cfg.overrides.task)
    except (ConfigError, CheckpointError) as error:  # stop before training, no traceback
        logging.getLogger("agents.train").error("error: %s", error)
        sys.exit(1)
    if result.interrupted:
        sys.exit(130)


if __name__ == "__main__":
    sys.argv = with_recipe_aliases(sys.argv)
    main()
