"""RSX statements that stand for other instructions, expanded as text (spec/rsx.md 5.1, the
table of cgcomp's rewrites; 3.7 for DDX/DDY).

This module owns what cgcomp writes for them, and when: VP ``SUB``/``ABS``/``POW``/``LRP`` and FP
``SUB``/``ABS`` (no hardware opcode of their own), and FP ``POW``/``LRP``/``LIT`` and ``DDX``/
``DDY`` writing z or w (hardware opcodes cgcomp expands all the same, unless a statement is marked
``#! native``). :func:`expansion` turns a statement's mnemonic and operand texts into the
statements that encode it; a value that needs room goes through a scratch temp T, the next R
index after the program's own temps, which the caller finds (it depends on the whole program).
The first pieces keep only the precision suffix; the last one keeps every suffix and the
destination as written, conditional write included.

Working on text lets the expansions be core macro handlers: the RSX assembler
(:mod:`.assembly`) and :func:`macro_handlers` hand what :func:`expansion` returns to core's
driver, whose statements the descriptions parse. Operand texts are
rebuilt rather than reparsed: a source's sign, bars and swizzle are read off its text and
written again around the register text, so swizzles compose (``a.zwzw`` read as ``.xxxy`` is
``a.zzzw``) whatever the register is called.

ABS is ``MOV d, |a|`` with the sign of ``a`` dropped: a source's modifiers apply abs first, then
negate (spec 3.8), so ``|-a|`` is ``|a|`` (NV_vertex_program, ARB).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from shaderkit.core.asm_hooks import MacroCall, MacroHandler
from shaderkit.core.model import Instruction

from . import syntax
from .assembly_hints import is_native
from .container import ProgramKind
from .syntax import FULL_MASK, IDENTITY

# Statements with no hardware opcode of their own: always expanded.
PSEUDO_INSTRUCTIONS = {ProgramKind.VERTEX: ("SUB", "ABS", "POW", "LRP"), ProgramKind.FRAGMENT: ("SUB", "ABS")}
# FP opcodes cgcomp writes as several instructions unless a statement is marked ``#! native``;
# the disassembler marks them so.
EXPANDED_UNLESS_NATIVE = frozenset({"POW", "LRP", "LIT", "DDX", "DDY"})
SOURCE_COUNTS = {"SUB": 2, "ABS": 1, "POW": 2, "LRP": 3, "LIT": 1, "DDX": 1, "DDY": 1}
NATIVE_MISPLACED = "'native' applies only to fragment LRP, LIT, POW, DDX and DDY"

_SWIZZLE_END = re.compile(r"(?P<body>.*?)\.(?P<letters>[xyzw]{1,4})", re.DOTALL)
_BARE_NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_CONDITION_END = re.compile(r"\s*\([^()]*\)\s*\Z")


# --- when a statement expands ----------------------------------------------------------------


def expands_unless_native(kind: ProgramKind, mnemonic: str, written: Sequence[bool]) -> bool:
    """Whether an FP hardware opcode is expanded unless marked native: POW, LRP and LIT always,
    DDX and DDY when ``written`` (the write mask, x first) holds z or w."""
    if kind is not ProgramKind.FRAGMENT or mnemonic not in EXPANDED_UNLESS_NATIVE:
        return False
    return mnemonic not in ("DDX", "DDY") or any(written[2:])


def instruction_expands_unless_native(instruction: Instruction, kind: ProgramKind) -> bool:
    """:func:`expands_unless_native` for an instruction of the descriptions (an empty FP mask
    shows as xyzw, so it counts as one)."""
    mask = instruction.fields.get("mask") or 0xF  # FP: x in bit 0; a VP instruction has none
    return expands_unless_native(kind, instruction.mnemonic, [bool(mask >> lane & 1) for lane in range(4)])


def native_applies(kind: ProgramKind, mnemonic: str) -> bool:
    """Whether ``#! native`` means anything for the statement (see :data:`NATIVE_MISPLACED`)."""
    return kind is ProgramKind.FRAGMENT and mnemonic in EXPANDED_UNLESS_NATIVE


def refusal(mnemonic: str) -> str:
    """Why a single-instruction reader refuses a statement that expands."""
    return (f"{mnemonic} expands to several instructions; one statement here is one instruction "
            "(add '#! native' for the single hardware opcode)")


# --- operand texts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """A source operand's text taken apart: sign, bars, the register text, the swizzle."""

    body: str
    swizzle: tuple[int, int, int, int] = IDENTITY
    negate: bool = False
    absolute: bool = False

    @classmethod
    def read(cls, text: str) -> _Source:
        text = text.strip()
        negate = text.startswith("-")
        text = text[1:].lstrip() if text[:1] in "+-" else text
        absolute = text.startswith("|") and text.count("|") == 2
        if absolute:  # |a| or |a|.xy; the sign outside the bars is the one that counts
            inside, after = text[1:].split("|")
            text = inside.strip().lstrip("+-").strip() + after.strip()
        found = _SWIZZLE_END.fullmatch(text)
        body, swizzle = (found["body"], syntax.parse_swizzle(found["letters"], 1)) if found else (text, IDENTITY)
        if _BARE_NUMBER.fullmatch(body):  # a bare number is every lane of an inline constant
            body = f"{{{body}}}"
        return cls(body, swizzle, negate, absolute)

    @property
    def text(self) -> str:
        register = self.body + syntax.swizzle_suffix(self.swizzle)
        return ("-" if self.negate else "") + (f"|{register}|" if self.absolute else register)

    def negated(self) -> _Source:
        return replace(self, negate=not self.negate)

    def absolute_value(self) -> _Source:
        return replace(self, negate=False, absolute=True)

    def swizzled(self, lanes: tuple[int, ...]) -> _Source:
        """This operand read through a further swizzle (``a.xxxy`` of ``a.zwzw`` is ``a.zzzw``)."""
        return replace(self, swizzle=tuple(self.swizzle[lane] for lane in lanes))


def written_lanes(destination: str) -> tuple[bool, bool, bool, bool]:
    """The write mask of a destination's text (its conditional write aside); xyzw when the text
    shows none or one the destination's reader will refuse."""
    found = _SWIZZLE_END.fullmatch(_CONDITION_END.sub("", destination.strip()))
    if found is None or not re.fullmatch(r"x?y?z?w?", found["letters"]):
        return FULL_MASK
    return tuple(letter in found["letters"] for letter in syntax.LANES)


# --- the expansions --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Writer:
    """Writes the statements of one expansion: ``piece`` for the scratch temp T, ``last`` for
    the statement's own destination."""

    precision: str  # the precision suffix as written (FP), which every piece keeps
    suffix: str  # every suffix as written, which the last statement keeps
    destination: str
    written: tuple[bool, ...]  # the destination's write mask
    scratch: int

    def temp(self, lanes: tuple[int, ...] = IDENTITY) -> _Source:
        return _Source(f"R{self.scratch}", tuple(lanes))

    def piece(self, opcode: str, mask: tuple[bool, ...], *sources: _Source) -> str:
        destination = f"R{self.scratch}{syntax.mask_suffix(mask)}"
        return f"{opcode}{self.precision} " + ", ".join([destination, *(source.text for source in sources)])

    def last(self, opcode: str, *sources: _Source) -> str:
        return f"{opcode}{self.suffix} " + ", ".join([self.destination, *(source.text for source in sources)])


def _lanes(letters: str) -> tuple[bool, bool, bool, bool]:
    return tuple(letter in letters for letter in syntax.LANES)


def _sub(write: _Writer, a: _Source, b: _Source) -> list[str]:
    return [write.last("ADD", a, b.negated())]


def _abs(write: _Writer, a: _Source) -> list[str]:
    return [write.last("MOV", a.absolute_value())]


def _pow(write: _Writer, a: _Source, b: _Source) -> list[str]:
    """POW d, a, b = LG2 T.x, a; MUL T.x, T.x, b; EX2 d, T.x."""
    temp_x = write.temp((0, 0, 0, 0))
    return [write.piece("LG2", _lanes("x"), a), write.piece("MUL", _lanes("x"), temp_x, b),
            write.last("EX2", temp_x)]


def _lrp(write: _Writer, a: _Source, b: _Source, c: _Source) -> list[str]:
    """LRP d, a, b, c = MAD T, -a, c, c; MAD d, a, b, T (T written where d is, as cgcomp does)."""
    return [write.piece("MAD", write.written, a.negated(), c, c), write.last("MAD", a, b, write.temp())]


def _lit(write: _Writer, a: _Source) -> list[str]:
    """LIT d, a = MAX T.yw, a.xxxy, {0}; LG2 T.w, T.w; MUL T.w, T.w, a.w; LIF d, T.yyww."""
    temp_w = write.temp((3, 3, 3, 3))
    return [write.piece("MAX", _lanes("yw"), a.swizzled((0, 0, 0, 1)), _Source("{0}")),
            write.piece("LG2", _lanes("w"), temp_w),
            write.piece("MUL", _lanes("w"), temp_w, a.swizzled((3, 3, 3, 3))),
            write.last("LIF", write.temp((1, 1, 3, 3)))]


def _derivative(opcode: str) -> Callable[..., list[str]]:
    def expand(write: _Writer, a: _Source) -> list[str]:
        """The hardware computes x and y only (spec 3.7): z and w go through T's x and y."""
        return [write.piece(opcode, _lanes("xy"), a.swizzled((2, 3, 2, 3))),
                write.piece("MOV", _lanes("zw"), write.temp((0, 1, 0, 1))),
                write.piece(opcode, _lanes("xy"), a), write.last("MOV", write.temp())]
    return expand


_EXPANSIONS = {"SUB": _sub, "ABS": _abs, "POW": _pow, "LRP": _lrp, "LIT": _lit,
               "DDX": _derivative("DDX"), "DDY": _derivative("DDY")}


def _expanding_names(kind: ProgramKind) -> tuple[str, ...]:
    """The names of the statements that may expand in a program of ``kind``."""
    return (*PSEUDO_INSTRUCTIONS[kind], *(sorted(EXPANDED_UNLESS_NATIVE) if kind is ProgramKind.FRAGMENT else ()))


def macro_name(kind: ProgramKind, mnemonic: str) -> tuple[str, str, str] | None:
    """(name, precision suffix, every suffix) of a mnemonic that may expand, else None."""
    written = mnemonic.upper()
    for name in _expanding_names(kind):
        suffixes = syntax.SUFFIX_PATTERN.fullmatch(written[len(name):]) if written.startswith(name) else None
        if suffixes is not None:
            return name, suffixes["precision"] or "", mnemonic[len(name):]
    return None


def expansion(kind: ProgramKind, mnemonic: str, operands: Sequence[str], scratch: int, *, native: bool = False,
              written: Sequence[bool] | None = None) -> list[str] | None:
    """The statements (without ';') that ``mnemonic operands…`` stands for, through scratch temp
    ``R<scratch>``; None for a statement that is its own instruction (not one of these, marked
    ``native``, or with the wrong operand count, which its reader reports). ``written`` is the
    destination's write mask where the caller has resolved it (declared names, fixed lanes);
    otherwise it is read off the destination's text."""
    found = macro_name(kind, mnemonic)
    if found is None or len(operands) != 1 + SOURCE_COUNTS[found[0]]:
        return None
    name, precision, suffix = found
    written = tuple(written) if written is not None else written_lanes(operands[0])
    if name not in PSEUDO_INSTRUCTIONS[kind] and (native or not expands_unless_native(kind, name, written)):
        return None
    write = _Writer(precision, suffix, operands[0].strip(), written, scratch)
    return _EXPANSIONS[name](write, *(_Source.read(text) for text in operands[1:]))


# --- as core macro handlers ------------------------------------------------------------------


def macro_spellings(kind: ProgramKind) -> list[str]:
    """Every way a statement that may expand can start: the name with each suffix the
    grammar reads after it (precision and scale only in a fragment program)."""
    fragment = kind is ProgramKind.FRAGMENT
    precisions = ("", *syntax.PRECISION_SUFFIXES) if fragment else ("",)
    scales = ("", *syntax.SCALE_SUFFIXES.values()) if fragment else ("",)
    updates = ("", "C", "C0", "C1")
    return ["".join(parts) for parts in itertools.product(_expanding_names(kind), precisions, updates, ("", "_SAT"),
                                                            scales)]


def macro_handlers(kind: ProgramKind, scratch: int) -> dict[str, MacroHandler]:
    """The expansions as core macro handlers, under every suffixed spelling of their names (the
    driver looks a macro up by its first word); ``scratch`` is the program's scratch temp, and
    ``native`` in a statement's ``#!`` text keeps it as written."""

    def handler(call: MacroCall) -> list[str] | None:
        return expansion(kind, call.name, call.operands, scratch, native=is_native(call.hints))

    return {spelling: handler for spelling in macro_spellings(kind)}
