"""Batched games for throughput: N games of one game with compiled rules stepped by one numba
call (``BatchedBoardGameEnv``, built by ``envs.make_vec``, over ``compiled_batch``)."""
