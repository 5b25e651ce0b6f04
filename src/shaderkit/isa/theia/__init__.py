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
* An operand left out assembles as upstream's does (VOID, address 0, or zero), with a
  warning unless the mnemonic ignores it (``COPY OREG_PIXEL_COLOR`` warns,
  ``MAG R1 CREG_TEXTURE_COLOR`` and ``JMP LABEL`` do not).
* ``disassembly_warnings`` says in one line when words do not look like a THEIA image
  (mostly no V1 instructions, no entry table, entries past the end).
* ``ENTRYPOINT_ADRR_<ROUTINE>`` may be a label (upstream) or a constant
  (``ENTRYPOINT_ADRR_PSU = 0x10``, to point a routine anywhere, ROM included).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...core.asm import Assembler, Program
from ...core.face import DescribedIsa
from ...core.diagnostics import DiagnosticError, InputError
from ...core.disasm import disassemble, foreign_words, jump_labels, listing, plausibility_warnings
from ...core.model import Instruction, split_operands, split_statement
from . import image as images
from .registers import (DATA_ROWS, ENTRY_LABEL_PREFIX, ENTRY_TABLE_SIZE, RAM_BIT, RAM_WORDS, ROUTINES,
                        UPSTREAM_ENTRY_ADDRESSES, USER_CODE_START)
from .microcode import UNUSED_ROM_WORD
from .spec import DATA_ADDRESSES, description


NO_ENTRY_TABLE = ".no_entry_table"
_BARE_IMAGE = re.compile(r"^[ \t]*\.no_entry_table\b", re.MULTILINE | re.IGNORECASE)


@dataclass
class TheiaProgram:
    """An assembled user program: entry table and code, and the RAM image they make."""

    program: Program
    entries: dict[str, int] | None  # None: a bare image (``.no_entry_table``)
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
        # ``.no_entry_table`` (ours, written by the disassembler for an image without a table):
        # the code starts at 0x8000 and the image is the code alone.
        self.assembler = Assembler(self.description, comment_prefixes=("//", ";"),
                                   directives={NO_ENTRY_TABLE: lambda call: None})

    # -- the generic face -----------------------------------------------------------------

    def assemble(self, source: str, filename: str = "<input>", reader=None, origin: int = USER_CODE_START) -> TheiaProgram:
        """Assemble a user program placed after the entry table (``origin`` 0x800B), or from
        0x8000 with no table when the source says ``.no_entry_table``."""
        kwargs = {"reader": reader} if reader else {}
        bare = _BARE_IMAGE.search(source) is not None
        program = self.assembler.assemble(source, filename, origin=RAM_BIT if bare else origin, **kwargs)
        self._warn_about_upstream_quirks(program)
        if bare:
            if len(program.words) > RAM_WORDS:
                raise program.error_at(len(program.instructions) - 1, "program too long for the instruction RAM")
            return TheiaProgram(program, None, list(program.words))
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
            templates = [text for text, _ in split_operands(instruction.declaration.operand_text, separator)]
            for text, column in tokens[1 + len(templates):]:
                message = f"operand '{text}' is ignored: {_takes(instruction.mnemonic, templates)}"
                warning = program.diagnostic(index, message, "warning")
                program.warnings.append(replace(warning, col=statement.column + column - 1, length=len(text)))
            if instruction.mnemonic != "NOP":  # NOP reads none of its operands
                missing = [text for text in templates[len(tokens) - 1:] if not text.endswith("?}")]
                if missing:
                    program.warnings.append(program.diagnostic(
                        index, _missing_operands(statement.text, instruction.mnemonic, missing), "warning"))

    # -- disassembly ------------------------------------------------------------------------

    def decode_image(self, words: Sequence[int]) -> tuple[dict[str, int] | None, list[Instruction]]:
        """(entry table or None, instructions); an image without a table decodes from 0x8000."""
        words = list(words)
        if images.looks_like_image(words):
            entries, code = images.split_image(words)
            return entries, disassemble(self.description, code, USER_CODE_START)
        return None, disassemble(self.description, words, RAM_BIT)

    def disassemble(self, words: Sequence[int], *, addresses: bool = True) -> str:
        if not len(words):
            raise InputError("empty image: no words to disassemble")
        entries, instructions = self.decode_image(words)
        header = []
        named = {}
        if entries is None:
            header.append(f"{NO_ENTRY_TABLE}  // the image has no entry table: its code starts at 0x8000")
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
        # Labels only where the listed addresses are the ones the assembler gives the code (after
        # an entry table): code listed from 0x8000 lands 11 words later when assembled, so there a
        # label would move every jump and its targets keep their numbers instead.
        labels = jump_labels(self.description, instructions, named) if entries is not None else {}
        # No ':' in the comment: upstream theia_compile would take the line for a label.
        body = listing(self.description, instructions, addresses=addresses, labels=labels,
                       address_style="@{address} {words}")
        return "\n".join(header) + ("\n" if header else "") + body

    def disassembly_warnings(self, words: Sequence[int]) -> list[str]:
        entries, instructions = self.decode_image(words)
        reasons = [foreign_words(instructions, _is_foreign, "V1 instructions")]
        if entries is None:
            reasons.append(f"no entry table (the first {ENTRY_TABLE_SIZE} words are not 16-bit code addresses)")
        else:
            end = RAM_BIT + len(words)
            outside = [routine for routine, address in entries.items() if address & RAM_BIT and address > end]
            if outside:
                reasons.append(f"the entry table points past the program's end 0x{end:04x} "
                               f"({', '.join(outside)})")
        return plausibility_warnings("THEIA", reasons, instructions)

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


def _is_foreign(instruction: Instruction) -> bool:
    """A word that is no V1 instruction, or one that names data no THEIA memory has.

    The upstream ROM's filler words are part of real images and do not count.
    """
    if instruction.is_data:
        return instruction.words != (UNUSED_ROM_WORD,)
    return any(description().operands[name].kind is DATA_ADDRESSES and value >= DATA_ROWS
               for name, value in instruction.values)


def _operand_name(template: str) -> str:
    return template.strip("{?}")


def _takes(mnemonic: str, templates: Sequence[str]) -> str:
    """"ADD takes 3 operands (ADD dst s1 s2)"; optional operands in brackets."""
    required = sum(not template.endswith("?}") for template in templates)
    count = f"{'at most ' if required < len(templates) else ''}{len(templates)} " \
            f"operand{'' if len(templates) == 1 else 's'}"
    shown = [f"[{_operand_name(t)}]" if t.endswith("?}") else _operand_name(t) for t in templates]
    return f"{mnemonic} takes {count} ({' '.join([mnemonic, *shown])})"


def _missing_operands(statement: str, mnemonic: str, missing: Sequence[str]) -> str:
    """Why leaving an operand out matters: upstream accepts it (as 0), but it is rarely meant."""
    operands = [description().operands[_operand_name(template)] for template in missing]
    titles = [operand.title or operand.field for operand in operands]
    listed = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} or {titles[-1]}"
    value = "VOID (address 0)" if all(operand.kind is DATA_ADDRESSES for operand in operands) else "zero"
    completed = " ".join([statement, *(operand.kind.format(0) for operand in operands)])
    return (f"{mnemonic} has no {listed}: {'it assembles' if len(titles) == 1 else 'they assemble'} "
            f"as {value}; write '{completed}' if that is meant")


def make_isa(complete_isa: bool = False, **_ignored) -> Theia:
    return Theia(complete_isa)


__all__ = ["Theia", "TheiaProgram", "make_isa"]
