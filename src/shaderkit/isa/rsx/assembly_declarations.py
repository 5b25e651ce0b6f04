"""RSX declarations as core directive handlers: ``TEMP``, ``SHORT TEMP``, ``LONG TEMP``,
``ADDRESS``, ``OUTPUT``, ``ATTRIB``, ``ALIAS`` and ``PARAM`` (spec/rsx.md 5.1).

A declaration names a register or an operand; what it names is kept in the pass state's
:class:`Declarations` (the statement grammar resolves the names through its :class:`Names`), and
each name also becomes a core alias for the text it stands for (``color`` → ``R2``).

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

Operands are read by the statement grammar (the :class:`OperandGrammar` handed to
:func:`directives`), so a declared operand means what it would mean in a statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from shaderkit.core.asm_hooks import DirectiveCall, DirectiveHandler
from shaderkit.core.diagnostics import SourceError

from . import syntax
from .container import ProgramKind
from .description import FloatVector, literal_words
from .syntax import Token, TokenStream

if TYPE_CHECKING:
    from .assembler import Destination, Source, Uniform

KEYWORDS = ("TEMP", "SHORT", "LONG", "ADDRESS", "OUTPUT", "ATTRIB", "ALIAS", "PARAM")


@dataclass
class Names:
    """Declared names: TEMP/ADDRESS allocations and OUTPUT/ATTRIB/PARAM aliases."""

    registers: dict[str, tuple[str, int]] = field(default_factory=dict)  # TEMP, ADDRESS
    outputs: dict[str, Destination] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)  # ATTRIB, PARAM with a value
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
class OperandGrammar:
    """The statement grammar's operand reading: ``parse`` takes one operand's tokens off a
    stream; ``source`` and ``destination`` resolve what it parsed (with the names declared so
    far) or raise SourceError."""

    parse: Callable[[TokenStream], object]
    source: Callable[[object, ProgramKind, Names], Source]
    destination: Callable[[object, ProgramKind, Names], Destination]


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


def declarations(state_data: dict) -> Declarations:
    """The declarations of a pass, kept in its state's data."""
    return state_data.setdefault("declarations", Declarations())


def hardware_register(name: str, token: Token, kind: ProgramKind) -> tuple[str, int] | None:
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
        raise SourceError(f"{name}: {file} registers go up to {file}{limits[file] - 1}", token.column,
                          token.length)
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


def directives(kind: ProgramKind, grammar: OperandGrammar | OperandCheck) -> Mapping[str, DirectiveHandler]:
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
    grammar: OperandGrammar | OperandCheck
    alias: Callable[[str, str], None]
    text: str

    @property
    def names(self) -> Names:
        return self.declared.names

    def read(self, keyword: str) -> None:
        stream = TokenStream(syntax.tokenize(self.text, 1))
        if keyword in ("SHORT", "LONG"):
            second = stream.expect_name("TEMP")
            if second.text.upper() != "TEMP":
                raise stream.error("expected TEMP", second)
        if keyword in ("TEMP", "SHORT", "LONG", "ADDRESS"):
            file = "A" if keyword == "ADDRESS" else ("H" if keyword == "SHORT" else "R")
            while True:
                name = stream.expect_name("a register name")
                if stream.at("["):  # TEMP arrays are not supported; declare names one by one
                    raise stream.error("register arrays are not supported")
                self._register(name, file)
                if not stream.accept(","):
                    break
            return
        name = stream.expect_name("a name")
        if stream.at("["):  # PARAM c[4] = {...}: cgc's constant bank, carried by #const/#var
            self.names.valueless.add(name.text)
            return
        equals = stream.expect("=", "after the name")
        if isinstance(self.grammar, OperandCheck):
            self._checked(keyword, name, equals)
            return
        if keyword == "PARAM":
            self._param(name, stream)
            return
        operand = self.grammar.parse(stream)
        if stream.peek().kind != "end":
            raise stream.error("expected ';'")
        if keyword == "OUTPUT":
            self.names.outputs[name.text] = self.grammar.destination(operand, self.kind, self.names)
        else:
            self.names.sources[name.text] = self.grammar.source(operand, self.kind, self.names)
        self.alias(name.text, self.text[equals.column:].strip())

    def _checked(self, keyword: str, name: Token, equals: Token) -> None:
        """``name = operand`` read through the :class:`OperandCheck`: the name becomes an alias
        of the operand's text."""
        rest = self.text[equals.column:]
        text = rest.strip()
        column = equals.column + len(rest) - len(rest.lstrip()) + 1
        if keyword == "PARAM":
            self._checked_param(name, text, column)
            return
        check = self.grammar.destination if keyword == "OUTPUT" else self.grammar.source
        try:
            check(text)
        except SourceError as error:
            raise SourceError(error.message, column + error.col - 1, error.length) from None
        self.alias(name.text, text)

    def _checked_param(self, name: Token, text: str, column: int) -> None:
        """``PARAM x = c[N]``, ``= {…}`` or ``= number`` (a VP literal is placed in constant
        memory, :meth:`_vertex_constant`); anything else gives no usable value."""
        literal = re.fullmatch(r"(-?)\s*(\{[^{}]*\}|[0-9.][0-9a-fA-FxX.eE+-]*)", text)
        try:
            self.grammar.source(text)
        except SourceError:
            if literal is None or self.kind is not ProgramKind.VERTEX:
                self.names.valueless.add(name.text)
                return
        if literal is not None and self.kind is ProgramKind.VERTEX:
            value = literal.group(2) if literal.group(2).startswith("{") else "{" + literal.group(2) + "}"
            try:
                bits = literal_words(FloatVector().parse(value, None))
            except SourceError:
                self.names.valueless.add(name.text)
                return
            text = f"{literal.group(1)}c[{self._vertex_constant(name, bits)}]"
        self.alias(name.text, text)

    def _register(self, name: Token, file: str) -> None:
        hardware = hardware_register(name.text, name, self.kind)
        if hardware is not None:
            if file == "A" and hardware[0] != "A":
                raise SourceError(f"'{name.text}' is not an address register", name.column, name.length)
            return
        if name.text in self.names.registers:
            raise SourceError(f"'{name.text}' is declared twice", name.column, name.length)
        registers = self.names.registers.values()
        if file == "A":
            if self.kind is ProgramKind.FRAGMENT:
                raise SourceError("fragment programs have no address registers", name.column, name.length)
            used = {index for kind, index in registers if kind == "A"}
            free = [index for index in range(syntax.VP_ADDRESS_REGISTERS) if index not in used]
            if not free:
                raise SourceError("no address register left (A0 and A1 are taken)", name.column, name.length)
            register = ("A", free[0])
        else:
            limits = syntax.VP_LIMITS if self.kind is ProgramKind.VERTEX else syntax.FP_LIMITS
            taken = self.scan.temps | {index // 2 if kind == "H" else index for kind, index in registers if kind != "A"}
            index = next((index for index in range(limits["R"]) if index not in taken), None)
            if index is None:
                raise SourceError(f"no temp register left for '{name.text}'", name.column, name.length)
            register = ("H", 2 * index) if file == "H" else ("R", index)
        self.names.registers[name.text] = register
        self.alias(name.text, f"{register[0]}{register[1]}")

    def _param(self, name: Token, stream: TokenStream) -> None:
        """``PARAM x = {…}`` (FP: an inline literal; VP: a constant register, see
        :meth:`_vertex_constant`) or ``PARAM x = c[N]``; other forms (program.local/env
        bindings) are accepted but give no usable value."""
        first = stream.peek()
        if (first.kind == "punct" and first.text in ("{", "-")) or first.kind in ("number", "hex") or \
                (first.kind == "name" and first.text == "c"):
            # A vertex program reads the value as the fragment syntax would, then from c[].
            reading_kind = ProgramKind.FRAGMENT if first.text != "c" else self.kind
            try:
                source = self.grammar.source(self.grammar.parse(stream), reading_kind, self.names)
            except SourceError:
                source = None
            if source is not None and stream.peek().kind == "end":
                if source.file == "literal" and self.kind is ProgramKind.VERTEX:
                    index = self._vertex_constant(name, source.literal)
                    source = replace(source, file="c", index=index, literal=None)
                    self.alias(name.text, f"c[{index}]")
                else:
                    self.alias(name.text, self.text[first.column - 1:].strip())
                self.names.sources[name.text] = source
                return
        self.names.valueless.add(name.text)

    def _vertex_constant(self, name: Token, bits: tuple[int, int, int, int]) -> int:
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
            raise SourceError(f"no constant register left for PARAM '{name.text}'", name.column, name.length)
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
