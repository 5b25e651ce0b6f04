"""The campaign's harness itself: its limits stop a runaway case, and its classification tells
a clean error from a messy one."""

from __future__ import annotations

import time

import numpy as np
import pytest

from .fuzz_harness import CaseAborted, _is_clean_error_text, _Watchdog


def test_the_watchdog_stops_a_case_past_its_time():
    started = time.monotonic()
    with pytest.raises(CaseAborted, match="hang"):
        with _Watchdog(0.3, 1 << 30):
            while True:
                time.sleep(0.01)
    assert time.monotonic() - started < 3


def test_the_watchdog_stops_a_case_past_its_memory():
    blocks = []
    with pytest.raises(CaseAborted, match="memory"):
        with _Watchdog(10, 64 << 20):
            for _ in range(40):
                blocks.append(np.ones(4 << 20))  # 32 MiB each, touched
                time.sleep(0.05)
    assert len(blocks) < 40


def test_the_watchdog_lets_a_quick_case_finish():
    with _Watchdog(5, 1 << 30):
        total = sum(range(1000))
    assert total == 499500


@pytest.mark.parametrize(("stderr", "clean"), [
    ("prog.bin: empty file: no program image in it\n", True),
    ("prog.bin: warning: 7 slot(s) after the end bit are ignored\nout: is a directory, not a file\n", True),
    ("p.s:4:5: error: unknown register 'RZ'\nADD RZ R0\n    ^~\n", True),
    ("p.s:1:1: warning: slot 18\nNOP\n^~~\np.s:4:5: error: bad\nADD RZ R0\n    ^~\n", True),
    ("p.s:1:1: warning: slot 18\nNOP\n^~~\n", False),  # warnings alone are no error
    ("note: all 3 frames are the same\nloop.vp (vertex program): stopped at slot 1 after 5 s\n", True),
    ("note: all 3 frames are the same\n", False),
    ("", False),
    ("Usage: shaderkit asm [OPTIONS] SOURCE\nTry 'shaderkit asm -h' for help.\n\nError: No such option: --bogus\n",
     False),
    ("Traceback (most recent call last):\n  File \"x\", line 1\nValueError: x\n", False),
    ("first error\nsecond error\n", False),
    ("no instruction 'A\x1cB\x0bC' in the manual\n", True),  # control characters, but one line
    ("no instruction 'A\rB' in the manual\n", False),
    ("x.py:12: RuntimeWarning: divide by zero encountered\n  r = 1 / a\nout.npy: cannot write\n", False),
])
def test_clean_errors_are_told_from_messy_ones(stderr, clean):
    assert _is_clean_error_text(stderr) is clean
