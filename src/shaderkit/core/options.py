"""Parsing of option values that several processors share (number lists, image sizes).

Each parser raises :class:`InputError` naming the option, so the CLI reports a bad value in
one line with exit code 2.
"""

from __future__ import annotations

import math
import re

from .diagnostics import InputError

MAX_IMAGE_SIDE = 4096
# The largest finite IEEE single-precision number, for processors that compute in float32.
FLOAT32_MAX = 3.4028234663852886e38


def parse_numbers(text: str, count: int, option: str, *, float32: bool = False) -> tuple[float, ...]:
    """``"1, 2,3"`` -> (1.0, 2.0, 3.0); exactly ``count`` finite numbers (each within
    float32's range if ``float32``: such a value would otherwise become infinity unasked)."""
    parts = [part for part in text.replace(",", " ").split() if part]
    try:
        values = tuple(float(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != count or not all(math.isfinite(value) for value in values):
        raise InputError(f"{option} needs {count} numbers separated by commas, not '{text}'")
    if float32:
        check_float32(values, f"{option} {text}")
    return values


def check_float32(values, where: str) -> None:
    """Refuse numbers past float32's range, naming ``where`` they came from."""
    for value in values:
        if abs(value) > FLOAT32_MAX:
            raise InputError(f"{where}: {value:g} is past the float32 range (±{FLOAT32_MAX:.7g}) "
                             "this processor computes in")


def parse_size(text: str, option: str) -> tuple[int, int]:
    """``"64x48"`` -> (64, 48), each side between 1 and 4096."""
    parts = text.lower().split("x")
    # ASCII digits only: str.isdigit() also accepts '²', which int() then refuses.
    if len(parts) != 2 or not all(re.fullmatch(r"[0-9]{1,5}", part) and 0 < int(part) <= MAX_IMAGE_SIDE
                                  for part in parts):
        raise InputError(f"{option} needs WIDTHxHEIGHT between 1 and {MAX_IMAGE_SIDE}, not '{text}'")
    return int(parts[0]), int(parts[1])
