"""One GLSL translation per USSE operation, mirroring the emulator's ``prepare_<form>`` functions
(:mod:`.semantics_vector`, :mod:`.semantics_move`, :mod:`.semantics_test`,
:mod:`.semantics_integer`, :mod:`.semantics_control`) so that the two read side by side: the
operand set-up is the emulator's own (each form's ``<form>_operands``/check function there turns
the raw fields into operands, swizzles, modifiers, masks, predicate and repeat iterations for
both), and the order of reads and writes is the same. Each ``glsl_<form>(fields, ctx, emit)``
appends statements to ``emit`` (an :class:`Emitter`) and returns what follows the instruction:
None (the next one), :data:`END` or a :class:`Jump` (see :mod:`.glsl` for how a program is laid
out).

Values: a source channel is a :class:`Value`, either the 32-bit pattern of an F32 value (``bits``,
a uint expression: moves and modifiers keep it unchanged, as NumPy does) or a double (``dbl``)
holding a float32 value exactly. Arithmetic is done on doubles and rounded once to F32
(``usse_d2f``), which gives the emulator's float32 result (see :mod:`.glsl` for why).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .operands import Constant, Immediate, Internal, NotModelled, Operand, Register
from .semantics_control import _signed8, branch_target, spec_is_end
from .semantics_integer import vbw_operands
from .semantics_move import (
    F16, F32, INT_WIDTHS, INTEGER_FORMATS, limm_operands, vmov_end, vmov_float_channels, vmov_operands, vmov_test,
    vpck_operands,
)
from .semantics_test import (
    FLOAT_SUB, INTEGER_OPS, XYZW, alu_operands, vtst_check, vtstmsk_check, vtstmsk_operands,
)
from .semantics_vector import nmad_operands, vcomp_operands, vdp_operands, vmad2_operands, vmad_operands
from .tables import PREDICATES_EXTENDED

END = "end"
ZERO = "usse_f2d(usse_zero)"  # the start of a dot product (Python's sum starts at +0)
BANK_ARRAYS = {"r": "R", "o": "O", "pa": "PA", "sa": "SA"}


@dataclass(frozen=True)
class Jump:
    """A branch: ``condition`` (a GLSL bool expression, None: always) sends the lane to ``target``;
    ``link`` saves ``after`` in the link register; ``ret`` jumps to the link register instead."""

    target: int = 0
    condition: str | None = None
    link: int | None = None
    ret: bool = False


@dataclass
class Emitter:
    """The statements of one instruction, with fresh temporaries."""

    lines: list = field(default_factory=list)
    count: int = 0

    def line(self, text: str) -> None:
        self.lines.append(text)

    def temp(self, kind: str, expr: str) -> str:
        self.count += 1
        name = f"t{self.count}"
        self.lines.append(f"{'precise ' if kind == 'double' else ''}{kind} {name} = {expr};")
        return name


@dataclass(frozen=True)
class Value:
    """A float channel: ``bits`` (uint expression of an F32 pattern) or ``dbl`` (double)."""

    expr: str
    bits: bool

    @property
    def dbl(self) -> str:
        return f"usse_f2d({self.expr})" if self.bits else self.expr

    @property
    def f32_bits(self) -> str:
        return self.expr if self.bits else f"usse_d2f({self.expr})"


def double_literal(value: float) -> str:
    value = float(value)
    if not np.isfinite(value):
        return f"usse_f2d({int(np.float32(value).view(np.uint32)):#010x}u)"
    text = repr(value)
    return f"{text}LF" if ("." in text or "e" in text) else f"{text}.0LF"


def uint_literal(value: int) -> str:
    return f"{int(value) & 0xFFFFFFFF:#010x}u"


# -- operands -------------------------------------------------------------------------------------
def word(operand: Operand, k: int) -> str:
    """The k-th 32-bit word of an operand (Operand.word)."""
    if isinstance(operand, Register):
        return f"{BANK_ARRAYS[operand.bank]}[{operand.number + k}]"
    if isinstance(operand, Internal):
        if k > 3:
            raise NotModelled(f"channel {k} of internal register i{operand.index}")
        return f"I[{4 * operand.index + k}]"
    if isinstance(operand, Constant):  # literals are hidden from the compiler: see opaque_float
        return f"({uint_literal(int(operand.word(None, k)))} | usse_zero)"
    if isinstance(operand, Immediate):
        return f"({uint_literal(operand.value)} | usse_zero)"
    raise NotModelled(f"operand {operand.name}")


def opaque_float(value) -> Value:
    """A constant F32 value the compiler cannot see through (ORed with the uniform ``usse_zero``,
    always 0): NIR folds ``x * 0.0`` to 0 and ``x + 0.0`` to x even for ``precise`` doubles,
    which is not what IEEE (and the emulator) gives for infinities, NaN and -0."""
    return Value(f"({uint_literal(int(np.float32(value).view(np.uint32)))} | usse_zero)", True)


def read_f32(operand: Operand, c: int) -> Value:
    if isinstance(operand, Immediate):
        return opaque_float(operand.value)
    return Value(word(operand, c), True)


def read_f16(operand: Operand, c: int) -> Value:
    if isinstance(operand, Register):
        half = f"({word(operand, c >> 1)} >> 16)" if c & 1 else f"({word(operand, c >> 1)} & 0xFFFFu)"
        return Value(f"usse_h2f({half})", True)
    if isinstance(operand, Internal):
        return Value(f"usse_h16({word(operand, c)})", True)
    if isinstance(operand, Constant):
        with np.errstate(over="ignore"):
            return opaque_float(operand.f16(None, c))
    return read_f32(operand, c)


def read_channels(operand: Operand, swizzle: tuple, f16: bool) -> list[Value]:
    reader = read_f16 if f16 else read_f32
    return [reader(operand, entry) if isinstance(entry, int) else opaque_float(entry) for entry in swizzle]


def apply_modifier(values: list[Value], negate: bool, absolute: bool) -> list[Value]:
    out = []
    for value in values:
        expr = value.expr
        if value.bits:
            if absolute:
                expr = f"({expr} & 0x7FFFFFFFu)"
            if negate:
                expr = f"({expr} ^ 0x80000000u)"
        else:
            if absolute:
                expr = f"abs({expr})"
            if negate:
                expr = f"(-{expr})"
        out.append(Value(expr, value.bits))
    return out


def write_word(emit: Emitter, dest: Operand, k: int, expr: str) -> None:
    emit.line(f"{word(dest, k)} = {expr};")


def write_f32(emit: Emitter, dest: Operand, c: int, value: Value) -> None:
    write_word(emit, dest, c, value.f32_bits)


def write_f16(emit: Emitter, dest: Operand, c: int, value: Value) -> None:
    if isinstance(dest, Internal):
        write_word(emit, dest, c, f"usse_h16({value.f32_bits})")
        return
    target, shift = word(dest, c >> 1), 16 * (c & 1)
    keep = "0xFFFF0000u" if shift == 0 else "0x0000FFFFu"
    emit.line(f"{target} = ({target} & {keep}) | (usse_f2h({value.f32_bits}) << {shift});")


def write_channels(emit: Emitter, dest: Operand, channels, values: list[Value], f16: bool) -> None:
    writer = write_f16 if f16 else write_f32
    for c in channels:
        writer(emit, dest, c, values[c])


def predicate(table: tuple[str, ...], code: int) -> str | None:
    """The GLSL condition of a predicate code (None: always); operands.predicate_reader's."""
    name = table[code]
    if name == "":
        return None
    if name == "pN":
        raise NotModelled("predicate pN")
    return f"{'!' if name.startswith('!') else ''}P[{name[-1]}]"


class Guarded:
    """``with Guarded(emit, condition):`` — the writes inside happen only where it holds."""

    def __init__(self, emit: Emitter, condition: str | None):
        self.emit, self.condition = emit, condition

    def __enter__(self):
        if self.condition is not None:
            self.emit.line(f"if ({self.condition}) {{")

    def __exit__(self, *exc):
        if self.condition is not None:
            self.emit.line("}")


def held(emit: Emitter, values: list[Value]) -> list[Value]:
    """The values in temporaries, so that later writes cannot change what they read."""
    return [Value(emit.temp("uint" if v.bits else "double", v.expr), v.bits) for v in values]


def with_end(after, end) -> object:
    return END if end else after


# -- vector (semantics_vector) ----------------------------------------------------------------------
def fma(a: Value, b: Value, c: Value) -> Value:
    return Value(f"({a.dbl} * {b.dbl} + {c.dbl})", False)


def _fma_write(emit, dest, sources, swizzles, modifiers, channels, pred, f16) -> None:
    """dest = a * b + c over the written channels (VMAD2, VMAD)."""
    a, b, c = (apply_modifier(read_channels(operand, swizzle, f16), *modifier)
               for operand, swizzle, modifier in zip(sources, swizzles, modifiers))
    values = held(emit, [fma(a[k], b[k], c[k]) if k in channels else Value("0.0LF", False) for k in range(4)])
    with Guarded(emit, pred):
        write_channels(emit, dest, channels, values, f16)


def glsl_vmad2(f, ctx, emit):
    f16, dest, sources, swizzles, modifiers, channels, pred = vmad2_operands(f, ctx, predicate)
    _fma_write(emit, dest, sources, swizzles, modifiers, channels, pred, f16)


def _nmad_values(op2: int, a: list[Value], b: list[Value]) -> list[Value]:
    """NMAD_OPS in GLSL (double arithmetic, one rounding to F32 by the write)."""
    if op2 == 0:
        return [Value(f"({a[k].dbl} * {b[k].dbl})", False) for k in range(4)]
    if op2 == 1:
        return [Value(f"({a[k].dbl} + {b[k].dbl})", False) for k in range(4)]
    if op2 == 2:
        return [Value(f"({a[k].dbl} - floor({b[k].dbl}))", False) for k in range(4)]
    if op2 in (5, 6):
        name = "usse_min" if op2 == 5 else "usse_max"
        return [Value(f"{name}({a[k].dbl}, {b[k].dbl})", False) for k in range(4)]
    dot = f"({ZERO} + " + " + ".join(f"{a[k].dbl} * {b[k].dbl}" for k in range(4)) + ")"
    return [Value(dot, False)] * 4


def _glsl_nmad(f, ctx, emit, f16):
    dest, (s1, s2), (z1, z2), (m1, m2), channels, pred = nmad_operands(f, ctx, predicate)
    a = apply_modifier(read_channels(s1, z1, f16), *m1)
    b = apply_modifier(read_channels(s2, z2, f16), *m2)
    results = _nmad_values(f["op2"], a, b)
    if f["op2"] == 7:
        results = held(emit, results[:1]) * 4
    else:
        results = held(emit, [results[k] if k in channels else Value("0.0LF", False) for k in range(4)])
    with Guarded(emit, pred):
        write_channels(emit, dest, channels, results, f16)


def glsl_v32nmad(f, ctx, emit):
    return _glsl_nmad(f, ctx, emit, False)


def glsl_v16nmad(f, ctx, emit):
    return _glsl_nmad(f, ctx, emit, True)


def glsl_vmad(f, ctx, emit):
    swizzles, modifiers, channels, pred, iterations = vmad_operands(f, ctx, predicate)
    for dest, s1, a_op, c_op in iterations:
        _fma_write(emit, dest, (a_op, s1, c_op), swizzles, modifiers, channels, pred, False)
    return with_end(None, f["end"])


def glsl_vdp(f, ctx, emit):
    width, (z0, z1), (m0, m1), pred, iterations = vdp_operands(f, ctx, predicate)
    for dest, s1, a_op, channels in iterations:
        a = apply_modifier(read_channels(a_op, z0, False), *m0)
        b = apply_modifier(read_channels(s1, z1, False), *m1)
        dot = f"({ZERO} + " + " + ".join(f"{a[i].dbl} * {b[i].dbl}" for i in range(width)) + ")"
        value = held(emit, [Value(dot, False)])[0]
        with Guarded(emit, pred):
            write_channels(emit, dest, channels, [value] * 4, False)
    return with_end(None, f["end"])


COMPLEX_HELPERS = {0: "usse_rcp", 1: "usse_rsq", 2: "usse_log2", 3: "usse_exp2"}


def glsl_vcomp(f, ctx, emit):
    src_f16, dest_f16, (negate, absolute), comp, channels, pred, iterations = vcomp_operands(f, ctx, predicate)
    helper = COMPLEX_HELPERS[f["op2"]]
    for dest, src in iterations:
        x = apply_modifier([(read_f16 if src_f16 else read_f32)(src, comp)], negate, absolute)[0]
        value = Value(emit.temp("uint", f"{helper}({x.dbl})"), True)
        with Guarded(emit, pred):
            write_channels(emit, dest, channels, [value] * 4, dest_f16)
    return with_end(None, f["end"])


# -- moves (semantics_move) -------------------------------------------------------------------------
COMPARE_OPERATORS = ("==", "!=", "<", "<=")


def glsl_vmov(f, ctx, emit):
    is_float, f16, iterations = vmov_operands(f, ctx)
    for operands in iterations:
        (_vmov_float if is_float else _vmov_integer)(f, emit, *operands, f16=f16)
    return with_end(None, vmov_end(f))


def _vmov_integer(f, emit, dest, s0, s1, s2, f16):
    move_type, width = f["move_type"], INT_WIDTHS[f["move_data_type"]]
    operator = COMPARE_OPERATORS[vmov_test(f)]
    value = word(s1, 0)
    if move_type:
        if move_type == 2:
            test = f"int({word(s0, 0)} & 0xFFu)"
        elif width == 32:
            test = f"int({word(s0, 0)})"
        else:
            test = f"bitfieldExtract(int({word(s0, 0)}), 0, {width})"
        value = f"(({test}) {operator} 0) ? {word(s1, 0)} : {word(s2, 0)}"
    value = emit.temp("uint", value)
    with Guarded(emit, predicate(PREDICATES_EXTENDED, f["pred"])):
        write_word(emit, dest, 0, value)


def _vmov_float(f, emit, dest, s0, s1, s2, f16):
    move_type = f["move_type"]
    operator = COMPARE_OPERATORS[vmov_test(f)]
    swizzle, swizzle0, channels = vmov_float_channels(f, f16, dest)
    values = read_channels(s1, swizzle, f16)
    if move_type:
        other = read_channels(s2, swizzle, f16)
        if move_type == 1:
            tests = [value.dbl for value in read_channels(s0, swizzle0, f16)]
        else:
            source = word(s0, 0)
            tests = [f"double(({source} >> {8 * e}u) & 0xFFu)" if isinstance(e, int) else double_literal(e)
                     for e in swizzle0]
        chosen = []
        for c in range(4):
            a, b = values[c], other[c]
            if a.bits != b.bits:
                a, b = Value(a.dbl, False), Value(b.dbl, False)
            chosen.append(Value(f"(({tests[c]}) {operator} 0.0LF) ? {a.expr} : {b.expr}", a.bits))
        values = chosen
    values = held(emit, [values[c] if c in channels else Value("0u", True) for c in range(4)])
    with Guarded(emit, predicate(PREDICATES_EXTENDED, f["pred"])):
        write_channels(emit, dest, channels, values, f16)


def _read_integer(word_of, fmt, c, scale) -> Value:
    """semantics_move._read_integer: channel c of an integer format as a double."""
    bits, low, high, offset, divisor = INTEGER_FORMATS[fmt]
    per_word = 32 // bits
    raw = f"int(bitfieldExtract({word_of(c // per_word)}, {bits * (c % per_word)}, {bits}))"
    if low < 0 and not offset:
        raw = f"bitfieldExtract(int({word_of(c // per_word)}), {bits * (c % per_word)}, {bits})"
    value = f"double({raw} - {offset})"
    if scale:
        value = f"max({value} / {double_literal(divisor)}, -1.0LF)"
    return Value(value, False)


def _write_integer(emit, dest, fmt, c, value: Value, scale) -> None:
    bits, low, high, offset, divisor = INTEGER_FORMATS[fmt]
    per_word = 32 // bits
    v = value.dbl
    if scale:
        v = f"({v} * {double_literal(divisor)})"
    v = emit.temp("double", v)
    number = f"(isnan({v}) ? 0 : int(clamp(roundEven({v}), {double_literal(low)}, {double_literal(high)}))) + {offset}"
    field = f"(uint({number}) & {uint_literal((1 << bits) - 1)})"
    k, shift = c // per_word, bits * (c % per_word)
    emit.line(f"{word(dest, k)} = bitfieldInsert({word(dest, k)}, {field}, {shift}, {bits});")


def glsl_vpck(f, ctx, emit):
    src_fmt, dest_fmt, scale, dest, s1, routing, sources = vpck_operands(f, ctx)
    if src_fmt == F32:
        def read(i):
            operand, k = sources[i]
            return read_f32(operand, k)
    elif src_fmt == F16:
        def read(i):
            return read_f16(s1, i)
    else:
        def read(i):
            return _read_integer(lambda k: word(s1, k), src_fmt, i, scale)

    values = dict(zip(routing, held(emit, [read(i) for i in routing.values()])))
    with Guarded(emit, predicate(PREDICATES_EXTENDED, f["pred"])):
        for c, value in values.items():
            if dest_fmt == F32:
                write_f32(emit, dest, c, value)
            elif dest_fmt == F16:
                write_f16(emit, dest, c, value)
            else:
                _write_integer(emit, dest, dest_fmt, c, value, scale)
    return with_end(None, f["end"])


def glsl_limm(f, ctx, emit):
    value, dest = limm_operands(f, ctx)
    with Guarded(emit, predicate(PREDICATES_EXTENDED, f["pred"])):
        write_word(emit, dest, 0, f"({uint_literal(value)} | usse_zero)")
    return with_end(None, f["end"])


# -- tests (semantics_test) -------------------------------------------------------------------------
def comparison(zero_test: int, sign_test: int) -> str:
    if sign_test == 3:
        raise NotModelled("sign_test 3")
    return ("==", "<=", ">=")[sign_test] if zero_test == 1 else ("!=", "<", ">")[sign_test]


FLOAT_TEST_HELPERS = {4: "usse_rcp", 5: "usse_rsq", 6: "usse_log2", 7: "usse_exp2"}
BITWISE_TESTS = {0: "({a} & {b})", 1: "({a} | {b})", 2: "({a} ^ {b})", 3: "({a} << ({b} & 31u))",
                 4: "({a} >> ({b} & 31u))", 5: "usse_rol32({a}, {b} & 31u)", 7: "uint(int({a}) >> int({b} & 31u))"}


def _extend(word_expr: str, width: int, signed: bool) -> str:
    """semantics_test._extend as a double (every value fits exactly)."""
    if width == 32:
        return f"double({'int' if signed else ''}({word_expr}))"
    if signed:
        return f"double(bitfieldExtract(int({word_expr}), 0, {width}))"
    return f"double({word_expr} & {uint_literal((1 << width) - 1)})"


def _glsl_alu(f, ctx, emit, src1_negate: bool):
    """The four test results as GLSL bool temporaries, and the value type (semantics_test._prepare_alu)."""
    sel, op, operator, s1, s2, f16, swizzle2, kind = alu_operands(f, ctx, comparison)
    if kind == "float":
        a = [value.dbl for value in read_channels(s1, XYZW, f16)]
        if src1_negate:
            a = [f"(-{v})" for v in a]
        b = [value.dbl for value in read_channels(s2, swizzle2, f16)]
        a = [emit.temp("double", v) for v in a]
        b = [emit.temp("double", v) for v in b]
        if op == FLOAT_SUB:
            return [emit.temp("bool", f"{a[k]} {operator} {b[k]}") for k in range(4)], kind
        if op in FLOAT_TEST_HELPERS:
            results = [f"usse_f2d({FLOAT_TEST_HELPERS[op]}({a[0]}))"] * 4
        elif op == 8:
            results = [f"({ZERO} + " + " + ".join(f"{a[k]} * {b[k]}" for k in range(4)) + ")"] * 4
        else:
            pattern = {2: "({a} + {b})", 3: "({a} - floor({b}))", 9: "usse_f2d(usse_d2f(usse_min({a}, {b})))",
                       10: "usse_f2d(usse_d2f(usse_max({a}, {b})))", 13: "({a} * {b})"}[op]
            results = [pattern.format(a=a[k], b=b[k]) for k in range(4)]
        held_results = [emit.temp("double", r) for r in results]
        return [emit.temp("bool", f"{r} {operator} 0.0LF") for r in held_results], kind
    if sel == 3:
        if op not in BITWISE_TESTS:
            raise NotModelled(f"bitwise test operation {op}")
        out = []
        for k in range(4):
            result = BITWISE_TESTS[op].format(a=word(s1, k), b=word(s2, k))
            out.append(emit.temp("bool", f"int({result}) {operator} 0"))
        return out, kind
    operation = INTEGER_OPS[sel, op][0]
    width, signed = kind
    out = []
    for k in range(4):
        if operation is None:
            a = _extend(word(s1, k), width, signed)
            if src1_negate:
                a = f"(-{a})"
            out.append(emit.temp("bool", f"{a} {operator} {_extend(word(s2, k), width, signed)}"))
            continue
        a = f"(0u - {word(s1, k)})" if src1_negate else word(s1, k)
        symbol = "+" if operation(2, 3) == 5 else "*"
        result = f"(({a}) {symbol} {word(s2, k)})"
        out.append(emit.temp("bool", f"{_extend(result, width, signed)} {operator} 0.0LF"))
    return out, kind


def glsl_vtst(f, ctx, emit):
    vtst_check(f)
    tests, _ = _glsl_alu(f, ctx, emit, bool(f["src1_neg"]))
    with Guarded(emit, predicate(PREDICATES_EXTENDED, f["pred"])):
        emit.line(f"P[{f['pdst_n']}] = {tests[f['chan_cc']]};")


def glsl_vtstmsk(f, ctx, emit):
    vtstmsk_check(f)
    tests, kind = _glsl_alu(f, ctx, emit, bool(f["test_flag_2"]))
    dest, passed, channels = vtstmsk_operands(f, ctx, kind)
    with Guarded(emit, predicate(PREDICATES_EXTENDED, f["pred"])):
        for c in channels:
            write_word(emit, dest, c, f"({tests[c]} ? {uint_literal(passed)} : 0u) | usse_zero")


# -- bitwise (semantics_integer) --------------------------------------------------------------------
def _bitwise(mnemonic: str, a: str, b: str, width: int) -> str:
    mask = uint_literal((1 << width) - 1)
    shift = f"({b} % {width}u)"
    if mnemonic in ("AND", "OR", "XOR"):
        return f"({a} {dict(AND='&', OR='|', XOR='^')[mnemonic]} {b})"
    if mnemonic == "SHL":
        return f"(({a} << {shift}) & {mask})"
    if mnemonic == "SHR":
        return f"({a} >> {shift})"
    if mnemonic == "ROL":
        return f"((({a} << {shift}) | ({a} >> (({width}u - {shift}) % {width}u))) & {mask})"
    if width == 32:
        return f"uint(int({a}) >> int({shift}))"
    return f"(uint(bitfieldExtract(int({a}), 0, 16) >> int({shift})) & {mask})"


def glsl_vbw(f, ctx, emit):
    mnemonic, width, rot, invert, pred, iterations = vbw_operands(f, ctx, predicate)
    mask, rot = (1 << width) - 1, rot % width
    for dest, s1, s2 in iterations:
        b = f"({word(s2, 0)} & {uint_literal(mask)})"
        if rot:
            b = f"((({b} << {rot}u) | ({b} >> {width - rot}u)) & {uint_literal(mask)})"
        if invert:
            b = f"(~{b} & {uint_literal(mask)})"
        b = emit.temp("uint", b)
        a = emit.temp("uint", f"({word(s1, 0)} & {uint_literal(mask)})")
        result = _bitwise(mnemonic, a, b, width)
        if width == 16:
            result = f"(({word(dest, 0)} & 0xFFFF0000u) | {result})"
        result = emit.temp("uint", result)
        with Guarded(emit, pred):
            write_word(emit, dest, 0, result)
    return with_end(None, f["end"])


# -- control (semantics_control) --------------------------------------------------------------------
def glsl_nop(f, ctx, emit):
    return None


glsl_phas = glsl_nop


def glsl_smlsi(f, ctx, emit):
    """Nothing at run time: the emulator's prepare_smlsi has already set ``ctx.moe``."""
    return None


def glsl_br(f, ctx, emit):
    return Jump(target=branch_target(f, ctx), condition=predicate(PREDICATES_EXTENDED, f["pred"]),
                link=ctx.index + 1 if f["save_link"] else None)


def glsl_spec(f, ctx, emit):
    return END if spec_is_end(f, ctx) else Jump(ret=True)


TRANSLATE = {
    "VMAD2": glsl_vmad2, "V32NMAD": glsl_v32nmad, "V16NMAD": glsl_v16nmad, "VMAD": glsl_vmad, "VDP": glsl_vdp,
    "VCOMP": glsl_vcomp, "VMOV": glsl_vmov, "VPCK": glsl_vpck, "LIMM": glsl_limm, "VTST": glsl_vtst,
    "VTSTMSK": glsl_vtstmsk, "VBW": glsl_vbw, "NOP": glsl_nop, "PHAS": glsl_phas, "SMLSI": glsl_smlsi,
    "BR": glsl_br, "SPEC": glsl_spec,
}
assert _signed8(0x80) == -128  # the SMLSI decoding is the emulator's (prepare_smlsi sets ctx.moe)
