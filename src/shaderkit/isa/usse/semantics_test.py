"""USSE tests (spec/usse.md §5, §5.1): VTST (result into a predicate ``p0``–``p3``) and VTSTMSK
(result as a mask value into a register), with their float, 16/32-bit integer, 8-bit integer
and bitwise ALU operations and the zero/sign test.

Choices where the spec says "unknown":

* Float ``rcp``, ``rsq``, ``log`` and ``exp`` inside a test act on source 1 channel x and give
  that result to every channel (the VST observation for ``log``, taken for all four).
  ``dsx``/``dsy`` (derivatives in a vertex program) and the ``fpmul8``/``fpadd8``/``fpsub8``
  operations are not modelled.
* Integer tests read register ``n + c`` as channel c (32-bit channels); 16- and 8-bit operations
  use the low 16 / 8 bits, their result wraps to that width and is compared signed or unsigned
  as the operation is named (``...u...`` unsigned). Bitwise results compare as signed 32-bit;
  shift amounts are taken modulo 32.
* VTSTMSK ``tst_mask_type`` 0 writes ``0xFFFFFFFF`` (pass) or 0 (fail) into the destination's
  first register — an all-ones mask, which gives the non-zero low byte the VST observation
  needs (§5.1); type 1 writes F32 1.0/0.0 (Vita3K); type 2 with a float test writes F32 1.0/0.0
  to each of the four channels; an integer test writes 0 or the type's maximum (bitwise:
  0xFFFFFFFF). Type 3 and ``test_wben`` = 0 are not modelled.
* VTST writes only its predicate (``test_wben`` is ignored); ``chan_cc`` 4–7, repeats and
  ``sign_test`` 3 are not modelled; ``onceonly`` and ``test_crcomb_and`` have no effect.
"""

from __future__ import annotations

import numpy as np

from .operands import NotModelled, dest_operand, predicate_reader, write_lanes, read_channels, src12_operand
from .tables import PREDICATES_EXTENDED

XYZW, XXXX = (0, 1, 2, 3), (0, 0, 0, 0)


def _scalar(fn):
    def apply(a, b):
        with np.errstate(all="ignore"):
            value = np.asarray(fn(np.asarray(a[0], np.float32)), np.float32)
        return [value] * 4
    return apply


def _dot(a, b):
    return [sum(np.float64(a[k]) * np.float64(b[k]) for k in range(4))] * 4


FLOAT_OPS = {
    2: lambda a, b: [np.float64(a[k]) + b[k] for k in range(4)],
    3: lambda a, b: [np.float64(a[k]) - np.floor(b[k]) for k in range(4)],
    4: _scalar(lambda x: np.float32(1) / x),
    5: _scalar(lambda x: np.float32(1) / np.sqrt(x)),
    6: _scalar(np.log2),
    7: _scalar(np.exp2),
    8: _dot,
    9: lambda a, b: [np.minimum(a[k], b[k]) for k in range(4)],
    10: lambda a, b: [np.maximum(a[k], b[k]) for k in range(4)],
    13: lambda a, b: [np.float64(a[k]) * b[k] for k in range(4)],
}
FLOAT_SUB = 14

# (alu_sel, alu_op) -> (operation, width, signed, is_subtract)
_ADD, _SUB, _MUL = (lambda a, b: a + b), None, (lambda a, b: a * b)
INTEGER_OPS = {
    (1, 6): (_ADD, 16, True), (1, 7): (_SUB, 16, True), (1, 8): (_MUL, 16, True),
    (1, 9): (_ADD, 16, False), (1, 10): (_SUB, 16, False), (1, 11): (_MUL, 16, False),
    (1, 12): (_ADD, 32, True), (1, 13): (_ADD, 32, False), (1, 14): (_SUB, 32, True), (1, 15): (_SUB, 32, False),
    (2, 0): (_ADD, 8, True), (2, 1): (_SUB, 8, True), (2, 2): (_ADD, 8, False), (2, 3): (_SUB, 8, False),
    (2, 4): (_MUL, 8, True), (2, 6): (_MUL, 8, False),
}
INTEGER_MAX = {(8, True): 0x7F, (8, False): 0xFF, (16, True): 0x7FFF, (16, False): 0xFFFF,
               (32, True): 0x7FFFFFFF, (32, False): 0xFFFFFFFF}


def _bitwise(op):
    def shift(b):
        return b & np.int64(31)
    table = {
        0: lambda a, b: a & b, 1: lambda a, b: a | b, 2: lambda a, b: a ^ b,
        3: lambda a, b: a << shift(b), 4: lambda a, b: a >> shift(b),
        5: lambda a, b: (a << shift(b)) | (a >> ((32 - shift(b)) & 31)),
        7: lambda a, b: np.where(a >= 1 << 31, a - (1 << 32), a) >> shift(b),
    }
    if op not in table:
        raise NotModelled(f"bitwise test operation {op}")
    return table[op]


def _extend(words, width, signed):
    value = np.asarray(words, np.uint32).astype(np.int64) & ((1 << width) - 1)
    return np.where(value >= 1 << (width - 1), value - (1 << width), value) if signed else value


def comparison(zero_test: int, sign_test: int):
    if sign_test == 3:
        raise NotModelled("sign_test 3")
    if zero_test == 1:
        return (np.equal, np.less_equal, np.greater_equal)[sign_test]
    return (np.not_equal, np.less, np.greater)[sign_test]


def alu_operands(f, ctx, comparison):
    """A VTST/VTSTMSK ALU operation's fields decoded (the emulator's and the GLSL's): ``alu_sel``,
    ``alu_op``, the comparison (``comparison(zero_test, sign_test)``), sources 1 and 2, F16 and
    source 2's swizzle (float tests; else None) and the value type of the test ("float", or
    (width, signed) for integer/bitwise tests). Bitwise operations are checked by the caller."""
    sel, op = f["alu_sel"], f["alu_op"]
    compare = comparison(f["zero_test"], f["sign_test"])
    is_float = sel == 0
    kw = dict(doubled=is_float, bits=8 if is_float else 7, secondary=ctx.secondary)
    s1 = src12_operand(f["src1_bank"], f["src1_ext"], f["src1_n"], **kw)
    s2 = src12_operand(f["src2_bank"], f["src2_ext"], f["src2_n"], **kw)
    if is_float:
        f16 = not f["prec"]
        swizzle2 = XXXX if f["src2_vscomp"] else XYZW
        if op != FLOAT_SUB and op not in FLOAT_OPS:
            raise NotModelled(f"float test operation {op} ({'dsx' if op == 11 else 'dsy' if op == 12 else 'reserved'})")
        return sel, op, compare, s1, s2, f16, swizzle2, "float"
    if sel == 3:
        return sel, op, compare, s1, s2, None, None, (32, False)
    if (sel, op) not in INTEGER_OPS:
        raise NotModelled(f"integer test operation sel {sel} op {op}")
    return sel, op, compare, s1, s2, None, None, INTEGER_OPS[sel, op][1:]


def _prepare_alu(f, ctx, src1_negate: bool):
    """A function of the state giving the four per-channel test results (bool arrays), and the
    value type of the test ("float", or (width, signed) for integer/bitwise tests)."""
    sel, op, compare, s1, s2, f16, swizzle2, kind = alu_operands(f, ctx, comparison)
    if kind == "float":
        def tests(state):
            a = read_channels(state, s1, XYZW, f16)
            if src1_negate:
                a = [-v for v in a]
            b = read_channels(state, s2, swizzle2, f16)
            with np.errstate(all="ignore"):
                if op == FLOAT_SUB:
                    return [compare(a[k], b[k]) for k in range(4)]
                result = FLOAT_OPS[op](a, b)
                return [compare(result[k], 0) for k in range(4)]
        return tests, kind
    if sel == 3:
        operation = _bitwise(op)

        def tests(state):
            out = []
            for k in range(4):
                a = _extend(s1.word(state, k), 32, False)
                b = _extend(s2.word(state, k), 32, False)
                result = operation(a, b) & 0xFFFFFFFF
                out.append(compare(np.where(result >= 1 << 31, result - (1 << 32), result), 0))
            return out
        return tests, kind
    operation = INTEGER_OPS[sel, op][0]
    width, signed = kind

    def tests(state):
        out = []
        for k in range(4):
            a = _extend(s1.word(state, k), width, signed)
            b = _extend(s2.word(state, k), width, signed)
            if src1_negate:
                a = -a
            if operation is None:
                out.append(compare(a, b))
            else:
                out.append(compare(_extend(operation(a, b) & ((1 << width) - 1), width, signed), 0))
        return out
    return tests, kind


def vtst_check(f):
    """VTST's unmodelled fields (the emulator's and the GLSL's check)."""
    if f["rpt_count"]:
        raise NotModelled("VTST repeat")
    if f["chan_cc"] > 3:
        raise NotModelled(f"VTST chan_cc {f['chan_cc']}")


def prepare_vtst(f, ctx):
    vtst_check(f)
    tests, _ = _prepare_alu(f, ctx, bool(f["src1_neg"]))
    channel, target = f["chan_cc"], f["pdst_n"]
    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])

    def run(state):
        result = np.broadcast_to(tests(state)[channel], (state.lanes,))
        lanes = write_lanes(pred, state)
        state.predicates[target] = result if lanes is None else np.where(lanes, result, state.predicates[target])
    return run


ONE, ZERO = np.uint32(0x3F800000), np.uint32(0)


def vtstmsk_check(f):
    """VTSTMSK's unmodelled fields (the emulator's and the GLSL's check)."""
    if f["rpt_count"]:
        raise NotModelled("VTSTMSK repeat")
    if not f["test_wben"]:
        raise NotModelled("VTSTMSK test_wben 0")
    if f["tst_mask_type"] == 3:
        raise NotModelled("VTSTMSK tst_mask_type 3")


def vtstmsk_operands(f, ctx, kind):
    """VTSTMSK's destination after a test of value type ``kind`` (the emulator's and the GLSL's):
    dest, the word written where the test passes, and the written channels."""
    mask_type = f["tst_mask_type"]
    is_float = kind == "float"
    dest = dest_operand(f["dest_bank"], f["dest_ext"], f["dest_n"], doubled=is_float,
                        bits=8 if is_float else 7, secondary=ctx.secondary)
    passed = {0: 0xFFFFFFFF, 1: int(ONE), 2: int(ONE)}[mask_type] if is_float else INTEGER_MAX[kind]
    return dest, passed, (0, 1, 2, 3) if is_float and mask_type == 2 else (0,)


def prepare_vtstmsk(f, ctx):
    vtstmsk_check(f)
    tests, kind = _prepare_alu(f, ctx, bool(f["test_flag_2"]))
    dest, passed, channels = vtstmsk_operands(f, ctx, kind)
    passed = np.uint32(passed)
    pred = predicate_reader(PREDICATES_EXTENDED, f["pred"])

    def run(state):
        results = tests(state)
        lanes = write_lanes(pred, state)
        for c in channels:
            dest.write_word(state, c, np.where(results[c], passed, ZERO).astype(np.uint32), lanes)
    return run


PREPARE = {"VTST": prepare_vtst, "VTSTMSK": prepare_vtstmsk}
