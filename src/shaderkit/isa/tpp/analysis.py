"""Static analysis: is a program *well-behaved*, so that the simple model is exact?

Spec 7.1: within slots 0–18 every general-purpose register is written before it is
read on every path, a COMP executes before any conditional instruction, no OUT other
than slot 19's ``OUT R0``, and nothing writes R4–R7. Slot 19 reads R0, so R0 must be
written too.

"Every path" is tracked per flag value: after a COMP the flag is one of EQ, GT, LT,
so ``SETEQ R0`` + ``SETGT R0`` + ``SETLT R0`` together write R0 on every path. A
register's partial coverage is forgotten at every COMP, because the flag may change.
"""

from __future__ import annotations

from collections.abc import Sequence

from .hardware import slot_operations
from .semantics import Flag, Target

GENERAL_PURPOSE = range(4)
LAST_USER_SLOT = 18
EVERY_FLAG = frozenset({Flag.EQ, Flag.GT, Flag.LT})


def simple_model_obstacles(image: Sequence[int], rev: str) -> list[str]:
    """Why the simple model may differ from the hardware; empty if it is exact."""
    return [message for message, _ in _obstacles(image, rev)]


def prior_state_reads(image: Sequence[int], rev: str) -> list[str]:
    """Where the program reads state it has not set itself (a register before it is
    written, the flag before any COMP): what the chip shows then depends on what ran before
    the program, the reset program and the upload; empty if nothing does."""
    return [message for message, reads_prior_state in _obstacles(image, rev) if reads_prior_state]


def _obstacles(image: Sequence[int], rev: str) -> list[tuple[str, bool]]:
    """Each obstacle to the simple model, and whether it reads state the program did not set."""
    obstacles: list[tuple[str, bool]] = []
    # Register → flag values under which it has surely been written (EVERY_FLAG = always).
    covered: dict[int, frozenset[int]] = {register: frozenset() for register in GENERAL_PURPOSE}
    flag_set = False
    for operation in slot_operations(image, rev):
        slot, name = operation.slot, operation.mnemonic
        has_effect = operation.target != Target.NOTHING
        if not has_effect:
            continue
        if operation.conditional and not flag_set:
            obstacles.append((f"slot {slot}: {name} is conditional before any COMP has set the flag", True))
        for register in operation.registers_read:
            paths = EVERY_FLAG if not operation.conditional else frozenset({operation.cond})
            if register in GENERAL_PURPOSE and not paths <= covered[register]:
                obstacles.append((f"slot {slot}: {name} reads R{register} before it is written on every path", True))
        if operation.target == Target.OUTPUT and slot <= LAST_USER_SLOT:
            obstacles.append((f"slot {slot}: OUT before slot 19 makes pixels inside a block differ", False))
        if slot > LAST_USER_SLOT and not (name == "OUT" and operation.out_source == 0 and not operation.conditional):
            obstacles.append(("slot 19 is not OUT R0", False))
        destination = operation.register_written
        if destination is not None and destination not in GENERAL_PURPOSE:
            obstacles.append((f"slot {slot}: {name} writes a hardware register (R{destination})", False))
        elif destination is not None:
            written_under = EVERY_FLAG if not operation.conditional else frozenset({operation.cond})
            covered[destination] = covered[destination] | written_under
        if operation.target == Target.FLAG:
            flag_set = flag_set or not operation.conditional
            covered = {register: (EVERY_FLAG if paths == EVERY_FLAG else frozenset())
                       for register, paths in covered.items()}
    return obstacles


def is_well_behaved(image: Sequence[int], rev: str) -> bool:
    return not simple_model_obstacles(image, rev)
