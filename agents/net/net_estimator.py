"""The network as a search estimator: a batch of decision states -> priors and per-seat values."""

from __future__ import annotations

import time

import numpy as np
import torch

from agents.net.inference import make_forward
from agents.net.inference_outputs import priors_and_values
from agents.net.network import PolicyValueNet
from envs.core import Game


class NetEstimator:
    """Implements the search's ``Estimator`` protocol with one forward pass per call.

    ``estimate(states)`` stacks ``game.observe`` of every state, runs the network
    in inference mode on ``device``, and returns ``priors [B, num_actions]``
    (softmax over the legal actions, zero elsewhere) and ``values [B, num_seats]``:
    the network's value ``v`` for the seat to move and ``-v`` for the other seat.
    States must be decision states (a seat to move). ``inference`` names how the forward
    pass runs (:mod:`agents.net.inference`; None: the process's default, ``auto``).
    ``estimate_planes`` does the same from observations built elsewhere (the compiled search
    driver builds them from its rows).
    """

    def __init__(
        self, game: Game, net: PolicyValueNet, device: torch.device | str = "cpu", inference: str | None = None
    ):
        net.check_fits(game.info)  # any board size of the game
        self.game = game
        self.net = net
        self.device = torch.device(device)
        self.run = make_forward(net, self.device, inference)
        self.calls = 0  # forward passes so far (for benchmarks)
        self.positions = 0  # states estimated so far
        self.seconds = 0.0  # spent in forward passes so far

    def estimate(self, states) -> tuple[np.ndarray, np.ndarray]:
        game = self.game
        movers = np.array([game.to_play(s) for s in states], dtype=np.int64)
        if movers.size and movers.min() < 0:
            raise ValueError("the network estimates decision states only (a seat to move)")
        obs = np.stack([game.observe(s) for s in states])
        masks = np.stack([game.legal_mask(s) for s in states])
        return self.estimate_planes(obs, masks, movers)

    def estimate_planes(self, obs: np.ndarray, masks: np.ndarray, movers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``estimate`` of the decision states whose ``game.observe`` are ``obs`` (float32
        ``[B, *obs_shape]``), ``game.legal_mask`` are ``masks`` (bool ``[B, num_actions]``)
        and seats to move are ``movers`` (int64 ``[B]``)."""
        logits, value = self.forward(obs)
        return priors_and_values(logits, value, masks, movers, self.game.info.num_seats)

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Raw logits [B, num_actions] and mover values [B] for stacked observations, as the
        backend returns them (float32)."""
        if self.net.training:  # the learner trains the same module between calls
            self.net.eval()
        started = time.perf_counter()
        logits, value = self.run(obs)
        self.seconds += time.perf_counter() - started
        self.calls += 1
        self.positions += len(obs)
        return logits, value
