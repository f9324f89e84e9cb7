"""The policy/value network (PyTorch) and what turns it into a searcher's estimator.

:mod:`~agents.net.network` defines the one residual network family for every
game; :mod:`~agents.net.net_estimator` wraps a network as a batched search
estimator (priors and per-seat values for a batch of states), its forward pass
run by :mod:`~agents.net.inference` (ONNX Runtime or PyTorch);
:mod:`~agents.net.checkpoint` defines the checkpoint format and loads a
checkpoint as a network for a given game (writing checkpoints is
``agents.training.saving``'s job). Depends on ``envs`` and torch.
"""
