"""AlphaZero training: the loop, self-play, the learner, the replay buffer, saving and resuming.

:mod:`~agents.training.loop` reads top to bottom (settings from the config,
then per iteration: self-play, learning, evaluation, checkpoint);
:mod:`~agents.training.selfplay` plays batched self-play games and makes the
training targets; :mod:`~agents.training.learner` takes gradient steps;
:mod:`~agents.training.replay` keeps the targets and augments them by
symmetry; :mod:`~agents.training.feeds` (worker processes) and
:mod:`~agents.training.ray_backend` (Ray actors) run self-play off the main
process; :mod:`~agents.training.baseline_eval` plays the evaluation games; :mod:`~agents.training.saving` writes checkpoints atomically and
reads back what a resumed run needs. The top of the dependency order: it uses
every other ``agents`` package.
"""
