"""The RSX vertex-program machine: a decoded VP run on many vertices at once (spec/rsx.md 2.1-2.10).

Execution model. :class:`VertexMachine` prepares every instruction once into a :class:`_Step`:
bound source readers, the functions :data:`~shaderkit.isa.rsx.semantics.SEMANTICS` registers for
its vector and scalar op, its writers and its flow action. A lane is one vertex. Each lane has its
own program counter, like a SIMT core: while all lanes agree (the common case) an instruction runs
on whole arrays; after a divergent branch the lowest program counter runs first, with a lane mask,
until the lanes meet again (forward branches and loops reconverge alike). Every executed
instruction counts once per vertex against a :class:`~.budget.RunBudget` (lane-instructions, and by
default wall time), so a program that never ends raises :class:`InputError` naming it and its slot.

State: temporaries R0..R31 (float32 ``(32, 4, n)``), address registers A0/A1 (int32), CC0/CC1,
outputs o[0..15] (start at (0, 0, 0, 1)), a per-lane call stack four levels deep
(NV_vertex_program2's limit; deeper calls raise InputError).

Per instruction (section 2.9): both ops read their sources and test the CC before either writes
("dual issue"); sources are swizzled, then abs (D0 21-23), then negated. The vector result is
saturated if D0[26], masked by the vector write mask and, if D0[13], by the CC test of each
destination lane (CC[swizzle[lane]]); it goes to R[vector temp] and also to o[dst] when D0[30] is
set. The scalar result (from src2.x; EXP, LOG, LIT give four components) is replicated, saturated
if D0[26] too, masked by the scalar mask and the same CC test, and goes to R[scalar temp], or else
to o[dst] when D0[30] is clear. ARL writes floor(src0) to A[vector temp & 1]. Decision for the
[uncertain] CC update: the C bit (D0 14/29) always updates the selected CC, also alongside a
register write, with the vector result when the vector op is not NOP, else with the scalar result;
without the C bit an op with no destination writes nothing.

Flow (scalar slot, after both writes of the instruction, so a branch tests the updated CC):
BRI/CLI jump/call to the immediate target, BRA/CAL (0x08/0x0A, [uncertain]) to target + A.c, RET
returns (a lane returning with an empty stack ends), BRB/CLB test a bit of ``branch_bits`` against
D3[28]. BRA/BRI/CAL/CLI/RET are CC-gated when D0[13] is set: taken where the test passes for any
swizzled CC component. The instruction with the end bit ends the lanes that do not branch.
PSH/POP are refused.

Relative addressing reads c[A.c + n] or v[A.c + n] per lane; indexes outside the register file
read 0. Missing attributes read (0, 0, 0, 1). TXL samples the 2D texture of unit D2 bits 8-9 (src1's
temp index & 3, so RPCS3's and rsxdec's readings agree) at s0.xy; the LOD is ignored (no mipmaps);
an unbound unit reads (0, 0, 0, 1).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from shaderkit.core.diagnostics import InputError

from . import semantics
from .budget import RunBudget, as_budget
from .container import ProgramKind
from .fields import VP_NO_TEMP
from .instruction import Condition, Instruction, Program, Source, VertexView, check_vertex_opcodes
from .limits import VP_CONSTANTS, VP_INPUTS, VP_OUTPUTS, VP_TEMPORARIES
from .semantics import SEMANTICS, VERTEX_SCALAR, VERTEX_VECTOR, condition_passes, mask_and, store
from .textures import Texture, sample_lanes

F32 = np.float32
DEFAULT_ATTRIBUTE = np.array([[0.0], [0.0], [0.0], [1.0]], dtype=F32)
UNBOUND_TEXEL = DEFAULT_ATTRIBUTE
CALL_DEPTH = 4
IDENTITY = (0, 1, 2, 3)
_DONE = np.iinfo(np.int32).max  # program counter of a lane that has ended
_ADDRESS_LIMIT = F32(2 ** 24)

Reader = Callable[["_State"], np.ndarray]
# A writer tests the CC for the current state and returns the function that stores a result.
Writer = Callable[["_State"], Callable[[np.ndarray], None]]
_BRANCHES = {"BRA": "jump", "BRI": "jump", "BRB": "jump", "CAL": "call", "CLI": "call", "CLB": "call",
             "RET": "return"}
_VIA_ADDRESS_REGISTER = ("BRA", "CAL")
_ON_BRANCH_BIT = ("BRB", "CLB")


def run_vertex_program(program: Program, attributes: Mapping[int, np.ndarray], constants: np.ndarray,
                       *, branch_bits: int = 0, textures: Mapping[int, Texture] = {},
                       budget: RunBudget | int | None = None) -> np.ndarray:
    """Run ``program`` once per vertex; returns the outputs o[0..15] as float32 (16, n, 4) (a
    transposed view of the machine's (16, 4, n) storage).

    ``attributes`` maps v indexes to (n, 4) arrays; ``constants`` is c[0..467] as (468, 4)
    (fewer rows are padded with zeros); ``branch_bits`` is TRANSFORM_BRANCH_BITS.
    """
    return VertexMachine(program).run(attributes, constants, branch_bits=branch_bits,
                                      textures=textures, budget=budget)


class _State:
    """Everything that changes while a program runs; ``active`` is the running group's mask."""

    def __init__(self, lanes: int, inputs: list[np.ndarray], constants: np.ndarray,
                 branch_bits: int, textures: Mapping[int, Texture]):
        self.lanes = lanes
        self.temps = np.zeros((VP_TEMPORARIES, 4, lanes), dtype=F32)
        self.address = np.zeros((2, 4, lanes), dtype=np.int32)
        self.cc = np.zeros((2, 4, lanes), dtype=F32)
        self.outputs = np.empty((VP_OUTPUTS, 4, lanes), dtype=F32)
        self.outputs[...] = DEFAULT_ATTRIBUTE
        self.inputs = inputs
        self.constant_columns = constants.T  # (4, 468): c[i] is column i
        self.branch_bits = branch_bits
        self.textures = textures
        self.active: np.ndarray | None = None


@dataclass
class _Step:
    """One prepared instruction."""

    slot: int
    vector: Reader | None
    vector_write: Writer | None
    scalar: Reader | None
    scalar_write: Writer | None
    flow: str | None  # "jump", "call", "return"
    taken: Callable[[_State], np.ndarray | None] | None  # lanes where the flow op acts
    target: Callable[[_State], np.ndarray | int] | None
    end: bool

    def execute(self, state: _State) -> None:
        # One instruction reads its sources and tests the CC once, before either op writes.
        vector = scalar = vector_write = scalar_write = None
        if self.vector is not None:
            vector, vector_write = self.vector(state), self.vector_write(state)
        if self.scalar is not None:
            scalar, scalar_write = self.scalar(state), self.scalar_write(state)
            if vector is not None:
                # The scalar result may be a view of a register the vector op is about to write.
                scalar = np.array(scalar)
        if vector is not None:
            vector_write(vector)
        if scalar is not None:
            scalar_write(scalar)


class VertexMachine:
    """A vertex program prepared for running: build once, :meth:`run` on any vertices."""

    def __init__(self, program: Program):
        if program.kind is not ProgramKind.VERTEX:
            raise InputError("run_vertex_program needs a vertex program")
        self.program = program
        self.steps = [self._prepare(instruction, len(program.instructions))
                      for instruction in program.instructions]

    # -- sources --

    def _reader(self, source: Source, view: VertexView, lanes: tuple[int, ...], slot: int) -> Reader:
        pick = None if lanes == IDENTITY else (slice(lanes[0], lanes[0] + 1) if len(lanes) == 1
                                               else list(lanes))
        fetch = self._fetcher(source, view, slot)
        absolute, negate = source.absolute, source.negate

        def read(state: _State) -> np.ndarray:
            value = fetch(state)
            if pick is not None:
                value = value[pick]
            if absolute:
                value = np.abs(value)
            if negate:
                value = -value
            return value
        return read

    @staticmethod
    def _fetcher(source: Source, view: VertexView, slot: int) -> Reader:
        index = source.index
        if source.file == "R":
            if index >= VP_TEMPORARIES:
                raise InputError(f"slot {slot}: R{index} is beyond R{VP_TEMPORARIES - 1}")
            return lambda state: state.temps[index]
        if source.file not in ("v", "c"):
            raise InputError(f"slot {slot}: a source operand has the invalid register type 0")
        size = VP_INPUTS if source.file == "v" else VP_CONSTANTS
        if not source.relative:
            if index >= size:
                raise InputError(f"slot {slot}: {source.file}[{index}] is beyond {source.file}[{size - 1}]")
            if source.file == "v":
                return lambda state: state.inputs[index]
            return lambda state: state.constant_columns[:, index:index + 1]
        register, lane = view.address_register, view.address_lane

        def fetch_relative(state: _State) -> np.ndarray:
            offsets = state.address[register, lane].astype(np.int64) + index
            inside = (offsets >= 0) & (offsets < size)
            if source.file == "c":
                value = state.constant_columns[:, np.where(inside, offsets, 0)]
            else:
                value = np.zeros((4, state.lanes), dtype=F32)
                for attribute in np.unique(offsets[inside]):
                    lanes = offsets == attribute
                    value[:, lanes] = np.broadcast_to(state.inputs[attribute], (4, state.lanes))[:, lanes]
            return np.where(inside, value, F32(0.0))
        return fetch_relative

    # -- writes --

    @staticmethod
    def _lane_masks(condition: Condition | None, lanes: tuple[int, ...]):
        """A function giving, per written lane, the lane mask (None = all) from CC and the group."""
        def masks(state: _State) -> dict[int, np.ndarray | None]:
            return semantics.condition_lane_masks(state.cc, condition, lanes, state.active)
        return masks

    @classmethod
    def _writer(cls, view: VertexView, targets: list[tuple[str, int]], mask: tuple[bool, ...],
                updates_cc: bool) -> Writer | None:
        lanes = tuple(lane for lane in range(4) if mask[lane])
        if view.condition_test and view.condition.never:
            return None
        if not lanes or not (targets or updates_cc):
            return None
        condition = view.condition if view.condition_test and not view.condition.always else None
        masks_of = cls._lane_masks(condition, lanes)
        saturate = view.saturate
        cc_register = view.condition.register

        def writer(state: _State) -> Callable[[np.ndarray], None]:
            masks = masks_of(state)

            def write(value: np.ndarray) -> None:
                value = np.broadcast_to(value, (4, state.lanes))
                if saturate:
                    value = semantics.saturate(value)
                if updates_cc:
                    for lane in lanes:
                        store(state.cc[cc_register, lane], value[lane], masks[lane])
                for file, index in targets:
                    registers = state.temps if file == "R" else state.outputs
                    for lane in lanes:
                        store(registers[index, lane], value[lane], masks[lane])
            return write
        return writer

    @classmethod
    def _address_writer(cls, view: VertexView) -> Writer | None:
        lanes = tuple(lane for lane in range(4) if view.vector_mask[lane])
        if not lanes or (view.condition_test and view.condition.never):
            return None
        condition = view.condition if view.condition_test and not view.condition.always else None
        masks_of = cls._lane_masks(condition, lanes)
        register = (VP_NO_TEMP if view.vector_temp is None else view.vector_temp) & 1

        def writer(state: _State) -> Callable[[np.ndarray], None]:
            masks = masks_of(state)

            def write_address(value: np.ndarray) -> None:
                value = np.broadcast_to(value, (4, state.lanes))
                # Far beyond any register file; keeps the float -> int32 conversion defined.
                whole = np.clip(np.floor(np.nan_to_num(value, nan=0.0)), -_ADDRESS_LIMIT,
                                _ADDRESS_LIMIT).astype(np.int32)
                for lane in lanes:
                    store(state.address[register, lane], whole[lane], masks[lane])
            return write_address
        return writer

    # -- instructions --

    def _prepare(self, instruction: Instruction, program_length: int) -> _Step:
        view = check_vertex_opcodes(instruction)
        slot = instruction.slot
        vector_name, scalar_name = view.vector.name, view.scalar.name
        vector_active = vector_name != "NOP"
        scalar_active = scalar_name != "NOP" and scalar_name not in _BRANCHES
        vector = vector_write = scalar = scalar_write = None
        if vector_active:
            vector = self._vector_compute(instruction)
            if vector_name == "ARL":
                vector_write = self._address_writer(view)
            else:
                targets = []
                if view.vector_temp is not None:
                    targets.append(("R", self._temp(view.vector_temp, slot)))
                if view.vector_to_output and view.output is not None:
                    targets.append(("o", self._output(view.output, slot)))
                vector_write = self._writer(view, targets, view.vector_mask, view.cc_update)
            if vector_write is None:
                vector = None
        if scalar_active:
            targets = []
            if view.scalar_temp is not None:
                targets.append(("R", self._temp(view.scalar_temp, slot)))
            elif not view.vector_to_output and view.output is not None:
                targets.append(("o", self._output(view.output, slot)))
            scalar_write = self._writer(view, targets, view.scalar_mask,
                                        view.cc_update and not vector_active)
            if scalar_write is not None:
                scalar = self._scalar_compute(view, slot)
        flow = _BRANCHES.get(scalar_name)
        taken = target = None
        if flow is not None:
            taken = self._branch_lanes(view, scalar_name)
            target = self._branch_target(view, scalar_name, slot, program_length)
        return _Step(slot, vector, vector_write, scalar, scalar_write, flow, taken, target, view.end)

    @staticmethod
    def _temp(index: int, slot: int) -> int:
        if index >= VP_TEMPORARIES:
            raise InputError(f"slot {slot}: R{index} is beyond R{VP_TEMPORARIES - 1}")
        return index

    @staticmethod
    def _output(index: int, slot: int) -> int:
        if index >= VP_OUTPUTS:
            raise InputError(f"slot {slot}: o[{index}] is beyond o[{VP_OUTPUTS - 1}]")
        return index

    def _vector_compute(self, instruction: Instruction) -> Reader:
        view = instruction.view
        name = view.vector.name
        readers = [self._reader(view.sources[n], view, tuple(view.sources[n].swizzle), instruction.slot)
                   for n in view.vector.sources]
        if name == "TXL":
            unit = (instruction.words[2] >> 8) & 3  # D2 bits 8-9
            read = readers[0]

            def texture_lookup(state: _State) -> np.ndarray:
                texture = state.textures.get(unit)
                if texture is None:
                    return UNBOUND_TEXEL
                coordinates = read(state)
                return sample_lanes(texture, coordinates[0], coordinates[1])
            return texture_lookup
        # ARL's value is its operand, as MOV gives it; the address writer floors it.
        function = SEMANTICS.function("MOV" if name == "ARL" else name, VERTEX_VECTOR)
        return semantics.bind(function, readers)

    def _scalar_compute(self, view: VertexView, slot: int) -> Reader:
        name = view.scalar.name
        source = view.sources[2]
        lanes = tuple(source.swizzle) if name == "LIT" else (source.swizzle[0],)
        return semantics.bind(SEMANTICS.function(name, VERTEX_SCALAR), [self._reader(source, view, lanes, slot)])

    # -- flow --

    @staticmethod
    def _branch_lanes(view: VertexView, name: str) -> Callable[[_State], np.ndarray | None]:
        if name in _ON_BRANCH_BIT:
            index, value = view.branch_index, view.branch_value

            def on_bit(state: _State) -> np.ndarray | None:
                taken = (state.branch_bits >> index) & 1 == value
                return None if taken else np.zeros(state.lanes, dtype=bool)
            return on_bit
        condition = view.condition
        if not view.condition_test or condition.always:
            return lambda state: None

        def on_condition(state: _State) -> np.ndarray:
            if condition.never:
                return np.zeros(state.lanes, dtype=bool)
            cc = state.cc[condition.register]
            passed = np.zeros(state.lanes, dtype=bool)
            for component in set(condition.swizzle):
                passed |= condition_passes(cc[component], condition.test)
            return passed
        return on_condition

    @staticmethod
    def _branch_target(view: VertexView, name: str, slot: int, program_length: int):
        if name == "RET":
            return None
        target = view.branch_target
        if name in _VIA_ADDRESS_REGISTER:
            register, lane = view.address_register, view.address_lane
            return lambda state: state.address[register, lane].astype(np.int64) + target
        if target >= program_length:
            raise InputError(f"slot {slot}: {name} target {target} is beyond the program "
                             f"({program_length} instructions)")
        return lambda state: target

    # -- running --

    def run(self, attributes: Mapping[int, np.ndarray], constants: np.ndarray, *,
            branch_bits: int = 0, textures: Mapping[int, Texture] = {},
            budget: RunBudget | int | None = None) -> np.ndarray:
        lanes, inputs = _input_table(attributes)
        state = _State(lanes, inputs, _constant_table(constants), int(branch_bits), textures)
        with np.errstate(all="ignore"):
            self._execute(state, as_budget(budget))
        return state.outputs.transpose(0, 2, 1)  # a view: lane-major storage, no copy

    def _execute(self, state: _State, budget: RunBudget) -> None:
        steps = self.steps
        total = len(steps)
        lanes = state.lanes
        program_counter = np.zeros(lanes, dtype=np.int64)
        stack = np.zeros((CALL_DEPTH, lanes), dtype=np.int64)
        depth = np.zeros(lanes, dtype=np.int64)
        uniform: int | None = 0  # the common program counter while no lane has diverged
        started, deadline = budget.start()
        # Every step computes all lanes (masked ones too), so each costs `lanes` of the budget.
        remaining = budget.remaining
        try:
            while True:
                if uniform is not None:
                    current, group = uniform, None
                    if current >= total:
                        return
                else:
                    current = int(program_counter.min())
                    if current >= total:
                        return
                    group = program_counter == current
                    if group.all():
                        uniform, group = current, None
                step = steps[current]
                remaining -= lanes
                if remaining < 0 or (deadline is not None and time.monotonic() > deadline):
                    raise budget.stop(ProgramKind.VERTEX, step.slot, remaining)
                state.active = group
                step.execute(state)
                following = _DONE if step.end else current + 1
                if step.flow is None:
                    if uniform is not None:
                        uniform = following
                    else:
                        program_counter[group] = following
                    continue
                if uniform is not None:
                    program_counter[:] = current
                    group = np.ones(lanes, dtype=bool)
                self._flow(step, state, group, following, program_counter, stack, depth, total)
                uniform = None
        finally:
            budget.finish(started, remaining)

    @staticmethod
    def _flow(step: _Step, state: _State, group: np.ndarray, following: int,
              program_counter: np.ndarray, stack: np.ndarray, depth: np.ndarray, total: int) -> None:
        taken = mask_and(group, step.taken(state))
        program_counter[group] = following
        chosen = np.flatnonzero(taken)
        if not chosen.size:
            return
        if step.flow == "return":
            program_counter[chosen[depth[chosen] == 0]] = _DONE  # returning from the main program
            returning = chosen[depth[chosen] > 0]
            depth[returning] -= 1
            program_counter[returning] = stack[depth[returning], returning]
            return
        target = np.broadcast_to(step.target(state), (state.lanes,))[chosen]
        if ((target < 0) | (target >= total)).any():
            raise InputError(f"slot {step.slot}: a branch through the address register leaves the "
                             f"program (target {int(target.min())}..{int(target.max())})")
        if step.flow == "call":
            if (depth[chosen] >= CALL_DEPTH).any():
                raise InputError(f"slot {step.slot}: subroutine calls nested deeper than {CALL_DEPTH}")
            stack[depth[chosen], chosen] = step.slot + 1
            depth[chosen] += 1
        program_counter[chosen] = target


def check_attributes(attributes: Mapping[int, np.ndarray]) -> tuple[int | None, dict[int, np.ndarray]]:
    """Vertex attributes by v index as contiguous float32 (n, 4) arrays, all of one length n
    (None when no attribute is given); InputError for a bad index, value or shape."""
    arrays: dict[int, np.ndarray] = {}
    lanes = None
    for index, value in attributes.items():
        if not isinstance(index, (int, np.integer)) or not 0 <= index < VP_INPUTS:
            raise InputError(f"vertex attribute index {index!r} is not 0..{VP_INPUTS - 1}")
        try:
            array = np.ascontiguousarray(value, dtype=F32)
        except (TypeError, ValueError):
            raise InputError(f"vertex attribute v[{index}] is not numeric") from None
        if array.ndim != 2 or array.shape[1] != 4 or (lanes is not None and array.shape[0] != lanes):
            expected = "(n, 4)" if lanes is None else f"({lanes}, 4)"
            raise InputError(f"vertex attribute v[{index}] has shape {array.shape}, expected {expected}")
        lanes = array.shape[0]
        arrays[int(index)] = array
    return lanes, arrays


def _input_table(attributes: Mapping[int, np.ndarray]) -> tuple[int, list[np.ndarray]]:
    """Attributes by v index as (4, n) arrays; missing ones are the (0, 0, 0, 1) column."""
    lanes, arrays = check_attributes(attributes)
    if lanes is None:
        raise InputError("a vertex program run needs at least one attribute array (n vertices)")
    table: list[np.ndarray] = [DEFAULT_ATTRIBUTE] * VP_INPUTS
    for index, array in arrays.items():
        table[index] = np.ascontiguousarray(array.T)
    return lanes, table


def _constant_table(constants: np.ndarray) -> np.ndarray:
    try:
        array = np.asarray(constants, dtype=F32)
    except (TypeError, ValueError):
        raise InputError("vertex constants are not numeric") from None
    if array.ndim != 2 or array.shape[1] != 4 or array.shape[0] > VP_CONSTANTS:
        raise InputError(f"vertex constants have shape {array.shape}, expected ({VP_CONSTANTS}, 4)")
    table = np.zeros((VP_CONSTANTS, 4), dtype=F32)
    table[:array.shape[0]] = array
    return table
