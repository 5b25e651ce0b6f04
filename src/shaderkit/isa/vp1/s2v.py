"""The scalar→vector path (spec §6): the one data path inside a bundle.

Every scalar instruction of a bundle hands the vector instruction of the same bundle four signed
10-bit *factors*, two 16-bit *masks* made from them, and a ``$vc`` *selection* (valid flag,
index, half, transform). This module owns that hand-over value (:class:`S2v`), the factors every
non-emitting scalar op produces (§6.1), and how a vector op turns a ``$vc`` selection into a
16-bit mask (§6.3). The emitters' own factor arithmetic (``bvec``, ``vec``, ``bvecmad``…) lives
with their semantics in :mod:`.semantics_scalar`.

A bundle with no scalar word has no known s2v value (§13); the machine chooses one (see
:mod:`.machine`).
"""

from __future__ import annotations

# Output bit i of a $vc mask is bit XFRM_SOURCES[xfrm][i] of the selected half (§6.3); for
# transform 7 the half of $vc[index | 1] supplies bits 16–31.
XFRM_SOURCES = (
    tuple(range(16)),
    (2, 2, 2, 2, 6, 6, 6, 6, 10, 10, 10, 10, 14, 14, 14, 14),
    (4, 5, 4, 5, 4, 5, 4, 5, 12, 13, 12, 13, 12, 13, 12, 13),
    (0, 0, 2, 0, 4, 4, 6, 4, 8, 8, 10, 8, 12, 12, 14, 12),
    (1, 1, 1, 3, 5, 5, 5, 7, 9, 9, 9, 11, 13, 13, 13, 15),
    (0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14),
    (1, 1, 1, 1, 5, 5, 5, 5, 9, 9, 9, 9, 13, 13, 13, 13),
    tuple(range(0, 32, 2)),
)


def sext(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


class S2v:
    """What the scalar unit hands the vector unit in one bundle.

    ``factors`` are four signed 10-bit numbers; ``valid`` says whether the ``$vc`` selection
    (``vcidx``, ``vcflag`` 0 = sign half / 1 = zero half, ``vcxfrm``) was emitted — only the
    s2v emitters set it.
    """

    __slots__ = ("factors", "valid", "vcidx", "vcflag", "vcxfrm")

    def __init__(self, factors=(0, 0, 0, 0), valid: bool = False, vcidx: int = 0, vcflag: int = 0,
                 vcxfrm: int = 0):
        self.factors = list(ten_bit(factors))
        self.valid = valid
        self.vcidx = vcidx
        self.vcflag = vcflag
        self.vcxfrm = vcxfrm

    @property
    def masks(self) -> tuple[int, int]:
        """``mask0`` from factors 0 and 1, ``mask1`` from factors 2 and 3 (bits 1–8 of each)."""
        return factor_masks(self.factors)

    def __repr__(self) -> str:
        selection = f", $vc{self.vcidx} {'zf' if self.vcflag else 'sf'} {self.vcxfrm:#x}" if self.valid else ""
        return f"S2v({self.factors}{selection})"


# The rules below are plain functions of integers (and tuples or arrays of them), so the compiled
# loop (compiled_s2v.py) runs these very rules through Numba.


def ten_bit(factors) -> tuple[int, int, int, int]:
    """The four factors as the s2v path carries them: signed 10-bit."""
    return (sext(factors[0], 10), sext(factors[1], 10), sext(factors[2], 10), sext(factors[3], 10))


def factor_masks(factors) -> tuple[int, int]:
    """``mask0`` from factors 0 and 1, ``mask1`` from factors 2 and 3 (bits 1–8 of each)."""
    return (((factors[0] >> 1) & 0xFF) | ((factors[1] >> 1) & 0xFF) << 8,
            ((factors[2] >> 1) & 0xFF) | ((factors[3] >> 1) & 0xFF) << 8)


def default_factors(source: int) -> tuple[int, int, int, int]:
    """The factors of every non-byte, non-emitting scalar op (§6.1): bits 0–3 of ``source``
    each widened to 4 bits make a 16-bit M; f0 = low byte of M << 1, f1 = high byte << 1."""
    widened = 0
    for bit in range(4):
        if source >> bit & 1:
            widened |= 0xF << (4 * bit)
    return ((widened & 0xFF) << 1, (widened >> 8) << 1, 0, 0)


def vc_mask(vc: list[int], index: int, half: int, xfrm: int) -> int:
    """The 16-bit mask a vector op derives from ``$vc[index]`` (§6.3): ``half`` 0 takes the sign
    flags (bits 0–15), 1 the zero flags (bits 16–31), rearranged by transform ``xfrm``."""
    shift = 16 * half
    value = (vc[index & 3] >> shift) & 0xFFFF
    if xfrm == 7:
        value |= ((vc[(index | 1) & 3] >> shift) & 0xFFFF) << 16
    sources = XFRM_SOURCES[xfrm]
    mask = 0
    for bit in range(16):
        mask |= ((value >> sources[bit]) & 1) << bit
    return mask


def selected_mask(s2v: S2v, vc: list[int], vector_word: int) -> int:
    """The ``$vc`` mask a vector MAD op uses: the s2v selection when the scalar op emitted one,
    else the vector word's own bits (index = bits 0–1, half = bit 2, transform 0) (§6.3)."""
    return selection_mask(s2v.valid, s2v.vcidx, s2v.vcflag, s2v.vcxfrm, vc, vector_word)


def selection_mask(valid: bool, vcidx: int, vcflag: int, vcxfrm: int, vc, vector_word: int) -> int:
    """:func:`selected_mask` from the selection's parts."""
    if valid:
        return vc_mask(vc, vcidx, vcflag, vcxfrm)
    return vc_mask(vc, vector_word & 3, (vector_word >> 2) & 1, 0)
