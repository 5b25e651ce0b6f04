"""What every VP1 scalar opcode (0x00–0x7f) does: one function per mnemonic (spec §5, §6.1).

Each function is ``op(state, word, pending)``: it reads the registers as they were before the
bundle from ``state`` (:class:`~.state.Vp1State`), records its writes in ``pending``
(:class:`~.state.Pending`) and always sets ``pending.s2v``, the factors and ``$vc`` selection
it hands the vector unit of the same bundle (§6: every scalar op drives the s2v path).
``SCALAR_OPS[opcode]`` is the function for an opcode byte; opcode pairs that differ in bit 28
(``s``/``u``) share a function, which reads the bit.

The byte-wise arithmetic, the flag computation (§3.3) and ``bitop`` (§4.2) are here too, as the
address and vector units share them.
"""

from __future__ import annotations

from .fields import FIELDS
from .s2v import S2v, default_factors, sext
from .state import NotModelled, mangled_index

DST = FIELDS["dst"].read
SRC1 = FIELDS["src1"].read
SRC2 = FIELDS["src2"].read
CDST = FIELDS["cdst"].read
COND = FIELDS["cond"].read
SLCT = FIELDS["slct"].read
BIMM = FIELDS["bimm"].read
BIMMBAD = FIELDS["bimmbad"].read
RFILE = FIELDS["rfile"].read
IMM16 = FIELDS["imm16"].read
VCIDX = FIELDS["vcidx"].read
VCFLAG = FIELDS["vcflag"].read
VCXFRM = FIELDS["vcxfrm"].read
BITOP = FIELDS["bitop"].read
FACTOR1 = FIELDS["factor1"]
FACTOR2 = FIELDS["factor2"]
IMM = FIELDS["imm"]
IMM19 = FIELDS["imm19"]
BIMMMUL = FIELDS["bimmmul"]

MASK32 = 0xFFFFFFFF
SCALAR_FLAGS = 0xFF  # the bits of a $c register the scalar unit owns


# --- shared helpers -------------------------------------------------------------------------

def is_unsigned(word: int) -> bool:
    """Bit 28 (opcode bit 4): 0 → ``s``, 1 → ``u``."""
    return bool(word >> 28 & 1)


def bitop(table: int, a: int, b: int, width: int = 32) -> int:
    """Each result bit is bit ``(b_bit << 1) | a_bit`` of the 4-bit ``table`` (§4.2)."""
    result = 0
    if table & 1:
        result |= ~a & ~b
    if table & 2:
        result |= a & ~b
    if table & 4:
        result |= ~a & b
    if table & 8:
        result |= a & b
    return result & ((1 << width) - 1)


def full_flags(result: int, source1: int, g80: bool) -> int:
    """The scalar flags of an arithmetic result (§3.3); ``source1`` is the raw source 1."""
    flags = (result >> 31 & 1) | ((result == 0) << 1) | ((result >> 19 & 1) << 2) \
        | (((result ^ source1) >> 20 & 1) << 3) | ((result >> 20 & 1) << 4) | ((result >> 21 & 1) << 5)
    if g80:
        flags |= ((result >> 19 & 1) << 6) | ((result >> 18 & 1) << 7)
    return flags


def partial_flags(result: int, g80: bool) -> int:
    """Flags of a logic result: the full flags without bits 0 (sign) and 3 (bit 20 changed)."""
    return full_flags(result, result, g80) & ~0x09


def write_flags(word: int, pending, flags: int) -> None:
    """``[c]``: the scalar bits of ``$c[bits 0–1]`` take ``flags`` iff bit 2 is 0."""
    cdst = CDST(word)
    if not cdst & 4:
        pending.scalar_c = (cdst & 3, SCALAR_FLAGS, flags)


def mangled_source2(state, word: int) -> int:
    """The value of the mangled ``$r`` source 2 (§4.3)."""
    return state.r[mangled_index(state.c[COND(word)], SLCT(word), SRC2(word))]


def set_r(pending, index: int, value: int) -> None:
    pending.scalar_r = (index, value & MASK32)


def byte(value: int, i: int) -> int:
    return value >> (8 * i) & 0xFF


def from_bytes(values) -> int:
    result = 0
    for i, value in enumerate(values):
        result |= (value & 0xFF) << (8 * i)
    return result


def replicate(value: int) -> int:
    return (value & 0xFF) * 0x01010101


def sext8(value: int) -> int:
    value &= 0xFF
    return value - 0x100 if value & 0x80 else value


def clip(value: int, low: int, high: int) -> int:
    return low if value < low else high if value > high else value


def no_factors(pending) -> None:
    pending.s2v = S2v()


def plain_factors(state, word: int, pending) -> None:
    """The default s2v factors of §6.1, from ``$r[SRC1]``."""
    pending.s2v = S2v(default_factors(state.r[SRC1(word)]))


# --- byte (SIMD ×4) operations, §5.1 ---------------------------------------------------------

def byte_operand2(state, word: int) -> int:
    """Source 2 of a byte op: BIMM replicated for the immediate forms (opcode bit 5), else the
    mangled ``$r``."""
    if word >> 29 & 1:
        return replicate(BIMM(word))
    return mangled_source2(state, word)


def byte_op(state, word: int, pending, kind: int) -> None:
    """Apply byte rule ``kind`` (:func:`byte_lane`) to the four byte pairs. ``[c]`` is written
    as 0 (§5.1)."""
    result = byte_lanes(kind, state.r[SRC1(word)], byte_operand2(state, word), not is_unsigned(word))
    set_r(pending, DST(word), result)
    write_flags(word, pending, 0)
    no_factors(pending)


# byte_lanes, byte_lane, the 32-bit value rules and shift32 are plain functions of integers, so
# the compiled loop (compiled_scalar.py) runs these very rules through Numba.

BYTE_MIN, BYTE_MAX, BYTE_ABS, BYTE_NEG, BYTE_ADD, BYTE_SUB, BYTE_SHIFT = range(7)


def byte_lanes(kind: int, s1: int, s2: int, signed: bool) -> int:
    """Byte rule ``kind`` on the four byte pairs of ``s1``, ``s2`` (sext8 each when ``signed``)."""
    result = 0
    for i in range(4):
        a, b = byte(s1, i), byte(s2, i)
        if signed:
            a, b = sext8(a), sext8(b)
        result |= (byte_lane(kind, a, b, signed) & 0xFF) << (8 * i)
    return result


def byte_lane(kind: int, a: int, b: int, signed: bool) -> int:
    """One byte of a byte op: min, max (not clipped: they stay in range), abs, neg, add, sub
    clipped to the signedness's range; shift (:func:`shift_byte`) not clipped."""
    if kind == BYTE_MIN:
        return min(a, b)
    if kind == BYTE_MAX:
        return max(a, b)
    if kind == BYTE_SHIFT:
        return shift_byte(a, b)
    if kind == BYTE_ABS:
        value = abs(a)
    elif kind == BYTE_NEG:
        value = -a
    elif kind == BYTE_ADD:
        value = a + b
    else:
        value = a - b
    return clip_byte(value, signed)


def clip_byte(value: int, signed: bool) -> int:
    return clip(value, -128, 127) if signed else clip(value, 0, 255)


def bmin(state, word, pending):
    """Per-byte minimum."""
    byte_op(state, word, pending, BYTE_MIN)


def bmax(state, word, pending):
    """Per-byte maximum."""
    byte_op(state, word, pending, BYTE_MAX)


def babs(state, word, pending):
    """Per-byte absolute value of source 1, clipped."""
    byte_op(state, word, pending, BYTE_ABS)


def bneg(state, word, pending):
    """Per-byte negation of source 1, clipped."""
    byte_op(state, word, pending, BYTE_NEG)


def badd(state, word, pending):
    """Per-byte add, clipped."""
    byte_op(state, word, pending, BYTE_ADD)


def bsub(state, word, pending):
    """Per-byte subtract, clipped."""
    byte_op(state, word, pending, BYTE_SUB)


def shift_byte(value: int, amount: int) -> int:
    """Shift by ``sext4(amount)``: right when positive (arithmetic for a signed ``value``), left
    when negative; not clipped."""
    count = sext(amount, 4)
    return value >> count if count >= 0 else value << -count


def bshr(state, word, pending):
    """Per-byte shift by sext4 of the source-2 byte (negative = left), arithmetic for ``s``
    (the documentation's ``bsar``), logical for ``u``; not clipped."""
    byte_op(state, word, pending, BYTE_SHIFT)


def byte_logic(state, word, pending, kind: int) -> None:
    """``band``/``bor``/``bxor`` with BIMM: envydis shows no ``$c`` operand, yet bits 0–2 < 4
    clear the scalar flags of ``$c[bits 0–1]`` (§5.1, §12.6)."""
    set_r(pending, DST(word), logic_value(kind, state.r[SRC1(word)], replicate(BIMM(word))))
    write_flags(word, pending, 0)
    no_factors(pending)


LOGIC_AND, LOGIC_OR, LOGIC_XOR = range(3)


def logic_value(kind: int, a: int, b: int) -> int:
    """``a`` and / or / xor ``b``, 32 bits."""
    if kind == LOGIC_AND:
        return a & b & MASK32
    if kind == LOGIC_OR:
        return (a | b) & MASK32
    return (a ^ b) & MASK32


def band(state, word, pending):
    """Per-byte and with BIMM."""
    byte_logic(state, word, pending, LOGIC_AND)


def bor(state, word, pending):
    """Per-byte or with BIMM."""
    byte_logic(state, word, pending, LOGIC_OR)


def bxor(state, word, pending):
    """Per-byte xor with BIMM."""
    byte_logic(state, word, pending, LOGIC_XOR)


# --- the byte multiply datapath, §5.1, §5.5, §6.1 --------------------------------------------

def multiply_input(value: int, signed: bool) -> int:
    """A bmul input as a 0.8 fixed-point number: unsigned as is, signed ``sext8 << 1``."""
    return sext8(value) << 1 if signed else value & 0xFF


# byte_product … unsigned_product_factors are plain functions of integers (and tuples), so the
# compiled loop (compiled_s2v.py) runs these very rules through Numba.

def byte_product(s1: int, s2: int, i: int, sign1: bool, sign2: bool, constant: int) -> int:
    return multiply_input(byte(s1, i), sign1) * multiply_input(byte(s2, i), sign2) + constant


def byte_products(s1: int, s2: int, sign1: bool, sign2: bool, signed_result: bool, rounding: bool):
    """The four 16-fraction-bit byte products, with the rounding constant already added
    (0x80 for an unsigned result, 0x100 for a signed one)."""
    constant = (0x100 if signed_result else 0x80) if rounding else 0
    return (byte_product(s1, s2, 0, sign1, sign2, constant), byte_product(s1, s2, 1, sign1, sign2, constant),
            byte_product(s1, s2, 2, sign1, sign2, constant), byte_product(s1, s2, 3, sign1, sign2, constant))


def product_factors(word: int, products) -> tuple[int, int, int, int]:
    """The s2v factors of the bmul datapath: ``sext10(product >> 8)`` when opcode bit 1 is
    clear, ``sext10(product)`` when it is set (§6.1)."""
    if word >> 25 & 1:
        return (sext(products[0], 10), sext(products[1], 10), sext(products[2], 10), sext(products[3], 10))
    return (sext(products[0] >> 8, 10), sext(products[1] >> 8, 10), sext(products[2] >> 8, 10),
            sext(products[3] >> 8, 10))


def bmul_result(products, signed_result: bool) -> int:
    result = 0
    for i in range(4):
        if signed_result:
            value = clip(products[i] >> 9, -128, 127)
        else:
            value = clip(products[i] >> 8, 0, 255)
        result |= (value & 0xFF) << (8 * i)
    return result


def bmul_rounds(word: int) -> bool:
    """Whether a bmul-datapath word rounds: ``rn`` (bit 8) for bmul/bmula; for the factors-only
    forms only the x3 ones (§5.5)."""
    if word >> 24 & 3 in (1, 2):
        return bool(word >> 8 & 1)
    return bool(word >> 24 & 3 == 3 and word >> 8 & 1)


def bmul_immediate(word: int) -> int:
    """Source 2 of a bmul-family immediate form (opcode bit 5): BIMMMUL (×4) for 21/31, bits 0–7
    for the others, replicated to the four bytes (a function of the word alone)."""
    if word >> 24 & 0xF == 1:
        return replicate(BIMMMUL.value(BIMMMUL.read(word)))
    return replicate(BIMMBAD(word))


def bmul_operands(state, word: int) -> tuple[int, int]:
    """Source 1 and source 2 of the bmul family: ``$r[SRC2]`` unmangled (register forms,
    opcode bit 5 clear), else :func:`bmul_immediate`."""
    s1 = state.r[SRC1(word)]
    if not word >> 24 & 0x20:
        return s1, state.r[SRC2(word)]
    return s1, bmul_immediate(word)


def bmul_datapath(state, word: int, rounding: bool):
    s1, s2 = bmul_operands(state, word)
    sign1, sign2 = bool(word >> 2 & 1), bool(word >> 1 & 1)
    return byte_products(s1, s2, sign1, sign2, not is_unsigned(word), rounding)


def bmul(state, word, pending):
    """Per-byte fractional multiply (0.8 fixed point; signed inputs ``sext8 << 1``), rounded
    when ``rn`` (bit 8), then ``>> 8`` clipped to 0..255 (``u``) or ``>> 9`` clipped to
    −128..127 (``s``). No ``$c``. Also 02/12/22/32 ``bmula``, whose factors differ (bit 1)."""
    products = bmul_datapath(state, word, bmul_rounds(word))
    set_r(pending, DST(word), bmul_result(products, not is_unsigned(word)))
    pending.s2v = S2v(product_factors(word, products))


def bmul_factors_only(state, word, pending):
    """00/10/20/30 and 03/13/23/33 (no envydis mnemonic): the bmul datapath driving only the s2v
    factors; the x3 forms round when bit 8 is set (§5.5). No ``$r``, no ``$c``."""
    pending.s2v = S2v(product_factors(word, bmul_datapath(state, word, bmul_rounds(word))))


def unsigned_product_immediate(word: int) -> int:
    """Source 2 of the immediate unsigned-product forms: BIMM for 2f 3f, bits 0–7 for 34–37,
    replicated (a function of the word alone)."""
    if word >> 24 in (0x2F, 0x3F):
        return replicate(BIMM(word))
    return replicate(BIMMBAD(word))


def unsigned_product_operand2(state, word: int) -> int:
    opcode = word >> 24
    if opcode == 0x1F:
        return mangled_source2(state, word)
    if opcode & 0x20:
        return unsigned_product_immediate(word)
    return state.r[SRC2(word)]


def unsigned_product_factors(s1: int, s2: int) -> tuple[int, int, int, int]:
    return (sext(byte(s1, 0) * byte(s2, 0), 10), sext(byte(s1, 1) * byte(s2, 1), 10),
            sext(byte(s1, 2) * byte(s2, 2), 10), sext(byte(s1, 3) * byte(s2, 3), 10))


def unsigned_products(state, word, pending):
    """06 07 14–17 (register), 34–37 (bits 0–7) and 1f (mangled), 2f 3f (BIMM), no mnemonic:
    unsigned byte products, unrounded, as the s2v factors ``sext10(product)``; no ``$r``.
    1f/2f/3f also clear the scalar flags of ``$c[bits 0–1]`` (§5.5)."""
    s1, s2 = state.r[SRC1(word)], unsigned_product_operand2(state, word)
    pending.s2v = S2v(unsigned_product_factors(s1, s2))
    if word >> 24 & 0xF == 0xF:
        write_flags(word, pending, 0)


# --- s2v emitters, §5.3, §6.2 ----------------------------------------------------------------

def emitted(word: int, factors) -> S2v:
    return S2v(factors, True, VCIDX(word), VCFLAG(word), VCXFRM(word))


def bvec(state, word, pending):
    """Emit factor i = ``sext8(byte i of S1) << 1`` and the ``$vc`` selection."""
    pending.s2v = emitted(word, bvec_factors(state.r[SRC1(word)]))


def bvec_factors(s1: int) -> tuple[int, int, int, int]:
    return (sext8(byte(s1, 0)) << 1, sext8(byte(s1, 1)) << 1, sext8(byte(s1, 2)) << 1, sext8(byte(s1, 3)) << 1)


def vec(state, word, pending):
    """Emit factors 0, 1 = FACTOR1 and 2, 3 = FACTOR2 and the ``$vc`` selection."""
    first, second = FACTOR1.value(FACTOR1.read(word)), FACTOR2.value(FACTOR2.read(word))
    pending.s2v = emitted(word, [first, first, second, second])


def vecms(state, word, pending):
    """``$r[SRC1] >>= 4`` (arithmetic); the four bits shifted out make the default factors
    (§6.1) and the ``$vc`` selection is emitted. No ``$c``."""
    index = SRC1(word)
    s1 = state.r[index]
    set_r(pending, index, sext(s1, 32) >> 4)
    pending.s2v = emitted(word, default_factors(s1))


def bilinear_registers(state, word: int) -> tuple[int, int]:
    """The ``$r`` pair A, B of ``bvecmad``/``bvecmadsel``: ``SRC2 | u`` and ``SRC2 | 2 | u`` with
    u the ``$c[COND]`` flag SLCT (two bits for SLCT 4). B is read through the third ``$r``
    read port, which an address-unit scalar store in the same bundle then also reads (§2.4)."""
    return bilinear_pair(state.c[COND(word)], SLCT(word), SRC2(word))


def bilinear_pair(c: int, slct: int, base: int) -> tuple[int, int]:
    pick = (c >> 4) & 3 if slct == 4 else (c >> slct) & 1
    return base | pick, base | 2 | pick


def bilinear_factors(state, word: int, select: bool) -> list[int]:
    """§6.2: factor i = ``(sext8(A_i)·256 + pre·sext8(B_i) + 0x40) >> 7`` with A, B a pair of the
    quad at SRC2 chosen by the ``$c[COND]`` flag SLCT (two bits for SLCT 4)."""
    first_index, second_index = bilinear_registers(state, word)
    return bilinear_values(state.r[first_index], state.r[second_index], state.r[SRC1(word)], select,
                           SLCT(word), state.c[COND(word)])


def bilinear_factor(first: int, second: int, pre: int, i: int) -> int:
    return (sext8(byte(first, i)) * 256 + pre * sext8(byte(second, i)) + 0x40) >> 7


def bilinear_values(first: int, second: int, s1: int, select: bool, slct: int, c: int):
    """:func:`bilinear_factors` from the register values (``first``/``second`` the pair,
    ``s1`` = ``$r[SRC1]``, ``c`` = ``$c[COND]``)."""
    pre = (s1 >> 11) & (0x7F if select else 0xFF)
    f0, f1 = bilinear_factor(first, second, pre, 0), bilinear_factor(first, second, pre, 1)
    f2, f3 = bilinear_factor(first, second, pre, 2), bilinear_factor(first, second, pre, 3)
    if select:
        if slct == 2 and c >> 7 & 1:
            return (f1, f1, f3, f3)
        return (f0, f0, f2, f2)
    return (f0, f1, f2, f3)


def bvecmad(state, word, pending):
    """Emit bilinear interpolation factors (§6.2) and the ``$vc`` selection."""
    pending.s2v = emitted(word, bilinear_factors(state, word, False))


def bvecmadsel(state, word, pending):
    """Emit bilinear factors with selection (§6.2) and the ``$vc`` selection."""
    pending.s2v = emitted(word, bilinear_factors(state, word, True))


# --- 32-bit operations, §5.2 -----------------------------------------------------------------

def operand2(state, word: int) -> int:
    """Source 2 of a 32-bit op: the sign-extended IMM for the immediate forms (opcode bit 5),
    else the mangled ``$r``."""
    if word >> 29 & 1:
        return IMM.value(IMM.read(word)) & MASK32
    return mangled_source2(state, word)


def arithmetic(state, word, pending, kind: int) -> None:
    """A 32-bit op with full flags: :func:`arithmetic_value` of ``kind`` gives the result."""
    s1 = state.r[SRC1(word)]
    result, flags = arithmetic_value(kind, s1, operand2(state, word), not is_unsigned(word), state.g80)
    set_r(pending, DST(word), result)
    write_flags(word, pending, flags)
    plain_factors(state, word, pending)


ARITH_MUL, ARITH_MIN, ARITH_MAX, ARITH_ABS, ARITH_NEG, ARITH_ADD, ARITH_SUB, ARITH_SHIFT = range(8)


def arithmetic_value(kind: int, a: int, b: int, arithmetic_shift: bool, g80: bool) -> tuple[int, int]:
    """(result, full flags) of 32-bit op ``kind`` on S1 = ``a``, S2 = ``b``; the flags compare
    bit 20 against S1, for ``neg`` against 0 (§12.3)."""
    flags_source = a
    if kind == ARITH_MUL:
        result = sext(a, 16) * sext(b, 16)
    elif kind == ARITH_MIN:
        result = min(sext(a, 32), sext(b, 32))
    elif kind == ARITH_MAX:
        result = max(sext(a, 32), sext(b, 32))
    elif kind == ARITH_ABS:
        result = abs(sext(a, 32))
    elif kind == ARITH_NEG:
        result, flags_source = -a, 0
    elif kind == ARITH_ADD:
        result = a + b
    elif kind == ARITH_SUB:
        result = a - b
    else:
        result = shift32(a, b, arithmetic_shift)
    result &= MASK32
    return result, full_flags(result, flags_source, g80)


def mul(state, word, pending):
    """``sext16(S1) · sext16(S2)``, low 32 bits; full flags."""
    arithmetic(state, word, pending, ARITH_MUL)


def smin(state, word, pending):
    """Signed 32-bit minimum; full flags."""
    arithmetic(state, word, pending, ARITH_MIN)


def smax(state, word, pending):
    """Signed 32-bit maximum; full flags."""
    arithmetic(state, word, pending, ARITH_MAX)


def sabs(state, word, pending):
    """Absolute value; full flags."""
    arithmetic(state, word, pending, ARITH_ABS)


def neg(state, word, pending):
    """``-S1``; full flags, but flag 3 (bit 20 changed) compares against 0, not S1 (§12.3)."""
    arithmetic(state, word, pending, ARITH_NEG)


def add(state, word, pending):
    """32-bit add; full flags."""
    arithmetic(state, word, pending, ARITH_ADD)


def sub(state, word, pending):
    """32-bit subtract; full flags."""
    arithmetic(state, word, pending, ARITH_SUB)


def shift32(value: int, amount: int, arithmetic_shift: bool) -> int:
    """Shift by ``sext6(amount)``: right when ≥ 0, left by −count when < 0; −32 leaves it."""
    count = sext(amount, 6)
    if count == -32:
        return value
    if count < 0:
        return value << -count
    return (sext(value, 32) if arithmetic_shift else value) >> count


def shift(state, word, pending):
    """``sar`` (bit 28 = 0, arithmetic) / ``shr`` (bit 28 = 1, logical) by sext6 of source 2
    (negative = left); full flags."""
    arithmetic(state, word, pending, ARITH_SHIFT)


def logic(state, word, pending, result: int) -> None:
    set_r(pending, DST(word), result)
    write_flags(word, pending, partial_flags(result & MASK32, state.g80))
    plain_factors(state, word, pending)


def scalar_bitop(state, word, pending):
    """``bitop(BITOP, S2, S1)`` with S2 not mangled (and its aliases); partial flags."""
    logic(state, word, pending, bitop(BITOP(word), state.r[SRC2(word)], state.r[SRC1(word)]))


def and_imm(state, word, pending):
    """S1 and the sign-extended IMM; partial flags."""
    logic(state, word, pending, logic_value(LOGIC_AND, state.r[SRC1(word)], IMM.value(IMM.read(word))))


def xor_imm(state, word, pending):
    """S1 xor the sign-extended IMM; partial flags."""
    logic(state, word, pending, logic_value(LOGIC_XOR, state.r[SRC1(word)], IMM.value(IMM.read(word))))


def or_imm(state, word, pending):
    """S1 or the sign-extended IMM; partial flags."""
    logic(state, word, pending, logic_value(LOGIC_OR, state.r[SRC1(word)], IMM.value(IMM.read(word))))


def mov_imm(state, word, pending):
    """``D = sext19(IMM19)``; no flags."""
    set_r(pending, DST(word), IMM19.value(IMM19.read(word)))
    plain_factors(state, word, pending)


def sethi(state, word, pending):
    """``D = (D & 0xffff) | IMM16 << 16``; no flags. It reads ``$r[DST]``, which is also the
    source of its default factors (§6.1)."""
    index = DST(word)
    value = state.r[index]
    set_r(pending, index, (value & 0xFFFF) | IMM16(word) << 16)
    pending.s2v = S2v(default_factors(value))


def snop(state, word, pending):
    """No operation; bits 0–23 ignored, no ``$c`` write."""
    plain_factors(state, word, pending)


def clearing_nop(state, word, pending):
    """Opcodes envydis does not decode that do nothing but clear the scalar flags of
    ``$c[bits 0–1]`` when bit 2 is 0 (§5.5)."""
    write_flags(word, pending, 0)
    plain_factors(state, word, pending)


# --- moves to and from other register files, §5.4 --------------------------------------------

def m_index(word: int, field: int) -> int:
    """``$m`` index: the 5-bit register field, with bit 3 (RFILE 20 / 21) as bit 5."""
    return field | (word >> 3 & 1) << 5


def refuse_unmodelled_file(state, word: int) -> None:
    """The FIFO (``$f``, file 23) and, before G80, files 4–7 have no model (§13)."""
    rfile = RFILE(word)
    if rfile == 23:
        raise NotModelled(word, "the FIFO register file $f")
    if 4 <= rfile < 8 and not state.g80:
        raise NotModelled(word, f"mov with register file field {rfile} on {state.chip}")


def mov_to_file(state, word, pending):
    """``mov <X> S1`` (0x6a): write another register file from ``$r[SRC1]`` (or from the ``$r``
    an address-unit scalar store names, which shares the read port, §2.4). Bits 0–2 < 4 clear
    the scalar flags of ``$c[bits 0–1]``, whatever the file."""
    refuse_unmodelled_file(state, word)
    source = SRC1(word) if pending.port_r_move is None else pending.port_r_move
    value = state.r[source]
    rfile, dst = RFILE(word), DST(word)
    if rfile < 4:
        pending.scalar_v_word = (dst, rfile, value)
    elif rfile == 18:  # an alias of $v word 2, write only
        pending.scalar_v_word = (dst, 2, value)
    elif rfile == 8:
        pending.scalar_other = ("sr", dst, value)
    elif rfile == 9:
        pending.scalar_other = ("mi", dst, value)
    elif rfile == 10:
        pending.scalar_other = ("uc", dst, value)
    elif rfile == 11:
        if dst < 4:
            pending.scalar_l = (dst, value & 0xFFFF)
    elif rfile == 12:
        pending.scalar_a = (dst, value)
    elif rfile in (20, 21):
        pending.scalar_other = ("m", m_index(word, dst), value)
    elif rfile == 22 and state.g80:
        pending.scalar_other = ("d", dst & 7, value & 0x1FFFF)
    elif rfile == 24 and state.g80:
        pending.scalar_other = ("x", dst & 15, value)
    write_flags(word, pending, 0)
    plain_factors(state, word, pending)


def mov_from_file(state, word, pending):
    """``mov D <X>`` (0x6b): read another register file into ``$r[DST]``. A move from ``$v``,
    ``$a``, ``$c`` or ``$l`` loses a write conflict to an address-unit load (§2.3); from
    ``$l`` in the same bundle as ``exit`` it writes nothing (§2.4). Bits 0–2 < 4 clear the
    scalar flags of ``$c[bits 0–1]``."""
    refuse_unmodelled_file(state, word)
    rfile, src = RFILE(word), SRC1(word)
    low_priority = None
    result = None
    if rfile < 4:
        low_priority = int.from_bytes(bytes(state.v[src][4 * rfile:4 * rfile + 4]), "little")
    elif rfile == 8:
        result = state.sr[src]
    elif rfile == 9:
        result = state.mi[src]
    elif rfile == 10:
        result = state.uc[src]
    elif rfile == 11:
        if not pending.exit_in_bundle:
            low_priority = state.l[src & 3]
    elif rfile == 12:
        low_priority = state.a[src]
    elif rfile == 13:
        low_priority = state.c[src] if src < 4 else 0
    elif rfile in (20, 21):
        result = state.m[m_index(word, src)]
    elif rfile == 22 and state.g80:
        result = state.d[src & 7]
    elif rfile == 24 and state.g80:
        result = state.x[src & 15]
    if result is not None:
        set_r(pending, DST(word), result)
    elif low_priority is not None:
        pending.scalar_r_move = (DST(word), low_priority)
    write_flags(word, pending, 0)
    plain_factors(state, word, pending)


# --- the opcode table ------------------------------------------------------------------------

def _table():
    table = [clearing_nop] * 0x80
    for opcode in (0x00, 0x10, 0x20, 0x30, 0x03, 0x13, 0x23, 0x33):
        table[opcode] = bmul_factors_only
    for opcode in (0x01, 0x11, 0x21, 0x31, 0x02, 0x12, 0x22, 0x32):
        table[opcode] = bmul
    for opcode in (0x06, 0x07, 0x14, 0x15, 0x16, 0x17, 0x34, 0x35, 0x36, 0x37, 0x1F, 0x2F, 0x3F):
        table[opcode] = unsigned_products
    for base in (0x08, 0x18, 0x28, 0x38):
        for offset, function in enumerate((bmin, bmax, babs, bneg, badd, bsub, bshr)):
            table[base + offset] = function
    table[0x04], table[0x05], table[0x0F], table[0x24], table[0x45] = bvecmad, bvecmadsel, bvec, vec, vecms
    table[0x25], table[0x26], table[0x27] = band, bor, bxor
    for opcode in (0x41, 0x51, 0x61, 0x71):
        table[opcode] = mul
    for opcode in (0x48, 0x58, 0x68, 0x78):
        table[opcode] = smin
    for opcode in (0x49, 0x59, 0x69, 0x79):
        table[opcode] = smax
    for opcode in (0x4A, 0x5A, 0x7A):
        table[opcode] = sabs
    for opcode in (0x4B, 0x5B, 0x7B):
        table[opcode] = neg
    for opcode in (0x4C, 0x5C, 0x6C, 0x7C):
        table[opcode] = add
    for opcode in (0x4D, 0x5D, 0x6D, 0x7D):
        table[opcode] = sub
    for opcode in (0x4E, 0x5E, 0x6E, 0x7E):
        table[opcode] = shift
    table[0x42] = scalar_bitop
    table[0x62], table[0x63], table[0x64] = and_imm, xor_imm, or_imm
    table[0x65], table[0x75], table[0x4F] = mov_imm, sethi, snop
    table[0x6A], table[0x6B] = mov_to_file, mov_from_file
    return tuple(table)


SCALAR_OPS = _table()
