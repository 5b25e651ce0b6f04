"""The assembler driver: source text → words, for any described instruction set.

It owns what every assembler shares: reading lines and ``.include`` files, comments,
labels (``name:``), constants (``.equ NAME expr``, ``NAME = expr``), permission
directives (``.allow NAME``), data (``.word``), the two passes (addresses first,
then encoding) and the collection of *every* error with its file, line and column.
Instruction text itself is parsed by the ISA's :class:`~shaderkit.core.model.Description`.

ISA packages adapt the driver with ``read_line`` (whole lines that stand for other
statements, such as TPP's ``##devMode##``, or an upstream tool's comment line that is a NOP)
and the hooks of :mod:`.asm_hooks` (statement
separators, their own directives, comment directives, macros, carried fields, field overrides,
a prescan of the whole program, a check after the last pass and a finish step), and inspect
the resulting :class:`Program` for machine limits, reporting problems through
:meth:`Program.error_at`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .asm_hooks import (CheckCall, CheckHandler, DirectiveCall, DirectiveHandler, FinishCall, FinishHandler,
                        MacroCall, MacroHandler, OverrideReader, PassState, PrescanHandler, ValueNames, expansion_error,
                        split_statements, substitute_aliases)
from .diagnostics import Diagnostic, DiagnosticError, InputError, SourceError
from .expr import evaluate
from .fileio import read_file_bytes
from .model import Description, Instruction, ParseContext
from .suggest import did_you_mean

MAX_INCLUDE_DEPTH = 16
MAX_ERRORS = 100
# Each file is capped by core.fileio, but a file that includes another ten times, which
# includes a third ten times, ... multiplies the text at every level: the included text of one
# assembly is bounded in total, in characters and in files read. No real program comes near.
MAX_INCLUDED_CHARACTERS = 64 * 1024 * 1024
MAX_INCLUDES = 10_000

_LABEL = re.compile(r"\s*([A-Za-z_.$][\w.$]*)\s*:(?!:)")
_ASSIGNMENT = re.compile(r"\s*([A-Za-z_][\w.$]*)\s*=(?!=)")
_SYMBOL = re.compile(r"[A-Za-z_][\w.$]*\Z")


@dataclass(frozen=True)
class SourceLine:
    file: str
    number: int
    text: str


@dataclass
class Statement:
    """An instruction or data statement: the text handed to the description, and where it is."""

    line: SourceLine
    text: str
    column: int  # column of ``text`` within the line, counting from 1
    address: int = 0
    size: int = 1
    overrides: str = ""  # the text after its line's override marker (a hook may read it again)


@dataclass
class Program:
    """An assembled program: instructions with their addresses and source lines."""

    instructions: list[Instruction]
    statements: list[Statement]
    symbols: dict[str, int]
    unlocked: set[str]
    warnings: list[Diagnostic] = field(default_factory=list)
    # Where each label or constant was defined: name → (line, column).
    definitions: dict[str, tuple[SourceLine, int]] = field(default_factory=dict)
    state: PassState = field(default_factory=PassState)  # what the hooks kept in the pass

    @property
    def words(self) -> list[int]:
        return [word for instruction in self.instructions for word in instruction.words]

    def diagnostic(self, index: int, message: str, severity: str = "error") -> Diagnostic:
        """A diagnostic pointing at the statement of instruction ``index``."""
        statement = self.statements[index]
        line = statement.line
        length = len(statement.text.split()[0]) if statement.text.split() else 1
        return Diagnostic(line.file, line.number, statement.column, message, severity, line.text, length)

    def error_at(self, index: int, message: str) -> DiagnosticError:
        return DiagnosticError([self.diagnostic(index, message)])

    def definition_diagnostic(self, name: str, message: str, severity: str = "error") -> Diagnostic:
        """A diagnostic pointing at the definition of label or constant ``name``."""
        line, column = self.definitions[name]
        return Diagnostic(line.file, line.number, column, message, severity, line.text, len(name))


SourceReader = Callable[[Path], str]
# A whole line's text and what the prescan returned (None before and without one) → the
# statements the line stands for, or None to read the line as written.
LineReader = Callable[[str, object], "Sequence[str] | None"]


@dataclass
class _IncludeBudget:
    """What the ``.include`` files of one assembly have used so far."""

    includes: int = 0
    characters: int = 0
    exhausted: bool = False


def read_source_file(path: Path) -> str:
    """An included file's text, read as every input file is (:func:`core.fileio.read_file_bytes`):
    a missing file, a directory, a device or FIFO, or a file past the size cap raises
    :class:`InputError` instead of failing later, blocking or filling memory."""
    return read_file_bytes(path).decode("utf-8")


class Assembler:
    """The two-pass driver for one description; the keyword arguments are the ISA's hooks
    (:mod:`.asm_hooks`): comment prefixes, a reader of whole lines (TPP's ``##devMode##``), a
    statement separator (with ``terminated``, every statement must end with it but those
    starting with the words listed), its own directives, directives written as comments
    (keywords starting with a comment prefix) or after the override marker on a line with no
    statement (``override_directives``), its macros, the marker of field overrides and their
    reader, a prescan of every statement, a check after the last pass, a finish step, the names of
    operand values for each pass (``value_names(final)``: field → name → value, what
    :attr:`ParseContext.value_names` holds), the words one address counts and the longest word
    a statement may hold, and optionally one address every statement is placed at (each
    statement read on its own, as if it stood there)."""

    def __init__(self, description: Description, *, comment_prefixes: Sequence[str] = ("//", ";"),
                 read_line: LineReader | None = None, statement_separator: str | None = None,
                 directives: Mapping[str, DirectiveHandler] | None = None,
                 comment_directives: Mapping[str, DirectiveHandler] | None = None,
                 macros: Mapping[str, MacroHandler] | None = None,
                 override_marker: str | None = None, read_overrides: OverrideReader | None = None,
                 prescan: PrescanHandler | None = None, check: CheckHandler | None = None,
                 finish: FinishHandler | None = None, override_directives: Mapping[str, DirectiveHandler] | None = None,
                 terminated: Sequence[str] | None = None,
                 value_names: ValueNames | None = None, words_per_address: int = 1,
                 max_word_length: int | None = None, statement_address: int | None = None):
        self.description = description
        self.comment_prefixes = tuple(comment_prefixes)
        # Whole lines that stand for other statements (given what the prescan returned).
        self.read_line = read_line
        self.statement_separator = statement_separator
        self.directives = {self._key(name): handler for name, handler in (directives or {}).items()}
        self.comment_directives = {self._key(name): handler for name, handler in (comment_directives or {}).items()}
        self.macros = {self._key(name): handler for name, handler in (macros or {}).items()}
        # Directives written after the override marker on a line with no statement (``#! trailing …``).
        self.override_directives = {self._key(name): handler
                                    for name, handler in (override_directives or {}).items()}
        if (override_marker is None) != (read_overrides is None):
            raise ValueError("field overrides need both a marker and a reader")
        self.override_marker = override_marker
        self.read_overrides = read_overrides
        self.prescan = prescan
        self.check = check
        self.finish = finish
        # Statements end with the separator, except those starting with one of these words
        # (``END`` needs no ';'); None: the separator only separates.
        self.terminated = None if terminated is None else {self._key(word) for word in terminated}
        if self.terminated is not None and not statement_separator:
            raise ValueError("terminated statements need a statement separator")
        self.value_names = value_names
        # How many words one address counts (4: an address is a 4-word slot).
        self.words_per_address = words_per_address
        # A statement's longest name or number, refused before it is parsed (or quoted whole).
        self.max_word_length = max_word_length
        # Every statement placed at this address (a list of statements each read as if at word
        # address 0, as a golden table of single words is); None: statements follow each other.
        self.statement_address = statement_address

    def _key(self, word: str) -> str:
        return word if self.description.case_sensitive else word.upper()

    def assemble(self, source: str, filename: str = "<input>", *, unlocked: Sequence[str] = (),
                 reader: SourceReader = read_source_file, origin: int = 0) -> Program:
        """Assemble ``source``; raises DiagnosticError listing every error found.

        ``origin`` is the address of the first instruction (labels count from it).
        """
        errors: list[Diagnostic] = []
        lines = self._expand(source, filename, reader, errors, depth=0)
        prescanned = None
        if self.prescan is not None:
            prescanned = self.prescan([text for line in lines for text, _ in self._line_parts(line, None)[1]])
        first = self._pass(lines, set(unlocked), errors=None, final=False, origin=origin, prescanned=prescanned)
        program = self._pass(lines, set(unlocked), errors=errors, final=True, labels=first.symbols, origin=origin,
                             prescanned=prescanned)
        closing = Statement(lines[-1] if lines else SourceLine(filename, 1, ""), "", 1,
                            program.instructions[-1].address + self._size(program.instructions[-1].words)
                            if program.instructions else origin, 0)
        if self.check is not None:
            for diagnostic in self.check(CheckCall(program, program.state, not errors, closing)):
                (errors if diagnostic.severity == "error" else program.warnings).append(diagnostic)
        if self.finish is not None and not errors:
            try:
                self.finish(FinishCall(program, program.state, self.with_fields, closing))
            except DiagnosticError as error:
                errors.extend(error.diagnostics)
        if errors:
            raise DiagnosticError(errors[:MAX_ERRORS])
        return program

    # -- reading ------------------------------------------------------------------------

    def _expand(self, source: str, filename: str, reader: SourceReader, errors: list[Diagnostic],
                depth: int, including: tuple[str, ...] = (), budget: _IncludeBudget | None = None) -> list[SourceLine]:
        # The files being expanded, outermost first: a cycle is reported at once rather
        # than found by the depth limit (a file including itself twice would otherwise
        # expand 2**MAX_INCLUDE_DEPTH times).
        including = (*including, os.path.normpath(filename))
        budget = budget or _IncludeBudget()
        lines: list[SourceLine] = []
        for number, text in enumerate(source.splitlines(), start=1):
            line = SourceLine(filename, number, text)
            body = self._strip_comment(text)
            match = re.match(r"\s*\.include\b\s*(.*)", body, re.IGNORECASE)
            if not match:
                lines.append(line)
                continue
            column = match.start(1) + 1
            argument = match.group(1).strip()
            if not (len(argument) >= 2 and argument[0] == argument[-1] and argument[0] in "\"'"):
                errors.append(self._diagnostic(line, column, 'expected a quoted file name: .include "file.s"'))
                continue
            if "\0" in argument:  # no file system takes it; Python would raise ValueError
                errors.append(self._diagnostic(line, column, "a file name cannot contain a NUL character",
                                               len(argument)))
                continue
            if depth >= MAX_INCLUDE_DEPTH:
                errors.append(self._diagnostic(line, column, f"includes nested deeper than {MAX_INCLUDE_DEPTH} (a cycle?)"))
                continue
            path = Path(filename).parent / argument[1:-1]
            if os.path.normpath(path) in including:
                errors.append(self._diagnostic(line, column, f"include cycle: '{argument[1:-1]}' "
                                               "is already being included", len(argument)))
                continue
            if budget.exhausted:
                break
            budget.includes += 1
            if budget.includes > MAX_INCLUDES:
                budget.exhausted = True
                errors.append(self._diagnostic(line, column, f"more than {MAX_INCLUDES:,} files included in "
                                               "all (a file included repeatedly at every level?)", len(argument)))
                break
            try:
                included = reader(path)
            except (OSError, ValueError, InputError) as error:
                errors.append(self._diagnostic(line, column, f"cannot include '{argument[1:-1]}': "
                                               f"{_read_failure(error, path)}", len(argument)))
                continue
            budget.characters += len(included)
            if budget.characters > MAX_INCLUDED_CHARACTERS:
                budget.exhausted = True
                errors.append(self._diagnostic(line, column, f"included files add up to more than "
                                               f"{MAX_INCLUDED_CHARACTERS:,} characters", len(argument)))
                break
            lines.extend(self._expand(included, str(path), reader, errors, depth + 1, including, budget))
        return lines

    def _comment_start(self, text: str, start: int = 0) -> int:
        """Where the first comment at or after ``start`` begins (``len(text)`` for none)."""
        cut = len(text)
        for prefix in self.comment_prefixes:
            position = text.find(prefix, start)
            if position != -1:
                cut = min(cut, position)
        return cut

    def _strip_comment(self, text: str) -> str:
        return text[:self._comment_start(text)]

    def _split_line(self, text: str) -> tuple[str, tuple[str, int] | None, tuple[str, int] | None]:
        """A line's code, its override text and its comment, each text with its column (the
        marker of overrides comes before comment prefixes it starts like, such as ``#!``
        before ``#``)."""
        overrides = None
        marker = text.find(self.override_marker) if self.override_marker else -1
        comment_at = self._comment_start(text)
        if marker != -1 and marker <= comment_at:
            start = marker + len(self.override_marker)
            comment_at = self._comment_start(text, start)
            overrides = (text[start:comment_at], start + 1)
            code = text[:marker]
        else:
            code = text[:comment_at]
        comment = (text[comment_at:], comment_at + 1) if comment_at < len(text) else None
        return code, overrides, comment

    def _line_parts(self, line: SourceLine, prescanned: object) -> tuple[
            list[tuple[str, int]], list[tuple[str, int]], tuple[str, int] | None, tuple[str, int] | None]:
        """A line's labels and statements, each with its column, then its overrides and comment
        (see :meth:`_split_line`); what ``read_line`` reads a whole line as stands for its code
        (those statements are placed at the line's first column)."""
        body, overrides, comment = self._split_line(line.text)
        read = self.read_line(line.text, prescanned) if self.read_line is not None else None
        if read is not None:
            column = 1 + len(line.text) - len(line.text.lstrip())
            return [], [(text, column) for text in read], overrides, comment
        labels = []
        offset = 0
        while (label := _LABEL.match(body, offset)) is not None:
            labels.append((label.group(1), label.start(1) + 1))
            offset = label.end()
        statements = [(text, offset + start)
                      for text, start in split_statements(body[offset:], self.statement_separator)]
        return labels, statements, overrides, comment

    def with_fields(self, instruction: Instruction, values: Mapping[str, int]) -> Instruction:
        """``instruction`` with raw fields set to ``values`` and encoded again; SourceError
        (column 1) for a field the description lacks or a value too wide for its field."""
        fields = self.description.fields
        for name, value in values.items():
            if name not in fields:
                raise SourceError(f"{self.description.name} has no field '{name}'", 1)
            if not 0 <= value < 1 << fields[name].width:
                raise SourceError(f"{value:#x} does not fit in the {fields[name].width}-bit field {name}", 1)
        return self.description.with_fields(instruction, dict(values))

    def _size(self, words: Sequence[int]) -> int:
        """The addresses ``words`` take."""
        return -(-len(words) // self.words_per_address)

    # -- one pass -----------------------------------------------------------------------

    def _pass(self, lines: list[SourceLine], unlocked: set[str], errors: list[Diagnostic] | None,
              final: bool, labels: Mapping[str, int] | None = None, origin: int = 0,
              prescanned: object = None) -> Program:
        """Walk all lines. The first pass (final=False) only places labels; the second encodes."""
        symbols: dict[str, int] = {}
        context = ParseContext(symbols, unlocked, final)
        context.keywords = (*self.directives, *self.macros)
        if self.value_names is not None:
            # Assigned, not copied: the ISA's mapping may answer for names it does not list.
            context.value_names = self.value_names(final)
        if labels:
            # Labels from the first pass are known everywhere in the second (forward references).
            context.symbols.update(labels)
        defined: dict[str, SourceLine] = {}
        # The live table (ParseContext copies what it is given), so the first pass's
        # labels reach the second through ``program.symbols``.
        program = Program([], [], context.symbols, unlocked)
        address = origin if self.statement_address is None else self.statement_address

        def report(line: SourceLine, column: int, message: str, length: int = 1) -> None:
            if errors is not None:
                errors.append(self._diagnostic(line, column, message, length))

        def define(name: str, value: int, line: SourceLine, column: int) -> None:
            if name in defined and final:
                earlier = defined[name]
                report(line, column, f"'{name}' is already defined at {earlier.file}:{earlier.number}", len(name))
                return
            defined[name] = line
            program.definitions[name] = (line, column)
            context.symbols[name] = value

        state = program.state
        state.prescanned = prescanned

        def place(instruction: Instruction | None, statement: Statement, words: tuple[int, ...]) -> None:
            nonlocal address
            if instruction is not None:
                program.instructions.append(_placed(instruction, address, words))
                program.statements.append(statement)
            statement.size = self._size(words)
            if self.statement_address is None:
                address += statement.size

        for line in lines:
            labels, statements, overrides, comment = self._line_parts(line, prescanned)
            if comment is not None:
                try:
                    self._isa_directive(*comment, line, address, final, state, define, self.comment_directives)
                except SourceError as error:
                    report(line, error.col, error.message, error.length)
            first_of_line = len(program.instructions)
            for name, column in labels:
                define(name, address, line, column)
            if overrides is not None and not statements:
                try:
                    if self._isa_directive(*overrides, line, address, final, state, define,
                                           self.override_directives):
                        continue
                except SourceError as error:
                    report(line, error.col, error.message, error.length)
                    continue
            if self.terminated is not None:
                unterminated = self._unterminated(line, statements)
                if unterminated is not None:
                    report(line, unterminated, f"missing '{self.statement_separator}' at the end of the statement")
            for text, column in statements:
                try:
                    if self._directive(text, column, line, context, unlocked, define):
                        continue
                    if self._isa_directive(text, column, line, address, final, state, define, self.directives):
                        continue
                except SourceError as error:
                    report(line, error.col, error.message, error.length)
                    continue
                expansions, carried = self._expansions(text, column, line, address, final, state, define, report,
                                                       overrides[0] if overrides else "")
                for number, (expanded, from_macro) in enumerate(expansions):
                    statement = Statement(line, expanded if from_macro else text, column, address,
                                          overrides=overrides[0] if overrides else "")
                    parsed, back = substitute_aliases(expanded, state.aliases)
                    context.address = address
                    try:
                        if self.max_word_length is not None:
                            _refuse_long_words(parsed, self.max_word_length)
                        instruction = self.description.parse(parsed, context)
                        if carried and number == 0 and final:
                            instruction = self._carry(instruction, carried, context)
                        words = self.description.encode(instruction)
                    except SourceError as error:
                        if from_macro:
                            report(line, column, expansion_error(text.split()[0], error), len(text.split()[0]))
                        else:
                            message = error.message + _alias_hint(error, parsed, state.aliases)
                            report(line, column + back(error.col) - 1, message, error.length)
                        instruction, words = None, (0,) * self.description.words_per_instruction
                    except ValueError as error:  # a value the encoder refused although it fitted the field
                        report(line, column, str(error))
                        instruction, words = None, (0,) * self.description.words_per_instruction
                    place(instruction, statement, words)
            # Overrides of a statement that failed would only add a second error for it.
            failed = errors is not None and errors and errors[-1].line == line.number and errors[-1].file == line.file
            if overrides is not None and not failed:
                try:
                    self._override(program, first_of_line, *overrides)
                except SourceError as error:
                    report(line, error.col, error.message, error.length)
                else:
                    # An override may change the instruction's length (a field that adds words).
                    overridden, statement = program.instructions[first_of_line], program.statements[first_of_line]
                    size = self._size(overridden.words)
                    address += size - statement.size
                    statement.size = size
        return program

    def _unterminated(self, line: SourceLine, statements: list[tuple[str, int]]) -> int | None:
        """The column after a line's last statement if the separator does not end it (and it
        does not start with a word exempt from that), else None."""
        if not statements:
            return None
        text, column = statements[-1]
        if self._key(_keyword(text)[0]) in self.terminated:
            return None
        rest = self._split_line(line.text)[0][column - 1 + len(text):]
        if rest.lstrip().startswith(self.statement_separator):
            return None
        return column + len(text)

    def _override(self, program: Program, first: int, text: str, column: int) -> None:
        """Apply a line's field overrides to its one instruction (from index ``first``)."""
        marker_column = column - len(self.override_marker)
        if len(program.instructions) - first != 1:
            raise SourceError(f"'{self.override_marker}' overrides apply to a line with exactly one instruction",
                              marker_column, len(self.override_marker))
        try:
            values = self.read_overrides(text)
        except SourceError as error:
            raise SourceError(error.message, column + error.col - 1, error.length) from None
        try:
            program.instructions[first] = self.with_fields(program.instructions[first], values)
        except SourceError as error:
            start = column + len(text) - len(text.lstrip())
            raise SourceError(error.message, start, max(1, len(text.strip()))) from None

    def _carry(self, instruction: Instruction, carried: Mapping[str, str], context: ParseContext) -> Instruction:
        """``instruction`` with the carried fields its macro set, their expressions evaluated
        (errors point at the statement: the expressions are the macro's, not the user's)."""
        values = {}
        for name, expression in carried.items():
            try:
                values[name] = evaluate(expression, context.lookup)
            except SourceError as error:
                raise SourceError(f"carried field {name}: {error.message}", 1) from None
        return self.with_fields(instruction, values)

    def _isa_directive(self, text: str, column: int, line: SourceLine, address: int, final: bool,
                       state: PassState, define: Callable[[str, int, SourceLine, int], None],
                       handlers: Mapping[str, DirectiveHandler]) -> bool:
        """Hand a directive of the ISA's to its handler in ``handlers``; False if ``text`` is none."""
        name, argument, argument_offset = _keyword(text)
        handler = handlers.get(self._key(name))
        if handler is None:
            return False
        argument_column = column + argument_offset
        call = DirectiveCall(name, argument, address, final, state,
                             lambda symbol, value: define(symbol, value, line, column))
        try:
            handler(call)
        except SourceError as error:
            raise SourceError(error.message, argument_column + error.col - 1, error.length) from None
        return True

    def _expansions(self, text: str, column: int, line: SourceLine, address: int, final: bool, state: PassState,
                    define: Callable[[str, int, SourceLine, int], None], report,
                    hints: str) -> tuple[list[tuple[str, bool]], dict[str, str]]:
        """The statements ``text`` stands for — itself, or a macro's expansion (flagged True) —
        and the carried fields the macro set."""
        name, argument, argument_offset = _keyword(text)
        handler = self.macros.get(self._key(name))
        if handler is None:
            return [(text, False)], {}
        call = MacroCall(name, argument, address, final, state,
                         lambda symbol, value: define(symbol, value, line, column), hints)
        try:
            expanded = handler(call)
        except SourceError as error:
            report(line, column + argument_offset + error.col - 1, error.message, error.length)
            return [], {}
        if expanded is None:
            return [(text, False)], call.carried
        return [(statement, True) for statement in expanded], call.carried

    def _directive(self, text: str, column: int, line: SourceLine, context: ParseContext,
                   unlocked: set[str], define: Callable[[str, int, SourceLine, int], None]) -> bool:
        """Handle constants and ``.allow``; False if ``text`` is an instruction or data."""
        assignment = _ASSIGNMENT.match(text)
        name_column = column
        if assignment:
            name, expression = assignment.group(1), text[assignment.end():]
            expression_column = column + assignment.end()
        else:
            parts = text.split(None, 1)
            keyword = parts[0].lower()
            if keyword == ".allow":
                for permission in (parts[1].replace(",", " ").split() if len(parts) > 1 else []):
                    unlocked.add(permission)
                    context.unlocked.add(permission)
                if len(parts) == 1:
                    raise SourceError("'.allow' needs a permission name", column, len(parts[0]))
                return True
            if keyword not in (".equ", ".define", ".set"):
                return False
            if len(parts) == 1:
                raise SourceError(f"'{parts[0]}' needs a name and a value", column, len(parts[0]))
            rest = parts[1]
            name_column = column + len(text) - len(rest)
            found = re.match(r"([^\s,]+)\s*,?\s*", rest)
            if found is None:  # e.g. ".equ , 1": no name before the comma
                raise SourceError(f"'{parts[0]}' needs a name and a value", name_column, len(rest))
            name, expression = found.group(1), rest[found.end():]
            expression_column = name_column + found.end()
            if not _SYMBOL.match(name):
                raise SourceError(f"'{name}' is not a valid name", name_column, len(name))
        try:
            value = evaluate(expression, context.lookup)
        except SourceError as error:
            raise SourceError(error.message, expression_column + error.col - 1, error.length) from None
        define(name, value, line, name_column)
        # A constant is meant for a field or a word; one wider than a whole instruction is a
        # mistake, and a chain of them (A1 = A0*A0, A2 = A1*A1, …) would otherwise grow until
        # the expression limit. It stays defined so later lines report their own errors, not
        # an undefined name.
        widest = self.description.instruction_bits
        if value.bit_length() > widest:
            raise SourceError(f"'{name}' is {value.bit_length()} bits wide, wider than any field or word of "
                              f"{self.description.name} ({widest} bits)",
                              expression_column + len(expression) - len(expression.lstrip()),
                              max(1, len(expression.strip())))
        return True

    @staticmethod
    def _diagnostic(line: SourceLine, column: int, message: str, length: int = 1) -> Diagnostic:
        return Diagnostic(line.file, line.number, max(1, column), message, "error", line.text, max(1, length))


def _read_failure(error: Exception, path: Path) -> str:
    """Why an include could not be read, in core.fileio's wording without its ``PATH:`` prefix
    (the diagnostic already names the file)."""
    if isinstance(error, InputError):
        return str(error).removeprefix(f"{os.fspath(path)}: ")
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)  # UnicodeDecodeError, or whatever a custom reader refuses


def _refuse_long_words(text: str, limit: int) -> None:
    found = re.search(r"[\w.$]{%d,}" % (limit + 1), text)
    if found is not None:
        raise SourceError(f"a word of {len(found.group()):,} characters is too long (at most {limit:,})",
                          found.start() + 1, len(found.group()))


def _alias_hint(error: SourceError, text: str, aliases: Mapping[str, str]) -> str:
    """"(did you mean NAME?)" for an error at a word of ``text`` close to a declared alias, when
    the error suggests nothing itself."""
    if not aliases or "did you mean" in error.message:
        return ""
    word = re.match(r"[A-Za-z_]\w*", text[error.col - 1:error.col - 1 + error.length])
    return did_you_mean(word.group(), list(aliases)) if word else ""


def _keyword(text: str) -> tuple[str, str, int]:
    """A statement's first word, the rest stripped (any blanks separate them, a tab too), and
    where that rest starts in ``text`` (0 when there is none: errors then point at the word)."""
    parts = text.split(None, 1)
    if not parts:
        return "", "", 0
    rest = text[text.index(parts[0]) + len(parts[0]):]
    argument = rest.strip()
    return parts[0], argument, len(text) - len(rest.lstrip()) if argument else 0


def _placed(instruction: Instruction, address: int, words: tuple[int, ...]) -> Instruction:
    return replace(instruction, address=address, words=tuple(words))
