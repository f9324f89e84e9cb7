"""agents/search/sums.py: the compiled pairwise sum adds as numpy's ``a[:n].sum()`` does, to the bit."""

import numpy as np
import pytest

from agents.search.sums import pairwise_sum


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_compiled_sum_is_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(0)
    lengths = [0, 1, 7, 8, 9, 15, 127, 128, 129, 136, 255, 256, 257, 1000, 4099]
    for n in lengths:
        for scale in (1e-3, 1.0, 1e6):
            a = (rng.random(n + 5) * scale).astype(dtype)  # room past n that must not be added
            ours, numpys = pairwise_sum(a, n), a[:n].sum()
            assert np.asarray(ours, dtype).tobytes() == np.asarray(numpys, dtype).tobytes(), (n, scale)


def test_the_compiled_sum_differs_from_a_running_sum():
    """The test above could not tell the orders apart if both always agreed: here they do not."""
    a = np.random.default_rng(1).random(1000).astype(np.float32)
    running = np.float32(0.0)
    for x in a:
        running = np.float32(running + x)
    assert pairwise_sum(a, len(a)) == a.sum() != running
