"""THEIA V1 ray-casting GPU (OpenCores ``theia_gpu``): the public face.

:class:`Theia` is the ``ISA`` object the CLI uses: assembler and disassembler derived
from :mod:`.spec`, program images with their entry table (:mod:`.image`), the
emulator (:mod:`.machine`) over scenes (:mod:`.scene`) with our own default microcode
(:mod:`.microcode`), and the benchmark (:mod:`.bench`).

Assembly choices (README has the user's view):

* Everything upstream ``theia_compile`` accepts is accepted (spec §8), plus ``0x…``,
  decimal, fixed-point and expression immediates, ``NAME = expr`` / ``.equ``,
  ``.include``, labels followed by an instruction on the same line, commas.
* Upstream quirks are diagnosed, not copied: a line holding an instruction and a
  ``:`` (e.g. in its comment) gets a warning (upstream drops such a line), extra
  tokens are ignored with a warning, an unknown ``SWIZZLE_*`` name is an error.
* ``ENTRYPOINT_ADRR_<ROUTINE>`` may be a label (upstream) or a constant
  (``ENTRYPOINT_ADRR_PSU = 0x10``, to point a routine anywhere, ROM included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...core.asm import Assembler, Program
from ...core.face import DescribedIsa
from ...core.diagnostics import DiagnosticError, InputError
from ...core.disasm import disassemble, jump_labels, listing, warnings
from ...core.spec import Instruction, ParseContext, split_operands, split_statement
from . import image as images
from .registers import ENTRY_LABEL_PREFIX, ROUTINES, UPSTREAM_ENTRY_ADDRESSES, USER_CODE_START, RAM_BIT
from .spec import description


@dataclass
class TheiaProgram:
    """An assembled user program: entry table and code, and the RAM image they make."""

    program: Program
    entries: dict[str, int]
    image: list[int]

    @property
    def words(self) -> list[int]:
        return self.program.words


class Theia(DescribedIsa):
    name = "theia"
    word_bits = 64
    byte_order = "big"  # high 32-bit word first, as in the upstream .mem files
    containers = {images.IMEM: (images.write_imem, images.read_imem)}

    def __init__(self, complete_isa: bool = False):
        self.complete_isa = complete_isa
        self.description = description()
        self.assembler = Assembler(self.description, comment_prefixes=("//", ";"))

    # -- the generic face -----------------------------------------------------------------

    def parse(self, text: str) -> Instruction:
        return self.description.parse(text, ParseContext())

    def assemble(self, source: str, filename: str = "<input>", reader=None, origin: int = USER_CODE_START) -> TheiaProgram:
        """Assemble a user program placed after the entry table (``origin`` 0x800B)."""
        kwargs = {"reader": reader} if reader else {}
        program = self.assembler.assemble(source, filename, origin=origin, **kwargs)
        self._warn_about_upstream_quirks(program)
        entries = self._entries(program)
        try:
            image = images.build_image(entries, program.words)
        except InputError as error:
            raise program.error_at(len(program.instructions) - 1, str(error)) from None
        return TheiaProgram(program, entries, image)

    def _entries(self, program: Program) -> dict[str, int]:
        entries = images.default_entries()
        errors = []
        for name, value in program.symbols.items():
            if not name.startswith(ENTRY_LABEL_PREFIX):
                continue
            routine = name[len(ENTRY_LABEL_PREFIX):]
            if routine not in ROUTINES:
                errors.append(program.definition_diagnostic(
                    name, f"unknown routine '{routine}' (routines: {', '.join(ROUTINES)})"))
            elif not 0 <= value <= 0xFFFF:
                errors.append(program.definition_diagnostic(name, f"entry address {value:#x} is not a 16-bit code address"))
            else:
                entries[routine] = value
        if errors:
            raise DiagnosticError(errors)
        return entries

    def _warn_about_upstream_quirks(self, program: Program) -> None:
        separator = self.description.operand_separator
        for index, (statement, instruction) in enumerate(zip(program.statements, program.instructions)):
            if ":" in statement.line.text:
                program.warnings.append(program.diagnostic(
                    index, "upstream theia_compile treats any line containing ':' as a label line "
                    "and emits no instruction for it", "warning"))
            if instruction.is_data:
                continue
            tokens = split_statement(statement.text, separator)
            expected = len(split_operands(instruction.form.operand_text, separator))
            for text, column in tokens[1 + expected:]:
                warning = program.diagnostic(index, f"operand '{text}' is ignored", "warning")
                program.warnings.append(replace(warning, col=statement.column + column - 1, length=len(text)))

    # -- disassembly ------------------------------------------------------------------------

    def decode_image(self, words: Sequence[int]) -> tuple[dict[str, int] | None, list[Instruction]]:
        """(entry table or None, instructions); an image without a table decodes from 0x8000."""
        words = list(words)
        if images.looks_like_image(words):
            entries, code = images.split_image(words)
            return entries, disassemble(self.description, code, USER_CODE_START)
        return None, disassemble(self.description, words, RAM_BIT)

    def disassemble(self, words: Sequence[int], *, addresses: bool = True) -> str:
        entries, instructions = self.decode_image(words)
        header = []
        named = {}
        if entries is None:
            header.append("// no entry table: code listed from 0x8000")
        else:
            starts = {instruction.address for instruction in instructions}
            for routine in ROUTINES:
                address = entries[routine]
                if address == UPSTREAM_ENTRY_ADDRESSES[routine]:
                    continue
                if address in starts and address not in named:
                    named[address] = f"{ENTRY_LABEL_PREFIX}{routine}"
                else:
                    header.append(f"{ENTRY_LABEL_PREFIX}{routine} = 0x{address:04x}")
        labels = jump_labels(self.description, instructions, named)
        # No ':' in the comment: upstream theia_compile would take the line for a label.
        body = listing(self.description, instructions, addresses=addresses, labels=labels,
                       address_style="@{address} {words}")
        return "\n".join(header) + ("\n" if header else "") + body

    def disassembly_warnings(self, words: Sequence[int]) -> list[str]:
        return warnings(self.decode_image(words)[1])

    def detect_format(self, data: bytes, path: str) -> str | None:
        """``Instructions.mem``-style files (a count, then ``HHHHHHHH LLLLLLLL`` lines) are ``imem``."""
        if not path.lower().endswith(".mem"):
            return None
        try:
            images.read_imem(data, path)
        except InputError:
            return None
        return images.IMEM

    # -- running --------------------------------------------------------------------------

    def machine(self, image: Sequence[int] | None = None, **options):
        """The machine with our microcode in ROM and ``image`` (entry table + code) in RAM."""
        from .machine import TheiaMachine
        if image is not None and not images.looks_like_image(image):
            raise InputError("a THEIA program image starts with the 11-entry table (assemble the source "
                             "or read an Instructions.mem)")
        return TheiaMachine(image, complete_isa=self.complete_isa, **options)

    def run_command(self, program, output, options, **callbacks) -> str | None:
        from .command import run_command
        return run_command(self, program, output, options, **callbacks)

    def benchmark(self, seconds: float = 2.0):
        from .bench import run_benchmark
        return run_benchmark(seconds)

    def documentation(self):
        """The reference manual (``docs/theia.md``, ``shaderkit doc -m theia``)."""
        from .docs import documentation
        return documentation()


def make_isa(complete_isa: bool = False, **_ignored) -> Theia:
    return Theia(complete_isa)


__all__ = ["Theia", "TheiaProgram", "make_isa"]
