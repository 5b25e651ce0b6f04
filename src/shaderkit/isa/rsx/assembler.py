"""RSX assembler: form A text (NV_vertex_program3 / NV_fragment_program2, spec/rsx.md 5.1) and
form-B vertex listings to programs.

This module owns the statement grammar, the encoding rules and the assembler driver. Reading
proceeds in three steps: every line is parsed into declarations, labels, block keywords and
:class:`Statement` values (an instruction as written, with its operands resolved to register
files and indices); macros are expanded (VP ``SUB``/``ABS``/``POW``/``LRP``, FP ``SUB``/``ABS``/
``POW``/``LRP``/``LIT`` and ``DDX``/``DDY`` writing z or w, through a scratch temp = the next R
index after the program's own temps, spec 5.1) by :mod:`.assembly_macros`, whose statement texts
are parsed in turn (an error in them points at the macro's statement); then :func:`encode` turns
each statement into its words, filling every bit the text does not show exactly as PSL1GHT
cgcomp does, so the 22 ``asm`` goldens come out byte-identical.

Syntax beyond cgcomp's (documented here, printed by :mod:`.disassembler`):

* Co-issue (VP): ``MOV o[7], v[0] + COS R1.xy, c[467].x;`` is one slot; the operation left of
  ``+`` is the vector unit's, the one right of it the scalar unit's (``NOP + MOV R0.x, v[0];``
  is a scalar-unit MOV). In a form-B listing line (``NNN: …``) every statement on the line is
  part of that one slot.
* ``#! field=value …`` after a statement sets fields of :mod:`.fields` (values decimal or hex,
  read by :mod:`.assembly_hints`) after the instruction has been built; ``literal=w,w,w,w`` sets the FP literal slot words;
  ``native`` keeps an FP ``LRP``/``LIT``/``POW``/``DDX``/``DDY`` as its single hardware opcode
  instead of expanding it. ``#! trailing w w w w`` after ``END`` appends a slot after the end.
  A plain ``#`` comment may follow the hints on their line.
* ``#default name = x y z w …`` gives an FP uniform's literal value (one vec4 per row); without
  it a uniform's literal slots hold zero, as cgcomp writes them.
* Branches: ``BRA label`` and ``CAL label`` are scalar opcodes 0x09 and 0x0B (cgcomp); ``BRA
  A0.x`` and ``CAL A0.x`` the register forms 0x08 and 0x0A; ``BRB label, bit, value`` and
  ``CLB …`` branch on TRANSFORM_BRANCH_BITS; FP ``CAL label`` holds the label's word offset.
* Scale suffixes ``_X2 _X4 _X8 _D2 _D4 _D8`` after ``_SAT`` (FP dst scale, SRC1 28-30).
* FP ``SUB`` and ``ABS`` become ``ADD a, -b`` and ``MOV |a|`` (cgcomp emits nothing for them);
  ABS drops the sign of its source, VP and FP alike (``|-a|`` is ``|a|``).
* Declarations (``TEMP``, ``ADDRESS``, ``OUTPUT``, ``ATTRIB``, ``PARAM`` …) are read by the
  directive handlers of :mod:`.assembly_declarations` before any statement, so their order does
  not matter. A VP ``PARAM x = {…}`` goes to constant memory as a ``#const`` would put it (a
  container records it as an internal constant) in the lowest c[] nothing else holds or names:
  lowest-free keeps the choice predictable and clear of the uniforms a program declares; a
  value set at run time on a register the program never names cannot reach what it reads.
* Inline FP literals: ``{1, 0, 0.5, 2}``, ``{0.5}`` (all lanes), ``{a, b}`` / ``{a, b, c}``
  (y, z = 0 and w = 1 for missing lanes, ARB style), a bare number (all lanes), and the form-B
  spelling ``{0x3f800000(1), …}`` (the hex bits count, the value in parentheses is ignored).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

from shaderkit.core.asm import SourceLine
from shaderkit.core.asm_hooks import DirectiveCall, PassState, expansion_error
from shaderkit.core.diagnostics import Diagnostic, DiagnosticError, SourceError
from shaderkit.core.model.templates import split_operands
from shaderkit.core.suggest import did_you_mean

from . import assembly_declarations
from . import fields as layout
from . import syntax
from .assembly_declarations import Declarations, Names, OperandGrammar, hardware_register
from .assembly_hints import LITERAL, is_native, read_hints
from .assembly_macros import NATIVE_MISPLACED, PSEUDO_INSTRUCTIONS, SOURCE_COUNTS, expansion, native_applies
from .description import literal_words
from .container import ProgramKind
from .instruction import (CONDITION_TRUE, VP_CODE_SLOTS, Instruction, Program, fragment_has_literal,
                          words_to_floats)
from .opcodes import FP, VP_SCALAR, VP_VECTOR, Opcode, by_name
from .syntax import FULL_MASK, IDENTITY, Token, TokenStream

# Unused source slots (spec 2.6 and 3.1).
VP_SOURCE_FILLER = 0x1B02  # input type, identity swizzle
FP_SOURCE_FILLER = 0x1C800  # temp R0, identity swizzle
FP_TEXCOORD_DISPLACEMENT = 0x7FC  # spec 3.5
FP_NO_DESTINATION = 0x3F
VP_IDENTITY_CC_SWIZZLE = 0x1B
FP_IDENTITY_CC_SWIZZLE = 0xE4

# cgc / cgcomp perspective rule (spec 3.5): these read a texcoord in src0 with the flag set.
FP_PERSPECTIVE_OPCODES = frozenset({0x02, 0x05, 0x06, 0x38, 0x39, 0x3A})
FP_FLOW_PRECISION_H = frozenset({0x42, 0x43, 0x44})  # IFE, LOOP, REP carry OPDEST precision 1
BLOCK_KEYWORDS = ("ELSE", "ENDIF", "ENDLOOP", "ENDREP")
MAX_ERRORS = 100


# --- statements as parsed ----------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where a piece of text starts in its line (1-based) and how long it is."""

    column: int
    length: int = 1

    @classmethod
    def of(cls, token: Token) -> Place:
        return cls(token.column, token.length)

    def error(self, message: str) -> SourceError:
        return SourceError(message, self.column, self.length)


NOWHERE = Place(1)


@dataclass(frozen=True)
class ConditionTest:
    """``(GT1.xy)``: test code, CC register, CC swizzle."""

    test: int
    register: int
    swizzle: tuple[int, int, int, int]
    place: Place = field(default=NOWHERE, compare=False)


ALWAYS = ConditionTest(CONDITION_TRUE, 0, IDENTITY)


@dataclass(frozen=True)
class Source:
    """A source operand: ``file`` is R, H, v, f, c or literal (an inline FP vec4)."""

    file: str
    index: int = 0
    swizzle: tuple[int, int, int, int] = IDENTITY
    negate: bool = False
    absolute: bool = False
    relative: tuple[int, int] | None = None  # VP (address register, lane)
    literal: tuple[int, int, int, int] | None = None
    place: Place = field(default=NOWHERE, compare=False)

    def swizzled(self, lanes: tuple[int, ...]) -> Source:
        """This operand read through a further swizzle (``a.xxxy`` of ``a.zwzw`` is ``a.zzzw``)."""
        return replace(self, swizzle=tuple(self.swizzle[lane] for lane in lanes))


@dataclass(frozen=True)
class Destination:
    """``file`` is R, H, o (VP output), A (address register), CC (VP CC-only), RC or HC (FP)."""

    file: str
    index: int = 0
    mask: tuple[bool, bool, bool, bool] = FULL_MASK
    condition: ConditionTest | None = None
    place: Place = field(default=NOWHERE, compare=False)


@dataclass(frozen=True)
class Operation:
    """One mnemonic with its operands. ``sources`` pairs each operand with its source slot."""

    name: str
    unit: str  # vector, scalar (VP units) or fragment
    opcode: Opcode | None  # None: a macro, expanded before encoding
    place: Place
    precision: int | None = None
    cc_update: bool = False
    cc_register: int | None = None
    saturate: bool = False
    scale: int = 0
    destination: Destination | None = None
    sources: tuple[tuple[int, Source], ...] = ()
    texture: tuple[int, str] | None = None
    condition: ConditionTest | None = None  # the operand of KIL, IF, BRK, BRA ...
    label: tuple[str, Place] | None = None
    branch_bit: tuple[int, int] | None = None
    address: tuple[int, int] | None = None  # BRA/CAL through A0/A1 lane
    loop_constant: Source | None = None


@dataclass(frozen=True)
class Hints:
    """``#! …``: field overrides, literal words, and the native flag."""

    fields: tuple[tuple[str, int], ...] = ()
    literal: tuple[int, int, int, int] | None = None
    native: bool = False
    place: Place = NOWHERE


@dataclass(frozen=True)
class Statement:
    operations: tuple[Operation, ...]
    hints: Hints | None = None
    text: str = field(default="", compare=False)  # as written, for a macro's expansion

    @property
    def place(self) -> Place:
        return self.operations[0].place


# --- public results ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Uniform:
    """A ``#var`` line bound to constant registers ``c[index] .. c[index + count - 1]``."""

    name: str
    type: str
    index: int
    count: int
    parameter_number: int | None
    referenced: int | None
    default: tuple[tuple[float, float, float, float], ...] | None = None


@dataclass(frozen=True)
class AssembledProgram:
    program: Program
    constants: dict[int, tuple[float, float, float, float]]
    uniforms: tuple[Uniform, ...]
    literal_constants: dict[int, int]
    warnings: tuple[Diagnostic, ...]


def _mnemonic_table(kind: ProgramKind) -> dict[str, tuple[str, Opcode | None]]:
    table: dict[str, tuple[str, Opcode | None]] = {}
    if kind is ProgramKind.VERTEX:
        for name, opcode in by_name(VP_SCALAR).items():
            table[name] = ("scalar", opcode)
        for name, opcode in by_name(VP_VECTOR).items():
            table[name] = ("vector", opcode)
        # NV text: BRA/CAL to a label are the immediate forms (cgcomp, spec 2.8).
        table["BRA"] = ("scalar", VP_SCALAR[0x09])
        table["CAL"] = ("scalar", VP_SCALAR[0x0B])
        for name in PSEUDO_INSTRUCTIONS[kind]:
            table[name] = ("vector", None)
    else:
        for name, opcode in by_name(FP).items():
            table[name] = ("fragment", opcode)
        for name in PSEUDO_INSTRUCTIONS[kind]:
            table[name] = ("fragment", None)
    return table


_MNEMONICS = {kind: _mnemonic_table(kind) for kind in ProgramKind}
_SCALE_CODES = {suffix: code for code, suffix in syntax.SCALE_SUFFIXES.items()}
_MNEMONICS_BY_LENGTH = {kind: sorted(table, key=len, reverse=True) for kind, table in _MNEMONICS.items()}


@dataclass(frozen=True)
class _Mnemonic:
    name: str
    unit: str
    opcode: Opcode | None
    precision: int | None
    cc_update: bool
    cc_register: int | None
    saturate: bool
    scale: int


def _resolve_mnemonic(token: Token, kind: ProgramKind) -> _Mnemonic:
    text = token.text.upper()
    for name in _MNEMONICS_BY_LENGTH[kind]:
        if not text.startswith(name):
            continue
        match = syntax.SUFFIX_PATTERN.fullmatch(text[len(name):])
        if match is None:
            continue
        unit, opcode = _MNEMONICS[kind][name]
        precision, cc, saturate, scale = match.group("precision", "cc", "saturate", "scale")
        if kind is ProgramKind.VERTEX and (precision or scale):
            continue
        return _Mnemonic(name, unit, opcode,
                         None if precision is None else syntax.PRECISION_SUFFIXES.index(precision),
                         cc is not None, int(cc[1]) if cc and len(cc) == 2 else None,
                         saturate is not None, _SCALE_CODES.get(scale, 0))
    program = "vertex" if kind is ProgramKind.VERTEX else "fragment"
    suggestion = ""
    if kind is ProgramKind.FRAGMENT and len(text) > 1 and text[-1] in syntax.PRECISION_SUFFIXES:
        # MULLR: most likely the name is misspelt and the precision suffix is meant.
        suggestion = did_you_mean(text[:-1], _MNEMONICS[kind]).replace("?)", f"{text[-1]}?)")
    suggestion = suggestion or did_you_mean(token.text, _spellings(kind))
    raise SourceError(f"unknown {program} program instruction '{token.text}'{suggestion}", token.column,
                      token.length)


def _spellings(kind: ProgramKind) -> list[str]:
    """Every word that can start a statement: what a misspelt one is compared with."""
    return [*_MNEMONICS[kind], *BLOCK_KEYWORDS, *assembly_declarations.KEYWORDS, "END", "OPTION"]


# --- raw operands ------------------------------------------------------------------------------


@dataclass
class _RawOperand:
    """An operand as written, before it is read as a source, destination, label or condition."""

    place: Place
    negate: bool = False
    absolute: bool = False
    path: list[tuple[str, object, Token]] = field(default_factory=list)  # ("name"|"index", value, token)
    letters: Token | None = None  # trailing .xyzw
    literal: tuple[int, int, int, int] | None = None
    condition: ConditionTest | None = None
    bare_condition: ConditionTest | None = None  # (GT.x) written as the operand itself

    @property
    def is_plain_name(self) -> bool:
        return len(self.path) == 1 and self.path[0][0] == "name" and not (self.negate or self.absolute)


@dataclass(frozen=True)
class _Index:
    """What is inside ``[...]``."""

    number: int | None = None
    name: str | None = None
    relative: tuple[str, str, int] | None = None  # (register name, lane letter, offset)
    token: Token | None = None  # the register name of a relative index


def _parse_condition(stream: TokenStream) -> ConditionTest:
    open_token = stream.expect("(", "to start a condition")
    name = stream.expect_name("a condition (FL, LT, EQ, LE, GT, NE, GE or TR)")
    test = _condition_from(name, stream)
    close = stream.expect(")", "to close the condition")
    return replace(test, place=Place(open_token.column, close.column - open_token.column + 1))


def _condition_from(name: Token, stream: TokenStream) -> ConditionTest:
    match = syntax.CONDITION_PATTERN.fullmatch(name.text)
    if match is None:
        raise SourceError(f"'{name.text}' is not a condition (FL, LT, EQ, LE, GT, NE, GE or TR, "
                          "optionally followed by the CC number 0 or 1)", name.column, name.length)
    swizzle = IDENTITY
    if stream.accept("."):
        letters = stream.expect_name("a condition swizzle")
        swizzle = syntax.parse_swizzle(letters.text, letters.column)
    test = syntax.CONDITION_NAMES.index(match.group(1))
    return ConditionTest(test, int(match.group(2) or 0), swizzle, Place.of(name))


def _parse_index(stream: TokenStream) -> _Index:
    token = stream.peek()
    if token.kind in ("number", "hex"):
        value, _ = stream.expect_integer("an index")
        if stream.accept(".."):
            stream.expect_integer("the end of the range")
            return _Index()
        return _Index(number=value)
    name = stream.expect_name("an index")
    if not stream.at("."):
        return _Index(name=name.text)
    stream.next()
    lane = stream.expect_name("an address register lane")
    offset = 0
    if stream.at("+") or stream.at("-"):
        sign = stream.next()
        value, number = stream.expect_integer("an offset")
        if sign.text == "-" and value:
            raise SourceError("relative offsets cannot be negative (the field is unsigned)",
                              sign.column, number.column + number.length - sign.column)
        offset = value
    return _Index(relative=(name.text, lane.text, offset), token=name)


def _parse_literal_vector(stream: TokenStream) -> tuple[int, int, int, int]:
    open_token = stream.expect("{")
    values = []
    while True:
        values.append(syntax.parse_number_bits(stream))
        if stream.accept("("):  # form-B spelling: the decimal value is informative only
            syntax.parse_number_bits(stream)
            stream.expect(")", "after the value")
        if not stream.accept(","):
            break
    close = stream.expect("}", "to close the constant")
    if len(values) > 4:
        raise SourceError("a constant vector has at most 4 values", open_token.column,
                          close.column - open_token.column + 1)
    return _widen(values)


def _widen(values: list[int]) -> tuple[int, int, int, int]:
    """``{a}`` fills all four lanes; otherwise missing lanes are y = z = 0, w = 1 (ARB)."""
    if len(values) == 1:
        return (values[0],) * 4
    return tuple(values + [0, 0, 0, syntax.float_bits_of(1.0)][len(values):])


def _is_swizzle_letters(token: Token) -> bool:
    return token.kind == "name" and re.fullmatch(r"[xyzw]{1,4}", token.text) is not None


def _parse_operand(stream: TokenStream) -> _RawOperand:
    start = stream.peek()
    operand = _RawOperand(Place.of(start))
    if stream.accept("-"):
        operand.negate = True
    else:
        stream.accept("+")
    if stream.at("|"):
        stream.next()
        inner = _parse_operand(stream)
        stream.expect("|", "to close the absolute value")
        inner.absolute = True
        inner.negate = operand.negate  # |-x| is |x|; the sign outside the bars counts
        if stream.at(".") and _is_swizzle_letters(stream.peek(1)) and inner.letters is None:
            stream.next()
            inner.letters = stream.next()
        operand = inner
    elif stream.at("{"):
        operand.literal = _parse_literal_vector(stream)
        if stream.at(".") and _is_swizzle_letters(stream.peek(1)):
            stream.next()
            operand.letters = stream.next()
    elif stream.peek().kind in ("number", "hex"):
        operand.literal = (syntax.parse_number_bits(stream),) * 4
    elif stream.at("("):
        operand.bare_condition = _parse_condition(stream)
    else:
        name = stream.expect_name("an operand")
        if syntax.CONDITION_PATTERN.fullmatch(name.text) and not stream.at("["):
            # ``KIL GT.x``: a condition written without parentheses.
            operand.bare_condition = _condition_from(name, stream)
        else:
            _parse_path(stream, name, operand)
    if stream.at("("):
        operand.condition = _parse_condition(stream)
    end = stream.tokens[stream.position - 1]
    operand.place = Place(start.column, max(1, end.column + end.length - start.column))
    return operand


def _parse_path(stream: TokenStream, name: Token, operand: _RawOperand) -> None:
    """``vertex.texcoord[2].xy``: dotted names and indices; a last ``.xyzw`` is the swizzle or
    mask (no register name part consists of those letters only)."""
    operand.path.append(("name", name.text, name))
    while True:
        if stream.at("["):
            bracket = stream.next()
            index = _parse_index(stream)
            stream.expect("]", "to close the index")
            operand.path.append(("index", index, bracket))
        elif stream.at(".") and stream.peek(1).kind == "name":
            follower = stream.peek(2)
            is_last = not (follower.kind == "punct" and follower.text in (".", "["))
            stream.next()
            part = stream.next()
            if _is_swizzle_letters(part) and is_last:
                operand.letters = part
                return
            operand.path.append(("name", part.text, part))
        else:
            return


def _parse_operands(stream: TokenStream) -> list[_RawOperand]:
    operands: list[_RawOperand] = []
    if stream.at(";") or stream.at("+") or stream.peek().kind == "end":
        return operands
    operands.append(_parse_operand(stream))
    while stream.accept(","):
        operands.append(_parse_operand(stream))
    return operands


# --- reading operands as registers -------------------------------------------------------------


def _path_text(operand: _RawOperand) -> str:
    text = ""
    for kind, value, _ in operand.path:
        text += f".{value}" if kind == "name" and text else (value if kind == "name" else "[…]")
    return text


def _dotted(operand: _RawOperand) -> tuple[str, _Index | None]:
    """``vertex.texcoord[2]`` -> ("vertex.texcoord", index 2); indices only at the end."""
    names = []
    index = None
    for position, (kind, value, token) in enumerate(operand.path):
        if kind == "index":
            if position != len(operand.path) - 1:
                raise SourceError("unexpected index", token.column, token.length)
            index = value
        else:
            names.append(value)
    return ".".join(names), index


def _index_number(index: _Index | None, token: Token, limit: int, what: str,
                  short_names: dict[str, int] | None = None) -> int:
    if index is None:
        raise SourceError(f"{what} needs an index", token.column, token.length)
    if index.number is not None:
        value = index.number
    elif index.name is not None and short_names and index.name in short_names:
        value = short_names[index.name]
    else:
        raise SourceError(f"bad index for {what}", token.column, token.length)
    if not 0 <= value < limit:
        raise SourceError(f"{what} index {value} is out of range (0..{limit - 1})", token.column,
                          token.length)
    return value


def _relative(index: _Index, token: Token, limit: int, what: str, names: Names) -> tuple[int, tuple[int, int]]:
    register, lane, offset = index.relative
    match = re.fullmatch(r"A([01])", register)
    number = int(match.group(1)) if match else None
    if number is None and names.registers.get(register, ("",))[0] == "A":
        number = names.registers[register][1]
    if number is None or lane not in syntax.LANES or len(lane) != 1:
        raise SourceError(f"relative {what} addressing is written [A0.x+n] or [A1.y+n]",
                          index.token.column, index.token.length)
    if offset >= limit:
        raise SourceError(f"{what} offset {offset} is out of range (0..{limit - 1})", token.column,
                          token.length)
    return offset, (number, syntax.LANES.index(lane))


def _read_source(operand: _RawOperand, kind: ProgramKind, names: Names) -> Source:
    if operand.condition is not None:
        raise operand.condition.place.error("a condition belongs after the destination")
    if operand.bare_condition is not None:
        raise operand.place.error("expected a source operand, found a condition")
    swizzle = IDENTITY
    if operand.letters is not None:
        swizzle = syntax.parse_swizzle(operand.letters.text, operand.letters.column)
    common = dict(swizzle=swizzle, negate=operand.negate, absolute=operand.absolute, place=operand.place)
    if operand.literal is not None:
        if kind is ProgramKind.VERTEX:
            raise operand.place.error("vertex programs have no inline constants; declare "
                                      "'#const c[N] = …' and read c[N]")
        return Source("literal", literal=operand.literal, **common)
    name, index = _dotted(operand)
    token = operand.path[0][2]
    if index is None and name in names.sources:
        alias = names.sources[name]
        # Bars written around the name take the alias's sign inside them: |x| of x = -a is |a|.
        negate = operand.negate if operand.absolute else alias.negate != operand.negate
        return replace(alias, negate=negate, absolute=alias.absolute or operand.absolute,
                       place=operand.place).swizzled(swizzle)
    if index is None and name in names.valueless:
        raise operand.place.error(f"PARAM '{name}' has no value we can bind; read a constant "
                                  "declared by #const or #var as c[N]")
    if index is None and name in names.registers:
        file, number = names.registers[name]
        if file == "A":
            raise operand.place.error("an address register is not a source operand")
        return Source(file, number, **common)
    register = None if index is not None else hardware_register(name, token, kind)
    if register is not None:
        file, number = register
        if file == "A":
            raise operand.place.error("an address register is not a source operand")
        return Source(file, number, **common)
    if kind is ProgramKind.VERTEX:
        return _read_vertex_source(name, index, token, operand, common, names)
    return _read_fragment_source(name, index, token, operand, common, names)


def _read_vertex_source(name: str, index: _Index | None, token: Token, operand: _RawOperand,
                        common: dict, names: Names) -> Source:
    if name in ("v", "c") and index is not None and index.relative is not None:
        limit = syntax.VP_INPUTS if name == "v" else syntax.VP_CONSTANTS
        offset, relative = _relative(index, operand.path[-1][2], limit, "input" if name == "v" else "constant",
                                     names)
        return Source(name, offset, relative=relative, **common)
    if name == "v":
        return Source("v", _index_number(index, token, syntax.VP_INPUTS, "v", syntax.VP_INPUT_SHORT_NAMES),
                      **common)
    if name == "c":
        return Source("c", _index_number(index, token, syntax.VP_CONSTANTS, "c"), **common)
    if index is None and name in syntax.VP_INPUT_SPELLINGS:
        return Source("v", syntax.VP_INPUT_SPELLINGS[name], **common)
    if name == "vertex.texcoord":
        number = 0 if index is None else _index_number(index, token, 8, "vertex.texcoord")
        return Source("v", 8 + number, **common)
    if name == "vertex.attrib":
        return Source("v", _index_number(index, token, syntax.VP_INPUTS, "vertex.attrib"), **common)
    raise _unknown(operand, "source", [*syntax.VP_INPUT_SPELLINGS, "vertex.texcoord", "vertex.attrib",
                                       *_source_names(names)])


def _read_fragment_source(name: str, index: _Index | None, token: Token, operand: _RawOperand,
                          common: dict, names: Names) -> Source:
    if index is not None and index.relative is not None:
        raise operand.place.error("indexed fragment inputs are written with '#! indexed_input=1 "
                                  "displacement=…' hints")
    if name == "f":
        return Source("f", _index_number(index, token, syntax.FP_INPUTS, "f", syntax.FP_INPUT_SHORT_NAMES),
                      **common)
    if name == "c":
        return Source("c", _index_number(index, token, 1 << 16, "c"), **common)
    if index is None and name in syntax.FP_INPUT_SPELLINGS:
        return Source("f", syntax.FP_INPUT_SPELLINGS[name], **common)
    if name == "fragment.texcoord":
        number = 0 if index is None else _index_number(index, token, syntax.FP_TEXCOORDS, "fragment.texcoord")
        return Source("f", 4 + number, **common)
    raise _unknown(operand, "source", [*syntax.FP_INPUT_SPELLINGS, "fragment.texcoord", *_source_names(names)])


def _source_names(names: Names) -> list[str]:
    return [*names.sources, *names.valueless, *names.registers]


def _unknown(operand: _RawOperand, role: str, known: list[str]) -> SourceError:
    """The error for a register name nothing defines; ``known`` are the names it may be a typo of."""
    text = _path_text(operand)
    if len(operand.path) > 1 and re.fullmatch(r"[RHA]\d+|CC|RC|HC", str(operand.path[0][1])):
        kind, value, token = operand.path[1]
        if kind == "name":
            return SourceError(f"'.{value}' is not a swizzle or write mask (1 to 4 of x, y, z, w)",
                               token.column - 1, token.length + 1)
    if text.startswith(("program.", "state.")):
        return operand.place.error(f"'{text}' is not supported; read constants as c[N] declared "
                                   "by #const or #var")
    suggestion = did_you_mean(_dotted(operand)[0], known)
    return operand.place.error(f"unknown {role} register '{text}'"
                               + (suggestion or " (not a hardware name and never declared)"))


def _read_destination(operand: _RawOperand, kind: ProgramKind, names: Names) -> Destination:
    if operand.negate or operand.absolute or operand.literal is not None or operand.bare_condition:
        raise operand.place.error("expected a destination register")
    name, index = _dotted(operand)
    token = operand.path[0][2]
    mask = None
    if operand.letters is not None:
        mask = syntax.parse_mask(operand.letters.text, operand.letters.column)
    destination = _destination_register(name, index, token, operand, kind, names)
    forced = _forced_mask(name, index, kind)
    if forced is not None:
        if mask is not None and kind is ProgramKind.VERTEX:
            raise SourceError(f"{name} has a fixed lane; write no mask", operand.letters.column,
                              operand.letters.length)
        mask = mask or forced
    return replace(destination, mask=mask or FULL_MASK, condition=operand.condition, place=operand.place)


def _forced_mask(name: str, index: _Index | None, kind: ProgramKind) -> tuple[bool, ...] | None:
    if kind is ProgramKind.VERTEX and name == "result.clip" and index is not None and index.number is not None:
        lane = syntax.VP_CLIP_OUTPUTS.get(index.number, (0, 0))[1]
        return tuple(position == lane for position in range(4))
    if kind is ProgramKind.FRAGMENT and (name == "result.depth" or (name == "o" and index and index.name == "DEPR")):
        return (False, False, True, False)
    return None


def _destination_register(name: str, index: _Index | None, token: Token, operand: _RawOperand,
                          kind: ProgramKind, names: Names) -> Destination:
    if index is None and name in names.outputs:
        return names.outputs[name]
    if index is None and name in names.registers:
        file, number = names.registers[name]
        return Destination(file, number)
    if index is None and name in ("CC", "RC") and kind is ProgramKind.VERTEX:
        return Destination("CC")
    if index is None and name in ("RC", "HC") and kind is ProgramKind.FRAGMENT:
        return Destination(name)
    register = None if index is not None else hardware_register(name, token, kind)
    if register is not None:
        return Destination(*register)
    if kind is ProgramKind.VERTEX:
        if name == "o":
            return Destination("o", _index_number(index, token, syntax.VP_OUTPUTS, "o",
                                                  syntax.VP_OUTPUT_SHORT_NAMES))
        if index is None and name in syntax.VP_OUTPUT_SPELLINGS:
            return Destination("o", syntax.VP_OUTPUT_SPELLINGS[name])
        if name == "result.texcoord":
            number = 0 if index is None else _index_number(index, token, syntax.VP_TEXCOORD_OUTPUTS,
                                                            "result.texcoord")
            return Destination("o", 7 + number)
        if name == "result.clip":
            number = _index_number(index, token, len(syntax.VP_CLIP_OUTPUTS), "result.clip")
            return Destination("o", syntax.VP_CLIP_OUTPUTS[number][0])
        raise _unknown(operand, "destination", [*syntax.VP_OUTPUT_SPELLINGS, "result.texcoord", "result.clip",
                                                *_destination_names(names)])
    if name == "result.color":
        number = 0 if index is None else _index_number(index, token, len(syntax.FP_COLOR_OUTPUTS),
                                                        "result.color")
        return Destination("R", syntax.FP_COLOR_OUTPUTS[number])
    if name == "result.depth" and index is None:
        return Destination("R", syntax.FP_DEPTH_REGISTER)
    if name == "o" and index is not None and index.name in ("COLR", "COLH", "DEPR"):
        return Destination("H" if index.name == "COLH" else "R", 1 if index.name == "DEPR" else 0)
    raise _unknown(operand, "destination", ["result.color", "result.depth", *_destination_names(names)])


def _destination_names(names: Names) -> list[str]:
    return [*names.outputs, *(name for name, (file, _) in names.registers.items() if file != "A")]


# --- building operations -----------------------------------------------------------------------


def _has_destination(unit: str, opcode: Opcode) -> bool:
    if unit == "vector":
        return opcode.value != 0
    if unit == "scalar":
        return opcode.scalar
    return not opcode.flow and opcode.value not in syntax.FP_BARE_OPCODES


def _source_slot_choices(opcode: Opcode, kind: ProgramKind) -> tuple[tuple[int, ...], ...]:
    """Source slots for each accepted operand count (cgcomp's optional operands included)."""
    if opcode.name in ("SFL", "STR"):
        return ((), (0, 1))
    if kind is ProgramKind.FRAGMENT and opcode.name == "TXL":
        return ((0,), (0, 1))
    return (opcode.sources,)


# What the operands of the flow-control statements are, by opcode name: (counts, description).
FLOW_OPERANDS = {"PSH": ((1,), "a source"), "POP": ((0,), ""), "IFE": ((1,), "a condition such as NE.x"),
                 "KIL": ((0, 1), "an optional condition"), "BRK": ((0, 1), "an optional condition"),
                 "RET": ((0, 1), "an optional condition"), "LOOP": ((1,), "a constant: c[N] or {…}"),
                 "REP": ((1,), "a constant: c[N] or {…}"),
                 "BRB": ((3,), "a label, a branch-bit index and a value"),
                 "CLB": ((3,), "a label, a branch-bit index and a value")}


def _count_words(counts: tuple[int, ...], noun: str) -> str:
    """(1,) -> "1 operand", (1, 3) -> "1 or 3 operands", (0,) -> "no operands"."""
    if counts == (0,):
        return f"no {noun}s"
    numbers = [str(count) for count in counts]
    text = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " or " + numbers[-1]
    return f"{text} {noun}" + ("" if counts == (1,) else "s")


def _operand_counts(mnemonic: _Mnemonic, kind: ProgramKind) -> tuple[tuple[int, ...], str]:
    """How many operands a statement with this mnemonic takes, and what they are (for messages)."""
    opcode = mnemonic.opcode
    if opcode is not None and (opcode.flow or opcode.name in FLOW_OPERANDS):
        return FLOW_OPERANDS.get(opcode.name, ((1,), "a target"))
    if opcode is not None and not _has_destination(mnemonic.unit, opcode):
        return (0,), ""
    if opcode is None:
        source_counts = (SOURCE_COUNTS[mnemonic.name],)
    else:
        source_counts = tuple(len(choice) for choice in _source_slot_choices(opcode, kind))
    sources = "a source" if source_counts == (1,) else _count_words(source_counts, "source")
    if opcode is not None and opcode.texture and kind is ProgramKind.FRAGMENT:
        counts = sorted({count + extra for count in source_counts for extra in (2, 3)})
        return tuple(counts), f"a destination, {sources}, texture[n] and an optional target"
    return tuple(1 + count for count in source_counts), f"a destination and {sources}"


def _count_error(mnemonic: _Mnemonic, kind: ProgramKind, found: int, place: Place) -> SourceError:
    counts, description = _operand_counts(mnemonic, kind)
    what = _count_words(counts, "operand") + (f" ({description})" if description else "")
    return place.error(f"{mnemonic.name} takes {what}, found {found}")


def _build_operation(mnemonic: _Mnemonic, token: Token, operands: list[_RawOperand],
                     kind: ProgramKind, names: Names) -> Operation:
    operation = Operation(mnemonic.name, mnemonic.unit, mnemonic.opcode, Place.of(token),
                          precision=mnemonic.precision, cc_update=mnemonic.cc_update,
                          cc_register=mnemonic.cc_register, saturate=mnemonic.saturate,
                          scale=mnemonic.scale)
    opcode = mnemonic.opcode
    counts, _ = _operand_counts(mnemonic, kind)
    if len(operands) not in counts:
        # Point at the first operand too many, or at the mnemonic when some are missing.
        place = operands[max(counts)].place if len(operands) > max(counts) else operation.place
        raise _count_error(mnemonic, kind, len(operands), place)
    if opcode is not None and opcode.flow or (opcode is not None and opcode.name in FLOW_OPERANDS):
        return _build_flow(operation, operands, kind, names)
    if opcode is not None and not _has_destination(mnemonic.unit, opcode):
        return operation
    destination = _read_destination(operands[0], kind, names)
    _check_destination(operation, destination)
    rest = operands[1:]
    texture = None
    if opcode is not None and opcode.texture and kind is ProgramKind.FRAGMENT:
        rest, texture = _texture_operands(operation, rest)
    sources = [_read_source(operand, kind, names) for operand in rest]
    if opcode is None:
        slots = tuple(range(len(sources)))
    else:
        choices = _source_slot_choices(opcode, kind)
        slots = next((choice for choice in choices if len(choice) == len(sources)), None)
        if slots is None:  # the count was right, but texture[n] stands among the sources
            raise _count_error(mnemonic, kind, len(operands), operation.place)
    return replace(operation, destination=destination, sources=tuple(zip(slots, sources)),
                   texture=texture)


def _check_destination(operation: Operation, destination: Destination) -> None:
    if destination.file == "A" and operation.name != "ARL":
        raise destination.place.error("only ARL writes an address register")
    if operation.name == "ARL" and destination.file != "A":
        raise destination.place.error("ARL writes an address register (A0 or A1)")
    if operation.unit == "scalar" and destination.file == "A":
        raise destination.place.error("scalar operations cannot write an address register")


def _texture_operands(operation: Operation, operands: list[_RawOperand]
                      ) -> tuple[list[_RawOperand], tuple[int, str]]:
    position = next((number for number, operand in enumerate(operands)
                     if operand.path and operand.path[0][1] == "texture"), None)
    if position is None:
        raise operation.place.error(f"{operation.name} needs a texture unit operand 'texture[n]'")
    unit_operand = operands[position]
    name, index = _dotted(unit_operand)
    if name != "texture":
        raise unit_operand.place.error("expected 'texture[n]'")
    unit = _index_number(index, unit_operand.path[0][2], syntax.TEXTURE_UNITS, "texture")
    target = "2D"
    trailing = operands[position + 1:]
    if trailing:
        target_operand = trailing[0]
        target = target_operand.path[0][1] if target_operand.is_plain_name else ""
        if target not in syntax.TEXTURE_TARGETS or len(trailing) > 1:
            raise target_operand.place.error(f"expected a texture target ({', '.join(syntax.TEXTURE_TARGETS)})")
    return operands[:position], (unit, target)


def _condition_operand(operand: _RawOperand) -> ConditionTest:
    if operand.bare_condition is not None:
        return operand.bare_condition
    raise operand.place.error("expected a condition such as GT.x or (NE1.xy)")


def _build_flow(operation: Operation, operands: list[_RawOperand], kind: ProgramKind,
                names: Names) -> Operation:
    name = operation.opcode.name
    if operation.precision is not None or operation.saturate or operation.cc_update or operation.scale:
        raise operation.place.error(f"{operation.name} takes no suffixes")
    if name == "PSH":
        return replace(operation, sources=((2, _read_source(operands[0], kind, names)),))
    if name in ("KIL", "BRK", "RET", "IFE", "POP"):
        condition = _condition_operand(operands[0]) if operands else None
        return replace(operation, condition=condition)
    if name in ("LOOP", "REP"):
        constant = _read_source(replace(operands[0], condition=None), kind, names)
        if constant.file not in ("c", "literal") or constant.negate or constant.absolute:
            raise operands[0].place.error(f"{name} reads its counts from a constant: c[N] or {{…}}")
        return replace(operation, loop_constant=constant, condition=operands[0].condition)
    # Branches and calls: a label (or, VP BRA/CAL, an address register lane).
    target = operands[0]
    condition = target.condition
    if name in ("BRB", "CLB"):
        bit = _small_integer(operands[1], 32, "branch-bit index")
        value = _small_integer(operands[2], 2, "branch-bit value")
        condition = condition or operands[2].condition
        return replace(operation, label=_label_operand(target), branch_bit=(bit, value), condition=condition)
    if kind is ProgramKind.VERTEX and target.path and re.fullmatch(r"A[01]", str(target.path[0][1])):
        if target.letters is None or len(target.letters.text) != 1 or len(target.path) != 1:
            raise target.place.error("a register branch target is an address register lane (A0.x)")
        if operation.name not in ("BRA", "CAL"):
            raise target.place.error(f"{operation.name} branches to a label")
        register_form = VP_SCALAR[0x08] if operation.name == "BRA" else VP_SCALAR[0x0A]
        address = (int(str(target.path[0][1])[1]), syntax.LANES.index(target.letters.text))
        return replace(operation, opcode=register_form, address=address, condition=condition)
    return replace(operation, label=_label_operand(target), condition=condition)


def _label_operand(operand: _RawOperand) -> tuple[str, Place]:
    if not operand.is_plain_name or operand.letters is not None:
        raise operand.place.error("expected a label name")
    return operand.path[0][1], Place.of(operand.path[0][2])


def _small_integer(operand: _RawOperand, limit: int, what: str) -> int:
    bits = operand.literal
    if bits is None or operand.letters is not None or operand.negate:
        raise operand.place.error(f"expected the {what} (0..{limit - 1})")
    value = words_to_floats((bits[0],))[0]
    if not (math.isfinite(value) and value == int(value) and 0 <= value < limit):
        raise operand.place.error(f"the {what} must be an integer 0..{limit - 1}")
    return int(value)


# --- hints -------------------------------------------------------------------------------------


def parse_hints(text: str, column: int, kind: ProgramKind) -> Hints:
    """``#! name=value …`` (``text`` is what follows ``#!``, starting at ``column``), read by
    :mod:`.assembly_hints`."""
    try:
        values = read_hints(text, kind)
    except SourceError as error:
        raise SourceError(error.message, column + error.col - 1, error.length) from None
    literal = values.pop(LITERAL, None)
    return Hints(tuple(values.items()), None if literal is None else literal_words(literal), is_native(text),
                 Place(column, max(1, len(text.rstrip()))))


# --- statements --------------------------------------------------------------------------------


def parse_statement(stream: TokenStream, kind: ProgramKind, names: Names) -> Statement:
    """One instruction statement (a co-issued VP pair included), up to but not including ';'."""
    operations = [_parse_operation(stream, kind, names)]
    if stream.at("+"):
        plus = stream.next()
        if kind is ProgramKind.FRAGMENT:
            raise SourceError("co-issue ('+') exists only in vertex programs", plus.column)
        operations.append(_parse_operation(stream, kind, names))
        operations = _assign_units(operations, Place.of(plus))
    return Statement(tuple(operations))


def _parse_operation(stream: TokenStream, kind: ProgramKind, names: Names) -> Operation:
    token = stream.expect_name("an instruction")
    mnemonic = _resolve_mnemonic(token, kind)
    operands = _parse_operands(stream)
    follower = stream.peek()
    previous = stream.tokens[stream.position - 1]
    separated = operands and previous.column + len(previous.text) < follower.column  # not ``4D``
    if separated and (follower.kind in ("name", "number", "hex") or
                      (follower.kind == "punct" and follower.text in "{|-")):
        # ``ADD R0 R1 R2``: operands without commas would otherwise read as one odd operand.
        counts, _ = _operand_counts(mnemonic, kind)
        raise SourceError(f"expected ',' between operands, found '{follower.text}' ({mnemonic.name} takes "
                          f"{_count_words(counts, 'operand')})", follower.column, follower.length)
    return _build_operation(mnemonic, token, operands, kind, names)


def _scalar_form(operation: Operation) -> Operation | None:
    """The scalar-unit reading of a VP operation written as a vector one (MOV, NOP)."""
    if operation.unit == "scalar":
        return operation
    if operation.opcode is None or operation.opcode.name not in by_name(VP_SCALAR):
        return None
    scalar = by_name(VP_SCALAR)[operation.opcode.name]
    if scalar.scalar:
        if len(operation.sources) != 1:
            return None
        return replace(operation, unit="scalar", opcode=scalar,
                       sources=((2, operation.sources[0][1]),))
    return replace(operation, unit="scalar", opcode=scalar)


def _assign_units(operations: list[Operation], where: Place) -> list[Operation]:
    """``vector + scalar``: the left operation goes to the vector unit, the right one to the
    scalar unit (a left operation that only the scalar unit has is swapped over)."""
    first, second = operations
    if first.opcode is None or second.opcode is None:
        raise where.error("macros (SUB, ABS, POW, LRP) cannot be co-issued")
    if first.unit == "scalar" and second.unit == "vector":
        first, second = second, first
    if first.unit != "vector":
        raise first.place.error(f"{first.name} is not a vector-unit operation")
    scalar = _scalar_form(second)
    if scalar is None:
        raise second.place.error(f"{second.name} is not a scalar-unit operation")
    return [first, scalar]


# --- expansion ---------------------------------------------------------------------------------


def _temp_limit(kind: ProgramKind) -> int:
    return syntax.VP_LIMITS["R"] if kind is ProgramKind.VERTEX else syntax.FP_LIMITS["R"]


def read_statement(text: str, kind: ProgramKind, names: Names, column: int = 1) -> Statement:
    """One instruction statement (a co-issued VP pair included, no ';') whose first character is
    at ``column``; it keeps its text, which is what a macro expands."""
    stream = TokenStream(syntax.tokenize(text, column))
    statement = parse_statement(stream, kind, names)
    if stream.peek().kind != "end":
        raise stream.error("expected ',' or ';'")
    return replace(statement, text=text)


def expand(statement: Statement, scratch: int, kind: ProgramKind, names: Names) -> list[Statement]:
    """The statement itself, or the statements its expansion (:mod:`.assembly_macros`, through
    scratch temp ``R<scratch>``) reads as; errors in them point at the statement."""
    operation = statement.operations[0]
    hints = statement.hints
    native = hints is not None and hints.native
    if native and (len(statement.operations) > 1 or not native_applies(kind, operation.name)):
        raise hints.place.error(NATIVE_MISPLACED)
    if len(statement.operations) > 1:
        return [statement]
    mnemonic, argument = (re.split(r"\s+", statement.text.strip(), maxsplit=1) + [""])[:2]
    operands = [text for text, _ in split_operands(argument, re.compile(r"\s*,\s*"))]
    written = operation.destination.mask if operation.destination is not None else None
    texts = expansion(kind, mnemonic, operands, scratch, native=native, written=written)
    if texts is None:
        return [statement]
    if len(texts) > 1 and hints is not None and (hints.fields or hints.literal):
        raise hints.place.error(f"{operation.name} expands to {len(texts)} instructions; hints need a single "
                                "instruction (add 'native' for the hardware opcode)")
    if len(texts) > 1 and scratch >= _temp_limit(kind):
        raise statement.place.error(f"no temp register is left for the expansion of {operation.name}")
    try:
        pieces = [read_statement(text, kind, names) for text in texts]
    except SourceError as error:
        raise statement.place.error(expansion_error(operation.name, error)) from None
    return [replace(piece, hints=hints if len(pieces) == 1 else None) for piece in pieces]


# --- encoding ----------------------------------------------------------------------------------


@dataclass
class EncodingContext:
    """What an instruction's encoding depends on beyond its own text.

    ``constants`` maps each declared c[N] to its literal bits (None: a VP uniform, whose value is
    not part of the program). ``labels`` is None while slots are being laid out. ``flow`` holds
    the (else, end) slots of an IF or the (end, end) slots of a LOOP/REP.
    """

    kind: ProgramKind
    constants: dict[int, tuple[int, int, int, int] | None]
    labels: dict[str, int] | None = None
    flow: tuple[int, int] | None = None
    last: bool = False


@dataclass(frozen=True)
class Encoded:
    words: tuple[int, int, int, int]
    literal: tuple[int, int, int, int] | None
    literal_constant: int | None  # the c[N] the literal came from


def encode(statement: Statement, context: EncodingContext, apply_hints: bool = True) -> Encoded:
    """Words (and FP literal) of one concrete statement; SourceError for encoding-rule breaches.

    The end bit is set when ``context.last``; ``#!`` hints are applied last, unless
    ``apply_hints`` is False (the disassembler compares the words before hints).
    """
    if context.kind is ProgramKind.VERTEX:
        words, literal, constant = _encode_vertex(statement, context), None, None
    else:
        words, literal, constant = _encode_fragment(statement.operations[0], context)
    end_word = 3 if context.kind is ProgramKind.VERTEX else 0
    if context.last:
        words = tuple(word | (number == end_word) for number, word in enumerate(words))
    hints = statement.hints if apply_hints else None
    if hints is not None and hints.fields:
        fields_layout = layout.VP if context.kind is ProgramKind.VERTEX else layout.FP
        values = fields_layout.decode(words)
        values.update(hints.fields)
        words = fields_layout.encode(values)
    if context.kind is ProgramKind.FRAGMENT:
        reads_literal = fragment_has_literal(words)
        if hints is not None and hints.literal is not None:
            if not reads_literal:
                raise hints.place.error("literal= given, but the instruction reads no constant")
            literal = hints.literal
        elif not reads_literal:
            literal, constant = None, None
        elif literal is None:
            raise (hints or statement).place.error("the hints make this instruction read a literal; give "
                                                   "its words with literal=w,w,w,w")
    return Encoded(tuple(words), literal, constant)


def _merge_condition(operations: tuple[Operation, ...]) -> ConditionTest | None:
    found = None
    for operation in operations:
        for condition in (operation.condition, operation.destination and operation.destination.condition):
            if condition is None:
                continue
            if found is not None and condition != found:
                raise condition.place.error("the two co-issued operations test different conditions; "
                                            "a slot has one condition")
            found = condition
    return found


def _vp_source_raw(source: Source) -> int:
    bits = layout.VP_SOURCE
    raw = bits.type.insert(0, {"R": 1, "v": 2, "c": 3}[source.file])
    if source.file == "R":
        raw = bits.index.insert(raw, source.index)
    raw = bits.swizzle.insert(raw, bits.swizzle_raw(source.swizzle))
    return bits.negate.insert(raw, int(source.negate))


def _encode_vertex(statement: Statement, context: EncodingContext) -> tuple[int, ...]:
    operations = statement.operations
    values = {name: 0 for name in layout.VP.fields}
    values.update(cc_swizzle=VP_IDENTITY_CC_SWIZZLE, condition=CONDITION_TRUE, vector_temp=layout.VP_NO_TEMP,
                  scalar_temp=layout.VP_NO_TEMP, output=layout.VP_NO_OUTPUT, source0=VP_SOURCE_FILLER,
                  source1=VP_SOURCE_FILLER, source2=VP_SOURCE_FILLER)
    _vertex_sources(operations, values, context)
    for operation in operations:
        if operation.unit == "vector":
            _vertex_vector(operation, values)
        else:
            _vertex_scalar(operation, values, context)
    condition = _merge_condition(operations)
    register = None
    if condition is not None:
        values.update(condition_test=1, condition=condition.test,
                      cc_swizzle=layout.swizzle_8bit(condition.swizzle, True))
        register = condition.register
    for operation in operations:
        if operation.cc_update:
            values.update(cc_update=1, cc_update_b=1)
            wanted = operation.cc_register or 0
            if register is not None and wanted != register:
                raise operation.place.error("a vertex instruction selects one CC register for its "
                                            "test and its update (D0 bit 25)")
            register = wanted
        if operation.saturate:
            values["saturate"] = 1
    values["cc_register"] = register or 0
    return layout.VP.encode(values)


def _vertex_sources(operations: tuple[Operation, ...], values: dict, context: EncodingContext) -> None:
    slots: dict[int, Source] = {}
    for operation in operations:
        for slot, source in operation.sources:
            if slot in slots and slots[slot] != source:
                raise source.place.error(f"source slot {slot} is read by both co-issued operations "
                                         "with different operands")
            slots[slot] = source
    shared: dict[str, tuple] = {}  # the one input, constant and address lane fields of D0/D1

    def share(key: str, value: tuple, source: Source, message: str) -> None:
        if shared.setdefault(key, value) != value:
            raise source.place.error(message)

    for slot, source in sorted(slots.items()):
        values[f"source{slot}"] = _vp_source_raw(source)
        values[f"source{slot}_abs"] = int(source.absolute)
        if source.relative is not None:
            share("address", source.relative, source,
                  "relative operands of one instruction must use the same address register lane")
        if source.file == "v":
            share("input", (source.index, source.relative is not None), source,
                  "an instruction reads one input attribute (a single v[] index per slot)")
        elif source.file == "c":
            # No declaration needed: a VP c[N] is constant memory the host fills (run --const c[N]=…).
            share("constant", (source.index, source.relative is not None), source,
                  "an instruction reads one constant (a single c[] index per slot)")
    if "input" in shared:
        index, relative = shared["input"]
        values.update(input=index, index_input=int(relative))
    if "constant" in shared:
        index, relative = shared["constant"]
        values.update(constant=index, index_constant=int(relative))
    if "address" in shared:
        register, lane = shared["address"]
        values.update(address_register=register, address_swizzle=lane)


def _vertex_vector(operation: Operation, values: dict) -> None:
    values["vector_opcode"] = operation.opcode.value
    destination = operation.destination
    if destination is None:
        return
    values["vector_mask"] = layout.mask_of_lanes(destination.mask, True)
    if destination.file in ("R", "A"):
        values["vector_temp"] = destination.index
    elif destination.file == "o":
        values.update(vector_to_output=1, output=destination.index)


def _vertex_scalar(operation: Operation, values: dict, context: EncodingContext) -> None:
    opcode = operation.opcode
    values["scalar_opcode"] = opcode.value
    destination = operation.destination
    if destination is not None:
        values["scalar_mask"] = layout.mask_of_lanes(destination.mask, True)
        if destination.file == "R":
            values["scalar_temp"] = destination.index
        elif destination.file == "o":
            if values["vector_to_output"]:
                raise destination.place.error("only one of the co-issued operations can write an output")
            values["output"] = destination.index
        return
    if opcode.scalar:
        return
    values["scalar_mask"] = 0xF  # cgcomp: flow operations keep the default xyzw mask
    if operation.address is not None:
        values.update(address_register=operation.address[0], address_swizzle=operation.address[1])
    if operation.label is not None:
        target = _label_slot(operation.label, context)
        source2 = 2 | (target & 0x1FF) << 8  # spec 2.5: target bits 0..8 overlay src2 bits 8..16
        if operation.branch_bit is not None:
            source2 |= operation.branch_bit[0] << 2 | operation.branch_bit[1] << 7
        values.update(source2=source2, source2_abs=target >> 9 & 1)


def _label_slot(label: tuple[str, Place], context: EncodingContext) -> int:
    if context.labels is None:
        return 0
    name, place = label
    if name not in context.labels:
        raise place.error(f"unknown label '{name}'")
    return context.labels[name]


def _fp_source_raw(source: Source) -> int:
    bits = layout.FP_SOURCE
    raw = bits.type.insert(0, {"R": 0, "H": 0, "f": 1, "c": 2, "literal": 2}[source.file])
    if source.file in ("R", "H"):
        raw = bits.index.insert(raw, source.index)
        raw = bits.half.insert(raw, int(source.file == "H"))
    raw = bits.swizzle.insert(raw, bits.swizzle_raw(source.swizzle))
    return bits.negate.insert(raw, int(source.negate))


def _constant_bits(source: Source, context: EncodingContext) -> tuple[int, int, int, int]:
    if source.file == "literal":
        return source.literal
    if source.index not in context.constants:
        raise source.place.error(f"c[{source.index}] is not declared (#const or #var)")
    return context.constants[source.index] or (0, 0, 0, 0)


def _encode_fragment(operation: Operation, context: EncodingContext):
    opcode = operation.opcode
    if opcode.flow:
        return _encode_fragment_flow(operation, context), None, None
    values = {name: 0 for name in layout.FP.fields}
    values.update(condition=CONDITION_TRUE, cc_swizzle=FP_IDENTITY_CC_SWIZZLE, source0=FP_SOURCE_FILLER,
                  source1=FP_SOURCE_FILLER, source2=FP_SOURCE_FILLER, mask=0xF,
                  opcode_low=opcode.value & 0x3F, opcode_high=opcode.value >> 6,
                  precision=operation.precision or 0, saturate=int(operation.saturate),
                  scale=operation.scale, set_cc=int(operation.cc_update),
                  set_cc_register=operation.cc_register or 0)
    condition = operation.condition or (operation.destination and operation.destination.condition)
    if condition is not None:
        values.update(condition=condition.test, test_cc_register=condition.register,
                      cc_swizzle=layout.swizzle_8bit(condition.swizzle, False))
    destination = operation.destination
    if destination is None:
        values.update(no_destination=1, destination=FP_NO_DESTINATION)
    else:
        values["mask"] = layout.mask_of_lanes(destination.mask, False)
        if destination.file in ("RC", "HC"):
            values.update(no_destination=1, destination=FP_NO_DESTINATION,
                          destination_half=int(destination.file == "HC"))
        else:
            values.update(destination=destination.index, destination_half=int(destination.file == "H"))
    literal, literal_constant, input_index = None, None, None
    for slot, source in operation.sources:
        values[f"source{slot}"] = _fp_source_raw(source)
        values[f"source{slot}_abs"] = int(source.absolute)
        if source.file == "f":
            if input_index is not None and input_index != source.index:
                raise source.place.error("an instruction reads one input attribute (OPDEST holds a "
                                         "single input index)")
            input_index = source.index
        elif source.file in ("c", "literal"):
            bits = _constant_bits(source, context)
            if literal is not None and bits != literal:
                raise source.place.error("an instruction has one literal slot: two different constant "
                                         "values cannot be read by one instruction")
            literal = bits
            if source.file == "c" and literal_constant is None:
                literal_constant = source.index
    if opcode.name == "TXL" and len(operation.sources) == 1:  # cgcomp: the LOD is s0.w
        source = operation.sources[0][1].swizzled((3, 3, 3, 3))
        values["source1"] = _fp_source_raw(source)
        values["source1_abs"] = int(source.absolute)
    if input_index is not None:
        values["input"] = input_index
        if syntax.is_texcoord_input(input_index):
            values["displacement"] = FP_TEXCOORD_DISPLACEMENT
    first = dict(operation.sources).get(0)
    if operation.texture is not None:
        values["texture_unit"] = operation.texture[0]
        values["perspective"] = int(operation.texture[1] == "CUBE")
    elif opcode.value in FP_PERSPECTIVE_OPCODES and first is not None and first.file == "f" \
            and syntax.is_texcoord_input(first.index):
        values["perspective"] = 1
    return layout.FP.encode(values), literal, literal_constant


def _encode_fragment_flow(operation: Operation, context: EncodingContext) -> tuple[int, int, int, int]:
    opcode = operation.opcode
    condition = operation.condition or ALWAYS
    word0 = (opcode.value & 0x3F) << 24 | 1 << 30
    if opcode.value in FP_FLOW_PRECISION_H:
        word0 |= 1 << 22
    word1 = (condition.test << 18 | layout.swizzle_8bit(condition.swizzle, False) << 21
             | condition.register << 31)
    word2 = 1 << 31
    word3 = 0
    else_slot, end_slot = context.flow or (0, 0)
    if opcode.name == "IFE":
        word2 |= else_slot * 4
        word3 = end_slot * 4
    elif opcode.name in ("LOOP", "REP"):
        counts = _loop_counts(operation, context)
        word2 |= counts[0] << 2 | counts[1] << 10 | counts[2] << 19
        word3 = end_slot * 4
    elif opcode.name == "CAL":
        word2 |= _label_slot(operation.label, context) * 4
    return word0, word1, word2 & 0xFFFFFFFF, word3 & 0xFFFFFFFF


def _loop_counts(operation: Operation, context: EncodingContext) -> tuple[int, int, int]:
    constant = operation.loop_constant
    values = words_to_floats(_constant_bits(constant, context))
    lanes = [values[lane] for lane in constant.swizzle[:3]]
    if operation.opcode.name == "REP":
        lanes = [lanes[0]] * 3  # cgcomp writes REP n as n/n/n (spec 3.9)
    counts = []
    for value in lanes:
        if not (value == value and 0 <= value <= 255):
            raise constant.place.error(f"{operation.name} count, start and step must be 0..255")
        counts.append(int(value))
    return tuple(counts)


# --- the driver --------------------------------------------------------------------------------


@dataclass
class _Item:
    """One thing in program order: a statement, a label, a block keyword."""

    line: SourceLine
    statement: Statement | None = None
    label: str | None = None
    keyword: str | None = None
    place: Place = NOWHERE
    slot_number: int | None = None  # form-B "NNN:"
    macro: Statement | None = None  # the statement an expansion piece comes from

    def encoding_error(self, error: SourceError) -> SourceError:
        """``error`` from encoding this item's statement; a piece's columns count in its
        expansion's text, so it points at the statement written instead."""
        if self.macro is None:
            return error
        return self.macro.place.error(expansion_error(self.macro.operations[0].name, error))


_HEADERS = {"!!ARBvp1.0": ProgramKind.VERTEX, "!!VP2.0": ProgramKind.VERTEX,
            "!!ARBfp1.0": ProgramKind.FRAGMENT, "!!FP2.0": ProgramKind.FRAGMENT}


class _Assembler:
    def __init__(self, source: str, filename: str, kind: ProgramKind | None):
        self.source = source
        self.filename = filename
        self.requested_kind = kind
        self.kind: ProgramKind | None = None
        self.listing = False
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.items: list[_Item] = []
        self.names = Names()
        self.constants: dict[int, tuple[int, int, int, int]] = {}
        self.uniforms: list[Uniform] = []
        self.defaults: dict[str, tuple[list[int], SourceLine, Place]] = {}
        self.trailing: list[int] = []
        self.ended = False

    # -- diagnostics --

    def report(self, line: SourceLine, error: SourceError, severity: str = "error") -> None:
        diagnostic = Diagnostic(self.filename, line.number, max(1, error.col), error.message, severity,
                                line.text, max(1, error.length))
        (self.errors if severity == "error" else self.warnings).append(diagnostic)

    # -- lines --

    def run(self) -> AssembledProgram:
        lines = [SourceLine(self.filename, number, text)
                 for number, text in enumerate(self.source.splitlines(), start=1)]
        code_lines = [(line, _code_part(line.text)) for line in lines]
        code_lines = [(line, code) for line, code in code_lines if code.strip()]
        if code_lines and self._header(*code_lines[0]):
            code_lines = code_lines[1:]
        else:
            self._headerless(code_lines)
        if self.kind is None:
            raise DiagnosticError(self._in_line_order(self.errors))
        for line in lines:
            self._comment(line)
        self._declarations(code_lines)
        for line, code in code_lines:
            try:
                self._line(line, code)
            except SourceError as error:
                self.report(line, error)
            if len(self.errors) >= MAX_ERRORS:
                break
        if not self.ended and not self.listing and not self.errors:
            last = lines[-1] if lines else SourceLine(self.filename, 1, "")
            self.report(last, SourceError("missing END", 1))
        self._apply_defaults()
        program = self._layout()
        if self.errors:
            raise DiagnosticError(self._in_line_order(self.errors)[:MAX_ERRORS])
        return AssembledProgram(program[0], {index: words_to_floats(bits) for index, bits in
                                             sorted(self.constants.items())},
                                tuple(self.uniforms), program[1], tuple(self._in_line_order(self.warnings)))

    @staticmethod
    def _in_line_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        """Diagnostics are found in passes (declaring comments, declarations, statements,
        layout), so a later pass can report an earlier line; the reader wants source order."""
        return sorted(diagnostics, key=lambda diagnostic: (diagnostic.line, diagnostic.col))

    def _comment(self, line: SourceLine) -> None:
        """Read the declaring comments (#const, #var, #default) of a line."""
        position = line.text.find("#")
        if position < 0:
            return
        comment = line.text[position:]
        reader = {"#const": self._const, "#var": self._var, "#default": self._default}.get(comment.split()[0])
        if reader is not None:
            try:
                reader(line, comment, position)
            except SourceError as error:
                self.report(line, error)

    def _header(self, line: SourceLine, code: str) -> bool:
        text = code.strip()
        if not text.startswith("!!"):
            return False
        column = code.index("!!") + 1
        kind = _HEADERS.get(text)
        if kind is None:
            self.report(line, SourceError(f"unknown program header '{text}' (expected !!ARBvp1.0, "
                                          "!!VP2.0, !!ARBfp1.0 or !!FP2.0)", column, len(text)))
            self.kind = self.requested_kind
            return True
        if self.requested_kind is not None and kind is not self.requested_kind:
            self.report(line, SourceError(f"this is a {kind.value} program, but a "
                                          f"{self.requested_kind.value} program was expected", column,
                                          len(text)))
        self.kind = kind
        return True

    def _headerless(self, code_lines: list[tuple[SourceLine, str]]) -> None:
        first = code_lines[0] if code_lines else None
        looks_like_listing = first is not None and re.match(r"\s*\d+\s*:", first[1]) is not None
        if self.requested_kind is not None or looks_like_listing:
            self.kind = self.requested_kind or ProgramKind.VERTEX
            self.listing = True
            return
        line = first[0] if first else SourceLine(self.filename, 1, "")
        self.report(line, SourceError("missing program header (!!ARBvp1.0 or !!ARBfp1.0)", 1))

    # -- declarations (read before any statement, so their order does not matter) --

    def _declarations(self, code_lines: list[tuple[SourceLine, str]]) -> None:
        """Run the declaration handlers on every declaration (ended by ';') as core's driver would
        run them, with the prescan of every code line."""
        state = PassState(prescanned=assembly_declarations.prescan(self.kind)([code for _, code in code_lines]))
        state.data["declarations"] = Declarations(self.names, self.constants, self.uniforms)
        handlers = assembly_declarations.directives(self.kind, OPERAND_GRAMMAR)
        for line, code in code_lines:
            for statement_text, column in _split_statements(code)[0]:
                keyword = statement_text.split()[:1]
                handler = handlers.get(keyword[0].upper()) if keyword else None
                if handler is None:
                    continue
                # The argument keeps its trailing blanks: an error at its end points past them.
                argument = statement_text.lstrip()[len(keyword[0]):].lstrip()
                argument_column = column + len(statement_text) - len(argument)
                try:
                    handler(DirectiveCall(keyword[0], argument, 0, True, state, _defines_nothing))
                except SourceError as error:
                    self.report(line, SourceError(error.message, argument_column + error.col - 1, error.length))

    def _const(self, line: SourceLine, comment: str, column: int) -> None:
        stream = TokenStream(syntax.tokenize(comment[len("#const"):], column + len("#const") + 1))
        index, values = self._constant_assignment(stream)
        if index in self.constants and self.constants[index] != values:
            raise SourceError(f"c[{index}] is declared twice with different values", column + 1,
                              len(comment.rstrip()))
        self.constants[index] = values

    @staticmethod
    def _constant_assignment(stream: TokenStream) -> tuple[int, tuple[int, int, int, int]]:
        name = stream.expect_name("c[N]")
        if name.text != "c":
            raise stream.error("expected c[N]", name)
        stream.expect("[")
        index, _ = stream.expect_integer("a constant index")
        stream.expect("]")
        stream.expect("=", "after c[N]")
        values = []
        while stream.peek().kind != "end" and len(values) < 4:
            values.append(syntax.parse_number_bits(stream))
            stream.accept(",")
        if not values or stream.peek().kind != "end":
            raise stream.error("expected 1 to 4 numbers")
        return index, tuple(values + [0] * (4 - len(values)))

    def _var(self, line: SourceLine, comment: str, column: int) -> None:
        """``#var float4 name : semantic : c[N], count : paramno : referenced``."""
        fields_text = comment[len("#var"):].split(":")
        head = fields_text[0].split()
        if len(head) < 2:
            raise SourceError("#var needs a type and a name", column + 1, len(comment.rstrip()))
        type_text, name = head[0], " ".join(head[1:])
        resource = fields_text[2].strip() if len(fields_text) > 2 else ""
        match = re.fullmatch(r"c\[(\d+)\](?:\s*,\s*(\d+))?", resource)
        if match is None:
            return  # varyings, samplers, unbound uniforms: informative only
        index, count = syntax.small_decimal(match.group(1)), syntax.small_decimal(match.group(2) or "1")

        def number(position: int) -> int | None:
            text = fields_text[position].strip() if len(fields_text) > position else ""
            match = re.fullmatch(r"(-?)(\d+)", text)
            value = syntax.small_decimal(match.group(2)) if match else None
            return None if value is None else -value if match.group(1) else value

        if index is None or count is None or count < 1 or \
                index + count > (syntax.VP_CONSTANTS if self.kind is ProgramKind.VERTEX else 1 << 16):
            index = match.group(1) if index is None else index
            count = match.group(2) if count is None else count
            raise SourceError(f"#var {name}: c[{index}], {count} is out of range", column + 1, len(comment.rstrip()))
        self.uniforms.append(Uniform(name, type_text, index, count, number(3), number(4)))

    def _default(self, line: SourceLine, comment: str, column: int) -> None:
        text = comment[len("#default"):]
        name, equals, values_text = text.partition("=")
        if not equals or not name.strip():
            raise SourceError("#default is written '#default name = x y z w …'", column + 1, len(comment.rstrip()))
        stream = TokenStream(syntax.tokenize(values_text, column + len("#default") + len(name) + 2))
        values = []
        while stream.peek().kind != "end":
            values.append(syntax.parse_number_bits(stream))
            stream.accept(",")
        self.defaults[name.strip()] = (values, line, Place(column + 1, len(comment.rstrip())))

    def _apply_defaults(self) -> None:
        uniforms = []
        for uniform in self.uniforms:
            default = self.defaults.pop(uniform.name, None)
            if default is not None:
                values, line, place = default
                if len(values) != 4 * uniform.count:
                    self.report(line, place.error(f"{uniform.name} needs {4 * uniform.count} default values"))
                else:
                    rows = tuple(words_to_floats(tuple(values[row * 4: row * 4 + 4]))
                                 for row in range(uniform.count))
                    uniform = replace(uniform, default=rows)
            uniforms.append(uniform)
        for name, (_, line, place) in self.defaults.items():
            self.report(line, place.error(f"#default for '{name}', which no #var declares"))
        self.uniforms = uniforms

    def _trailing(self, comment: str, position: int) -> None:
        if not self.ended:
            raise SourceError("'#! trailing' slots follow END", position + 1, len(comment.rstrip()))
        words = comment[2:].split()[1:]
        if len(words) != 4 or not all(re.fullmatch(r"0[xX][0-9a-fA-F]{1,8}|\d{1,10}", word) for word in words):
            raise SourceError("'#! trailing' takes four 32-bit words", position + 1, len(comment.rstrip()))
        values = [syntax.parse_int(word) for word in words]
        if any(value > 0xFFFFFFFF for value in values):
            raise SourceError("'#! trailing' words are 32-bit", position + 1, len(comment.rstrip()))
        self.trailing.extend(values)

    # -- statements --

    def _line(self, line: SourceLine, code: str) -> None:
        hints = None
        text = code
        position = code.find("#!")
        if position >= 0:
            text = code[:position]
            if code[position + 2:].split()[:1] == ["trailing"]:
                if text.strip():
                    raise SourceError("'#! trailing' stands on its own line", position + 1, 2)
                self._trailing(code[position:], position)
                return
            if not text.strip():
                raise SourceError("'#!' hints follow the statement they apply to, on its line", position + 1, 2)
            hints = parse_hints(code[position + 2:], position + 3, self.kind)
        if self.ended:
            raise SourceError("text after END", 1, len(text.rstrip()) or 1)
        slot_number = None
        column = 1
        label_match = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*|\d+)\s*:", text)
        if label_match:
            label = label_match.group(1)
            place = Place(label_match.start(1) + 1, len(label))
            if label.isdigit():
                slot_number = syntax.small_decimal(label)
                if slot_number is None:
                    raise place.error(f"slot number {label} is out of range")
            else:
                self._label(line, label, place)
            text, column = text[label_match.end():], label_match.end() + 1
        statements, rest, rest_column = _split_statements(text, column)
        if rest.strip().upper() == "END":  # END needs no ';'
            statements.append((rest, rest_column))
        elif rest.strip():
            raise SourceError("missing ';' at the end of the statement", rest_column + len(rest.rstrip()))
        instruction_items: list[_Item] = []
        for chunk, chunk_column in statements:
            if not chunk.strip():
                continue
            if self.ended:
                raise SourceError("text after END", chunk_column, len(chunk))
            item = self._statement(line, chunk, chunk_column)
            if item is not None and item.statement is not None:
                instruction_items.append(item)
            elif item is not None:
                self.items.append(item)
        if slot_number is not None and instruction_items:
            instruction_items = [self._slot_line(line, instruction_items, slot_number)]
        if hints is not None and len(instruction_items) != 1:
            raise hints.place.error("'#!' hints apply to a line with exactly one instruction")
        for item in instruction_items:
            if hints is not None:
                item.statement = replace(item.statement, hints=hints)
            self.items.append(item)

    def _slot_line(self, line: SourceLine, items: list[_Item], slot_number: int) -> _Item:
        """Form B: all statements of an ``NNN:`` line are one (co-issued) slot."""
        if len(items) == 1:
            items[0].slot_number = slot_number
            return items[0]
        if len(items) > 2 or self.kind is ProgramKind.FRAGMENT:
            raise items[2 if len(items) > 2 else 1].statement.place.error("one slot holds at most a vector "
                                                                          "and a scalar operation")
        operations = [items[0].statement.operations[0], items[1].statement.operations[0]]
        statement = Statement(tuple(_assign_units(operations, items[1].statement.place)))
        return _Item(line, statement=statement, slot_number=slot_number)

    def _label(self, line: SourceLine, name: str, place: Place) -> None:
        if re.fullmatch(r"A[01]", name):
            raise place.error("a label cannot be named like an address register")
        if any(item.label == name for item in self.items):
            raise place.error(f"label '{name}' is defined twice")
        self.items.append(_Item(line, label=name, place=place))

    def _statement(self, line: SourceLine, chunk: str, column: int) -> _Item | None:
        stream = TokenStream(syntax.tokenize(chunk, column))
        first = stream.peek()
        word = first.text.upper() if first.kind == "name" else ""
        if word in assembly_declarations.KEYWORDS or word == "OPTION":
            return None  # declarations were read beforehand
        if word in BLOCK_KEYWORDS or word == "END":
            stream.next()
            if stream.peek().kind != "end":
                raise stream.error(f"{word} takes no operands")
            if word == "END":
                self.ended = True
                return None
            return _Item(line, keyword=word, place=Place.of(first))
        return _Item(line, statement=read_statement(chunk, self.kind, self.names, column))

    # -- layout: expansion, slots, block and label targets, encoding --

    def _scratch_temp(self) -> int:
        highest = -1
        for item in self.items:
            if item.statement is None:
                continue
            for operation in item.statement.operations:
                registers = [source for _, source in operation.sources]
                if operation.destination is not None:
                    registers.append(operation.destination)
                for register in registers:
                    if register.file == "R":
                        highest = max(highest, register.index)
                    elif register.file == "H":
                        highest = max(highest, register.index // 2)
        return highest + 1

    def _constants_for_encoding(self) -> dict[int, tuple[int, int, int, int] | None]:
        constants: dict[int, tuple[int, int, int, int] | None] = {}
        for uniform in self.uniforms:
            for row in range(uniform.count):
                value = None
                if self.kind is ProgramKind.FRAGMENT:
                    value = (0, 0, 0, 0) if uniform.default is None else \
                        tuple(syntax.float_bits_of(lane) for lane in uniform.default[row])
                constants[uniform.index + row] = value
        constants.update(self.constants)
        return constants

    def _layout(self) -> tuple[Program, dict[int, int]] | None:
        """Expand, give every instruction its slot, resolve labels and blocks, encode."""
        expanded = self._expanded()
        context = EncodingContext(self.kind, self._constants_for_encoding())
        instructions = [item for item in expanded if item.statement is not None]
        if not instructions:
            self._blocks([(item, 0) for item in expanded])
            return self._empty_program(), {}
        marks, slots = self._slots(expanded, context)
        total = marks[-1][1]
        if self.kind is ProgramKind.VERTEX and total > VP_CODE_SLOTS:
            self.report(instructions[-1].line, SourceError(
                f"the program needs {total} slots; vertex program memory holds {VP_CODE_SLOTS}", 1))
        context.labels = {item.label: at for item, at in marks if item.label is not None}
        flow = self._blocks(marks)
        if self.errors:
            return None
        built = []
        literal_constants = {}
        for item in instructions:
            context.flow = flow.get(id(item))
            context.last = item is instructions[-1]
            try:
                result = encode(item.statement, context)
            except SourceError as error:
                self.report(item.line, item.encoding_error(error))
                continue
            at = slots[id(item)]
            if item.slot_number is not None and item.slot_number != at:
                self.report(item.line, SourceError(f"listed as slot {item.slot_number}, assembled to slot {at}",
                                                   1), "warning")
            built.append(Instruction(self.kind, result.words, result.literal, at))
            if result.literal is not None and result.literal_constant is not None:
                literal_constants[at + 1] = result.literal_constant
        return Program(self.kind, tuple(built), tuple(self.trailing)), literal_constants

    def _expanded(self) -> list[_Item]:
        """The items with every macro replaced by the statements it expands to."""
        scratch = self._scratch_temp()
        expanded: list[_Item] = []
        for item in self.items:
            if item.statement is None:
                expanded.append(item)
                continue
            try:
                pieces = expand(item.statement, scratch, self.kind, self.names)
            except SourceError as error:
                self.report(item.line, error)
                continue
            macro = item.statement if pieces != [item.statement] else None
            expanded.extend(replace(item, statement=piece, slot_number=item.slot_number if number == 0 else None,
                                    macro=macro) for number, piece in enumerate(pieces))
        return expanded

    def _slots(self, expanded: list[_Item], context: EncodingContext
               ) -> tuple[list[tuple[_Item, int]], dict[int, int]]:
        """Each item with the slot it starts at (ending with the total), and each instruction's
        slot. A slot size never depends on label or block targets, so targets can wait."""
        slots: dict[int, int] = {}
        marks: list[tuple[_Item, int]] = []
        slot = 0
        for item in expanded:
            marks.append((item, slot))
            if item.statement is None:
                continue
            slots[id(item)] = slot
            try:
                slot += 1 if encode(item.statement, context).literal is None else 2
            except SourceError as error:
                self.report(item.line, item.encoding_error(error))
                slot += 1
        marks.append((_Item(SourceLine(self.filename, 0, "")), slot))
        return marks, slots

    def _empty_program(self) -> Program:
        """cgcomp's output for a program without instructions: a NOP (VP) or an all-zero slot
        (FP), with the end bit."""
        if self.kind is ProgramKind.VERTEX:
            nop = Statement((Operation("NOP", "vector", VP_VECTOR[0], NOWHERE),))
            words = encode(nop, EncodingContext(self.kind, {}, last=True)).words
        else:
            words = (1, 0, 0, 0)
        return Program(self.kind, (Instruction(self.kind, words, None, 0),), tuple(self.trailing))

    def _blocks(self, marks: list[tuple[_Item, int]]) -> dict[int, tuple[int, int]]:
        """Match IF/ELSE/ENDIF, LOOP/ENDLOOP, REP/ENDREP; the slots each opening instruction needs."""
        stack: list[list] = []  # [item, kind, else slot]
        targets: dict[int, tuple[int, int]] = {}
        closers = {"ENDIF": "IFE", "ENDLOOP": "LOOP", "ENDREP": "REP", "ELSE": "IFE"}
        for item, slot in marks:
            if item.statement is not None:
                opcode = item.statement.operations[0].opcode
                if self.kind is ProgramKind.FRAGMENT and opcode is not None and opcode.name in ("IFE", "LOOP", "REP"):
                    stack.append([item, opcode.name, None])
                continue
            if item.keyword is None:
                continue
            wanted = closers[item.keyword]
            if not stack or stack[-1][1] != wanted:
                opened = f" (the open block is {stack[-1][1].replace('IFE', 'IF')})" if stack else ""
                self.report(item.line, item.place.error(f"{item.keyword} without a matching "
                                                        f"{wanted.replace('IFE', 'IF')}{opened}"))
                continue
            if item.keyword == "ELSE":
                if stack[-1][2] is not None:
                    self.report(item.line, item.place.error("a second ELSE for one IF"))
                stack[-1][2] = slot
                continue
            opener, _, else_slot = stack.pop()
            targets[id(opener)] = (slot if else_slot is None else else_slot, slot)
        for opener, name, _ in stack:
            self.report(opener.line, opener.statement.place.error(
                f"{name.replace('IFE', 'IF')} is never closed (END{'IF' if name == 'IFE' else name})"))
        return targets


def _code_part(text: str) -> str:
    """A line without its comment; ``#!`` hints (and trailing slots) stay, they are read in
    program order with their statement. A plain ``#`` comment may follow the hints (the
    disassembler's addresses do)."""
    position = text.find("#")
    if position < 0:
        return text
    if text.startswith("#!", position):
        position = text.find("#", position + 2)
        return text if position < 0 else text[:position]
    return text[:position]


def _split_statements(code: str, column: int = 1) -> tuple[list[tuple[str, int]], str, int]:
    """``a; b; c`` -> ([("a", col), (" b", col)], " c", col of " c"): the chunks ended by ';'
    and what follows the last ';'."""
    chunks = []
    start = 0
    for position, character in enumerate(code):
        if character == ";":
            chunks.append((code[start:position], column + start))
            start = position + 1
    return chunks, code[start:], column + start


def _defines_nothing(name: str, value: int) -> None:
    raise AssertionError(f"a declaration defined the symbol '{name}'")


# How a declaration reads its operand: as a statement does, so a declared name means the same.
OPERAND_GRAMMAR = OperandGrammar(_parse_operand, _read_source, _read_destination)


def assemble(source: str, filename: str = "<input>", kind: ProgramKind | None = None) -> AssembledProgram:
    """Assemble form A text (or a form-B vertex listing); DiagnosticError lists every error."""
    return _Assembler(source, filename, kind).run()
