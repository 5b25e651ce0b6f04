"""NVIDIA VP1 video processor (NV41–G84): the public face.

:class:`Vp1` is the ``ISA`` object the CLI uses. Everything textual is derived from the
description in core's model (:mod:`.description`): envydis's text, envyas's encodings, listings.

* ``decode``/``encode``/``format``/``parse`` work on the *listing* reading: a word is an
  instruction only when its text assembles back to that word (envyas's canonical encoding);
  any other word is a ``.word`` data item whose note holds its envydis text. So
  ``encode(decode(w)) == w`` and ``parse(format(i)) == i`` for every word.
* ``decode_envydis``/``plain_lines`` give envydis's text for every word, with its flags
  (unknown bits 0–7, ``unk11``/``unk12`` operands, ``???``), each word as if at address 0.
* ``disassemble`` prints a listing: labels for branch and call targets (``#name`` references,
  as envyas writes them), a blank line between bundles (§2.1), and after each line its address,
  word and envydis's annotations. It re-assembles to the same words.
* ``assemble`` reads envyas's syntax: ``//`` comments, ``;`` between statements, labels,
  ``.equ``, ``.b32``/``.word``, ``.skip N`` and ``.align N`` (N words, zero-filled), ``.section``
  (ignored); a warning where lines written as one bundle run as several (core's bundle check).
* With ``plain``, ``assemble`` reads one instruction per line, each as if at word address 0, and
  ``disassemble`` prints the ``WORD<TAB>TEXT<TAB>FLAGS`` lines of the golden tables.

The chip variant (``nv41``, ``nv44``, ``g80``) does not change the text (envydis decodes the
same on all three); it selects the emulator's variant.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import binfmt
from ...core.asm import Assembler
from ...core.asm_hooks import MacroCall, bundle_check
from ...core.diagnostics import InputError, SourceError
from ...core.disasm import (annotated_lines, annotations, disassemble, foreign_words, jump_labels, listing,
                            plausibility_warnings)
from ...core.expr import evaluate
from ...core.face import Assembled, DescribedIsa
from ...core.model import Instruction
from . import description as described

CHIPS = ("nv41", "nv44", "g80")
DEFAULT_CHIP = "g80"


def _count(call: MacroCall) -> int:
    """The word count a directive takes: a number (constants are not known to macros)."""
    if not call.argument:
        raise SourceError(f"'{call.name}' needs a number of words", 1)
    value = evaluate(call.argument, lambda name: None)
    if not 0 <= value <= 0x10000:
        raise SourceError(f"'{call.name}' takes a count of 0 to 65536 words, got {value}", 1, max(1, len(call.argument)))
    return value


def _b32(call: MacroCall) -> list[str]:
    if not call.argument:
        raise SourceError("'.b32' needs at least one value", 1)
    return [f".word {' '.join(call.operands)}"]


def _skip(call: MacroCall) -> list[str]:
    return [".word 0"] * _count(call)


def _align(call: MacroCall) -> list[str]:
    alignment = _count(call)
    if alignment < 1:
        raise SourceError("'.align' takes a positive number of words", 1, max(1, len(call.argument)))
    return [".word 0"] * (-call.address % alignment)


def _section(call: MacroCall) -> list[str]:
    return []


def _lowercase_hex(image) -> bytes:
    return "".join(f"{word:08x}\n" for word in getattr(image, "words", image)).encode("ascii")


def _read_hex(data: bytes, path: str) -> list[int]:
    return binfmt.read_words(data, "hex", word_bits=32, source=path)


DIRECTIVES = {".b32": _b32, ".skip": _skip, ".align": _align, ".section": _section}


class Vp1(DescribedIsa):
    name = "vp1"
    word_bits = 32
    byte_order = "little"

    def __init__(self, chip: str = DEFAULT_CHIP, plain: bool = False):
        chip = str(chip).lower()
        if chip not in CHIPS:
            raise InputError(f"unknown VP1 chip '{chip}' (use one of {', '.join(CHIPS)})")
        self.chip = chip
        self.plain = bool(plain)
        self.description = described.listing()
        self.envydis = described.envydis()
        common = {"comment_prefixes": ("//",), "statement_separator": ";", "macros": DIRECTIVES}
        if self.plain:
            self.assembler = Assembler(self.envydis, statement_address=0, **common)
            # asm --plain prints 8 lowercase hex digits per word, as the golden tables hold them.
            self.containers = {"hex": (_lowercase_hex, _read_hex)}
        else:
            self.assembler = Assembler(self.envydis, check=bundle_check(self.envydis, described.UNITS), **common)

    # -- text -----------------------------------------------------------------------------

    def decode_envydis(self, words: Sequence[int], address: int = 0) -> Instruction:
        """envydis's reading of the word at the start of ``words``: any word a form matches is
        that form (``unknown_bits``: envydis's unknown-bit mask), others are data (``???``)."""
        return self.envydis.decode(words, address)

    def envydis_text(self, instruction: Instruction) -> str:
        return described.UNKNOWN_TEXT if instruction.is_data else self.envydis.format(instruction)

    def plain_lines(self, words: Sequence[int]) -> list[str]:
        """``WORD<TAB>TEXT<TAB>FLAGS`` per word, each as if at word address 0 (the golden format),
        by the fast path (:mod:`.fast_text`, the same lines as the description gives)."""
        if len(words) and 0 <= min(words) and max(words) <= 0xFFFFFFFF:
            from .fast_text import plain_lines
            return plain_lines(words)
        return annotated_lines(self.envydis, list(words), address=0, unknown_text=described.UNKNOWN_TEXT)

    def assemble(self, source: str, filename: str = "<input>") -> Assembled:
        program = self.assembler.assemble(source, filename)
        if not program.words:
            raise InputError(f"{filename}: nothing to assemble: no instruction or data in it")
        return Assembled(program, list(program.words))

    def disassemble(self, words: Sequence[int], *, addresses: bool = True) -> str:
        if not len(words):
            raise InputError("empty image: no words to disassemble")
        if self.plain:
            return "".join(line + "\n" for line in self.plain_lines(words))
        instructions = disassemble(self.description, list(words))
        labels = jump_labels(self.description, instructions)
        return listing(self.description, instructions, addresses=addresses, labels=labels, bundles=True,
                       remark=self._envydis_remark)

    def _envydis_remark(self, instruction: Instruction) -> str:
        """envydis's annotations of a listed word, as envydis prints them."""
        found = annotations(self.envydis, self.envydis.decode(instruction.words, instruction.address))
        spelled = {"operand": "[unknown operand]", "insn": "[unknown instruction]"}
        return " ".join(spelled.get(flag, f"[unknown: {flag[5:]}]") for flag in found)

    def disassembly_warnings(self, words: Sequence[int]) -> list[str]:
        instructions = [self.envydis.decode([word], address) for address, word in enumerate(words)]
        reasons = [foreign_words(instructions, what="VP1 instructions envydis decodes")]
        return plausibility_warnings("VP1", reasons, [])

    # -- running --------------------------------------------------------------------------

    def machine(self, image: Sequence[int] | None = None, *, chip: str | None = None, **choices):
        """The emulator (:mod:`.machine`), with ``image`` loaded at word 0. ``choices`` are
        :class:`~.machine.Vp1Machine`'s keywords for the §13 unknowns (``loop_taken``,
        ``return_stack_depth``, ``ret_delay_slot``, ``exit_delay_slot``, ``empty_scalar_word``)."""
        if image is not None and not len(image):
            raise InputError("empty image: no words to run")
        from .machine import Vp1Machine
        return Vp1Machine(image, chip=chip or self.chip, **choices)

    def run_command(self, program, output, options, **callbacks) -> str:
        try:
            from .command import run_command
        except ModuleNotFoundError as missing:
            if missing.name != f"{__name__}.command":
                raise
            raise InputError("run -m vp1: the VP1 emulator's command is not part of this build yet") from None
        return run_command(self, program, output, options, **callbacks)

    def benchmark(self, seconds: float = 2.0):
        """``shaderkit bench -m vp1`` (:mod:`.bench`)."""
        from .bench import run_benchmark
        return run_benchmark(seconds)

    # -- documentation --------------------------------------------------------------------

    def documentation(self):
        """The reference manual (``docs/vp1.md``, ``shaderkit doc -m vp1``)."""
        from .docs import documentation
        return documentation()


def make_isa(chip: str = DEFAULT_CHIP, plain: bool = False) -> Vp1:
    return Vp1(chip=chip, plain=plain)
