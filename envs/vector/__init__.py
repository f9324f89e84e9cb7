"""Batched games for throughput: N games of one game stepped by one numba call
(``BatchedBoardGameEnv``, built by ``envs.make_vec``): ``compiled_batch`` for every game with
compiled rules, ``engine_batch`` (the engine in a Python loop) for any other."""
