"""How a network's forward pass runs where nothing is trained: PyTorch, or ONNX Runtime.

Everything that only evaluates the network (self-play workers, Ray actors,
evaluation games, ``az:`` and ``zoo:`` players, the analysis engine) goes
through :class:`~agents.net.net_estimator.NetEstimator`, which takes one of
these. The learner stays in PyTorch; :class:`OnnxForward` re-exports the
network whenever its weights have changed since the last export (an optimiser
step, ``load_state_dict``), so it always runs the weights the module holds.

The backend is named by ``inference`` (``train.py``/``evaluate.py`` key, or
the ``NEUZERO_INFERENCE`` environment variable that key sets, so that worker
processes inherit it): ``auto`` (the default) is ONNX Runtime on the CPU when
it is installed and PyTorch otherwise, or on CUDA; ``torch``; ``onnx``.
``benchmarks/bench_inference.py`` measures the two side by side.
"""

from __future__ import annotations

import io
import os
import warnings

import numpy as np
import torch

from agents.net.network import PolicyValueNet

BACKENDS = ("auto", "torch", "onnx")
ENVIRONMENT = "NEUZERO_INFERENCE"


def check_backend(name: str, key: str = "inference") -> str:
    if name not in BACKENDS:
        raise ValueError(f"{key} must be one of {', '.join(BACKENDS)}, got {name!r}")
    return name


def default_backend() -> str:
    """The backend this process was told to use (``NEUZERO_INFERENCE``, else ``auto``)."""
    return check_backend(os.environ.get(ENVIRONMENT, "auto"), ENVIRONMENT)


def set_default_backend(name: str) -> None:
    """Make ``name`` this process's and its future child processes' backend."""
    os.environ[ENVIRONMENT] = check_backend(name)


def onnx_available() -> bool:
    try:
        import onnx  # noqa: F401  (torch's exporter needs it)
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def make_forward(net: PolicyValueNet, device: torch.device, backend: str | None = None):
    """The forward pass for ``net`` on ``device`` by ``backend`` (None: :func:`default_backend`)."""
    backend = check_backend(backend or default_backend())
    on_cpu = device.type == "cpu"
    if backend == "auto":
        backend = "onnx" if on_cpu and onnx_available() else "torch"
    if backend == "torch":
        return TorchForward(net, device)
    if not onnx_available():
        raise ValueError("inference=onnx needs onnxruntime and onnx: pip install onnxruntime onnx")
    return OnnxForward(net, device)


class TorchForward:
    """The module itself, in inference mode on ``device``."""

    name = "torch"

    def __init__(self, net: PolicyValueNet, device: torch.device):
        self.net, self.device = net, device

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with torch.inference_mode():
            logits, value = self.net(torch.from_numpy(obs).to(self.device))
        return logits.cpu().numpy(), value.cpu().numpy()


class OnnxForward:
    """The module exported to ONNX and run by an ONNX Runtime session: one session per
    observation shape (the network plays every board size), all dropped when the weights change."""

    name = "onnx"

    def __init__(self, net: PolicyValueNet, device: torch.device):
        import onnxruntime

        self.net, self.ort = net, onnxruntime
        self.providers = ["CPUExecutionProvider"]
        if device.type == "cuda":
            if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
                raise ValueError("inference=onnx on CUDA needs onnxruntime-gpu (its CUDAExecutionProvider)")
            self.providers = [("CUDAExecutionProvider", {"device_id": device.index or 0})]
        self.sessions: dict[tuple, object] = {}
        self.modules = list(net.modules())  # walked once: net.parameters() costs a tenth of a small batch's pass
        self.weights = None
        self.exports = 0  # how often the network was exported (tests, benchmarks)

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        weights = weights_version(self.modules)
        if weights != self.weights:
            self.sessions.clear()
            self.weights = weights
        shape = obs.shape[1:]
        session = self.sessions.get(shape)
        if session is None:
            session = self.sessions[shape] = self._session(shape)
        logits, value = session.run(None, {"obs": np.ascontiguousarray(obs, dtype=np.float32)})
        return logits, value

    def _session(self, shape: tuple):
        was_training = self.net.training
        self.net.eval()
        example = torch.zeros((1, *shape), dtype=torch.float32)
        buffer = io.BytesIO()
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # the tracer's notes on the shape check in forward
            torch.onnx.export(
                self.net,
                (example.to(next(self.net.parameters()).device),),
                buffer,
                input_names=["obs"],
                output_names=["logits", "value"],
                dynamic_axes={"obs": {0: "batch"}, "logits": {0: "batch"}, "value": {0: "batch"}},
                dynamo=False,
            )
        self.net.train(was_training)
        self.exports += 1
        options = self.ort.SessionOptions()
        # as many threads as torch was given (1 in a self-play worker), and no spinning
        # between calls: the search runs in the same thread between forward passes
        options.intra_op_num_threads = max(1, torch.get_num_threads())
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return self.ort.InferenceSession(buffer.getvalue(), options, providers=self.providers)


def weights_version(modules: list[torch.nn.Module]) -> tuple:
    """Changes whenever a parameter or buffer of ``modules`` (a network's ``modules()``) is
    written in place (an optimiser step, ``load_state_dict``, batch norm's running statistics)
    or replaced (``.to()``): torch counts every in-place write in a tensor's ``_version``."""
    return tuple(
        (id(t), t._version)
        for m in modules
        for own in (m._parameters, m._buffers)
        for t in own.values()
        if t is not None
    )
