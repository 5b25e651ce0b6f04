"""fp16 H registers as views of the fp32 R registers (spec/rsx.md section 3.1).

H(2m) is the storage of R(m).xy and H(2m+1) the storage of R(m).zw; each 32-bit lane of R holds
two fp16 values with the first component in the low half, so R(m).x = packHalf2x16(H2m.xy),
R(m).y = packHalf2x16(H2m.zw), R(m).z = packHalf2x16(H2m+1.xy), R(m).w = packHalf2x16(H2m+1.zw).

The fragment machine keeps only R storage, float32 ``(4, n)`` per register. Viewed as float16
(little-endian host) the same memory is ``(4, 2n)``: element ``[c, 2 * lane + h]`` is half ``h``
(0 = low) of component ``c`` of that lane. A *place* ``(c, h)`` names where one H component lives.
"""

from __future__ import annotations

import numpy as np


def storage_register(h_index: int) -> int:
    """The R register whose storage holds H(h_index)."""
    return h_index >> 1


def component_places(h_index: int, components: tuple[int, ...]) -> list[tuple[int, int]]:
    """Where each listed component (0 = x .. 3 = w) of H(h_index) lives in its R register."""
    base = 2 * (h_index & 1)
    return [(base + component // 2, component % 2) for component in components]


def read(halves: np.ndarray, places: list[tuple[int, int]]) -> np.ndarray:
    """The H components at ``places`` of one register's fp16 view, as float32 (k, n)."""
    lanes = halves.shape[1] // 2
    value = np.empty((len(places), lanes), dtype=np.float32)
    for row, (component, half) in enumerate(places):
        value[row] = halves[component, half::2]
    return value


def destination(halves: np.ndarray, place: tuple[int, int]) -> np.ndarray:
    """The writable fp16 lane view of one H component; assigning float32 rounds to nearest even
    (values beyond the fp16 range become infinities, as in any fp32 -> fp16 conversion)."""
    component, half = place
    return halves[component, half::2]


def unpack_register(register: np.ndarray, h_index: int) -> np.ndarray:
    """H(h_index) as float32 (4, n), given the R register that stores it (float32 (4, n))."""
    lanes = register.shape[1]
    base = 2 * (h_index & 1)
    pairs = np.ascontiguousarray(register[base:base + 2]).view(np.float16).reshape(2, lanes, 2)
    return pairs.transpose(0, 2, 1).reshape(4, lanes).astype(np.float32)
