"""Timing for ``shaderkit bench``: the best time of several works measured in turn.

Works are called alternately in the same process, so a slow phase of the machine hits all of
them alike; the best (minimum) time per call is the figure least disturbed by other load.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

MINIMUM_ROUNDS = 3


def best_times(works: dict[str, Callable[[], object]], seconds: float,
               minimum: int = MINIMUM_ROUNDS) -> tuple[dict[str, float], int, float]:
    """Best seconds per call of each work, calling them in turn for about ``seconds``.

    Returns (best time by name, rounds, elapsed seconds); at least ``minimum`` rounds run.
    """
    best = {name: math.inf for name in works}
    rounds = 0
    start = time.perf_counter()
    while rounds < minimum or time.perf_counter() - start < seconds:
        for name, work in works.items():
            began = time.perf_counter()
            work()
            best[name] = min(best[name], time.perf_counter() - began)
        rounds += 1
    return best, rounds, time.perf_counter() - start
