"""The SIMT core: THEIA code run on many lanes at once, each lane with its own program counter.

Every lane is one pixel's copy of the THEIA core. The register file is a NumPy array
``(256 rows, 3 lanes X/Y/Z, n lanes)`` of uint32. Lanes at the same program counter
execute together: while all live lanes agree (the common case) an instruction works on
whole rows; after a divergent jump the lowest program counter runs first (its lanes are
gathered by index) until the groups meet again, which reconverges forward branches and
loops alike.

Calls run in the compiled kernel of :mod:`.compiled_core`; the NumPy loop here
(:meth:`Core.call_numpy`) is the reference it is tested against and runs bare programs.

Code is decoded once into :class:`Step` records (operand rows, the function
:data:`.semantics.SEMANTICS` registers for the mnemonic, the jump target), so the run
loop does no decoding, look-up or string work. Instructions that cannot run on V1 —
undecodable words, the four unimplemented operations, data addresses beyond the register
file — become *fault* steps that stop the run with a message naming the instruction and
its address, only if a lane reaches them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...core.diagnostics import ShaderkitError
from ...core.model import Description, Instruction
from . import semantics
from .registers import CONFIG_END, DATA_ROWS, OUTPUT_START, RAM_BIT, address_name

DEFAULT_BUDGET = 1_000_000  # instruction groups per routine call
_DONE = np.iinfo(np.int32).max  # program counter of a lane that has returned

ALU, JUMP, GOTO, RETURN, NOTHING, FAULT = range(6)


class MachineFault(ShaderkitError):
    """The program did something V1 cannot do (the core would hang), or ran away."""


@dataclass(frozen=True)
class Step:
    """One decoded instruction, ready to run."""

    kind: int
    address: int
    text: str
    operation: object = None      # semantics function (ALU, RETURN, JUMP) or fault message (FAULT)
    dst: int = 0
    s1: int = 0
    s2: int = 0
    immediate: np.ndarray | None = None  # (3, 1) row (IMM, 0, 0) of a type II instruction
    target: int = 0
    returns_true: bool = False
    stores: bool = False          # whether the result reaches the register file

    def fault(self) -> MachineFault:
        return MachineFault(f"{self.text} at 0x{self.address:04x}: {self.operation}")


def prepare(description: Description, instruction: Instruction, address: int, complete_isa: bool) -> Step:
    """Turn one decoded instruction into a Step."""
    text = description.format(instruction)
    if instruction.is_data:
        reason = instruction.note or "not an instruction"
        return Step(FAULT, address, text, f"cannot execute ({reason}); the V1 core would hang")
    values = dict(instruction.values)
    mnemonic = instruction.mnemonic
    dst, s1, s2 = values.get("dst", 0), values.get("s1", 0), values.get("s2", 0)
    for name in ("dst", "s1", "s2"):
        if values.get(name, 0) >= DATA_ROWS:
            return Step(FAULT, address, text, f"data address {values[name]:#x} is beyond the "
                                              f"{DATA_ROWS}-row register file")
    if mnemonic in ("NOP", "DEBUG_PRINT"):
        return Step(NOTHING, address, text)
    if mnemonic == "JMP":
        return Step(GOTO, address, text, target=values["target"])
    if mnemonic in semantics.UNIMPLEMENTED_IN_V1 and not complete_isa:
        return Step(FAULT, address, text, f"{mnemonic} is not implemented in V1 (the ALU never completes "
                                          "it and the core hangs); --complete-isa runs it as the manual documents")
    operation = semantics.SEMANTICS.function(mnemonic)
    if mnemonic in semantics.JUMP_TESTS:
        return Step(JUMP, address, text, operation, s1=s1, s2=s2, target=values["target"])
    if mnemonic == "RETURN":
        result = values["result"]
        return Step(RETURN, address, text, operation, dst=result >> 32,
                    immediate=_immediate_row(result & 0xFFFF_FFFF), returns_true=bool(result & 1),
                    stores=_stores(result >> 32))
    immediate = values.get("imm", values.get("swizzle"))
    if immediate is not None:  # type II: A = (IMM, 0, 0), B = the old DST
        return Step(ALU, address, text, operation, dst=dst, s2=dst, immediate=_immediate_row(immediate),
                    stores=_stores(dst))
    return Step(ALU, address, text, operation, dst=dst, s1=s1, s2=s2, stores=_stores(dst))


def _immediate_row(value: int) -> np.ndarray:
    return np.array([[value], [0], [0]], dtype=np.uint32)


def _stores(dst: int) -> bool:
    # Configuration rows are read-only for programs: the write is dropped (spec §3.1).
    return CONFIG_END <= dst < DATA_ROWS


def output_reads(steps: Mapping[int, Step]) -> list[str]:
    """Reads of output registers that forwarding does not cover (undefined on V1, spec §3.2)."""
    remarks = []
    for address, step in sorted(steps.items()):
        # SETX/SETY/SETZ on an output register (the upstream idiom before a swizzle) read
        # only the lanes they keep; every other read of an output row is reported.
        if step.immediate is not None:
            sources = [step.s2] if step.operation is semantics.i_SWIZZLE3D else []
        else:
            sources = [step.s1, step.s2] if step.kind in (ALU, JUMP) else []
        previous = steps.get(address - 1)
        forwarded = previous.dst if previous is not None and previous.kind in (ALU, RETURN) else None
        for source in sources:
            if source >= OUTPUT_START and source != forwarded:
                remarks.append(f"0x{address:04x} {step.text}: reads {address_name(source)}, an output "
                               "register, without the write just before it (undefined on V1; "
                               "we read its last written value)")
    return remarks


def _gather(row: np.ndarray, lanes: slice | np.ndarray) -> np.ndarray:
    # np.take is several times faster than fancy indexing for a (3, n) row.
    return row[:, lanes] if isinstance(lanes, slice) else np.take(row, lanes, axis=1)


def _scatter(row: np.ndarray, lanes: slice | np.ndarray, values: np.ndarray) -> None:
    if isinstance(lanes, slice):
        row[:, lanes] = values
        return
    values = np.broadcast_to(values, (3, len(lanes)))
    for lane in range(3):  # one 1-D store per lane beats one 2-D fancy store
        row[lane][lanes] = values[lane]


@dataclass
class Code:
    """The code memory: ROM words from 0, instruction RAM words from 0x8000."""

    steps: dict[int, Step]

    @classmethod
    def load(cls, description: Description, rom: Sequence[int], ram: Sequence[int], complete_isa: bool) -> Code:
        steps = {}
        for base, words in ((0, rom), (RAM_BIT, ram)):
            for index, word in enumerate(words):
                instruction = description.decode([word], base + index)
                steps[base + index] = prepare(description, instruction, base + index, complete_isa)
        return cls(steps)

    def step(self, address: int) -> Step:
        step = self.steps.get(address)
        if step is None:
            raise no_code(address)
        return step

    @cached_property
    def flat(self):
        """The steps as the compiled core's table (:class:`.compiled_core.Flat`), made once."""
        from .compiled_core import Flat
        return Flat(self.steps)


def no_code(address: int) -> MachineFault:
    return MachineFault(f"jump to 0x{address:04x}, where there is no code")


def out_of_budget(routine: str, budget: int) -> MachineFault:
    return MachineFault(f"{routine} ran more than {budget:,} instruction groups without returning "
                        "(an endless loop?); raise the budget with --budget")


@dataclass
class Lanes:
    """The register files of n lanes, and how much each lane has executed."""

    rows: np.ndarray                       # (256, 3, n) uint32
    executed: np.ndarray                   # (n,) instructions run per lane
    written: set[int] = field(default_factory=set)  # addresses stored to (for bare runs)

    @classmethod
    def zeros(cls, count: int) -> Lanes:
        return cls(np.zeros((DATA_ROWS, 3, count), dtype=np.uint32), np.zeros(count, dtype=np.int64))

    @property
    def count(self) -> int:
        return self.rows.shape[2]


class Core:
    """Runs routines of ``code`` on a set of lanes, SIMT style.

    Calls run in the compiled kernel of :mod:`.compiled_core` unless ``compiled`` is False or
    writes are tracked (bare runs: one lane, where the compile would cost more than it saves);
    the NumPy loop below is the reference the compiled core is tested against.
    """

    def __init__(self, code: Code, lanes: Lanes, budget: int = DEFAULT_BUDGET, track_writes: bool = False,
                 compiled: bool = True):
        self.code = code
        self.lanes = lanes
        self.budget = budget
        self.track_writes = track_writes
        self.compiled = compiled and not track_writes

    def call(self, entry: int, selection: np.ndarray | None = None, routine: str = "routine") -> np.ndarray:
        """Run from ``entry`` on the selected lanes (all if None) until each returns; their return values."""
        if self.compiled:
            from .compiled_core import call
            return call(self.code, self.lanes, entry, selection, self.budget, routine)
        return self.call_numpy(entry, selection, routine)

    def call_numpy(self, entry: int, selection: np.ndarray | None = None, routine: str = "routine") -> np.ndarray:
        """:meth:`call` interpreted with NumPy, one whole-row operation per instruction group."""
        rows, executed = self.lanes.rows, self.lanes.executed
        if selection is not None and len(selection) == self.lanes.count:
            selection = None  # selections are sorted and unique: this one is every lane, a slice is faster
        everyone = selection is None
        count = self.lanes.count if everyone else len(selection)
        returned = np.zeros(count, dtype=bool)
        if count == 0:
            return returned
        # Converged: all live lanes at ``pc``; ``lanes`` indexes them (a slice when all are live).
        lanes: slice | np.ndarray = slice(None) if everyone else selection
        local: slice | np.ndarray = slice(None)   # the same lanes as positions in ``returned``
        pc = entry
        pcs: np.ndarray | None = None              # per-lane program counters once diverged
        live = count
        for _ in range(self.budget):
            if pcs is not None:
                pc = int(pcs.min())
                if pc == _DONE:
                    return returned
                local = np.flatnonzero(pcs == pc)
                lanes = local if everyone else selection[local]
            step = self.code.step(pc)
            executed[lanes] += 1
            kind = step.kind
            if kind == ALU:
                b = _gather(rows[step.s2], lanes)
                a = _gather(rows[step.s1], lanes) if step.immediate is None else np.broadcast_to(step.immediate, b.shape)
                result = step.operation(a, b)
                if step.stores:
                    _scatter(rows[step.dst], lanes, result)
                    if self.track_writes:
                        self.lanes.written.add(step.dst)
                next_pc = pc + 1
            elif kind == JUMP:
                taken = step.operation(_gather(rows[step.s1], lanes), _gather(rows[step.s2], lanes))
                if pcs is None and (taken.all() or not taken.any()):
                    next_pc = step.target if taken[0] else pc + 1
                else:
                    if pcs is None:
                        pcs = np.full(count, _DONE, dtype=np.int32)
                    pcs[local] = np.where(taken, step.target, pc + 1)
                    continue
            elif kind == GOTO:
                next_pc = step.target
            elif kind == NOTHING:
                next_pc = pc + 1
            elif kind == RETURN:
                if step.stores:
                    old = _gather(rows[step.dst], lanes)
                    _scatter(rows[step.dst], lanes, step.operation(np.broadcast_to(step.immediate, old.shape), old))
                returned[local] = step.returns_true
                if pcs is None:
                    return returned
                pcs[local] = _DONE
                live -= len(local)
                if live == 0:
                    return returned
                continue
            else:
                raise step.fault()
            if pcs is None:
                pc = next_pc
            else:
                pcs[local] = next_pc
                if len(local) == live:  # every live lane is here: run converged again
                    pcs, pc = None, next_pc
        raise out_of_budget(routine, self.budget)
