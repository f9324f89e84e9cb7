"""Batched games for throughput: N games of one game stepped by one numba call
(``BatchedBoardGameEnv``, built by ``envs.make_vec``)."""
