"""Tiny Pixel Processor (TinyTapeout ``tt_um_pixel_processor``): the public face.

:class:`TinyPixelProcessor` is the ``ISA`` object the CLI uses: assembler and
disassembler derived from :mod:`.spec`, the 20-slot program image, the two emulators
(:mod:`.simple` per block, :mod:`.exact` per clock) and the UART upload (:mod:`.uart`).

Choices where the spec leaves room (documented in the README too):

* Both the suffix form (``ADDLT R0 RT``) and the datasheet form (``ADD R0 RT LT``) are
  accepted; mnemonics and registers are case-insensitive; ``//`` and ``;`` start comments.
* Lines take slots as the upstream flasher reads them (OUT lines left out, a ``//`` line is
  a NOP, ``##devMode##`` a word), unless the program says ``.slots written`` (see
  :mod:`.reading`); ``##devMode##`` allows writes to RX/RY/RT/RR either way, as
  ``.allow special-writes`` does.
* OUT on rev B is the upstream word; on rev A the register goes into both fields, so the
  word outputs what the text says on both revisions (see :mod:`.spec`).
* A program may fill slots 0–18; using slot 18 gives a warning (the standard flasher
  keeps it NOP and it already sees RX + 1). A 20th instruction is accepted only if it
  is ``OUT R0``, the fixed contents of slot 19, or the NOP a devMode upload sends there.
* A disassembly listing of words that write RX/RY/RT/RR starts with an
  ``.allow special-writes`` line, and one holding OUTs the default reading would leave out
  with ``.slots written``, so every listing re-assembles to the same words.
* ``disassembly_warnings`` says in one line when words do not look like a TPP image
  (not 20 words, slot 19 not ``OUT R0``, mostly undecodable words).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...core.asm import Assembler, Program
from ...core.face import DescribedIsa
from ...core.diagnostics import DiagnosticError, InputError
from ...core.disasm import disassemble, foreign_words, listing, plausibility_warnings
from ...core.model import Instruction, ParseContext
from . import reading, uart
from .opcodes import DEFAULT_REVISION, OPCODES, REVISIONS, ROM_OPCODES, decoded_mnemonics
from .spec import ROM_OPS_ON_REV_A, SPECIAL_WRITES, description

SLOTS = 20
USER_SLOTS = 19  # slots 0–18; slot 19 is not writable
FLASHER_SLOTS = 18  # the standard flasher pads slot 18 with NOP
SLOT19_WORD = 0x6003  # OUT R0
PADDING_WORD = 0x0000  # what the flasher pads with (NOP, condition EQ)
DEVMODE_SLOT19_WORD = 0x0000  # what the upstream flasher sends to slot 19 in devMode (spec 9)
CHIP_FPS = 60.0


@dataclass
class TppProgram:
    program: Program
    image: list[int]

    @property
    def words(self) -> list[int]:
        return self.program.words


class TinyPixelProcessor(DescribedIsa):
    name = "tpp"
    word_bits = 16
    byte_order = "big"

    def __init__(self, rev: str = DEFAULT_REVISION, slots: str = reading.UPSTREAM):
        rev = str(rev).upper()
        if rev not in REVISIONS:
            raise InputError(f"unknown TPP revision '{rev}' (use A or B)")
        self.rev = rev
        self.slots = reading.check_reading(slots)
        self.description = description(rev)
        self.assembler = Assembler(self.description, comment_prefixes=("//", ";"), read_line=reading.read_line,
                                   prescan=reading.prescanner(slots), directives={reading.DIRECTIVE: reading.slots_directive})

    # -- the generic face -----------------------------------------------------------------

    def parse(self, text: str, *, special_writes: bool = False, allow: Iterable[str] = ()) -> Instruction:
        """One statement; ``special_writes`` (or ``allow`` naming it) permits RX/RY/RT/RR destinations."""
        unlocked = set(allow) | ({SPECIAL_WRITES} if special_writes else set())
        return self.description.parse(text, ParseContext(unlocked=unlocked))

    def assemble(self, source: str, filename: str = "<input>", reader=None) -> TppProgram:
        kwargs = {"reader": reader} if reader else {}
        program = self.assembler.assemble(source, filename, **kwargs)
        decoded = decoded_mnemonics(self.rev)
        for index, instruction in enumerate(program.instructions):
            if instruction.mnemonic in OPCODES and OPCODES[instruction.mnemonic] not in decoded:
                program.warnings.append(program.diagnostic(index, f"'{instruction.mnemonic}' {ROM_OPS_ON_REV_A}",
                                                           "warning"))
        return TppProgram(program, self.image(program))

    def image(self, program: Program) -> list[int]:
        """The 20-slot upload: the program in its reading (:mod:`.reading`), NOP padding,
        ``OUT R0`` in slot 19 (NOP after ``##devMode##``, as the upstream flasher sends). A
        listing of a whole upload (20 words) keeps its slot 19 when that is ``OUT R0`` or the
        NOP a devMode upload sends there (the hardware ignores writes to slot 19 either way)."""
        slots = reading.upload_slots(program)
        image = fill_slots(slots.words, slots.devmode)
        if image is None:
            comments = ("; comment lines take a slot each, as the upstream flasher reads them "
                        "('.slots written' gives them none)"
                        if any(reading.from_comment_line(program, index) for index in slots.origins) else "")
            raise program.error_at(slots.origins[USER_SLOTS], f"program too long: {len(slots.words)} instructions, "
                                   f"but only slots 0-18 hold code (slot 19 is fixed to OUT R0){comments}")
        if image[FLASHER_SLOTS] != PADDING_WORD:
            # (The padding NOP itself, as an upload's listing writes it, is what the flasher sends.)
            program.warnings.append(program.diagnostic(
                slots.origins[FLASHER_SLOTS], "slot 18 is used: the standard flasher keeps it NOP, and it runs "
                "after RX has already advanced to the next block", "warning"))
        if program.state.prescanned != reading.WRITTEN:
            written = reading.written_slots(program)
            if fill_slots(written.words) != image:
                program.warnings.extend(reading.reading_warnings(program, slots, written))
        return image

    def disassemble(self, words: Sequence[int], *, addresses: bool = True) -> str:
        if not len(words):
            raise InputError("empty image: no words to disassemble")
        instructions = self.decode_all(words)
        text = listing(self.description, instructions, addresses=addresses)
        # Decoded words may write RX/RY/RT/RR, and hold OUTs the default reading would leave
        # out of the upload (all but an image's slot 19); the listing must still re-assemble.
        if any(self._writes_special(instruction) for instruction in instructions):
            text = f".allow {SPECIAL_WRITES}\n" + text
        program_slots = instructions[:USER_SLOTS] if len(words) == SLOTS else instructions
        if any(reading.is_out(instruction) for instruction in program_slots):
            text = f"{reading.DIRECTIVE} {reading.WRITTEN}\n" + text
        return text

    def _writes_special(self, instruction: Instruction) -> bool:
        operands = self.description.operands
        return any(operands[name].unlock == SPECIAL_WRITES and value not in operands[name].allowed
                   for name, value in instruction.values if name in operands)

    def decode_all(self, words: Sequence[int]) -> list[Instruction]:
        return disassemble(self.description, list(words))

    def disassembly_warnings(self, words: Sequence[int]) -> list[str]:
        instructions = self.decode_all(words)
        reasons = []
        if len(words) not in (USER_SLOTS, SLOTS):
            reasons.append(f"{len(words)} words, where a TPP image has {SLOTS}")
        elif len(words) == SLOTS and words[-1] not in (SLOT19_WORD, DEVMODE_SLOT19_WORD):
            reasons.append(f"slot 19 holds 0x{words[-1]:04x}, where a TPP image has OUT R0 (0x{SLOT19_WORD:04x}), "
                           "or NOP in a devMode upload")
        reasons.append(foreign_words(instructions, self._is_foreign))
        return plausibility_warnings("TPP", reasons, instructions)

    def _is_foreign(self, instruction: Instruction) -> bool:
        """Data that is no TPP instruction; rev B's ROM ops count as instructions on rev A too."""
        rom_op_on_rev_a = self.rev == "A" and instruction.words[0] >> 11 in ROM_OPCODES
        return instruction.is_data and not rom_op_on_rev_a

    # -- running --------------------------------------------------------------------------

    def machine(self, image: Sequence[int], **options):
        """The exact cycle model, at reset with ``image`` preloaded."""
        from .exact import ExactMachine
        return ExactMachine(check_image(image), rev=self.rev, **options)

    def run_session(self, image: Sequence[int], *, model: str = "auto", divisor: int = 5, start: str = "auto"):
        from .machine import RunSession
        return RunSession(check_image(image), self.rev, model, divisor, start)

    def run_command(self, program, output, options, **callbacks) -> str:
        from .command import run_command
        return run_command(self, program, output, options, **callbacks)

    def benchmark(self, seconds: float = 2.0):
        from .bench import run_benchmark
        return run_benchmark(self.rev, seconds)

    # -- flashing -------------------------------------------------------------------------

    def upload_bytes(self, image: Sequence[int] | None, time_divisor: int | None = None) -> bytes:
        """The standard upload of ``image`` (60 bytes), then the divisor command if asked."""
        if time_divisor is not None and self.rev == "A":
            raise InputError("rev A has a fixed time divisor: --time-divisor needs rev B")
        data = uart.upload_bytes(check_image(image)) if image is not None else b""
        return data + (uart.divisor_byte(time_divisor) if time_divisor is not None else b"")

    format_bytes = staticmethod(uart.format_bytes)

    def send(self, data: bytes, port: str | None = None) -> str:
        """Send ``data`` (``port=None``: the first USB serial adapter); a one-line summary."""
        return uart.send(data, port)

    # -- documentation --------------------------------------------------------------------

    def documentation(self):
        """The reference manual (``docs/tpp.md``, ``shaderkit doc -m tpp``)."""
        from .docs import documentation
        return documentation()


def fill_slots(words: Sequence[int], devmode: bool = False) -> list[int] | None:
    """The 20-slot image of the words for slots 0, 1, …: NOP padding, then slot 19 (``OUT R0``,
    or NOP in devMode), unless ``words`` already end with one of those as their 20th; None when
    they need more than the 19 writable slots."""
    words = list(words)
    slot19 = DEVMODE_SLOT19_WORD if devmode else SLOT19_WORD
    if len(words) == SLOTS and words[-1] in (SLOT19_WORD, DEVMODE_SLOT19_WORD):
        words, slot19 = words[:-1], words[-1]
    if len(words) > USER_SLOTS:
        return None
    return words + [PADDING_WORD] * (USER_SLOTS - len(words)) + [slot19]


def check_image(image: Sequence[int]) -> list[int]:
    words = [int(w) for w in image]
    if len(words) == USER_SLOTS:
        words.append(SLOT19_WORD)
    if len(words) != SLOTS or not all(0 <= w <= 0xFFFF for w in words):
        raise InputError(f"a TPP image has {SLOTS} 16-bit words (got {len(words)})")
    return words


def make_isa(rev: str = DEFAULT_REVISION, slots: str = reading.UPSTREAM, **_ignored) -> TinyPixelProcessor:
    return TinyPixelProcessor(rev, slots)


__all__ = ["TinyPixelProcessor", "TppProgram", "make_isa", "DiagnosticError", "SLOTS", "SLOT19_WORD"]
