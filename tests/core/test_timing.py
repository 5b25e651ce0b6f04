"""Bench timing: every work is called in every round, and best and median come from those calls."""

from __future__ import annotations

import itertools

from shaderkit.core import timing


def test_rounds_alternate_works_and_keep_every_time(monkeypatch):
    ticks = itertools.count()
    monkeypatch.setattr(timing.time, "perf_counter", lambda: float(next(ticks)))
    calls = []
    measured = timing.measure_rounds({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")},
                                     seconds=0, minimum=3)
    assert calls == ["a", "b"] * 3
    assert measured.rounds == 3
    assert measured.best == {"a": 1.0, "b": 1.0}
    assert measured.median == {"a": 1.0, "b": 1.0}


def test_best_is_the_minimum_and_median_the_middle_call():
    durations = iter([5.0, 1.0, 3.0])
    measured = timing.Rounds({"work": [next(durations) for _ in range(3)]}, elapsed=9.0)
    assert measured.best == {"work": 1.0}
    assert measured.median == {"work": 3.0}
    assert timing.Rounds({"work": [4.0, 2.0]}, elapsed=6.0).median == {"work": 3.0}


def test_rounds_report_how_many_and_how_long(monkeypatch):
    ticks = itertools.count()
    monkeypatch.setattr(timing.time, "perf_counter", lambda: float(2 * next(ticks)))
    measured = timing.measure_rounds({"only": lambda: None}, seconds=0, minimum=2)
    # start 0, calls 2–8, the time check 10, the end 12
    assert measured.best == {"only": 2.0} and measured.rounds == 2 and measured.elapsed == 12.0
