"""One network on one device answering the forward passes of several self-play processes.

With ``agent.selfplay.inference_server=true`` the worker processes hold no network:
each worker's :class:`ServedEstimator` sends its stacked observations (one message a
simulation wave) to an :class:`InferenceServer`, a thread of the main process beside the
learner, on the run's ``device``. The server waits on every worker's connection at once
(``multiprocessing.connection.wait``), takes every request that is waiting, runs one
forward pass per observation shape among them (board sizes) and answers each worker
its rows. A worker has one request in flight at a time, so the batch the device sees
is the sum of the waiting workers' waves: a device that is busy gathers larger batches.

Connections are the standard library's ``multiprocessing.connection`` (a local socket,
an authentication key the workers are handed): each worker connects once, when its
process starts. Faults: a worker that dies drops its connection and the server forgets
it (the pool that ran it reports the death); an exception in a forward pass is sent to
every request of that pass and raised there; should the serving thread itself fail, it
closes every connection, so no worker waits for an answer that will not come.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from multiprocessing.connection import Client, Connection, Listener, Pipe, wait

import numpy as np
import torch

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from envs.core import Game

log = logging.getLogger(__name__)


class InferenceServer:
    """A thread that runs ``net`` (a fresh network of ``net_config``, loaded by :meth:`load`) on
    ``device`` for the workers connected to :attr:`address`; ``backend`` as in
    :func:`agents.net.inference.make_forward`."""

    def __init__(self, game: Game, net_config: NetConfig, device: str | torch.device, backend: str | None = None):
        self.net = PolicyValueNet.for_game(game.info, net_config).to(torch.device(device))
        self.estimator = NetEstimator(game, self.net, device, backend)
        self.version: int | None = None
        self.authkey = os.urandom(32)
        self._listener = Listener(authkey=self.authkey)
        self.address = self._listener.address
        self._connections: list[Connection] = []
        self._lock = threading.Lock()  # the connections list; the network between passes and loads
        self._wake, self._waker = Pipe(duplex=False)  # a new worker or close(): look again
        self._closed = threading.Event()
        self.failure: BaseException | None = None
        self.requests = 0  # requests answered
        self.started = time.perf_counter()
        self._threads = [
            threading.Thread(target=self._accept, name="inference-accept", daemon=True),
            threading.Thread(target=self._serve, name="inference-server", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def load(self, weights: dict, version: int) -> None:
        """Take ``weights`` (a state dict) for the passes from now on, unless ``version`` is loaded."""
        if version != self.version:
            with self._lock:
                self.net.load_state_dict(weights)
                self.version = version

    @property
    def alive(self) -> bool:
        return self._threads[1].is_alive()

    def busy_share(self) -> float:
        """The share of the time since the server started (or :meth:`reset`) spent in forward passes."""
        return self.estimator.seconds / max(time.perf_counter() - self.started, 1e-9)

    def reset(self) -> None:
        """Start counting calls, positions, requests and busy time afresh."""
        self.estimator.calls = self.estimator.positions = self.requests = 0
        self.estimator.seconds = 0.0
        self.started = time.perf_counter()

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                connection = self._listener.accept()
            except OSError:  # the listener closed
                return
            except Exception as error:  # a stranger that fails the handshake
                log.warning("inference server: a connection was refused (%s)", error)
                continue
            with self._lock:
                self._connections.append(connection)
            self._waker.send_bytes(b"")

    def _serve(self) -> None:
        try:
            while not self._closed.is_set():
                with self._lock:
                    connections = list(self._connections)
                ready = wait([self._wake, *connections])
                if self._wake in ready:
                    self._wake.recv_bytes()
                requests = [(c, obs) for c in ready if c is not self._wake and (obs := self._receive(c)) is not None]
                for shape in dict.fromkeys(obs.shape[1:] for _, obs in requests):
                    self._answer([(c, obs) for c, obs in requests if obs.shape[1:] == shape])
        except BaseException as error:
            self.failure = error
            log.error("inference server stopped: %r", error)
        finally:
            with self._lock:
                for connection in self._connections:
                    connection.close()
                self._connections.clear()

    def _receive(self, connection: Connection) -> np.ndarray | None:
        try:
            return connection.recv()
        except (EOFError, OSError):  # the worker is gone
            self._forget(connection)
            return None

    def _forget(self, connection: Connection) -> None:
        with self._lock:
            if connection in self._connections:
                self._connections.remove(connection)
        connection.close()

    def _answer(self, requests: list) -> None:
        """One forward pass for requests of one observation shape."""
        try:
            with self._lock:
                logits, values = self.estimator.forward(np.concatenate([obs for _, obs in requests]))
        except Exception as error:  # every request of the pass hears of it
            answers = [("error", f"the inference server's forward pass failed: {error!r}")] * len(requests)
        else:
            bounds = np.cumsum([0] + [len(obs) for _, obs in requests])
            answers = [("ok", logits[a:b], values[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
        for (connection, _), answer in zip(requests, answers):
            try:
                connection.send(answer)
                self.requests += 1
            except OSError:  # the worker died waiting
                self._forget(connection)

    def close(self) -> None:
        """Stop serving and drop every connection (workers still waiting see it closed)."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._listener.close()
        self._waker.send_bytes(b"")
        for thread in self._threads:
            thread.join(timeout=10)
        self._wake.close()
        self._waker.close()

    def __enter__(self) -> "InferenceServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def connect(address, authkey: bytes) -> Connection:
    """A worker's connection to the server at ``address``."""
    return Client(address, authkey=authkey)


class ServedEstimator(NetEstimator):
    """A :class:`NetEstimator` whose forward pass runs in an :class:`InferenceServer`: the
    planes and masks are built here, only the stacked observations travel. It holds no
    network, so it skips NetEstimator's constructor (which checks one)."""

    def __init__(self, game: Game, connection: Connection):
        self.game, self.connection = game, connection
        self.calls = self.positions = 0
        self.seconds = 0.0  # waiting for answers

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        started = time.perf_counter()
        try:
            self.connection.send(obs)
            answer = self.connection.recv()
        except (EOFError, OSError):
            raise RuntimeError("the inference server closed the connection (the main process stopped)") from None
        self.seconds += time.perf_counter() - started
        if answer[0] != "ok":
            raise RuntimeError(answer[1])
        self.calls += 1
        self.positions += len(obs)
        return answer[1], answer[2]
