"""The learner: one gradient step of AlphaZero's loss on a replay batch.

    loss = cross_entropy(search policy, network policy) + value_weight * (target - value)^2

plus weight decay (AdamW's decoupled decay on every parameter). The policy term
uses the raw logits; targets are zero on illegal actions, so training pushes
them down, and the estimator masks them anyway.

The learning rate is ``lr`` throughout (``lr_schedule: constant``) or falls along
a half cosine from ``lr`` at the first step to ``lr * lr_final`` at the run's
last (``cosine``): late steps average the noise of the targets instead of
following it. The rate is a function of the step alone, so a resumed run takes
the same steps as an unbroken one.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch.nn import functional as F

from agents.config import ConfigError, check
from agents.net.network import PolicyValueNet


@dataclass(frozen=True)
class LearnerConfig:
    """Optimiser and batch settings (``agent.learner`` in the configs; these defaults are the config's)."""

    batch_size: int = 128
    steps_per_iteration: int = 40
    lr: float = 0.002
    weight_decay: float = 0.0001
    value_weight: float = 1.0
    replay_capacity: int = 50000
    min_replay: int = 256  # positions needed before the first step
    lr_schedule: str = "constant"  # or "cosine": from lr down to lr * lr_final over the run's steps
    lr_final: float = 0.1
    # a fresh network's value head ends in zero weights and bias, so it values every position 0
    # until it learns (PolicyValueNet.zero_value_output); false: torch's random init throughout
    zero_value_init: bool = False

    def __post_init__(self):
        for key, low in (("batch_size", 1), ("steps_per_iteration", 0), ("replay_capacity", 1), ("min_replay", 1)):
            check(f"agent.learner.{key}", getattr(self, key), "integer", low=low)
        check("agent.learner.lr", self.lr, "number", low=0.0, strict=True)
        check("agent.learner.weight_decay", self.weight_decay, "number", low=0.0)
        check("agent.learner.value_weight", self.value_weight, "number", low=0.0)
        check("agent.learner.lr_schedule", self.lr_schedule, "choice", choices=LR_SCHEDULES)
        check("agent.learner.lr_final", self.lr_final, "number", low=0.0, high=1.0)
        check("agent.learner.zero_value_init", self.zero_value_init, "bool")
        if self.min_replay > self.replay_capacity:
            raise ConfigError(
                f"agent.learner.min_replay ({self.min_replay}) exceeds agent.learner.replay_capacity "
                f"({self.replay_capacity})"
            )

    def to_dict(self) -> dict:
        return asdict(self)

    def lr_at(self, step: int, total_steps: int) -> float:
        """The learning rate of 0-based learner ``step`` in a run of ``total_steps``."""
        if self.lr_schedule == "constant" or total_steps <= 1:
            return self.lr
        progress = min(step / (total_steps - 1), 1.0)
        return self.lr * (self.lr_final + (1.0 - self.lr_final) * 0.5 * (1.0 + math.cos(math.pi * progress)))


LR_SCHEDULES = ("constant", "cosine")


class Learner:
    """Owns the optimiser of ``net``; :meth:`step` trains on one batch and returns the losses."""

    def __init__(
        self,
        net: PolicyValueNet,
        config: LearnerConfig,
        device: torch.device,
        total_steps: int = 0,
        steps_taken: int = 0,
    ):
        self.net = net
        self.config = config
        self.device = device
        self.total_steps = total_steps  # the run's learner steps, which the schedule spans
        self.steps_taken = steps_taken
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)

    @property
    def lr(self) -> float:
        """The learning rate of the next step."""
        return self.config.lr_at(self.steps_taken, self.total_steps)

    def load_optimizer_state(self, state: dict) -> None:
        """Continue from a saved optimiser state (moments, step counts) with this
        learner's learning rate and weight decay, e.g. a resumed run's overrides."""
        self.optimizer.load_state_dict(state)
        for group in self.optimizer.param_groups:
            group["weight_decay"] = self.config.weight_decay

    def step(self, obs: np.ndarray, policy: np.ndarray, value: np.ndarray) -> dict[str, float]:
        """One optimiser step; returns ``loss/policy``, ``loss/value``, ``loss/total`` and the
        network's mean policy entropy on the batch before the step (``learner/net_entropy``, nats) and
        the variance of the batch's value targets (the value loss of the best constant guess)."""
        for group in self.optimizer.param_groups:
            group["lr"] = self.lr
        self.steps_taken += 1
        self.net.train()
        obs_t = torch.from_numpy(obs).to(self.device)
        policy_t = torch.from_numpy(policy).to(self.device)
        value_t = torch.from_numpy(value).to(self.device)
        logits, predicted = self.net(obs_t)
        log_p = F.log_softmax(logits, dim=1)
        policy_loss = -(policy_t * log_p).sum(dim=1).mean()
        value_loss = F.mse_loss(predicted, value_t)
        total = policy_loss + self.config.value_weight * value_loss
        self.optimizer.zero_grad(set_to_none=True)
        total.backward()
        self.optimizer.step()
        with torch.no_grad():  # over every action: training pushes the illegal ones down
            net_entropy = -(log_p.exp() * log_p).sum(dim=1).mean()
        return {
            "learner/net_entropy": net_entropy.item(),
            "learner/value_target_variance": value_t.var(unbiased=False).item(),  # loss/value of a constant guess
            "loss/policy": policy_loss.item(),
            "loss/value": value_loss.item(),
            "loss/total": total.item(),
        }
