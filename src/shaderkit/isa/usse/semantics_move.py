"""USSE data movement semantics (spec/usse.md §5, §5.1): VMOV (unconditional), VMOVC and VMOVCU8
(conditional moves), VPCK (pack/unpack/convert between U8, S8, O8, U16, S16, F16 and F32) and
LIMM (32-bit immediate).

Choices where the spec says "unknown" or gives only Vita3K's model:

* VMOV with an integer data type (i8, i16, i32) moves the whole 32-bit register ``n`` (channel x
  only, no swizzle, as Vita3K); VMOVC compares it as a signed integer of the data type's width
  (low bits). C10 moves and ``move_type`` 3 are not modelled. Repeats follow
  :func:`~.operands.repeat_operand` (float types double the storage step; SMLSI roles dest,
  src0, src1, src2). For an unconditional move ``w1[18]`` is the ``end`` flag (the program ends
  after the move); for a conditional move it is source 0's bank extension.
* VMOVCU8 compares source 0's register ``n`` as four U8 channels (byte c is channel c), after
  source 0's swizzle when ``src0_comp_sel`` is set.
* VPCK conversions: ``scale`` maps U8 0..255 to 0..1, S8 -127..127 to -1..1 (-128 reads -1),
  O8 (offset 128) like S8 after subtracting 128, U16 0..65535 and S16 -32767..32767 likewise;
  a float written to an integer format is rounded to nearest (after scaling) and clamped to the
  format's range, NaN gives 0. Without ``scale`` integers are converted as plain numbers.
  Integer-format channel routing follows §5.1 (Vita3K's rule; not confirmed by the VST results).
  U16/S16 data packs two channels per register like F16. C10 formats and repeats are not
  modelled.
* The ``end`` flag of VPCK and LIMM ends the program after the instruction.
"""

from __future__ import annotations

import numpy as np

from .operands import (
    NotModelled, Immediate, dest_operand, repeat_operand, mask_channels, predicate_reader, write_lanes, read_channels,
    register_operand, src0_operand, src12_operand, swizzle_indices, vector_write_mask, write_channels,
)
from .semantics_control import with_end
from .semantics_vector import sequence
from .tables import PREDICATES_EXTENDED, SRC12_BANKS, VEC4_STD

FLOAT_TYPES = {4: True, 5: False}  # move_data_type -> F16?
INT_WIDTHS = {0: 8, 1: 16, 2: 32}
COMPARE = (np.equal, np.not_equal, np.less, np.less_equal)


def _signed(bits, width):
    bits = np.asarray(bits, np.uint32) & np.uint32((1 << width) - 1 if width < 32 else 0xFFFFFFFF)
    if width == 32:
        return bits.view(np.int32)
    value = bits.astype(np.int64)
    return np.where(value >= 1 << (width - 1), value - (1 << width), value)


def vmov_operands(f, ctx):
    """VMOV's fields decoded (the emulator's and the GLSL's): float or integer data, F16, and per
    repeat iteration (lazily, as the iterations are built) the operands (dest, src0, src1, src2;
    src0 and src2 None for an unconditional move)."""
    move_type, data_type = f["move_type"], f["move_data_type"]
    if move_type == 3:
        raise NotModelled("VMOV move_type 3")
    if data_type == 3 or data_type > 5:
        raise NotModelled(f"VMOV data type {data_type}")
    is_float = data_type in FLOAT_TYPES
    f16 = FLOAT_TYPES.get(data_type, False)
    kw = dict(doubled=is_float, bits=7 if is_float else 6, secondary=ctx.secondary)
    dest = dest_operand(f["dest_bank_sel"], f["dest_bank_ext"], f["dest_n"], **kw)
    s1 = src12_operand(f["src1_bank_sel"], f["src1_bank_ext"], f["src1_n"], **kw)
    s0 = s2 = None
    if move_type:
        s0 = src0_operand(f["src0_bank_sel"], f["end_or_src0_bank_ext"], f["src0_n"], **kw)
        s2 = src12_operand(f["src2_bank_sel"], f["src2_bank_ext"], f["src2_n"], **kw)
    iterations = ([None if operand is None else repeat_operand(operand, ctx.moe, role, k, is_float)
                   for role, operand in enumerate((dest, s0, s1, s2))] for k in range(f["repeat_count"] + 1))
    return is_float, f16, iterations


def vmov_end(f) -> bool:
    """An unconditional move's ``w1[18]`` is the end flag (a conditional one's src0 bank extension)."""
    return f["move_type"] == 0 and bool(f["end_or_src0_bank_ext"])


def vmov_test(f) -> int:
    """The comparison of a conditional move: an index into COMPARE (==, !=, <, <=)."""
    return f["test_bit_2"] << 1 | f["test_bit_1"]


def vmov_float_channels(f, f16, dest):
    """A float VMOV's source swizzle, source 0's (the identity without ``src0_comp_sel``) and the
    written channels."""
    swizzle = swizzle_indices(VEC4_STD[f["src0_swiz"]])
    swizzle0 = swizzle if f["src0_comp_sel"] else (0, 1, 2, 3)
    return swizzle, swizzle0, mask_channels(vector_write_mask(f["dest_mask"], f16, dest))


def prepare_vmov(f, ctx):
    is_float, f16, iterations = vmov_operands(f, ctx)
    closures = [(_vmov_float if is_float else _vmov_integer)(f, *operands, f16=f16) for operands in iterations]
    return with_end(sequence(closures), vmov_end(f))


def _vmov_integer(f, dest, s0, s1, s2, f16):
    move_type, width = f["move_type"], INT_WIDTHS[f["move_data_type"]]
    compare = COMPARE[vmov_test(f)]
    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])

    def run(state):
        lanes = write_lanes(pred, state)
        value = s1.word(state, 0)
        if move_type:
            test = (s0.word(state, 0) & np.uint32(0xFF)) if move_type == 2 else _signed(s0.word(state, 0), width)
            value = np.where(compare(test, 0), value, s2.word(state, 0))
        dest.write_word(state, 0, value, lanes)
    return run


def _vmov_float(f, dest, s0, s1, s2, f16):
    move_type = f["move_type"]
    compare = COMPARE[vmov_test(f)]
    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])
    swizzle, swizzle0, channels = vmov_float_channels(f, f16, dest)

    def run(state):
        lanes = write_lanes(pred, state)
        values = read_channels(state, s1, swizzle, f16)
        if move_type:
            other = read_channels(state, s2, swizzle, f16)
            if move_type == 1:
                tests = read_channels(state, s0, swizzle0, f16)
            else:
                word = s0.word(state, 0)
                tests = [(word >> np.uint32(8 * e)) & np.uint32(0xFF) if isinstance(e, int) else np.float32(e)
                         for e in swizzle0]
            values = [np.where(compare(tests[c], 0), values[c], other[c]) for c in range(4)]
        write_channels(state, dest, channels, values, f16, lanes)
    return run


# -- VPCK ---------------------------------------------------------------------------------------
U8, S8, O8, U16, S16, F16, F32, C10 = range(8)
FORMAT_NAMES = ("U8", "S8", "O8", "U16", "S16", "F16", "F32", "C10")
FLOAT_FORMATS = (F16, F32, C10)
# format -> (bits per channel, minimum, maximum, offset, scale divisor)
INTEGER_FORMATS = {U8: (8, 0, 255, 0, 255.0), S8: (8, -128, 127, 0, 127.0), O8: (8, -128, 127, 128, 127.0),
                   U16: (16, 0, 65535, 0, 65535.0), S16: (16, -32768, 32767, 0, 32767.0)}


def _read_integer(word_of, fmt, c, scale):
    bits, low, high, offset, divisor = INTEGER_FORMATS[fmt]
    per_word = 32 // bits
    word = word_of(c // per_word)
    raw = ((np.asarray(word, np.uint32) >> np.uint32(bits * (c % per_word))) & np.uint32((1 << bits) - 1)).astype(np.int64)
    if low < 0 and not offset:
        raw = np.where(raw >= 1 << (bits - 1), raw - (1 << bits), raw)
    value = (raw - offset).astype(np.float64)
    return np.maximum(value / divisor, -1.0) if scale else value


def _write_integer(state, dest, fmt, c, value, scale, lanes):
    bits, low, high, offset, divisor = INTEGER_FORMATS[fmt]
    per_word = 32 // bits
    value = np.asarray(value, np.float64)
    if scale:
        value = value * divisor
    with np.errstate(invalid="ignore"):
        number = np.clip(np.nan_to_num(np.rint(value), nan=0.0), low, high).astype(np.int64) + offset
    field = (number & ((1 << bits) - 1)).astype(np.uint32)
    k, shift = c // per_word, np.uint32(bits * (c % per_word))
    old = dest.word(state, k)
    merged = (old & ~(np.uint32((1 << bits) - 1) << shift)) | (field << shift)
    dest.write_word(state, k, merged, lanes)


def vpck_operands(f, ctx):
    """VPCK's fields decoded (the emulator's and the GLSL's): source and destination formats,
    scale, dest, source 1, the routing (destination channel -> source channel, §5.1) and, for an
    F32 source, the (operand, channel) each of the four source channels reads (else None)."""
    src_fmt, dest_fmt, scale = f["src_fmt"], f["dest_fmt"], bool(f["scale"])
    if C10 in (src_fmt, dest_fmt):
        raise NotModelled(f"VPCK with format C10 ({FORMAT_NAMES[dest_fmt]} <- {FORMAT_NAMES[src_fmt]})")
    if f["repeat_count"]:
        raise NotModelled("VPCK repeat")
    sec = ctx.secondary
    dest = dest_operand(f["dest_bank_sel"], f["dest_bank_ext"], f["dest_n"], doubled=False, bits=7, secondary=sec)
    s2 = src12_operand(f["src2_bank_sel"], f["src2_bank_ext"], f["src2_n"], doubled=True, bits=7, secondary=sec)
    if src_fmt in FLOAT_FORMATS:
        s1 = src12_operand(f["src1_bank_sel"], f["src1_bank_ext"], f["src1_n"], doubled=True, bits=7, secondary=sec)
        bit1 = f["comp0_sel_bit1"] if src_fmt == F32 else f["src2_n"] & 1
    else:
        bank = SRC12_BANKS[f["src1_bank_sel"], f["src1_bank_ext"]]
        s1 = register_operand(bank, f["src1_n"] << 1 | f["comp0_sel_bit1"], doubled=False, bits=7, secondary=sec)
        bit1 = f["src2_n"] & 1
    sel = (f["comp_sel_0_bit0"] | bit1 << 1, f["comp_sel_1"], f["comp_sel_2"], f["comp_sel_3"])
    mask = f["dest_mask"]
    written = mask_channels(mask)

    # Which of the four selectable source channels each destination channel takes (§5.1).
    if (src_fmt in FLOAT_FORMATS and dest_fmt in FLOAT_FORMATS) or (scale and U8 in (src_fmt, dest_fmt)):
        routing = {c: sel[c] for c in written}
    elif U8 in (src_fmt, dest_fmt) and mask == 0b1111:
        routing = {c: sel[c % 2] for c in written}
    else:
        routing = {c: sel[k] for k, c in enumerate(written)}

    sources = None
    if src_fmt == F32:
        identity = all(sel[k] == k for k in range(len(written)))
        split = not isinstance(s2, Immediate) and (not identity or not s1.same_register(s2) or mask not in (1, 3, 7, 15))
        sources = ((s1, 0), (s1, 1), (s2, 0), (s2, 1)) if split else ((s1, 0), (s1, 1), (s1, 2), (s1, 3))
    return src_fmt, dest_fmt, scale, dest, s1, routing, sources


def prepare_vpck(f, ctx):
    src_fmt, dest_fmt, scale, dest, s1, routing, sources = vpck_operands(f, ctx)
    if src_fmt == F32:
        def read(state, i):
            operand, k = sources[i]
            return operand.f32(state, k)
    elif src_fmt == F16:
        def read(state, i):
            return s1.f16(state, i)
    else:
        def read(state, i):
            return _read_integer(lambda k: s1.word(state, k), src_fmt, i, scale)

    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])

    def run(state):
        lanes = write_lanes(pred, state)
        values = {c: read(state, i) for c, i in routing.items()}
        for c, value in values.items():
            if dest_fmt == F32:
                dest.write_f32(state, c, np.asarray(value, np.float32), lanes)
            elif dest_fmt == F16:
                dest.write_f16(state, c, np.asarray(value, np.float32), lanes)
            else:
                _write_integer(state, dest, dest_fmt, c, value, scale, lanes)
    return with_end(run, f["end"])


# -- LIMM -----------------------------------------------------------------------------------------
def limm_operands(f, ctx):
    """LIMM's fields decoded (the emulator's and the GLSL's): the 32-bit value and dest."""
    value = f["imm_value_first_21bits"] | f["imm_value_bits21to25"] << 21 | f["imm_value_bits26to31"] << 26
    return value, dest_operand(f["dest_bank"], f["dest_bank_ext"], f["dest_num"], doubled=False, bits=7,
                               secondary=ctx.secondary)


def prepare_limm(f, ctx):
    value, dest = limm_operands(f, ctx)
    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])
    bits = np.uint32(value)

    def run(state):
        dest.write_word(state, 0, bits, write_lanes(pred, state))
    return with_end(run, f["end"])


PREPARE = {"VMOV": prepare_vmov, "VPCK": prepare_vpck, "LIMM": prepare_limm}
