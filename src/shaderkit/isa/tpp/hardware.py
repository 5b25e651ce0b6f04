"""Words as the hardware sees them: every field extracted at its fixed position.

Unlike the disassembler, which insists on clean words, the processor ignores unused
bits and runs undecoded opcodes as NOP. The emulators and the static analysis read
programs through :func:`slot_operations`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .opcodes import hardware_mnemonic
from .semantics import READS, TARGET, Flag, Target
from .spec import FIELDS


@dataclass(frozen=True)
class SlotOperation:
    slot: int
    mnemonic: str
    a: int
    b: int
    imm: int
    cond: int
    rev: str

    @property
    def target(self) -> Target:
        return TARGET[self.mnemonic]

    @property
    def conditional(self) -> bool:
        return self.cond != Flag.ALWAYS

    @property
    def out_source(self) -> int:
        """OUT's register: bits 7–5 on rev B, bits 10–8 on rev A."""
        return self.a if self.rev == "A" else self.b

    @property
    def registers_read(self) -> tuple[int, ...]:
        if self.mnemonic == "OUT":
            return (self.out_source,)
        return tuple(self.a if field == "a" else self.b for field in READS[self.mnemonic])

    @property
    def register_written(self) -> int | None:
        return self.a if self.target == Target.REGISTER else None


def slot_operation(slot: int, word: int, rev: str) -> SlotOperation:
    return SlotOperation(slot, hardware_mnemonic(FIELDS["op"].extract(word), rev),
                         FIELDS["a"].extract(word), FIELDS["b"].extract(word),
                         FIELDS["imm"].extract(word), FIELDS["cond"].extract(word), rev)


def slot_operations(image: Sequence[int], rev: str) -> list[SlotOperation]:
    return [slot_operation(slot, word, rev) for slot, word in enumerate(image)]
