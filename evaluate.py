"""Evaluate agents: ``python evaluate.py [mode=MODE] [game=GAME] [players=[...]] [key=value ...]``.

Composes ``configs/evaluate.yaml`` with Hydra and hands it to
:func:`agents.web.modes.evaluate_any` (the evaluation modes and the browser board's); ``--help``
lists the modes, see ``docs/evaluate.md``.
"""

import logging
import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from agents.config import ConfigError, LogLines
from agents.evaluation.figure_records import RECORDED_MODES, append_records, command_line, evaluation_records
from agents.training.interrupts import exit_status
from agents.training.run_dir import remove_unused_run_dir
from agents.web.modes import evaluate_any

# hydra.run.dir in configs/evaluate.yaml: a resumed match continues in its own run directory
OmegaConf.register_new_resolver("resume_or", lambda resume, new: str(resume) if resume else new)


@hydra.main(config_path="configs", config_name="evaluate", version_base="1.3")
def main(cfg: DictConfig) -> None:
    logging.captureWarnings(True)
    log = logging.getLogger("agents.evaluate")
    run_dir = HydraConfig.get().runtime.output_dir
    try:
        if cfg.record and cfg.mode not in RECORDED_MODES:
            raise ConfigError(
                f"record: mode={cfg.mode} measures no figure to record; set it with mode={' or '.join(RECORDED_MODES)}"
            )
        document = evaluate_any(cfg, run_dir, LogLines(log))
        if cfg.record:  # the figures as records (docs/results.md is rendered from them)
            log.info(
                "%d records appended to %s",
                append_records(cfg.record, evaluation_records(document, command_line())),
                cfg.record,
            )
    except ValueError as error:  # bad settings, specs or checkpoints: a message, no traceback
        log.error("error: %s", error)
        remove_unused_run_dir(run_dir)  # as train.py: no directory of nothing but Hydra's start
        sys.exit(1)
    except KeyboardInterrupt as stop:  # Ctrl-C: a match said what it saved; exit as a shell expects
        sys.exit(exit_status(stop))


if __name__ == "__main__":
    main()
