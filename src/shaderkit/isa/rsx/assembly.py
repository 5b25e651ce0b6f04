"""RSX assembly text to programs, on core's assembler driver (spec/rsx.md 5.1).

Statements are read by the instruction descriptions (:mod:`.description_vertex`,
:mod:`.description_fragment`) through :class:`shaderkit.core.asm.Assembler`; this module owns
what is RSX about a whole program, as the driver's hooks:

* the **header** (``!!ARBvp1.0``, ``!!VP2.0``, ``!!ARBfp1.0``, ``!!FP2.0``) chooses the
  description; a source without one is a form-B listing (its kind given by the caller, vertex by
  default) whose lines may start with their slot number, ``NNN:`` (every statement on such a
  line is part of that one slot: two are co-issued; a slot assembled elsewhere is warned about);
* ``;`` ends every statement but ``END``, which ends the program (required, except in a
  listing); the last instruction gets the end bit unless its ``#!`` hints set it;
* declarations (``TEMP`` … ``PARAM``, :mod:`.assembly_declarations`), ``OPTION`` (ignored);
* the declaring comments ``#const``, ``#var`` and ``#default`` (:mod:`.assembly_comments`),
  which give a fragment program's ``c[N]`` reads their literal values;
* the macros of :mod:`.assembly_macros` through a scratch temp (the next R index after every
  temp the program names), and the block keywords (:mod:`.assembly_blocks`): ``IF``/``LOOP``/
  ``REP`` open a block whose ``ELSE``/``ENDIF``/``ENDLOOP``/``ENDREP`` give the opener its
  word offsets (carried fields);
* ``#! field=value …`` hints (:mod:`.assembly_hints`) as field overrides, and ``#! trailing w w w
  w`` after ``END``, a slot of words after the program's end;
* the texture targets, which the words do not hold (:mod:`.assembly_targets`): the units read
  as RECT, for the container to record, and an error for a unit read both as RECT and as 2D.

An address is a slot for a vertex program (branch targets are slots) and a 32-bit word for a
fragment program (block offsets and call targets count words, spec 3.9).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from shaderkit.core.asm import Assembler
from shaderkit.core.asm_hooks import CheckCall, DirectiveCall, FinishCall, MacroCall, PassState, substitute_aliases
from shaderkit.core.diagnostics import Diagnostic, DiagnosticError, SourceError
from shaderkit.core.model import Description, ParseContext
from shaderkit.core.model.templates import split_operands

from . import assembly_declarations, syntax
from .assembly_blocks import CLOSERS, OPENERS, Blocks
from .assembly_comments import CONSTANT_READ, AnyConstant, DeclaringComments, Sampler, Uniform  # noqa: F401 (results)
from .assembly_declarations import Declarations, Names, OperandCheck
from .assembly_hints import LITERAL, is_native, read_hints
from .assembly_macros import NATIVE_MISPLACED, expansion, macro_name, macro_spellings, native_applies
from .assembly_targets import TextureTargets, read_targets
from .container import ProgramKind
from .description_fragment import FRAGMENT
from .description_vertex import VERTEX
from .instruction import Instruction, Program, words_to_floats
from .limits import VP_CODE_SLOTS

# ARB and NV program headers; the NV 1.x ones (NV_vertex_program, NV_fragment_program) name
# the same registers and instructions this syntax reads.
HEADERS = {"!!ARBvp1.0": ProgramKind.VERTEX, "!!VP2.0": ProgramKind.VERTEX, "!!VP1.0": ProgramKind.VERTEX,
           "!!VP1.1": ProgramKind.VERTEX, "!!ARBfp1.0": ProgramKind.FRAGMENT, "!!FP2.0": ProgramKind.FRAGMENT,
           "!!FP1.0": ProgramKind.FRAGMENT}
DESCRIPTIONS = {ProgramKind.VERTEX: VERTEX, ProgramKind.FRAGMENT: FRAGMENT}
INSTRUCTION_WORDS = 4
MAX_WORD_LENGTH = 1000  # no name or number of a real program comes near it
ADDRESS_REGISTER_NAME = re.compile(r"A[01]")
_SLOT_PREFIX = re.compile(r"(\s*)(\d+)(\s*:)")
_NAME = re.compile(r"[A-Za-z_]\w*")


# --- results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AssembledProgram:
    """A program with what its text declares: ``constants`` (``#const`` and VP ``PARAM {…}``
    values by c[] index), ``uniforms`` (``#var``), ``literal_constants`` (FP: the slot of each
    literal read from a declared c[N] → N), the warnings, the ``texture_targets`` its texture
    instructions give their units and the ``samplers`` ``#var … texunit N`` lines name."""

    program: Program
    constants: dict[int, tuple[float, float, float, float]]
    uniforms: tuple[Uniform, ...]
    literal_constants: dict[int, int]
    warnings: tuple[Diagnostic, ...]
    texture_targets: TextureTargets = TextureTargets()
    samplers: tuple[Sampler, ...] = ()


def assemble(source: str, filename: str = "<input>", kind: ProgramKind | None = None) -> AssembledProgram:
    """Assemble form A text (or a form-B listing); DiagnosticError lists every error."""
    return _Assembly(source, filename, kind).run()


# --- the assembly ------------------------------------------------------------------------------


class _Assembly:
    def __init__(self, source: str, filename: str, kind: ProgramKind | None):
        self.source = source
        self.filename = filename
        self.requested = kind
        self.kind: ProgramKind | None = None
        self.listing = False
        self.errors: list[Diagnostic] = []
        self.slot_numbers: dict[int, int] = {}  # line number → NNN written
        self.comments: DeclaringComments | None = None
        self.blocks = Blocks(self._not_after_end)
        self.statement_words: set[str] = set()  # the names statements use
        self.scan = None
        self.texture_targets = TextureTargets()  # read by the check hook

    @property
    def description(self) -> Description:
        return DESCRIPTIONS[self.kind]

    @property
    def fragment(self) -> bool:
        return self.kind is ProgramKind.FRAGMENT

    def diagnostic(self, number: int, error: SourceError, severity: str = "error") -> Diagnostic:
        text = self.lines[number - 1] if 0 < number <= len(self.lines) else ""
        return Diagnostic(self.filename, number, max(1, error.col), error.message, severity, text,
                          max(1, error.length))

    # -- the program --

    def run(self) -> AssembledProgram:
        self.lines = self.source.splitlines()
        lines = self._header(list(self.lines))
        if self.kind is None:
            raise DiagnosticError(self.errors)
        lines = _continued([self._slot_line(number, text) for number, text in enumerate(lines, start=1)])
        assembler = self._assembler()
        try:
            program = assembler.assemble("\n".join(lines), self.filename)
        except DiagnosticError as error:
            raise DiagnosticError(sorted(self.errors + [self._as_written(found) for found in error.diagnostics],
                                         key=lambda found: (found.line, found.col))) from None
        program.warnings[:] = [self._as_written(found) for found in program.warnings]
        if self.errors:
            raise DiagnosticError(self.errors)
        state = program.state
        instructions = [self._instruction(item) for item in program.instructions] or [self._empty()]
        final = self.comments.final
        constants = state.data["declarations"].constants if "declarations" in state.data else final.constants
        return AssembledProgram(Program(self.kind, tuple(instructions), tuple(state.data.get("trailing", ()))),
                                {index: words_to_floats(bits) for index, bits in sorted(constants.items())},
                                tuple(self.comments.uniforms()), self._literal_constants(program),
                                tuple(program.warnings), self.texture_targets, tuple(final.samplers))

    def _as_written(self, diagnostic: Diagnostic) -> Diagnostic:
        """``diagnostic`` quoting its line as written (the driver saw the header blanked and the
        ``NNN:`` of a listing line blanked)."""
        if diagnostic.file != self.filename or not 0 < diagnostic.line <= len(self.lines):
            return diagnostic
        return replace(diagnostic, source_line=self.lines[diagnostic.line - 1])

    def _instruction(self, item) -> Instruction:
        words = tuple(item.words)
        slot = item.address if not self.fragment else item.address // INSTRUCTION_WORDS
        return Instruction(self.kind, words[:INSTRUCTION_WORDS], words[INSTRUCTION_WORDS:] or None, slot)

    def _empty(self) -> Instruction:
        """cgcomp's output for a program without instructions: a NOP (VP) or an all-zero slot
        (FP), with the end bit."""
        if self.fragment:
            return Instruction(self.kind, (1, 0, 0, 0), None, 0)
        nop = VERTEX.with_fields(VERTEX.parse("NOP"), {"end": 1})
        return Instruction(self.kind, tuple(VERTEX.encode(nop)), None, 0)

    def _header(self, lines: list[str]) -> list[str]:
        """Find the header (the first line with code) and blank it; set the kind."""
        first = next(((number, text) for number, text in enumerate(lines, start=1)
                      if text.split("#", 1)[0].strip()), None)
        code = first[1].split("#", 1)[0] if first else ""
        if code.strip().startswith("!!"):
            number, header = first[0], code.strip()
            column = code.index("!!") + 1
            self.kind = HEADERS.get(header)
            if self.kind is None:
                self.errors.append(self.diagnostic(number, SourceError(
                    f"unknown program header '{header}' (expected {', '.join(HEADERS)})",
                    column, len(header))))
                self.kind = self.requested
            elif self.requested is not None and self.kind is not self.requested:
                self.errors.append(self.diagnostic(number, SourceError(
                    f"this is a {self.kind.value} program, but a {self.requested.value} program was expected",
                    column, len(header))))
            lines[number - 1] = ""
            return lines
        if self.requested is not None or (first is not None and _SLOT_PREFIX.match(code)):
            self.kind = self.requested or ProgramKind.VERTEX
            self.listing = True
            return lines
        self.errors.append(self.diagnostic(first[0] if first else 1,
                                           SourceError("missing program header (!!ARBvp1.0 or !!ARBfp1.0)", 1)))
        return lines

    def _slot_line(self, number: int, text: str) -> str:
        """A form-B line without its ``NNN:`` (blanked, so columns stay), its two statements
        joined as one co-issued slot."""
        found = _SLOT_PREFIX.match(text)
        if found is None:
            return text
        slot = syntax.small_decimal(found.group(2))
        if slot is None:
            self.errors.append(self.diagnostic(number, SourceError(f"slot number {found.group(2)} is out of range",
                                                                   found.start(2) + 1, len(found.group(2)))))
            return ""
        self.slot_numbers[number] = slot
        text = " " * found.end() + text[found.end():]
        code, _ = _code_and_comment(text)
        # Each statement with its column, and the column of the ';' after it.
        statements = [(piece, column, column + len(piece))
                      for piece, column in split_operands(code, re.compile(";")) if piece.strip()]
        if len(statements) > 2 or (len(statements) == 2 and self.fragment):
            extra, column, _ = statements[1 if self.fragment else 2]
            blank = len(extra) - len(extra.lstrip())
            self.errors.append(self.diagnostic(number, SourceError(
                "one slot holds at most a vector and a scalar operation", column + blank, len(extra.strip()))))
            return text
        if len(statements) == 2:
            separator = statements[0][2] - 1  # 0-based position of the first ';'
            text = text[:separator] + "+" + text[separator + 1:]
        return text

    # -- the driver and its hooks --

    def _assembler(self) -> Assembler:
        kind = self.kind
        self.comments = DeclaringComments(kind)
        check = OperandCheck(self._check_source, self._check_destination)
        declare = assembly_declarations.directives(kind, check)
        directives = {keyword: self._declaration(handler) for keyword, handler in declare.items()}
        directives.update({"OPTION": self._option, "END": self._end,
                           **{keyword: self.blocks.close for keyword in CLOSERS}})
        macros = {spelling: self._expand for spelling in macro_spellings(kind)}
        if self.fragment:
            macros.update({name: self.blocks.open for name in OPENERS})
        return Assembler(self.description, comment_prefixes=("#",), statement_separator=";", terminated=("END",),
                         directives=directives,
                         comment_directives=self.comments.handlers(),
                         override_directives={"trailing": self._trailing}, macros=macros,
                         override_marker="#!", read_overrides=self._hints, prescan=self._prescan,
                         check=self._check, finish=self._finish, value_names=self.comments.value_names,
                         words_per_address=1 if self.fragment else INSTRUCTION_WORDS, max_word_length=MAX_WORD_LENGTH)

    def _prescan(self, statements) -> object:
        keywords = {*assembly_declarations.KEYWORDS, "OPTION"}
        for text in statements:
            words = _NAME.findall(text)
            if words and words[0].upper() not in keywords:
                self.statement_words.update(words[1:])
        self.scan = assembly_declarations.prescan(self.kind)(statements)
        return self.scan

    def _hints(self, text: str) -> Mapping[str, int]:
        if text.split()[:1] == ["trailing"]:
            raise SourceError("'#! trailing' stands on its own line", 1, len(text.rstrip()))
        return read_hints(text, self.kind)

    # -- directives --

    def _declaration(self, handler):
        def declare(call: DirectiveCall) -> None:
            self._not_after_end(call)
            if "declarations" not in call.data:  # the first of the pass: the program's constants so far
                first = self.comments.first
                call.data["declarations"] = Declarations(Names(), dict(first.constants), tuple(first.uniforms))
            handler(call)
        return declare

    def _not_after_end(self, call: DirectiveCall) -> None:
        if "end" in call.data:
            raise SourceError("text after END", 1, max(1, len(call.argument)))

    def _option(self, call: DirectiveCall) -> None:
        self._not_after_end(call)

    def _end(self, call: DirectiveCall) -> None:
        self._not_after_end(call)
        if call.argument:
            raise SourceError("END takes no operands", 1, len(call.argument))
        call.data["end"] = call.address

    def _trailing(self, call: DirectiveCall) -> None:
        where = -len("#! trailing ") + 1, len(call.argument) + len("#! trailing ")
        if "end" not in call.data:
            raise SourceError("'#! trailing' slots follow END", *where)
        words = call.argument.split()
        if len(words) != 4 or not all(re.fullmatch(r"0[xX][0-9a-fA-F]{1,8}|\d{1,10}", word) for word in words):
            raise SourceError("'#! trailing' takes four 32-bit words", *where)
        values = [int(word, 0) if word.lower().startswith("0x") else int(word) for word in words]
        if any(value > 0xFFFFFFFF for value in values):
            raise SourceError("'#! trailing' words are 32-bit", *where)
        call.data.setdefault("trailing", []).extend(values)

    # -- macros --

    def _scratch(self, state: PassState) -> int:
        """The scratch temp of expansions: the next R index after every temp the statements
        name (FP: H(2n) and H(2n+1) live in R(n)), declared names included."""
        names = state.data["declarations"].names if "declarations" in state.data else Names()
        highest = max(self.scan.temps, default=-1) if self.scan is not None else -1
        for name, (file, index) in names.registers.items():
            if name in self.statement_words and file in "RH":
                highest = max(highest, index // 2 if file == "H" else index)
        return highest + 1

    def _expand(self, call: MacroCall) -> list[str] | None:
        found = macro_name(self.kind, call.name)
        native = is_native(call.hints)
        if native and not native_applies(self.kind, found[0]):
            raise SourceError(NATIVE_MISPLACED, 1, len(call.argument) or 1)
        destination = substitute_aliases(call.operands[0], call.state.aliases)[0] if call.operands else ""
        scratch = self._scratch(call.state)
        texts = expansion(self.kind, call.name, call.operands, scratch, native=native,
                          written=_forced_mask(destination, self.kind))
        if texts is None or len(texts) == 1:
            return texts
        if call.hints and read_hints(call.hints, self.kind):
            raise SourceError(f"{found[0]} expands to {len(texts)} instructions; hints need a single instruction "
                              "(add 'native' for the hardware opcode)", 1, len(call.argument) or 1)
        limit = syntax.FP_LIMITS["R"] if self.fragment else syntax.VP_LIMITS["R"]
        if scratch >= limit:
            raise SourceError(f"no temp register is left for the expansion of {found[0]}", 1, len(call.argument) or 1)
        return texts

    # -- after the last pass --

    def _check(self, call: CheckCall) -> Iterator[Diagnostic]:
        program = call.program
        data = call.state.data
        first_of_line: dict[int, int] = {}  # line number → its first instruction
        for index, (item, statement) in enumerate(zip(program.instructions, program.statements)):
            written = self.slot_numbers.get(statement.line.number)
            slot = item.address if not self.fragment else item.address // INSTRUCTION_WORDS
            starts_line = first_of_line.setdefault(statement.line.number, index) == index
            if written is not None and starts_line and written != slot:
                yield Diagnostic(statement.line.file, statement.line.number, 1,
                                 f"listed as slot {written}, assembled to slot {slot}", "warning",
                                 statement.line.text, 1)
            if "end" in data and item.address >= data["end"]:
                yield program.diagnostic(index, "text after END")
            if statement.overrides:
                yield from self._check_hints(program, index, statement.overrides)
        yield from self.blocks.unclosed(call)
        if self.fragment:
            self.texture_targets, problems = read_targets(
                (self._instruction(item), statement) for item, statement in zip(program.instructions,
                                                                                 program.statements))
            yield from problems
        for name in program.definitions:
            if ADDRESS_REGISTER_NAME.fullmatch(name):
                yield program.definition_diagnostic(name, "a label cannot be named like an address register")
        if program.instructions:
            last = program.instructions[-1]
            total = last.address + (1 if not self.fragment else len(last.words) // INSTRUCTION_WORDS)
            if not self.fragment and total > VP_CODE_SLOTS:
                yield program.diagnostic(len(program.instructions) - 1,
                                         f"the program needs {total} slots; vertex program memory holds "
                                         f"{VP_CODE_SLOTS}")
        if "end" not in data and not self.listing and call.clean:
            yield call.at_end("missing END")

    def _check_hints(self, program, index: int, hints: str) -> Iterator[Diagnostic]:
        statement = program.statements[index]
        mnemonic = statement.text.split()[0] if statement.text.split() else ""
        found = macro_name(self.kind, mnemonic)
        if is_native(hints) and (found is None or not native_applies(self.kind, found[0])):
            yield program.diagnostic(index, NATIVE_MISPLACED)
        try:
            values = read_hints(hints, self.kind)
        except SourceError:
            return  # reported by the driver
        if not self.fragment:
            return
        words = len(program.instructions[index].words)
        if LITERAL in values and words == INSTRUCTION_WORDS:
            yield program.diagnostic(index, "literal= given, but the instruction reads no constant")
        elif LITERAL not in values and words > INSTRUCTION_WORDS and not self._reads_literal(program, statement):
            yield program.diagnostic(index, "the hints make this instruction read a literal; give its words with "
                                            "literal=w,w,w,w")

    def _reads_literal(self, program, statement) -> bool:
        """Whether a statement's text, without its hints, reads a literal."""
        text = substitute_aliases(statement.text, program.state.aliases)[0]
        context = ParseContext(program.symbols)
        context.value_names = self.comments.value_names(True)  # assigned: the constructor would copy it
        try:
            return self.description.parse(text, context).length > INSTRUCTION_WORDS
        except SourceError:
            return True  # reported already

    def _finish(self, call: FinishCall) -> None:
        """The end bit on the last instruction, unless its hints set it."""
        instructions = call.program.instructions
        if not instructions:
            return
        if "end" in read_hints(call.program.statements[-1].overrides, self.kind):
            return
        call.set_fields(len(instructions) - 1, {"end": 1})

    # -- results --

    def _literal_constants(self, program) -> dict[int, int]:
        """FP: the slot of each literal an instruction reads from a declared ``c[N]`` → N."""
        if not self.fragment:
            return {}
        found = {}
        for item, statement in zip(program.instructions, program.statements):
            if len(item.words) == INSTRUCTION_WORDS:
                continue
            text = substitute_aliases(statement.text, program.state.aliases)[0]
            read = CONSTANT_READ.search(text)
            if read is not None:
                found[item.address // INSTRUCTION_WORDS + 1] = int(read.group(1))
        return found

    # -- declared operands, read as a statement reads them --

    def _probe(self, text: str, template: str) -> None:
        """Parse ``template`` with ``text`` in it; SourceError columns count in ``text``."""
        statement = template.format(text)
        offset = template.index("{}")
        try:
            self.description.parse(statement, _probe_context(self.kind))
        except SourceError as error:
            inside = offset < error.col <= offset + len(text)
            column = error.col - offset if inside else 1
            raise SourceError(error.message, column, error.length if inside else len(text)) from None

    def _check_source(self, text: str) -> None:
        self._probe(text, "MOVR R0, {}" if self.fragment else "MOV R0, {}")

    def _check_destination(self, text: str) -> None:
        self._probe(text, "MOVR {}, R0" if self.fragment else "MOV {}, R0")


def _probe_context(kind: ProgramKind) -> ParseContext:
    context = ParseContext()
    if kind is ProgramKind.FRAGMENT:  # assigned: the constructor would copy the mapping
        context.value_names = {"literal": AnyConstant()}
    return context


def _continued(lines: list[str]) -> list[str]:
    """``lines`` with a statement whose braces stay open at the end of its line (a ``PARAM``
    array as cgc prints it, one row per line) joined onto that line; the lines it took stay, blank,
    so line numbers hold."""
    joined = list(lines)
    number = 0
    while number < len(joined):
        code, comment = _code_and_comment(joined[number])
        depth = code.count("{") - code.count("}")
        following = number + 1
        while depth > 0 and following < len(joined):
            more, _ = _code_and_comment(joined[following])
            code = code.rstrip() + " " + more.strip()
            depth += more.count("{") - more.count("}")
            joined[following] = ""
            following += 1
        if following > number + 1:
            joined[number] = code + comment
        number = following
    return joined


def _code_and_comment(line: str) -> tuple[str, str]:
    position = line.find("#")
    return (line, "") if position < 0 else (line[:position], line[position:])


def _forced_mask(destination: str, kind: ProgramKind) -> tuple[bool, bool, bool, bool] | None:
    """The lanes a destination writes whatever its text says (FP depth: z), else None (read off
    the text)."""
    if kind is ProgramKind.FRAGMENT and re.match(r"\s*(?:result\.depth|o\[DEPR\])(?![\w\[])", destination):
        return (False, False, True, False)
    return None
