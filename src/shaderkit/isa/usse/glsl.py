"""Decompiling a USSE vertex program (secondary and primary 64-bit words) to a GLSL 4.30 vertex
shader that computes what :class:`~.machine.UsseMachine` computes, one vertex per lane.

API::

    source = decompile(primary, secondary=(), *, pa_count, sa_count, outputs=None,
                       budget=DEFAULT_BUDGET, unmodelled="raise")
    # run it: shaderkit.isa.usse.gl.run_glsl(source, pa, sa) -> (registers, lanes) uint32

Layout of the shader:

* Inputs: the PA registers as ``uvec4`` attributes ``usse_pa0``, ``usse_pa1``, ... (registers
  ``4k``..``4k + 3``, ``pa_count`` registers in all); the SA registers (uniforms and literals) as
  ``uniform uint usse_sa[sa_count]``. Both are copied into the shader's own banks ``PA``/``SA``
  (registers past the counts start at zero, as in the emulator), so programs may write them.
* Banks: ``uint R[]``, ``O[]``, ``PA[]``, ``SA[]`` (as large as the emulator makes them for the
  program), the internal registers ``uint I[16]`` (``i<k>`` channel ``c`` is ``I[4k + c]``) and
  the predicates ``bool P[4]``. F32 channel k of an operand numbered n is register ``n + k``; F16
  channels are the halves of a register, read with ``unpackHalf2x16`` and written with
  ``packHalf2x16`` (NaNs converted by hand, keeping their payload as NumPy does).
* ``main()`` runs the secondary program then the primary one (each a function; temporaries,
  internal registers and predicates reset before each), exactly as the emulator does: every
  storage operand of the secondary program addresses ``SA``, per vertex.
* Outputs: the ``o`` registers as ``flat out uvec4 usse_o0, usse_o1, ...`` (registers
  ``usse_o_base + 4k``.., at most 15 vectors: a program with more than 60 ``o`` registers is run
  once per window of 60, uniform ``usse_o_base``) and ``usse_trap`` (uvec2: a trap code, 0 when
  the run went well, and the instruction), captured by transform feedback (:func:`.gl.run_glsl`).
* Control flow: a program without branches or returns is straight-line code (an ending
  instruction returns from the program's function). A program with them runs as a PC loop
  around a ``switch`` with one case per instruction; each lane follows its own branches, which
  is what the emulator's per-lane model computes (it runs lanes that part one PC group at a
  time, each writing only its own lanes). The loop counts executed instructions against the
  same budget as the emulator.

Instructions are translated by :mod:`.glsl_operations`, one function per operation mirroring the
emulator's ``prepare_<form>``. Which words are modelled is decided by the emulator's own prepare
functions: a word it does not model gets the emulator's message, ``not modelled: <FORM> <word> at
instruction N (...)``. :func:`decompile` raises that InputError when such a word can be reached
from the start of its program; with ``unmodelled="trap"`` it emits a trap there instead
(the emulator too stops only when the word is reached), and :func:`.gl.run_glsl` raises the same
InputError when any vertex reaches it. Run-time stops (a return with no link stored, the
instruction budget exhausted) are traps too. The trap messages are in the header comments
(``// usse-trap N: message``).

Where the GLSL may differ from the emulator (and the tolerance the tests use):

* Arithmetic is done in double precision on values read exactly from their F32 bits and rounded
  once to F32 (``usse_f2d``/``usse_d2f``, written with integer operations for denormals, since
  llvmpipe flushes F32 denormals to zero on input and output). Multiply, add, FRC, min/max,
  the fused multiply-add (the emulator's double-then-round), the dot products (summed in double
  in the same order), RCP (1/x) and RSQ (1/sqrt rounded to F32, then 1/x) are therefore the
  emulator's results bit for bit; ``precise`` keeps the compiler from reassociating them.
* ``log2`` and ``exp2`` (VCOMP and the float tests) have no double versions in GLSL (the F32
  ones are accurate to a few ULP on llvmpipe, worse for log2 near 1): they are computed in
  double (frexp and an atanh series; roundEven, a Taylor series and ldexp) and rounded once, so
  they are nearly always the correctly rounded F32 result — while NumPy's float32 ``log2`` and
  ``exp2`` (the emulator's) are off by one ULP here and there. The tests allow 2 ULP there
  (measured: at most 2; a few percent of random values differ by 1).
* The compiler folds ``x * 0.0`` to 0 and ``x + 0.0`` to x even in ``precise`` double code, so
  constants (the constant bank, immediates, swizzle constants) and the zeros the banks start with
  are ORed with ``uniform uint usse_zero`` (always 0) to keep them out of its sight.
* A NaN made by arithmetic can differ in sign or payload: x86 returns the first NaN operand and
  the compiler may swap the operands of an addition or multiplication. Moves, F16 conversions and
  NaN inputs keep NumPy's bits. The tests count a NaN against a NaN as agreement.
* Branches with ``any_inst``/``all_inst`` decide per vertex (the emulator decides over all the
  lanes running; the two agree when the predicate is the same in every lane), and the link
  register is per vertex (the emulator's is shared; they agree unless one lane returns through
  a link only another lane saved). The instruction budget is counted per vertex (the emulator counts
  each PC group's instruction while lanes are apart: a loop stops on both, maybe at another PC).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.diagnostics import InputError
from .description import fields_reading
from .glsl_operations import END, TRANSLATE, Emitter, Jump
from .machine import DEFAULT_BUDGET, MINIMUM_BANK, PREPARE, Context, form_name
from .operands import STORAGE_BANKS, Moe, NotModelled, record_needs

TRAP_BUDGET = 1
TRAP_MARK = "// usse-trap "
OUTPUTS_MARK = "// usse-outputs "
ATTRIBUTE_LIMIT = 16
# uvec4 outputs per run: with usse_trap, within GL's minimum of 64 interleaved transform-feedback
# components; more o registers are captured in several runs (uniform usse_o_base).
OUTPUT_VECTORS = 15

HELPERS = """\
// F32 bits -> double, exactly (denormals by hand: llvmpipe flushes them).
double usse_f2d(uint b) {
    if ((b & 0x7F800000u) != 0u) return double(uintBitsToFloat(b));
    precise double m = double(b & 0x007FFFFFu) * 1.401298464324817e-45LF;
    return (b & 0x80000000u) != 0u ? -m : m;
}
// double -> F32 bits, rounded to nearest even once (denormal results by hand).
uint usse_d2f(double d) {
    precise double a = abs(d);
    if (!(a < 1.1754943508222875e-38LF)) return floatBitsToUint(float(d));
    precise double scaled = roundEven(a * 7.1362384635298e+44LF);
    return (unpackDouble2x32(d).y & 0x80000000u) | uint(scaled);
}
// F32 bits -> F16 bits (round to nearest even; a NaN keeps the top of its payload, as NumPy's).
uint usse_f2h(uint b) {
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) != 0u) {
        uint h = 0x7C00u + ((b & 0x007FFFFFu) >> 13);
        return ((b >> 16) & 0x8000u) | (h == 0x7C00u ? 0x7C01u : h);
    }
    return packHalf2x16(vec2(uintBitsToFloat(b), 0.0)) & 0xFFFFu;
}
// F16 bits (bits 15:0) -> F32 bits (exact; a NaN's payload shifted, as NumPy's).
uint usse_h2f(uint h) {
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) != 0u)
        return ((h & 0x8000u) << 16) | 0x7F800000u | ((h & 0x03FFu) << 13);
    return floatBitsToUint(unpackHalf2x16(h).x);
}
// F32 bits rounded to F16 and back (an F16 access to an internal register).
uint usse_h16(uint b) { return usse_h2f(usse_f2h(b)); }
// NumPy's minimum/maximum: NaN if either is NaN, else the first unless the second is smaller/larger.
double usse_min(double a, double b) { return (isnan(a) || a < b) ? a : b; }
double usse_max(double a, double b) { return (isnan(a) || a > b) ? a : b; }
uint usse_rcp(double x) { precise double r = 1.0LF / x; return usse_d2f(r); }
uint usse_rsq(double x) {
    if (x < 0.0LF) return 0xFFC00000u;
    precise double s = usse_f2d(usse_d2f(sqrt(x)));
    precise double r = 1.0LF / s;
    return usse_d2f(r);
}
// log2 and exp2 in double precision (GLSL has only F32 ones, accurate to a few ULP), then
// rounded once to F32: the special values as NumPy gives them.
uint usse_log2(double x) {
    if (isnan(x)) return usse_d2f(x);
    if (x < 0.0LF) return 0xFFC00000u;
    if (x == 0.0LF) return 0xFF800000u;
    if (isinf(x)) return 0x7F800000u;
    int e;
    precise double m = frexp(x, e);
    if (m < 0.7071067811865476LF) { m = m * 2.0LF; e = e - 1; }
    // ln(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), s = (m - 1) / (m + 1), |s| < 0.172
    precise double s = (m - 1.0LF) / (m + 1.0LF);
    precise double s2 = s * s;
    precise double series = 1.0LF + s2 * (0.3333333333333333LF + s2 * (0.2LF + s2 * (0.14285714285714285LF + s2 * (0.1111111111111111LF + s2 * (0.09090909090909091LF + s2 * (0.07692307692307693LF + s2 * (0.06666666666666667LF + s2 * (0.058823529411764705LF + s2 * (0.05263157894736842LF + s2 * (0.047619047619047616LF + s2 * (0.043478260869565216LF)))))))))));
    precise double r = double(e) + (2.0LF * s * series) * 1.4426950408889634LF;
    return usse_d2f(r);
}
uint usse_exp2(double x) {
    if (isnan(x)) return usse_d2f(x);
    if (x >= 129.0LF) return 0x7F800000u;
    if (x < -152.0LF) return 0u;
    // 2^x = 2^n e^g, n = round(x), g = (x - n) ln 2, |g| <= 0.347: Taylor to g^14
    precise double n = roundEven(x);
    precise double g = (x - n) * 0.6931471805599453LF;
    precise double p = 1.0LF + g * (1.0LF + g * (0.5LF + g * (0.16666666666666666LF + g * (0.041666666666666664LF + g * (0.008333333333333333LF + g * (0.001388888888888889LF + g * (0.0001984126984126984LF + g * (2.48015873015873e-05LF + g * (2.7557319223985893e-06LF + g * (2.755731922398589e-07LF + g * (2.505210838544172e-08LF + g * (2.08767569878681e-09LF + g * (1.6059043836821613e-10LF + g * (1.1470745597729725e-11LF))))))))))))));
    return usse_d2f(ldexp(p, int(n)));
}
uint usse_rol32(uint a, uint s) { return (a << s) | (a >> ((32u - s) & 31u)); }
"""


class _Program:
    """One program translated: per instruction its statements and what follows it."""

    def __init__(self, words: Sequence[int], secondary: bool, traps: list[str]):
        self.secondary = secondary
        self.bodies: list[list[str]] = []
        self.after: list = []      # None, END, Jump, or ("trap", code)
        self.errors: dict[int, str] = {}
        description = fields_reading()
        moe = Moe()
        for index, word in enumerate(words):
            word = int(word) & 0xFFFFFFFFFFFFFFFF
            instruction = description.decode([word & 0xFFFFFFFF, word >> 32])
            form = form_name(instruction)
            where = f"{form} {word:016X} at instruction {index}"
            prepare, translate = PREPARE.get(form), TRANSLATE.get(form)
            emit = Emitter()
            try:
                if prepare is None or translate is None:
                    raise NotModelled(None)
                ctx = Context(index, word, secondary, moe)
                fields = dict(instruction.fields)
                prepare(fields, ctx)  # the emulator's own check (and, for SMLSI, its MOE state)
                after = translate(fields, ctx, emit)
            except NotModelled as error:
                message = f"not modelled: {where}" + ("" if error.args[0] is None else f" ({error})")
                self.errors[index] = message
                traps.append(message)
                self.bodies.append([])
                self.after.append(("trap", len(traps)))
                continue
            if isinstance(after, Jump) and after.ret:
                traps.append(f"not modelled: {where} (return with no link stored)")
                after = Jump(ret=True, target=len(traps))  # target: the trap code of a missing link
            self.bodies.append(emit.lines)
            self.after.append(after)

    @property
    def branching(self) -> bool:
        return any(isinstance(after, Jump) for after in self.after)

    def reachable(self) -> set[int]:
        size = len(self.after)
        links = {after.link for after in self.after if isinstance(after, Jump) and after.link is not None}
        seen, todo = set(), [0]
        while todo:
            pc = todo.pop()
            if not 0 <= pc < size or pc in seen:
                continue
            seen.add(pc)
            after = self.after[pc]
            if after == END or isinstance(after, tuple):
                continue
            if isinstance(after, Jump):
                if after.ret:
                    todo.extend(links)
                    continue
                todo.append(after.target)
                if after.condition is None:
                    continue
            todo.append(pc + 1)
        return seen

    def function(self, name: str, budget: int) -> list[str]:
        if not self.branching:
            return self._straight(name)
        return self._looped(name, budget)

    def _trap(self, code, pc: str) -> str:
        return f"{{ usse_trap_code = {code}u; usse_trap_pc = {pc}; return; }}"

    def _straight(self, name: str) -> list[str]:
        lines = [f"void {name}() {{"]
        for index, (body, after) in enumerate(zip(self.bodies, self.after)):
            lines.append(f"    // instruction {index}")
            if isinstance(after, tuple):
                lines.append("    " + self._trap(after[1], f"{index}u"))
                continue
            if body:
                lines.append("    {")
                lines += [f"        {line}" for line in body]
                lines.append("    }")
            if after == END:
                lines.append("    return;")
        lines.append("}")
        return lines

    def _looped(self, name: str, budget: int) -> list[str]:
        lines = [f"void {name}() {{",
                 "    uint pc = 0u;",
                 "    uint link = 0xFFFFFFFFu;",
                 "    uint executed = 0u;",
                 "    while (true) {",
                 f"        if (++executed > {budget}u) " + self._trap(TRAP_BUDGET, "pc"),
                 "        switch (pc) {"]
        for index, (body, after) in enumerate(zip(self.bodies, self.after)):
            lines.append(f"        case {index}u: {{")
            inner = [f"            {line}" for line in body]
            if isinstance(after, tuple):
                inner.append("            " + self._trap(after[1], f"{index}u"))
            elif after == END:
                inner.append("            return;")
            elif isinstance(after, Jump) and after.ret:
                inner.append("            if (link == 0xFFFFFFFFu) " + self._trap(after.target, f"{index}u"))
                inner.append("            pc = link;")
                inner.append("            break;")
            elif isinstance(after, Jump):
                take = [f"pc = {after.target}u;"] if after.target >= 0 else ["return;"]
                if after.link is not None:
                    take.insert(0, f"link = {after.link}u;")
                condition = "true" if after.condition is None else after.condition
                inner.append(f"            if ({condition}) {{ {' '.join(take)} break; }}")
            lines += inner
            lines.append(f"            pc = {index + 1}u;")
            lines.append("            break;")
            lines.append("        }")
        lines += ["        default:",
                  "            return;",
                  "        }",
                  "    }",
                  "}"]
        return lines


def decompile(primary: Sequence[int], secondary: Sequence[int] = (), *, pa_count: int | None = None,
              sa_count: int | None = None,
              outputs: int | None = None, budget: int = DEFAULT_BUDGET, unmodelled: str = "raise") -> str:
    """GLSL 4.30 vertex shader source of a USSE vertex program (see the module docstring).

    ``pa_count``/``sa_count``: how many PA registers come in as attributes and SA registers as
    the uniform array (a GXP container's counts; default: as many as the program reads); ``outputs``: how many ``o`` registers are captured (default: the
    emulator's ``o`` bank for this program, at least 16); ``budget``: instructions per program
    before a run stops (the emulator's); ``unmodelled``: "raise" (an InputError for a reachable
    word the emulator does not model) or "trap" (a run-time trap instead).
    """
    if unmodelled not in ("raise", "trap"):
        raise InputError(f"unmodelled must be 'raise' or 'trap', not {unmodelled!r}")
    traps = [f"instruction budget of {budget} exhausted at instruction {{pc}} (a loop?)"]
    needed = {name: MINIMUM_BANK for name in STORAGE_BANKS}
    record_needs(needed)
    try:
        programs = [_Program(list(secondary), True, traps), _Program(list(primary), False, traps)]
    finally:
        record_needs(None)
    pa_count = needed["pa"] if pa_count is None else pa_count
    sa_count = needed["sa"] if sa_count is None else sa_count
    if pa_count < 0 or sa_count < 0:
        raise InputError("pa_count and sa_count cannot be negative")
    if (pa_count + 3) // 4 > ATTRIBUTE_LIMIT:
        raise InputError(f"{pa_count} PA registers need more than {ATTRIBUTE_LIMIT} uvec4 attributes")
    if unmodelled == "raise":
        for program in programs:
            reachable = program.reachable()
            for index in sorted(program.errors):
                if index in reachable:
                    raise InputError(program.errors[index])
    o_count = needed["o"] if outputs is None else int(outputs)
    if o_count < 1:
        raise InputError("a decompiled program needs at least one output register")
    sizes = {"r": needed["r"], "o": max(o_count, needed["o"]), "pa": max(pa_count, needed["pa"]),
             "sa": max(sa_count, needed["sa"])}
    vectors = min((o_count + 3) // 4, OUTPUT_VECTORS)
    lines = ["#version 430",
             "// A USSE (PowerVR SGX543) vertex program decompiled by shaderkit (shaderkit.isa.usse.glsl).",
             f"{OUTPUTS_MARK}{o_count}"]
    lines += [f"{TRAP_MARK}{code}: {message}" for code, message in enumerate(traps, 1)]
    lines += [f"in uvec4 usse_pa{k};" for k in range((pa_count + 3) // 4)]
    if sa_count:
        lines.append(f"uniform uint usse_sa[{sa_count}];")
    lines += [f"flat out uvec4 usse_o{k};" for k in range(vectors)]
    lines += ["flat out uvec2 usse_trap;", "uniform uint usse_zero;  // always 0 (GL initialises it): hides constants from the compiler",
              "uniform int usse_o_base;  // the first o register captured (0 unless there are more than 60)"]
    lines += [f"uint R[{sizes['r']}];", f"uint O[{sizes['o']}];", f"uint PA[{sizes['pa']}];",
              f"uint SA[{sizes['sa']}];", "uint I[16];", "bool P[4];",
              "uint usse_trap_code = 0u;", "uint usse_trap_pc = 0u;", ""]
    lines += HELPERS.splitlines()
    lines += ["", "void usse_reset() {",
              f"    for (int k = 0; k < {sizes['r']}; ++k) R[k] = usse_zero;",
              "    for (int k = 0; k < 16; ++k) I[k] = usse_zero;",
              "    for (int k = 0; k < 4; ++k) P[k] = usse_zero != 0u;",
              "}", ""]
    lines += programs[0].function("usse_secondary", budget) + [""]
    lines += programs[1].function("usse_primary", budget) + [""]
    lines += ["void main() {",
              f"    for (int k = 0; k < {sizes['pa']}; ++k) PA[k] = usse_zero;",
              f"    for (int k = 0; k < {sizes['sa']}; ++k) SA[k] = usse_zero;",
              f"    for (int k = 0; k < {sizes['o']}; ++k) O[k] = usse_zero;"]
    for k in range((pa_count + 3) // 4):
        lines += [f"    PA[{4 * k + c}] = usse_pa{k}.{'xyzw'[c]};" for c in range(4) if 4 * k + c < pa_count]
    if sa_count:
        lines.append(f"    for (int k = 0; k < {sa_count}; ++k) SA[k] = usse_sa[k];")
    lines += ["    usse_reset();",
              "    usse_secondary();",
              "    if (usse_trap_code == 0u) {",
              "        usse_reset();",
              "        usse_primary();",
              "    }"]
    lines.append(f"    uint captured[{4 * vectors}];")
    lines.append(f"    for (int k = 0; k < {4 * vectors}; ++k) captured[k] = usse_o_base + k < {o_count} ? O[usse_o_base + k] : 0u;")
    for k in range(vectors):
        lines.append(f"    usse_o{k} = uvec4({', '.join(f'captured[{4 * k + c}]' for c in range(4))});")
    lines += ["    usse_trap = uvec2(usse_trap_code, usse_trap_pc);",
              "    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);",
              "}"]
    return "\n".join(lines) + "\n"
