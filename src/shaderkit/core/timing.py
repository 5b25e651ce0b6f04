"""Timing for ``shaderkit bench``: several works measured in turn, round after round.

Works are called alternately in the same process, so a slow phase of the machine hits all of
them alike. Each work's best (minimum) time per call is the figure least disturbed by other
load; its median says how typical that best was. Benches report both.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

MINIMUM_ROUNDS = 3


@dataclass(frozen=True)
class Rounds:
    """Per-call seconds of each work over all rounds."""

    times: dict[str, list[float]]
    elapsed: float

    @property
    def rounds(self) -> int:
        return min((len(times) for times in self.times.values()), default=0)

    @property
    def best(self) -> dict[str, float]:
        return {name: min(times, default=math.inf) for name, times in self.times.items()}

    @property
    def median(self) -> dict[str, float]:
        return {name: statistics.median(times) if times else math.inf for name, times in self.times.items()}


def measure_rounds(works: dict[str, Callable[[], object]], seconds: float,
                   minimum: int = MINIMUM_ROUNDS) -> Rounds:
    """Call each work in turn, round after round, for about ``seconds`` and at least ``minimum`` rounds."""
    times: dict[str, list[float]] = {name: [] for name in works}
    start = time.perf_counter()
    rounds = 0
    while rounds < minimum or time.perf_counter() - start < seconds:
        for name, work in works.items():
            began = time.perf_counter()
            work()
            times[name].append(time.perf_counter() - began)
        rounds += 1
    return Rounds(times, time.perf_counter() - start)
