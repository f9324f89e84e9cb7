"""Train an AlphaZero agent: ``python train.py [experiment=NAME] [key=value ...]``.

Composes ``configs/train.yaml`` with Hydra and hands it to
:func:`agents.training.loop.train`; see ``docs/training.md``. Messages go through
Python ``logging`` (Hydra writes them to ``<run directory>/train.log`` too).
A resumed run continues in its checkpoint's run directory; a run that stops at
a configuration error leaves no run directory behind.
"""

import logging
import signal
import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf
from tqdm.contrib.logging import logging_redirect_tqdm

from agents.config import ConfigError, check_recipe_game, with_recipe_aliases
from agents.evaluation.figure_records import append_records, command_line, measured
from agents.net.checkpoint import CheckpointError
from agents.training.interrupts import STOP_SIGNALS, exit_status, stop_on_signals
from agents.training.loop import train
from agents.training.run_dir import remove_unused_run_dir, run_directory
from envs import GAMES

# hydra.run.dir and hydra.output_subdir in configs/train.yaml
OmegaConf.register_new_resolver("run_dir", run_directory)
OmegaConf.register_new_resolver("hydra_subdir", lambda resume: None if resume else ".hydra")


@hydra.main(config_path="configs", config_name="train", version_base="1.3")
def main(cfg: DictConfig) -> None:
    hydra_cfg = HydraConfig.get()
    run_dir = Path(hydra_cfg.runtime.output_dir)
    logging.captureWarnings(True)
    try:
        recipe = hydra_cfg.runtime.choices.get("experiment")
        check_recipe_game(recipe, str(cfg.game.name), list(GAMES))
        if cfg.record and cfg.get("resume"):
            raise ConfigError(
                "record: a resumed run's wall time continues its checkpoint's; record a run from its start"
            )
        if cfg.get("resume"):
            (run_dir / ".hydra").mkdir(exist_ok=True)  # the run records its configuration there
        with logging_redirect_tqdm():  # log lines above the progress bar, not through it
            result = train(cfg, run_dir, hydra_cfg.overrides.task)
    except (ConfigError, CheckpointError) as error:  # stop before training, no traceback
        logging.getLogger("agents.train").error("error: %s", error)
        remove_unused_run_dir(run_dir)
        sys.exit(1)
    except KeyboardInterrupt as stop:  # before training began or after it ended: nothing to save
        sys.exit(exit_status(stop))
    if result.interrupted:
        sys.exit(result.exit_status)
    if cfg.record and result.wall_seconds is not None:  # the recipe's training time, as a record
        subject = f"experiment={recipe} seed={cfg.seed}" if recipe else f"game={cfg.game.name} seed={cfg.seed}"
        record = measured(
            "strength",
            subject,
            "training wall time",
            "",
            round(result.wall_seconds / 60, 1),
            "minutes",
            command=command_line(),
            note=f"{result.iteration} iterations",
        )
        append_records(cfg.record, [record])
        logging.getLogger("agents.train").info("training time appended to %s", cfg.record)


if __name__ == "__main__":
    sys.argv = with_recipe_aliases(sys.argv)
    stop_on_signals()  # SIGINT or SIGTERM outside the training loop: exit 128 + signal, no traceback
    try:
        main()
    except KeyboardInterrupt as stop:
        sys.exit(exit_status(stop))
    finally:  # the process is ending: a late signal has nothing left to stop
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_IGN)
