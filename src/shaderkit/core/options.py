"""Parsing of option values that several processors share (number lists, image sizes).

Each parser raises :class:`InputError` naming the option, so the CLI reports a bad value in
one line with exit code 2.
"""

from __future__ import annotations

import math
import re

from .diagnostics import InputError

MAX_IMAGE_SIDE = 4096


def parse_numbers(text: str, count: int, option: str) -> tuple[float, ...]:
    """``"1, 2,3"`` -> (1.0, 2.0, 3.0); exactly ``count`` finite numbers."""
    parts = [part for part in text.replace(",", " ").split() if part]
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != count or not all(math.isfinite(value) for value in values):
        raise InputError(f"{option} needs {count} numbers separated by commas, not '{text}'")
    return values


def parse_size(text: str, option: str) -> tuple[int, int]:
    """``"64x48"`` -> (64, 48), each side between 1 and 4096."""
    parts = text.lower().split("x")
    # ASCII digits only: str.isdigit() also accepts '²', which int() then refuses.
    if len(parts) != 2 or not all(re.fullmatch(r"[0-9]{1,5}", part) and 0 < int(part) <= MAX_IMAGE_SIDE
                                  for part in parts):
        raise InputError(f"{option} needs WIDTHxHEIGHT between 1 and {MAX_IMAGE_SIDE}, not '{text}'")
    return int(parts[0]), int(parts[1])
