"""RSX declarations as core directive handlers: ``TEMP``, ``SHORT TEMP``, ``LONG TEMP``,
``ADDRESS``, ``OUTPUT``, ``ATTRIB``, ``ALIAS`` and ``PARAM`` (spec/rsx.md 5.1).

A declaration names a register or an operand: each name becomes a core alias for the text it
stands for (``color`` → ``R2``, ``pos`` → ``vertex.position``), and the pass state's
:class:`Declarations` keeps the registers taken and the constants placed.

* ``TEMP``/``LONG TEMP`` names take the lowest R index that no statement anywhere in the program
  names as R<n> (FP: nor as H<2n> or H<2n+1>, which live in R<n>); ``SHORT TEMP`` names take
  the H register stored there. Which registers the program names is the prescan's,
  :func:`prescan` (a core ``prescan=`` hook), since a statement after the declaration counts.
* ``ADDRESS`` names take A0, then A1 (vertex programs only).
* ``OUTPUT x = …`` is a destination, ``ATTRIB``/``ALIAS x = …`` a source, ``PARAM x = c[N]`` a
  constant; other PARAM bindings (program.local/env, ``PARAM x[N] = …``) are accepted and give
  no usable value.
* ``PARAM x = {…}`` is an inline literal in a fragment program. A vertex program has no inline
  constants, so there the value goes to constant memory as a ``#const`` line would put it: into
  the c[] register of a ``#const`` with the same bits, else into the lowest c[] that no
  ``#const``/``#var`` declares and no statement names (``c[N]`` or ``c[A0.x+N]``).

A declared operand is checked as a statement would read it (the :class:`OperandCheck` handed to
:func:`directives`), so it means what it would mean in a statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from shaderkit.core.asm_hooks import DirectiveCall, DirectiveHandler
from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model.templates import split_operands

from . import syntax
from .container import ProgramKind
from .description import FloatVector, literal_words

if TYPE_CHECKING:
    from .assembly import Uniform

KEYWORDS = ("TEMP", "SHORT", "LONG", "ADDRESS", "OUTPUT", "ATTRIB", "ALIAS", "PARAM")


@dataclass
class Names:
    """Declared names: the registers TEMP/ADDRESS gave them, and PARAMs with no usable value."""

    registers: dict[str, tuple[str, int]] = field(default_factory=dict)  # TEMP, ADDRESS
    valueless: set[str] = field(default_factory=set)  # PARAMs we cannot bind


@dataclass(frozen=True)
class Scan:
    """What the whole program names, read before any declaration: the R indices its statements
    use (FP: H registers counted as the R they live in) and the c[] indices."""

    temps: frozenset[int]
    constants: frozenset[int]


@dataclass
class Declarations:
    """The names declared so far, and the constant memory a VP ``PARAM {…}`` is placed in:
    ``constants`` (the ``#const`` values, which a placed PARAM joins) and ``uniforms`` (the
    ``#var`` ranges it keeps clear of)."""

    names: Names = field(default_factory=Names)
    constants: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    uniforms: Sequence[Uniform] = ()


@dataclass(frozen=True)
class OperandCheck:
    """How a declaration checks the operand text it names, as a statement would read it:
    ``source`` and ``destination`` raise SourceError (columns within the text) if they cannot."""

    source: Callable[[str], None]
    destination: Callable[[str], None]


_REGISTER_NAME = re.compile(r"([RHA])(\d+)")
# c[...] whose brackets hold no other bracket: the scan cannot run on past the next '[', so a line
# with many unclosed 'c[' is still read in linear time.
_CONSTANT_REFERENCE = re.compile(r"\bc\[([^\[\]]*)\]")


_NAME = re.compile(r"[A-Za-z_][\w.]*")


def _skip_blanks(text: str, position: int) -> int:
    return len(text) - len(text[position:].lstrip()) if text[position:].strip() else len(text)


def _expected(what: str, text: str, position: int) -> SourceError:
    """"expected X, found 'Y'" at ``position`` of ``text`` (0-based), or "… found the end of the
    statement"."""
    found = re.match(r"\S+", text[position:].lstrip())
    if found is None:
        return SourceError(f"expected {what}, found the end of the statement", len(text.rstrip()) + 2)
    start = _skip_blanks(text, position)
    word = re.match(r"[\w.]+|\S", text[start:]).group()
    return SourceError(f"expected {what}, found '{word}'", start + 1, len(word))


def declarations(state_data: dict) -> Declarations:
    """The declarations of a pass, kept in its state's data."""
    return state_data.setdefault("declarations", Declarations())


def hardware_register(name: str, column: int, kind: ProgramKind) -> tuple[str, int] | None:
    """(file, index) if ``name`` spells a temp or address register (R3, H7, A0), else None;
    SourceError for an index past the file's last register."""
    match = _REGISTER_NAME.fullmatch(name)
    if match is None:
        return None
    file, number = match.group(1), int(match.group(2))
    limits = syntax.VP_LIMITS if kind is ProgramKind.VERTEX else syntax.FP_LIMITS
    if file not in limits:
        return None
    if number >= limits[file]:
        raise SourceError(f"{name}: {file} registers go up to {file}{limits[file] - 1}", column, len(name))
    return file, number


def prescan(kind: ProgramKind) -> Callable[[Sequence[str]], Scan]:
    """The core ``prescan=`` hook: the registers every statement text names."""

    def scan(statements: Sequence[str]) -> Scan:
        temps: set[int] = set()
        constants: set[int] = set()
        for text in statements:
            temps.update(_register_numbers("R", text))
            if kind is ProgramKind.FRAGMENT:  # H(2n) and H(2n+1) live in R(n)
                temps.update(number // 2 for number in _register_numbers("H", text))
            constants.update(_named_constant_indices(text))
        return Scan(frozenset(temps), frozenset(constants))

    return scan


def directives(kind: ProgramKind, grammar: OperandCheck) -> Mapping[str, DirectiveHandler]:
    """The core ``directives=`` handlers of every declaration keyword of a ``kind`` program;
    ``call.prescanned`` is the :func:`prescan` of the program."""

    def declare(call: DirectiveCall) -> None:
        _Declaration(kind, declarations(call.data), call.prescanned, grammar, call.alias,
                     call.argument).read(call.name.upper())

    return {keyword: declare for keyword in KEYWORDS}


@dataclass
class _Declaration:
    """Reads one declaration statement: ``text`` is what follows its keyword (columns in
    errors count in it)."""

    kind: ProgramKind
    declared: Declarations
    scan: Scan
    grammar: OperandCheck
    alias: Callable[[str, str], None]
    text: str

    @property
    def names(self) -> Names:
        return self.declared.names

    def read(self, keyword: str) -> None:
        text = self.text
        position = 0
        if keyword in ("SHORT", "LONG"):
            second = _NAME.match(text)
            if second is None or second.group().upper() != "TEMP":
                raise _expected("TEMP", text, 0)
            position = second.end()
        if keyword in ("TEMP", "SHORT", "LONG", "ADDRESS"):
            file = "A" if keyword == "ADDRESS" else ("H" if keyword == "SHORT" else "R")
            while True:
                name = _NAME.match(text, _skip_blanks(text, position))
                if name is None:
                    raise _expected("a register name", text, _skip_blanks(text, position))
                position = _skip_blanks(text, name.end())
                if text.startswith("[", position):  # TEMP arrays are not supported; declare names one by one
                    raise SourceError("register arrays are not supported", position + 1)
                self._register(name.group(), name.start() + 1, file)
                if not text.startswith(",", position):
                    break
                position += 1
            if text[position:].strip():
                raise _expected("',' or ';'", text, position)
            return
        name = _NAME.match(text)
        if name is None:
            raise _expected("a name", text, 0)
        position = _skip_blanks(text, name.end())
        if text.startswith("[", position):  # PARAM c[4] = {...}: cgc's constant bank, carried by #const/#var
            self.names.valueless.add(name.group())
            if keyword == "PARAM" and name.group() == "c" and self.kind is ProgramKind.VERTEX:
                self._constant_bank(text[position:])
            return
        if not text.startswith("=", position):
            raise _expected("'=' after the name", text, position)
        self._checked(keyword, name.group(), position + 1)

    def _checked(self, keyword: str, name: str, equals_end: int) -> None:
        """``name = operand`` read through the :class:`OperandCheck`: the name becomes an alias
        of the operand's text (which starts after ``equals_end`` characters)."""
        rest = self.text[equals_end:]
        text = rest.strip()
        if not text:
            raise SourceError("expected an operand after '='", equals_end + 1)
        column = equals_end + len(rest) - len(rest.lstrip()) + 1
        if keyword == "PARAM":
            self._checked_param(name, text, column)
            return
        check = self.grammar.destination if keyword == "OUTPUT" else self.grammar.source
        try:
            check(text)
        except SourceError as error:
            raise SourceError(error.message, column + error.col - 1, error.length) from None
        self.alias(name, text)

    def _checked_param(self, name: str, text: str, column: int) -> None:
        """``PARAM x = c[N]``, ``= {…}`` or ``= number`` (a VP literal is placed in constant
        memory, :meth:`_vertex_constant`); anything else gives no usable value."""
        literal = re.fullmatch(r"(-?)\s*(\{[^{}]*\}|[0-9.][0-9a-fA-FxX.eE+-]*)", text)
        try:
            self.grammar.source(text)
        except SourceError:
            if literal is None or self.kind is not ProgramKind.VERTEX:
                self.names.valueless.add(name)
                return
        if literal is not None and self.kind is ProgramKind.VERTEX:
            value = literal.group(2) if literal.group(2).startswith("{") else "{" + literal.group(2) + "}"
            try:
                bits = literal_words(FloatVector().parse(value, None))
            except SourceError:
                self.names.valueless.add(name)
                return
            text = f"{literal.group(1)}c[{self._vertex_constant(name, bits)}]"
        self.alias(name, text)

    def _constant_bank(self, text: str) -> None:
        """``[N] = { program.local[0..7], { 0, 1 } }`` as cgc declares the constant bank: each
        element takes the next c[] indices (a range as many as it names), and an element with a
        value gives its c[] that value unless a ``#const`` gives it one (cgc writes both)."""
        found = re.fullmatch(r"\[[^\]]*\]\s*=\s*\{(.*)\}\s*", text, re.DOTALL)
        if found is None:
            return
        index = 0
        for element, _ in split_operands(found.group(1), re.compile(r"\s*,\s*")):
            element = element.strip()
            if element.startswith("{") or re.fullmatch(r"-?[0-9.][0-9a-fA-FxX.eE+-]*", element):
                try:
                    bits = literal_words(FloatVector().parse(element if element.startswith("{") else
                                                            "{" + element + "}", None))
                except SourceError:
                    bits = None
                if bits is not None and index < syntax.VP_CONSTANTS:
                    self.declared.constants.setdefault(index, bits)
                index += 1
                continue
            span = re.search(r"\[(\d+)\.\.(\d+)\]", element)
            index += int(span.group(2)) - int(span.group(1)) + 1 if span and len(span.group(2)) < 6 else 1

    def _register(self, name: str, column: int, file: str) -> None:
        hardware = hardware_register(name, column, self.kind)
        if hardware is not None:
            if file == "A" and hardware[0] != "A":
                raise SourceError(f"'{name}' is not an address register", column, len(name))
            return
        if name in self.names.registers:
            raise SourceError(f"'{name}' is declared twice", column, len(name))
        registers = self.names.registers.values()
        if file == "A":
            if self.kind is ProgramKind.FRAGMENT:
                raise SourceError("fragment programs have no address registers", column, len(name))
            used = {index for kind, index in registers if kind == "A"}
            free = [index for index in range(syntax.VP_ADDRESS_REGISTERS) if index not in used]
            if not free:
                raise SourceError("no address register left (A0 and A1 are taken)", column, len(name))
            register = ("A", free[0])
        else:
            limits = syntax.VP_LIMITS if self.kind is ProgramKind.VERTEX else syntax.FP_LIMITS
            taken = self.scan.temps | {index // 2 if kind == "H" else index for kind, index in registers if kind != "A"}
            index = next((index for index in range(limits["R"]) if index not in taken), None)
            if index is None:
                raise SourceError(f"no temp register left for '{name}'", column, len(name))
            register = ("H", 2 * index) if file == "H" else ("R", index)
        self.names.registers[name] = register
        self.alias(name, f"{register[0]}{register[1]}")

    def _vertex_constant(self, name: str, bits: tuple[int, int, int, int]) -> int:
        """The c[] register holding a VP ``PARAM x = {…}``: a ``#const`` (or an earlier PARAM)
        with the same bits if there is one, else the lowest register that no ``#const``/``#var``
        declares and no statement names, declared as if by ``#const``."""
        constants = self.declared.constants
        for index, value in sorted(constants.items()):
            if value == bits:
                return index
        taken = set(constants) | self.scan.constants
        for uniform in self.declared.uniforms:
            taken.update(range(uniform.index, uniform.index + uniform.count))
        index = next((index for index in range(syntax.VP_CONSTANTS) if index not in taken), None)
        if index is None:
            raise SourceError(f"no constant register left for PARAM '{name}'", 1, len(name))
        constants[index] = bits
        return index


def _named_constant_indices(code: str) -> Iterator[int]:
    """The indices of the constant registers a text names: the number that ends the brackets
    (c[4], c[A0.x+4])."""
    for match in _CONSTANT_REFERENCE.finditer(code):
        inside = match.group(1).rstrip()
        digits = inside[len(inside.rstrip("0123456789")):]
        index = syntax.small_decimal(digits) if digits else None
        if index is not None:
            yield index


def _register_numbers(letter: str, code: str) -> Iterator[int]:
    """The numbers of the registers R<n> (or H<n>) a text names; absurdly long ones are left to
    the parser to report."""
    for match in re.finditer(rf"\b{letter}(\d+)\b", code):
        number = syntax.small_decimal(match.group(1))
        if number is not None:
            yield number
