"""What every VP1 vector opcode (0x80–0xbf) does: one function per mnemonic (spec §7).

Each function is ``op(state, word, pending)``: it reads the registers as they were before the
bundle and ``pending.s2v`` (what the scalar unit of the same bundle handed over, §6) and records
a ``$v`` result (``pending.vector_v``), a ``$va`` value (``vector_va``) and a ``$vc`` write
(``vector_vc``). ``VECTOR_OPS[opcode - 0x80]`` is the function for an opcode byte.

A ``$v`` register is 16 unsigned bytes; ``s``/``u`` (bit 28) says how they read as numbers.
``$vc`` flags (written iff bit 2 is 0, to ``$vc[bits 0–1]``): sign flags in bits 0–15, zero
flags in 16–31. The multiply-accumulate family shares one datapath (:func:`accumulate`, §7.2)
whose ``$va`` is 16 signed 28-bit accumulators that wrap.
"""

from __future__ import annotations

from .fields import FIELDS
from .s2v import selected_mask, sext, vc_mask
from .semantics_scalar import bitop, clip, sext8
from .state import UCCFG, VA_MASK, mangled_index, quad_register

DST = FIELDS["dst"].read
SRC1 = FIELDS["src1"].read
SRC2 = FIELDS["src2"].read
SRC3 = FIELDS["src3"].read
CDST = FIELDS["cdst"].read
COND = FIELDS["cond"].read
SLCT = FIELDS["slct"].read
BIMM = FIELDS["bimm"].read
BIMMBAD = FIELDS["bimmbad"].read
BITOP = FIELDS["bitop"].read
CMPOP = FIELDS["cmpop"].read
SHIFT = FIELDS["shift"]
ALTSHIFT = FIELDS["altshift"]
BIMMMUL = FIELDS["bimmmul"]

COMPONENTS = range(16)


def is_unsigned(word: int) -> bool:
    return bool(word >> 28 & 1)


def immediate_form(word: int) -> bool:
    """Opcode bit 5: the second operand is an immediate (0xa0–0xbf)."""
    return bool(word >> 29 & 1)


def write_vc(word: int, pending, sign_flags: int, zero_flags: int) -> None:
    """``[vc]``: ``$vc[bits 0–1]`` takes the 16 sign and 16 zero flags iff bit 2 is 0."""
    cdst = CDST(word)
    if not cdst & 4:
        pending.vector_vc = (cdst & 3, (sign_flags & 0xFFFF) | (zero_flags & 0xFFFF) << 16)


def zero_flags(values) -> int:
    return sum(1 << i for i, value in enumerate(values) if value & 0xFF == 0)


def flag_bits(conditions) -> int:
    return sum(1 << i for i, condition in enumerate(conditions) if condition)


# --- per-component operations, §7.1 ----------------------------------------------------------

def second_operand(state, word: int) -> list[int]:
    if immediate_form(word):
        return [BIMM(word)] * 16
    return state.v[SRC2(word)]


def clipping_op(state, word, pending, kind: int) -> None:
    """A per-component op (:func:`clipping_component`) whose result clips to the signedness's
    range; zf = clipped result is 0."""
    unsigned = is_unsigned(word)
    v1, v2 = state.v[SRC1(word)], second_operand(state, word)
    pairs = [clipping_component(kind, v1[i], v2[i], unsigned) for i in COMPONENTS]
    result = [value for value, _sign in pairs]
    pending.vector_v = (DST(word), result)
    write_vc(word, pending, flag_bits(sign for _value, sign in pairs), zero_flags(result))


CLIP_MIN, CLIP_MAX, CLIP_ABS, CLIP_NEG, CLIP_ADD, CLIP_SUB = range(6)


def clipping_component(kind: int, a: int, b: int, unsigned: bool) -> tuple[int, int]:
    """One component of a clipping op on bytes ``a``, ``b`` (sext8 each unless ``unsigned``):
    (the result clipped to the signedness's range, sf: unclipped result < 0 when signed, its
    bit 8 when unsigned). A plain integer rule, which the compiled loop runs too."""
    if not unsigned:
        a, b = sext8(a), sext8(b)
    if kind == CLIP_MIN:
        raw = min(a, b)
    elif kind == CLIP_MAX:
        raw = max(a, b)
    elif kind == CLIP_ABS:
        raw = abs(a)
    elif kind == CLIP_NEG:
        raw = -a
    elif kind == CLIP_ADD:
        raw = a + b
    else:
        raw = a - b
    if unsigned:
        return clip(raw, 0, 255), raw >> 8 & 1
    return clip(raw, -128, 127) & 0xFF, 1 if raw < 0 else 0


def vmin(state, word, pending):
    """Per-component minimum."""
    clipping_op(state, word, pending, CLIP_MIN)


def vmax(state, word, pending):
    """Per-component maximum."""
    clipping_op(state, word, pending, CLIP_MAX)


def vabs(state, word, pending):
    """Per-component absolute value of V1, clipped."""
    clipping_op(state, word, pending, CLIP_ABS)


def vneg(state, word, pending):
    """Per-component negation of V1 (signed), clipped."""
    clipping_op(state, word, pending, CLIP_NEG)


def vadd(state, word, pending):
    """Per-component add, clipped."""
    clipping_op(state, word, pending, CLIP_ADD)


def vsub(state, word, pending):
    """Per-component subtract, clipped."""
    clipping_op(state, word, pending, CLIP_SUB)


def vshr(state, word, pending):
    """Per-component shift by sext4 of source 2 (negative = left), arithmetic for ``s`` (the
    documentation's ``vsar``); not clipped; sf = result bit 7, zf."""
    signed = not is_unsigned(word)
    v1, v2 = state.v[SRC1(word)], second_operand(state, word)
    result = [shift_component(v1[i], v2[i], signed) for i in COMPONENTS]
    pending.vector_v = (DST(word), result)
    write_vc(word, pending, flag_bits(value >> 7 for value in result), zero_flags(result))


# shift_component … cmpad_flags are plain functions of integers, so the compiled loop
# (compiled.py) runs these very rules through Numba.

def shift_component(value: int, amount: int, signed: bool) -> int:
    """One component of vshr: ``value`` shifted by sext4(``amount``), low byte."""
    value, count = (sext8(value) if signed else value), sext(amount, 4)
    return (value >> count if count >= 0 else value << -count) & 0xFF


def add9_raw(value: int, low: int, high: int) -> int:
    """One component of vadd9 before clipping: ``value`` + sext9 of the lane ``low | high << 8``."""
    return value + sext(low | high << 8, 9)


def clip_component(a: int, low: int, high: int) -> tuple[int, bool]:
    """One component of vclip: (the signed median of the three bytes, not low < a < high)."""
    a, low, high = sext8(a), sext8(low), sext8(high)
    median = a + low + high - min(a, low, high) - max(a, low, high)
    return median & 0xFF, not low < a < high


def minabs_component(a: int, b: int) -> int:
    return min(abs(sext8(a)), abs(sext8(b)), 127)


def cmpad_flags(a: int, b: int, other: int, table: int, vcin: int) -> tuple[bool, bool]:
    """One component of vcmpad: (zero flag ``|a − b| == other``, sign flag from CMPOP)."""
    difference = abs(a - b)
    return difference == other, bool(table >> ((difference < other) * 2 + vcin) & 1)


def logic_result(word, pending, result) -> None:
    """A logic result: sf = 0, zf."""
    pending.vector_v = (DST(word), result)
    write_vc(word, pending, 0, zero_flags(result))


def vbitop(state, word, pending):
    """``bitop(BITOP, V2, V1)`` per component (and its aliases ``vand``, ``vor``…)."""
    v1, v2 = state.v[SRC1(word)], state.v[SRC2(word)]
    table = BITOP(word)
    logic_result(word, pending, [bitop(table, v2[i], v1[i], 8) for i in COMPONENTS])


def vand(state, word, pending):
    """V1 and BIMM."""
    logic_result(word, pending, [value & BIMM(word) for value in state.v[SRC1(word)]])


def vxor(state, word, pending):
    """V1 xor BIMM."""
    logic_result(word, pending, [value ^ BIMM(word) for value in state.v[SRC1(word)]])


def vor(state, word, pending):
    """V1 or BIMM."""
    logic_result(word, pending, [value | BIMM(word) for value in state.v[SRC1(word)]])


def vmov_imm(state, word, pending):
    """Every component = BIMM; sf = BIMM bit 7, zf."""
    value = BIMM(word)
    pending.vector_v = (DST(word), [value] * 16)
    write_vc(word, pending, 0xFFFF if value & 0x80 else 0, 0xFFFF if value == 0 else 0)


def vmov(state, word, pending):
    """``mov VD V1``: sf = 0, zf."""
    logic_result(word, pending, list(state.v[SRC1(word)]))


def mov_from_vc(state, word, pending):
    """``mov VD $vc``: word k of VD is ``$vc[k]`` (sign flags in bytes 4k, 4k+1, zero flags in
    4k+2, 4k+3); no flags."""
    result = []
    for k in range(4):
        result.extend(state.vc[k].to_bytes(4, "little"))
    pending.vector_v = (DST(word), result)


def vswz(state, word, pending):
    """Swizzle: component i comes from V1 or V2 as selector byte V3[i] says — ``lo`` (bit 3 = 0):
    component = low nibble, source = bit 4; ``hi``: component = high nibble, source = bit 0."""
    v1, v2, v3 = state.v[SRC1(word)], state.v[SRC2(word)], state.v[SRC3(word)]
    high = word >> 3 & 1
    result = []
    for i in COMPONENTS:
        component, source = swizzle_source(v3[i], high)
        result.append((v2 if source else v1)[component])
    pending.vector_v = (DST(word), result)


def swizzle_source(selector: int, high: int) -> tuple[int, int]:
    """(component, source: 0 = V1, 1 = V2) a vswz selector byte names (a plain integer rule,
    which the compiled loop runs too)."""
    if high:
        return selector >> 4, selector & 1
    return selector & 0xF, selector >> 4 & 1


def vadd9(state, word, pending):
    """V1 (unsigned) + a signed 9-bit value from the 16-bit lanes of V2 (components 0–7) and
    V3 (8–15); clipped to 0..255; sf = bit 8 of the unclipped sum, zf."""
    v1, v2, v3 = state.v[SRC1(word)], state.v[SRC2(word)], state.v[SRC3(word)]
    raw = []
    for i in COMPONENTS:
        lanes, lane = (v2, i) if i < 8 else (v3, i - 8)
        raw.append(add9_raw(v1[i], lanes[2 * lane], lanes[2 * lane + 1]))
    result = [clip(value, 0, 255) for value in raw]
    pending.vector_v = (DST(word), result)
    write_vc(word, pending, flag_bits(value >> 8 & 1 for value in raw), zero_flags(result))


def vclip(state, word, pending):
    """Signed median of V1, V2, V3 (V1 clipped to [V2, V3]); sf = not (V2 < V1 < V3), zf."""
    v1, v2, v3 = state.v[SRC1(word)], state.v[SRC2(word)], state.v[SRC3(word)]
    result, signs = [], 0
    for i in COMPONENTS:
        value, outside = clip_component(v1[i], v2[i], v3[i])
        result.append(value)
        if outside:
            signs |= 1 << i
    pending.vector_v = (DST(word), result)
    write_vc(word, pending, signs, zero_flags(result))


def vminabs(state, word, pending):
    """``min(abs(V1), abs(V2))`` signed, clipped to 127; sf = 0, zf."""
    v1, v2 = state.v[SRC1(word)], state.v[SRC2(word)]
    result = [minabs_component(v1[i], v2[i]) for i in COMPONENTS]
    pending.vector_v = (DST(word), result)
    write_vc(word, pending, 0, zero_flags(result))


def vcmpad(state, word, pending):
    """Compare absolute differences: ``ad = |V1 − V[mangled SRC2]|`` with ``o = V[SRC1 | 1]``
    (unsigned); zf = (ad == o), sf = bit ``(ad < o)·2 + vcin`` of CMPOP, vcin from the s2v
    ``$vc`` selection or the word's own bits (§6.3). No ``$v`` write."""
    v1 = state.v[SRC1(word)]
    other = state.v[SRC1(word) | 1]
    v2 = state.v[mangled_index(state.c[COND(word)], SLCT(word), SRC2(word))]
    table = CMPOP(word)
    vcin = selected_mask(pending.s2v, state.vc, word)
    signs = zeros = 0
    for i in COMPONENTS:
        zero, sign = cmpad_flags(v1[i], v2[i], other[i], table, vcin >> i & 1)
        if zero:
            zeros |= 1 << i
        if sign:
            signs |= 1 << i
    write_vc(word, pending, signs, zeros)


def vnop(state, word, pending):
    """No operation; bits 0–23 ignored."""


# --- the multiply-accumulate datapath, §7.2 --------------------------------------------------

# convert, rounding_constant and read_out_byte are plain functions of integers that call no
# other function, so the compiled loop (compiled.py) runs these very rules through Numba.


def convert(value: int, signed: bool, fract: bool) -> int:
    """``in(x)``: unsigned 0..255; signed ``int`` sext8; signed ``fract`` sext8 << 1."""
    if not signed:
        return value & 0xFF
    value = ((value & 0xFF) ^ 0x80) - 0x80  # sext8
    return value << 1 if fract else value


def readout_shift(integer: bool, unsigned_out: bool, shift: int) -> int:
    if integer:
        return 16 - shift
    return (8 if unsigned_out else 9) - shift


def rounding(state, rs: int, low: bool, rnd: bool) -> int:
    """The rounding constant, with ``$uccfg`` bit 0 from ``state``."""
    return rounding_constant(rs, low, rnd, state.uc[UCCFG] & 1)


def rounding_constant(rs: int, low: bool, rnd: bool, ties_down: int) -> int:
    """``1 << (r − 1)`` with ``r = rs − 8·lo``, less ``ties_down`` (``$uccfg`` bit 0: ties
    round down); 0 without ``rn``."""
    if not rnd:
        return 0
    r = rs - (8 if low else 0)
    if r <= 0:
        return 0
    return (1 << (r - 1)) - ties_down


class Mad:
    """The settings of one pass through the datapath: ``integer`` (products << 8), output
    signedness, ``low`` byte read out, readout shift ``rs`` and rounding constant."""

    __slots__ = ("integer", "unsigned_out", "low", "rs", "rounding")

    def __init__(self, state, *, integer: bool, unsigned_out: bool, low: bool, shift: int, rnd: bool,
                 full_rounding: bool = False):
        self.integer, self.unsigned_out, self.low = integer, unsigned_out, low
        self.rs = readout_shift(integer, unsigned_out, shift)
        self.rounding = rounding(state, self.rs, low and not full_rounding, rnd)


def word_mad(state, word: int) -> Mad:
    """The settings of the ``vmul``/``vmac``/``vmad2``/``vmac2`` words: FRACTINT bit 3,
    HILO bit 4, SHIFT bits 5–7, RND bit 8, output signedness bit 28."""
    return Mad(state, integer=bool(word >> 3 & 1), unsigned_out=is_unsigned(word), low=bool(word >> 4 & 1),
               shift=SHIFT.value(SHIFT.read(word)), rnd=bool(word >> 8 & 1))


def accumulate(mad: Mad, base: list[int], products: list[int]) -> list[int]:
    """``acc = A + (products << (int ? 8 : 0)) + R`` per component, wrapped to signed 28 bits."""
    return [accumulate_one(base[i], products[i], mad.integer, mad.rounding) for i in COMPONENTS]


def accumulate_one(base: int, product: int, integer: bool, constant: int) -> int:
    """One accumulator: ``base + (product << (integer ? 8 : 0)) + constant``, signed 28 bits."""
    return sext(base + (product << (8 if integer else 0)) + constant, 28)


def read_out(mad: Mad, accumulators: list[int]) -> list[int]:
    """Shift each accumulator by ``rs − 8`` (right; left if negative), clip to u16/s16 by the
    output signedness and take the high or low byte."""
    return [read_out_byte(value, mad.rs, mad.unsigned_out, mad.low) for value in accumulators]


def read_out_byte(accumulator: int, rs: int, unsigned_out: bool, low: bool) -> int:
    """One accumulator read out: shifted by ``rs − 8``, clipped to u16/s16, high or low byte."""
    shift = rs - 8
    value = accumulator >> shift if shift >= 0 else accumulator << -shift
    bottom, top = (0, 0xFFFF) if unsigned_out else (-0x8000, 0x7FFF)
    value = bottom if value < bottom else top if value > top else value
    return value & 0xFF if low else value >> 8 & 0xFF


def register_base(mad: Mad, values: list[int]) -> list[int]:
    """An accumulator start taken from a register: ``value << rs``."""
    return [value << mad.rs for value in values]


def va_base(state) -> list[int]:
    return [sext(value, 28) for value in state.va]


def finish(state, word: int, pending, mad: Mad, base, products, *, write_va: bool, write_vd: bool) -> None:
    accumulators = accumulate(mad, base, products)
    if write_va:
        pending.vector_va = [value & VA_MASK for value in accumulators]
    if write_vd:
        pending.vector_v = (DST(word), read_out(mad, accumulators))


def sources(state, word: int, mad: Mad):
    """``in(V1)`` by SIGN1 (bit 2) and ``in(V2 or the immediate)`` by SIGN2 (bit 1)."""
    fract = not mad.integer
    sign1, sign2 = bool(word >> 2 & 1), bool(word >> 1 & 1)
    v1 = [convert(value, sign1, fract) for value in state.v[SRC1(word)]]
    if not immediate_form(word):
        second = state.v[SRC2(word)]
    elif word >> 24 == 0xB0:
        second = [BIMMBAD(word)] * 16
    else:
        second = [BIMMMUL.value(BIMMMUL.read(word))] * 16
    return v1, [convert(value, sign2, fract) for value in second]


# opcode → (A is $va, writes VD); every form writes $va.
MULTIPLY_FORMS = {0x80: (False, False), 0x81: (False, True), 0x82: (True, True), 0x83: (True, False),
                  0x91: (False, True), 0x92: (True, True), 0x93: (True, False),
                  0xA0: (False, False), 0xA1: (False, True), 0xA2: (True, True), 0xA3: (True, False),
                  0xB0: (False, False), 0xB1: (False, True), 0xB2: (True, True)}


def vmul(state, word, pending):
    """``vmul``/``vmac``: ``acc = (0 or $va) + in(V1)·in(V2 or imm)``; writes ``$va`` and, in the
    VD forms, the read-out byte (§7.2)."""
    from_va, write_vd = MULTIPLY_FORMS[word >> 24]
    mad = word_mad(state, word)
    v1, v2 = sources(state, word, mad)
    base = va_base(state) if from_va else [0] * 16
    finish(state, word, pending, mad, base, [v1[i] * v2[i] for i in COMPONENTS], write_va=True, write_vd=write_vd)


def pair_factors(pending, state, word: int) -> tuple[list[int], list[int]]:
    """Per component (f1, f2) of ``vmad2``/``vmac2`` (S2VMODE bit 0): ``mask`` — 0x100 where
    mask0 / mask1 has the bit, else 0; ``factor`` — factor[cc] and factor[2 + cc] with cc the
    component's bit of the ``$vc`` mask (§6.3)."""
    s2v = pending.s2v
    if word & 1:
        pairs = [component_factors(True, s2v.factors, s2v.masks, 0, i) for i in COMPONENTS]
        return [pair[0] for pair in pairs], [pair[1] for pair in pairs]
    return factors_by_mask(s2v.factors, selected_mask(s2v, state.vc, word))


def factors_by_mask(factors: list[int], mask: int) -> tuple[list[int], list[int]]:
    pairs = [component_factors(False, factors, (0, 0), mask, i) for i in COMPONENTS]
    return [pair[0] for pair in pairs], [pair[1] for pair in pairs]


def component_factors(mask_mode: bool, factors, masks, mask: int, i: int) -> tuple[int, int]:
    """(f1, f2) of component ``i``: in mask mode 0x100 where ``masks`` (mask0, mask1) have bit
    ``i``, else 0; otherwise factor[cc] and factor[2 + cc] with cc bit ``i`` of ``mask``."""
    if mask_mode:
        return (0x100 if masks[0] >> i & 1 else 0, 0x100 if masks[1] >> i & 1 else 0)
    bit = mask >> i & 1
    return factors[bit], factors[2 + bit]


def vmad2(state, word, pending):
    """``vmad2`` (84, 85, 95): ``acc = in(V2) << rs + V1·f1 + V[SRC1|1]·f2``; ``$va``, and VD
    for 85/95."""
    mad = word_mad(state, word)
    fract, sign1, sign2 = not mad.integer, bool(word >> 2 & 1), bool(word >> 1 & 1)
    index = SRC1(word)
    first = [convert(value, sign1, fract) for value in state.v[index]]
    second = [convert(value, sign1, fract) for value in state.v[index | 1]]
    base = register_base(mad, [convert(value, sign2, fract) for value in state.v[SRC2(word)]])
    f1, f2 = pair_factors(pending, state, word)
    products = [first[i] * f1[i] + second[i] * f2[i] for i in COMPONENTS]
    finish(state, word, pending, mad, base, products, write_va=True, write_vd=word >> 24 != 0x84)


def vmac2(state, word, pending):
    """``vmac2``: ``acc = $va + V1·f1 + W·f2`` with W = ``V[SRC1|1]`` (86, 87, 97) or V3
    (96, a6, a7; SIGN1 applies to V3 too); ``$va``, and VD for 87/97/a7."""
    opcode = word >> 24
    mad = word_mad(state, word)
    fract, sign1 = not mad.integer, bool(word >> 2 & 1)
    index = SRC1(word)
    partner = SRC3(word) if opcode in (0x96, 0xA6, 0xA7) else index | 1
    first = [convert(value, sign1, fract) for value in state.v[index]]
    second = [convert(value, sign1, fract) for value in state.v[partner]]
    f1, f2 = pair_factors(pending, state, word)
    products = [first[i] * f1[i] + second[i] * f2[i] for i in COMPONENTS]
    finish(state, word, pending, mad, va_base(state), products, write_va=True,
           write_vd=opcode in (0x87, 0x97, 0xA7))


def vlrp(state, word, pending):
    """``vlrp`` (90): ``acc = V[SRC1|1] << rs + (V1 − V[SRC1|1])·V2``, unsigned, fract, high
    byte; writes VD only."""
    mad = Mad(state, integer=False, unsigned_out=True, low=False, shift=SHIFT.value(SHIFT.read(word)),
              rnd=bool(word >> 8 & 1))
    index = SRC1(word)
    v1, partner, v2 = state.v[index], state.v[index | 1], state.v[SRC2(word)]
    products = [(v1[i] - partner[i]) * v2[i] for i in COMPONENTS]
    finish(state, word, pending, mad, register_base(mad, list(partner)), products, write_va=False, write_vd=True)


# --- the lerp family, b3–b7 ------------------------------------------------------------------

def lerp_factors(pending, state, word: int) -> tuple[list[int], list[int]]:
    """f1/f2 chosen by ``$vc[bits 0–1]``, half bit 2, transform 0 — never the s2v selection."""
    return factors_by_mask(pending.s2v.factors, vc_mask(state.vc, word & 3, word >> 2 & 1, 0))


def quad(state, word: int) -> list[list[int]]:
    """The quad at SRC1 rotated by ``$c[COND]`` bits 4–5 (§4.4)."""
    rotation = state.c[COND(word)] >> 4 & 3
    base = SRC1(word)
    return [state.v[quad_register(base, rotation, k)] for k in range(4)]


def vlrp2(state, word, pending):
    """``vlrp2`` (b3): ``acc = in(q0 ^ x) << rs + (q2 − q0)·f1 + (q3 − q0)·f2`` on fract inputs
    of signedness SIGNS (bit 9), where ``x`` = 0x80 when LRP2X (bit 10) — the xor touches only
    the start value, not the differences; high byte of signedness SIGND (bit 12); ``$va`` too
    when VAWRITE (bit 11); rounding with the full ``rs``."""
    signed_in, flip = bool(word >> 9 & 1), 0x80 if word >> 10 & 1 else 0
    mad = Mad(state, integer=False, unsigned_out=not word >> 12 & 1, low=False,
              shift=SHIFT.value(SHIFT.read(word)), rnd=bool(word >> 8 & 1), full_rounding=True)
    elements = quad(state, word)
    q0, _q1, q2, q3 = ([convert(value, signed_in, True) for value in element] for element in elements)
    start = [convert(value ^ flip, signed_in, True) for value in elements[0]]
    f1, f2 = lerp_factors(pending, state, word)
    products = [(q2[i] - q0[i]) * f1[i] + (q3[i] - q0[i]) * f2[i] for i in COMPONENTS]
    finish(state, word, pending, mad, register_base(mad, start), products, write_va=bool(word >> 11 & 1),
           write_vd=True)


def lerp_va_mad(state, word: int) -> Mad:
    return Mad(state, integer=False, unsigned_out=True, low=True, shift=SHIFT.value(SHIFT.read(word)),
               rnd=bool(word >> 8 & 1))


def vlrp4a(state, word, pending):
    """``vlrp4a`` (b4): ``acc = q0 << rs + (q2 − q0)·f1 + (q3 − q0)·f2``, unsigned, low byte;
    writes ``$va`` only."""
    mad = lerp_va_mad(state, word)
    q0, _q1, q2, q3 = quad(state, word)
    f1, f2 = lerp_factors(pending, state, word)
    products = [(q2[i] - q0[i]) * f1[i] + (q3[i] - q0[i]) * f2[i] for i in COMPONENTS]
    finish(state, word, pending, mad, register_base(mad, list(q0)), products, write_va=True, write_vd=False)


def vlrpf(state, word, pending):
    """``vlrpf`` (b5): ``acc = sext8(V2) << rs + (q2 − q3)·f1 + q3·f2``, unsigned quad, low
    byte; writes ``$va`` only."""
    mad = lerp_va_mad(state, word)
    _q0, _q1, q2, q3 = quad(state, word)
    f1, f2 = lerp_factors(pending, state, word)
    products = [(q2[i] - q3[i]) * f1[i] + q3[i] * f2[i] for i in COMPONENTS]
    base = register_base(mad, [sext8(value) for value in state.v[SRC2(word)]])
    finish(state, word, pending, mad, base, products, write_va=True, write_vd=False)


def vlrp4b(state, word, pending):
    """``vlrp4b`` (b6 ``u`` / b7 ``s``, by opcode bit 0): ``acc = $va + (s11 − s10)·f1 +
    ($vx − s10)·f2`` on unsigned inputs; s10/s11 are quad elements 0/1 for SLCT 4, else both
    ``$v[SRC1 ^ flag]``; rounding ALTRND (bit 9), shift ALTSHIFT (11–13); ``$va`` and VD (high
    byte)."""
    mad = Mad(state, integer=False, unsigned_out=not word >> 24 & 1, low=False,
              shift=ALTSHIFT.value(ALTSHIFT.read(word)), rnd=bool(word >> 9 & 1))
    slct = SLCT(word)
    if slct == 4:
        s10, s11 = quad(state, word)[:2]
    else:
        s10 = s11 = state.v[SRC1(word) ^ (state.c[COND(word)] >> slct & 1)]
    vx = state.vx
    f1, f2 = lerp_factors(pending, state, word)
    products = [(s11[i] - s10[i]) * f1[i] + (vx[i] - s10[i]) * f2[i] for i in COMPONENTS]
    finish(state, word, pending, mad, va_base(state), products, write_va=True, write_vd=True)


def _table():
    table = {}
    for opcode in MULTIPLY_FORMS:
        table[opcode] = vmul
    for opcode in (0x84, 0x85, 0x95):
        table[opcode] = vmad2
    for opcode in (0x86, 0x87, 0x96, 0x97, 0xA6, 0xA7):
        table[opcode] = vmac2
    for base in (0x88, 0x98):
        table[base], table[base + 1], table[base + 2] = vmin, vmax, vabs
        table[base + 4], table[base + 5], table[base + 6] = vadd, vsub, vshr
    table[0x8B], table[0x9B] = vneg, vswz
    table[0x8F], table[0x90], table[0x94], table[0x9F] = vcmpad, vlrp, vbitop, vadd9
    table[0xA4], table[0xA5] = vclip, vminabs
    table[0xA8], table[0xA9], table[0xB8], table[0xB9] = vmin, vmax, vmin, vmax
    table[0xAA], table[0xAB], table[0xAF] = vand, vxor, vor
    table[0xAC], table[0xBC], table[0xBD] = vadd, vadd, vsub
    table[0xAE], table[0xBE] = vshr, vshr
    table[0xAD], table[0xBA], table[0xBB], table[0xBF] = vmov_imm, vmov, mov_from_vc, vnop
    table[0xB3], table[0xB4], table[0xB5], table[0xB6], table[0xB7] = vlrp2, vlrp4a, vlrpf, vlrp4b, vlrp4b
    missing = [hex(opcode) for opcode in range(0x80, 0xC0) if opcode not in table]
    assert not missing, missing
    return tuple(table[opcode] for opcode in range(0x80, 0xC0))


VECTOR_OPS = _table()  # indexed by opcode - 0x80
