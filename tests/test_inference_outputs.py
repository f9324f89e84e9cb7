"""The estimator's compiled outputs (agents/net/inference_outputs.py) equal numpy's masked
softmax and seat values to the bit, over many seeded batches: rows below, at and far above
numpy's pairwise-summation block of 128, float32 and float64 network outputs. The reference
takes its exponentials from the compiled code's ``exp`` (the platform's libm through LLVM):
numpy's own SIMD ``exp`` differs from it in the last bit on some CPUs (1 ulp on 4.6% of
[-700, 0] on an Intel Xeon with AVX-512, none on the AMD EPYC the test was written on), and
the order of the arithmetic, not the libm, is what this test pins."""

import numpy as np
import pytest
from numba import njit

from agents.net.inference_outputs import priors_and_values


@njit(cache=True)
def compiled_exp(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            out[i, j] = np.exp(x[i, j])
    return out


def numpy_estimates(logits, value, masks, movers, seats):
    """What NetEstimator computed in numpy (with the compiled ``exp``): the reference."""
    logits = np.where(masks, logits.astype(np.float64), -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    priors = compiled_exp(logits)
    priors /= priors.sum(axis=1, keepdims=True)
    values = np.repeat(-value.astype(np.float64)[:, None], seats, axis=1)
    values[np.arange(len(logits)), movers] = value
    return priors, values


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_same_estimates_as_numpy_to_the_bit(dtype):
    rng = np.random.default_rng(0)
    for _ in range(300):
        batch, actions, seats = int(rng.integers(1, 40)), int(rng.choice([3, 8, 18, 122, 128, 129, 362, 1000, 5000])), 2
        logits = (rng.normal(size=(batch, actions)) * rng.uniform(0.1, 30)).astype(dtype)
        masks = rng.random((batch, actions)) < rng.uniform(0.02, 1)
        masks[np.arange(batch), rng.integers(0, actions, batch)] = True  # a legal action in every row
        value, movers = rng.uniform(-1, 1, batch).astype(dtype), rng.integers(0, seats, batch)
        expected = numpy_estimates(logits, value, masks, movers, seats)
        for got, want in zip(priors_and_values(logits, value, masks, movers, seats), expected):
            assert got.dtype == np.float64
            np.testing.assert_array_equal(got, want)
