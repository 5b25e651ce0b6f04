"""The RSX fragment-program machine: a decoded FP run on many pixels at once (spec/rsx.md 3.1-3.9).

Execution model. :class:`FragmentMachine` turns a :class:`~shaderkit.isa.rsx.instruction.Program`
into a list of *steps* once: each arithmetic instruction becomes a closure with its source readers,
the function :data:`~shaderkit.isa.rsx.semantics.SEMANTICS` registers for its mnemonic, its output
modifiers and its writer already bound; each flow construct becomes IF/ELSE/ENDIF or LOOP/ENDLOOP
marker steps. Running is a loop over step indices, no decoding, look-up or string work; each step
costs the number of lanes from the run's :class:`~.budget.RunBudget` (lane-instructions, and by
default wall time), so a program that never ends is stopped with a message naming it and its slot.
A lane is one pixel; a register is a float32 ``(4, n)`` array (rows x, y, z, w).

Registers. Only the R registers a program touches are allocated, as one float32 array
``(k, 4, n)``. H registers are views of the same memory (section 3.1, :mod:`.halfs`): writing H
stores fp16 bits into R, reading R afterwards sees them, and the reverse. Writing an fp32 value to
an H register rounds it to fp16 (beyond the fp16 range: infinity). R, H, CC0 and CC1 start at 0.

Per instruction, in spec order: sources are swizzled, then abs, input precision clamp, negate;
the result gets the dst scale, saturate (NaN -> 0), the operation precision (H: fp16 rounding with
the range clamped to ±65504, never infinity; X: clamp to [-2, 2); code 3: clamp to [-1, 1]), then
the masked write. A conditional write tests, for each destination lane i, CC[swizzle[i]]
(section 3.8); set_cond copies the same lanes of the result into the selected CC. Condition tests
compare with 0 like GLSL does: NaN passes NE only. KIL, IFE, BRK and RET pass if their test passes
for **any** of the four swizzled CC lanes.

Flow control is structured and per lane: an active-lane mask (``None`` while every lane runs, so
straight-line code pays nothing) and a stack of IF/LOOP frames. LOOP/REP run ``count``
iterations; LOOP sets the loop counter to ``start + i * increment`` (the cgcomp/decompiler
reading of the [conflict] in 3.9), REP leaves the enclosing loop's counter (as in
NV_fragment_program2). BRK removes lanes until their loop ends, RET ends lanes for good; when no
lane is left in a block the machine jumps to the block's next marker. CAL is not supported (unused
by Cg, encoding unknown): it is refused when the program is prepared. An indexed input reads
f[TEX(loop counter + displacement)] (0 outside TEX0..TEX9).

Inputs and outputs. Inputs are (n, 4) arrays by name (:data:`FP_INPUTS`); COL0 and COL1 are
clamped to [0, 1] on read; missing inputs read 0. The perspective flag (SRC2 bit 31) is ignored
(screen-aligned input, w = 1). Textures are 2D (:mod:`~shaderkit.isa.rsx.textures`): the target
is the bound texture's state, not the program's, so a rectangle texture (``Texture.rectangle``,
what a host binds to a unit its program samples as RECT) is addressed in texels, as the RSX's
unnormalised textures are; a unit
with no texture bound reads (0, 0, 0, 1) like an incomplete GL texture; TXP divides s and t by q;
bias, LOD and gradients are ignored (no mipmaps); ``_bx2`` expands the texel to 2x - 1. DDX/DDY
need the lanes laid out as a grid and use fine 2x2-quad differences on all four components.
Discarded (KIL) lanes keep computing, which is cheaper than masking them; only their flag counts.
The result holds R0 (or H0), R1.z (the depth a depth-replacing program exports) and R2..R4
(or H4/H6/H8), the MRT colours.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.render.raster import row_bands

from . import halfs, semantics
from .budget import RunBudget, as_budget
from .semantics import FRAGMENT, SEMANTICS, condition_passes, mask_and, store
from .container import ProgramKind
from .instruction import FP_INPUT_NAMES, SCALE_FACTORS, Condition, FragmentView, Instruction, Program, Source
from .limits import FP_TEMPORARIES
from .textures import Texture, sample_lanes

F32 = np.float32
FP_INPUTS = FP_INPUT_NAMES[:15]
_INPUT_INDEX = {name: index for index, name in enumerate(FP_INPUTS)}
_CLAMPED_INPUTS = (_INPUT_INDEX["COL0"], _INPUT_INDEX["COL1"])
_FIRST_TEXCOORD, _LAST_TEXCOORD = _INPUT_INDEX["TEX0"], _INPUT_INDEX["TEX9"]
KILLED_SENTINEL = F32(-12345.0)  # golden/rsx/emu/README.md
# Window position of a full-screen quad at NDC z = 0 with the default depth range, w = 1.
FULLSCREEN_DEPTH = 0.5
FULLSCREEN_W = 1.0
DEPTH_REGISTER = 1  # R1.z
MRT_REGISTERS = (2, 3, 4)  # R2..R4; fp16 exports use H4, H6, H8 (the same storage)
IDENTITY = (0, 1, 2, 3)
# Runs of at least this many lane-instructions (and lanes) use the compiled path by default
# (fragment_compiled): below it, compiling a program (about a second, once; then cached on
# disk) costs more than interpreting it.
COMPILED_WORK = 1 << 26
COMPILED_MINIMUM_LANES = 1 << 12
UNBOUND_TEXEL = np.array([[0.0], [0.0], [0.0], [1.0]], dtype=F32)

Step = Callable[["_State"], int]
Reader = Callable[["_State"], np.ndarray]

# Source reading shapes: "v" the swizzled vector, "x" only the first swizzled component.
_SOURCE_SHAPES = {"DIV": "vx", "DIVSQ": "vx", "UP2": "x", "UP4": "x", "UPB": "x", "UP16": "x",
                  "UPG": "x"}
_NO_OPERATION = ("NOP", "FENCT", "FENCB")
_TEXTURE_READS = {"TEX": "tex", "TXP": "projective", "TXB": "tex", "TXL": "tex", "TXD": "tex"}


# --- inputs and results -----------------------------------------------------------------------

def fullscreen_inputs(width: int, height: int,
                      overrides: Mapping[str, tuple[float, float, float, float]] = {},
                      rows: range | None = None) -> dict[str, np.ndarray]:
    """The emu README inputs for a ``width`` x ``height`` full-screen quad, (n, 4) per input.

    Lanes are pixels in row-major order, row 0 the bottom (y = 0); pixel centres X = x + 0.5,
    Y = y + 0.5. WPOS = (X, Y, 0.5, 1); TEX0 = (X/W, Y/H, 0, 1); TEX1 = (1 - X/W, Y/(2H), 0.25, 1);
    COL0 = (0.8, 0.4, 0.2, 1); COL1 = (0.1, 0.2, 0.3, 0.4); every other input 0. ``overrides``
    replace inputs with constants. Constant inputs are read-only broadcast views. ``rows``
    (default: all) gives the lanes of those rows only.
    """
    if width < 1 or height < 1:
        raise InputError(f"a {width} x {height} viewport has no pixels")
    rows = range(height) if rows is None else rows
    lanes = width * len(rows)
    x = np.tile(np.arange(width, dtype=F32) + F32(0.5), len(rows))
    y = np.repeat(np.arange(rows.start, rows.stop, dtype=F32) + F32(0.5), width)
    across, up = F32(width), F32(height)

    def constant(values) -> np.ndarray:
        return np.broadcast_to(np.asarray(values, dtype=F32), (lanes, 4))

    def varying(*components) -> np.ndarray:
        return np.stack(np.broadcast_arrays(*(np.asarray(c, dtype=F32) for c in components)), axis=1)

    inputs = {name: constant((0.0, 0.0, 0.0, 0.0)) for name in FP_INPUTS}
    inputs["WPOS"] = varying(x, y, F32(FULLSCREEN_DEPTH), F32(FULLSCREEN_W))
    inputs["TEX0"] = varying(x / across, y / up, F32(0.0), F32(1.0))
    inputs["TEX1"] = varying(F32(1.0) - x / across, y / (up * F32(2.0)), F32(0.25), F32(1.0))
    inputs["COL0"] = constant((0.8, 0.4, 0.2, 1.0))
    inputs["COL1"] = constant((0.1, 0.2, 0.3, 0.4))
    for name, values in overrides.items():
        if name not in _INPUT_INDEX:
            raise InputError(f"unknown fragment input {name!r} (expected one of {', '.join(FP_INPUTS)})")
        try:
            inputs[name] = constant(np.asarray(values, dtype=F32).reshape(4))
        except (TypeError, ValueError):
            raise InputError(f"the override for {name} must be four numbers") from None
    return inputs


@dataclass
class FragmentResult:
    """What a fragment program exports, per lane: ``color`` (n, 4) is R0 (or H0), ``depth`` (n,)
    is R1.z (meaningful when the program replaces depth), ``mrt`` the R2..R4 (or H4/H6/H8) colours
    and ``killed`` the lanes KIL discarded. The arrays are views of the machine's storage."""

    color: np.ndarray
    killed: np.ndarray
    depth: np.ndarray
    mrt: tuple[np.ndarray, np.ndarray, np.ndarray]


def fragment_image(result: FragmentResult, width: int, height: int) -> np.ndarray:
    """The colour as an image (height, width, 4), row 0 the bottom; killed pixels hold -12345."""
    if result.color.shape[0] != width * height:
        raise InputError(f"{result.color.shape[0]} lanes are not a {width} x {height} image")
    image = np.array(result.color, dtype=F32).reshape(height, width, 4)
    image[result.killed.reshape(height, width)] = KILLED_SENTINEL
    return image


def run_fragment_program(program: Program, inputs: Mapping[str, np.ndarray], *,
                         grid: tuple[int, int] | None = None,
                         textures: Mapping[int, Texture] = {},
                         output_from_h0: bool = False,
                         budget: RunBudget | int | None = None,
                         compiled: bool | None = None) -> FragmentResult:
    """Run ``program`` once per lane. ``grid`` = (height, width) lays the lanes out row-major
    (needed by DDX/DDY); ``budget`` bounds the work (:mod:`.budget`: a :class:`RunBudget`, a
    number of lane-instructions, or None for the default limits); ``compiled`` chooses the
    compiled path (:meth:`FragmentMachine.run`)."""
    return FragmentMachine(program).run(inputs, grid=grid, textures=textures,
                                        output_from_h0=output_from_h0, budget=budget, compiled=compiled)


def run_fullscreen(program: Program, width: int, height: int,
                   overrides: Mapping[str, tuple[float, float, float, float]] = {}, *,
                   textures: Mapping[int, Texture] = {}, output_from_h0: bool = False,
                   budget: RunBudget | int | None = None,
                   compiled: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Run ``program`` over a full-screen quad (:func:`fullscreen_inputs`): the colour image
    as :func:`fragment_image` gives it, and the killed pixels ``(height, width)``.

    ``compiled`` as for :meth:`FragmentMachine.run`; compiled, the inputs are computed per pixel
    and the colour written straight into the image. Interpreted, it runs band by band (even rows
    each, so DDX/DDY quads stay whole): memory follows a band of about a million pixels, not the
    picture, and the result is the same as in one run.
    """
    machine = FragmentMachine(program)
    budget = as_budget(budget)
    if machine.wants_compiled(width * height, compiled):
        from .fragment_compiled import run_image
        done = run_image(machine, width, height, overrides, textures=textures, output_from_h0=output_from_h0,
                         budget=budget)
        if done is not None:
            return done
    image = np.empty((height, width, 4), dtype=F32)
    killed = np.empty((height, width), dtype=bool)
    for rows in row_bands(width, height):
        result = machine.run(fullscreen_inputs(width, height, overrides, rows), grid=(len(rows), width),
                             textures=textures, output_from_h0=output_from_h0, budget=budget)
        image[rows.start:rows.stop] = fragment_image(result, width, len(rows))
        killed[rows.start:rows.stop] = result.killed.reshape(len(rows), width)
    return image, killed


# --- lane masks (None = every lane) -----------------------------------------------------------

def _and_not(a, b, lanes: int):
    if b is None:
        return np.zeros(lanes, dtype=bool)
    return ~b if a is None else a & ~b


def _any(mask) -> bool:
    return mask is None or bool(mask.any())


# --- machine state ------------------------------------------------------------------------------

class _State:
    """Everything that changes while a program runs."""

    def __init__(self, lanes: int, register_count: int, inputs: list[np.ndarray],
                 uses_cc: bool, grid, textures: Mapping[int, Texture]):
        self.lanes = lanes
        self.registers = np.zeros((register_count, 4, lanes), dtype=F32)
        # The same memory seen as fp16 (see halfs): [row, component, 2 * lane + half].
        self.halves = self.registers.view(np.float16)
        self.inputs = inputs
        self.cc = np.zeros((2, 4, lanes), dtype=F32) if uses_cc else None
        self.active = None
        self.killed = np.zeros(lanes, dtype=bool)
        self.frames: list[_IfFrame | _LoopFrame] = []
        self.loop_counter = 0
        self.grid = grid
        self.textures = textures


@dataclass
class _Construct:
    """One IF or LOOP/REP of the program, with the step indices of its markers."""

    kind: str  # "if" or "loop"
    slot: int
    else_slot: int
    end_slot: int
    count: int = 0
    start: int = 0
    increment: int = 0
    sets_counter: bool = False  # LOOP sets the loop counter; REP leaves the enclosing one
    else_index: int = -1
    end_index: int = -1
    body_index: int = -1
    in_else: bool = False  # while compiling

    @property
    def has_else(self) -> bool:
        return self.kind == "if" and self.else_slot != self.end_slot

    def next_boundary(self) -> int:
        return self.else_slot if self.has_else and not self.in_else else self.end_slot


@dataclass
class _IfFrame:
    construct: _Construct
    saved: np.ndarray | None
    else_mask: np.ndarray | None
    in_else: bool = False

    def next_marker(self) -> int:
        construct = self.construct
        return construct.else_index if construct.has_else and not self.in_else else construct.end_index


@dataclass
class _LoopFrame:
    construct: _Construct
    saved: np.ndarray | None
    broken: np.ndarray | None = None
    iteration: int = 0
    counter: int = 0

    def next_marker(self) -> int:
        return self.construct.end_index


def _leave(state: _State, program_end: int) -> int:
    """Where to go when no lane is active: the next marker of the innermost open block."""
    return state.frames[-1].next_marker() if state.frames else program_end


def _remove_lanes(state: _State, lanes: np.ndarray, up_to_loop: bool) -> None:
    """Take ``lanes`` out of the open blocks: up to the innermost loop (BRK) or all (RET)."""
    for frame in reversed(state.frames):
        if up_to_loop and isinstance(frame, _LoopFrame):
            # Broken lanes rejoin when the loop ends, so the loop keeps them in ``saved``.
            frame.broken = lanes if frame.broken is None else frame.broken | lanes
            break
        frame.saved = _and_not(frame.saved, lanes, state.lanes)
        if isinstance(frame, _IfFrame):
            frame.else_mask = _and_not(frame.else_mask, lanes, state.lanes)
    state.active = _and_not(state.active, lanes, state.lanes)


def _condition_lanes(state: _State, condition: Condition) -> np.ndarray | None:
    """Lanes where the CC test passes for any of the four swizzled CC components."""
    if condition.always:
        return None
    if condition.never:
        return np.zeros(state.lanes, dtype=bool)
    cc = state.cc[condition.register]
    passed = None
    for component in sorted(set(condition.swizzle)):
        result = condition_passes(cc[component], condition.test)
        passed = result if passed is None else passed | result
    return passed


# --- preparing a program --------------------------------------------------------------------------

class FragmentMachine:
    """A fragment program prepared for running: build once, :meth:`run` on any inputs."""

    def __init__(self, program: Program):
        if program.kind is not ProgramKind.FRAGMENT:
            raise InputError("run_fragment_program needs a fragment program")
        self.program = program
        self.register_rows = self._allocate_registers(program)
        self.uses_cc = any(_uses_cc(instruction.view) for instruction in program.instructions)
        self.inputs_read = _inputs_read(program)
        self.steps: list[Step] = []
        self.step_slots: list[int] = []
        self._compile(program)
        self.program_end = len(self.steps)  # the step index that ends every lane

    # -- registers and sources --

    @staticmethod
    def _allocate_registers(program: Program) -> dict[int, int]:
        used = set()
        for instruction in program.instructions:
            view = instruction.view
            if view.opcode is None or view.opcode.flow or view.opcode.name in _NO_OPERATION:
                continue
            if not view.no_destination and view.opcode.name != "KIL":
                index = halfs.storage_register(view.destination) if view.destination_half \
                    else view.destination
                if index >= FP_TEMPORARIES:
                    raise InputError(f"slot {instruction.slot}: R{index} is beyond R{FP_TEMPORARIES - 1}")
                used.add(index)
            # Out-of-range source indexes are refused when (and only if) the op reads them.
            for source in view.sources:
                if source.file == "R" and source.index < FP_TEMPORARIES:
                    used.add(source.index)
                elif source.file == "H":
                    used.add(halfs.storage_register(source.index))
        return {index: row for row, index in enumerate(sorted(used))}

    def _reader(self, source: Source, shape: str, instruction: Instruction) -> Reader:
        view = instruction.view
        lanes = tuple(source.swizzle) if shape == "v" else (source.swizzle[0],)
        modifiers = []
        if source.absolute:
            modifiers.append(np.abs)
        if source.clamp:
            if source.clamp not in semantics.PRECISION_FUNCTIONS:
                raise InputError(f"slot {instruction.slot}: input precision clamp code {source.clamp} "
                                 "has no known meaning")
            modifiers.append(semantics.PRECISION_FUNCTIONS[source.clamp])
        if source.negate:
            modifiers.append(np.negative)
        if source.file == "c":
            if instruction.literal is None:
                raise InputError(f"slot {instruction.slot}: a constant source without its literal slot")
            literal = np.array(instruction.literal, dtype=np.uint32).view(F32)
            value = literal[list(lanes)].reshape(len(lanes), 1)
            for modifier in modifiers:
                value = modifier(value)
            return lambda state: value
        fetch = self._fetcher(source, lanes, view, instruction.slot)
        if not modifiers:
            return fetch

        def read(state: _State) -> np.ndarray:
            value = fetch(state)
            for modifier in modifiers:
                value = modifier(value)
            return value
        return read

    def _fetcher(self, source: Source, lanes: tuple[int, ...], view: FragmentView, slot: int) -> Reader:
        pick = None if lanes == IDENTITY else (slice(lanes[0], lanes[0] + 1) if len(lanes) == 1
                                               else list(lanes))
        if source.file == "R":
            if source.index >= FP_TEMPORARIES:
                raise InputError(f"slot {slot}: R{source.index} is beyond R{FP_TEMPORARIES - 1}")
            row = self.register_rows[source.index]
            if pick is None:
                return lambda state: state.registers[row]
            return lambda state: state.registers[row][pick]
        if source.file == "H":
            row = self.register_rows[halfs.storage_register(source.index)]
            places = halfs.component_places(source.index, lanes)
            return lambda state: halfs.read(state.halves[row], places)
        if source.file == "f":
            return self._input_fetcher(view, pick, slot)
        raise InputError(f"slot {slot}: a source operand has the invalid register type 3")

    @staticmethod
    def _input_fetcher(view: FragmentView, pick, slot: int) -> Reader:
        if view.indexed_input:
            displacement = view.displacement

            def read_indexed(state: _State) -> np.ndarray:
                index = _FIRST_TEXCOORD + state.loop_counter + displacement
                if not _FIRST_TEXCOORD <= index <= _LAST_TEXCOORD:
                    return np.zeros((4, 1), dtype=F32)[pick if pick is not None else slice(None)]
                value = state.inputs[index]
                return value if pick is None else value[pick]
            return read_indexed
        index = view.input
        if index >= len(FP_INPUTS):
            raise InputError(f"slot {slot}: input attribute index {index} is invalid")
        if pick is None:
            return lambda state: state.inputs[index]
        return lambda state: state.inputs[index][pick]

    # -- writes --

    def _writer(self, view: FragmentView) -> Callable[[_State, np.ndarray], None] | None:
        lanes = tuple(component for component in range(4) if view.mask[component])
        condition = view.condition
        if not lanes or condition.never:
            return None
        cc_register = view.set_cc_register if view.set_cc else None
        destination = None if view.no_destination else view.destination
        if destination is None and cc_register is None:
            return None
        test = None if condition.always else condition
        half = view.destination_half
        row = None if destination is None else \
            self.register_rows[halfs.storage_register(destination) if half else destination]
        places = halfs.component_places(destination, lanes) if half and destination is not None else []

        def write(state: _State, value: np.ndarray) -> None:
            value = np.broadcast_to(value, (4, state.lanes))
            masks = semantics.condition_lane_masks(state.cc, test, lanes, state.active)
            if cc_register is not None:
                cc_target = state.cc[cc_register]
                for lane in lanes:
                    store(cc_target[lane], value[lane], masks[lane])
            if row is None:
                return
            if half:
                # Convert every lane first: the fp16 stores overwrite R lanes ``value`` may view.
                halves = value[list(lanes)].astype(np.float16)
                for position, lane in enumerate(lanes):
                    store(halfs.destination(state.halves[row], places[position]), halves[position],
                          masks[lane])
            else:
                target = state.registers[row]
                for lane in lanes:
                    store(target[lane], value[lane], masks[lane])
        return write

    @staticmethod
    def _output_modifiers(view: FragmentView, slot: int) -> list[Callable[[np.ndarray], np.ndarray]]:
        modifiers = []
        if view.scale not in SCALE_FACTORS:
            raise InputError(f"slot {slot}: dst scale code {view.scale} has no known meaning")
        if view.scale:
            factor = F32(SCALE_FACTORS[view.scale])
            modifiers.append(lambda value: value * factor)
        if view.saturate:
            modifiers.append(semantics.saturate)
        if view.precision:
            modifiers.append(semantics.PRECISION_FUNCTIONS[view.precision])
        return modifiers

    # -- instructions --

    def _compute(self, instruction: Instruction) -> Reader:
        """The closure computing an instruction's unmodified result."""
        view = instruction.view
        name = view.opcode.name
        slot = instruction.slot
        if name in _TEXTURE_READS:
            return self._texture_compute(instruction, _TEXTURE_READS[name])
        shapes = _SOURCE_SHAPES.get(name, ("x" if view.opcode.scalar else "v") * len(view.opcode.sources))
        readers = [self._reader(view.sources[source_slot], shape, instruction)
                   for source_slot, shape in zip(view.opcode.sources, shapes)]
        function = SEMANTICS.function(name, FRAGMENT)
        if name in ("DDX", "DDY"):
            derivative = function
            read = readers[0]

            def compute_derivative(state: _State) -> np.ndarray:
                if state.grid is None:
                    raise InputError(f"slot {slot}: {name} needs the lanes laid out as a grid "
                                     "(run with grid=(height, width))")
                return derivative(read(state), state.grid)
            return compute_derivative
        return semantics.bind(function, readers)

    def _texture_compute(self, instruction: Instruction, kind: str) -> Reader:
        view = instruction.view
        read = self._reader(view.sources[0], "v", instruction)
        unit = view.texture_unit
        expand = view.expand_texture

        def compute_texture(state: _State) -> np.ndarray:
            texture = state.textures.get(unit)
            if texture is None:
                texel = UNBOUND_TEXEL
            else:
                coordinates = read(state)
                s, t = coordinates[0], coordinates[1]
                if kind == "projective":
                    s, t = s / coordinates[3], t / coordinates[3]
                texel = sample_lanes(texture, s, t)
            return texel * F32(2.0) - F32(1.0) if expand else texel
        return compute_texture

    def _arithmetic_step(self, instruction: Instruction, next_index: int) -> Step | None:
        view = instruction.view
        write = self._writer(view)
        if write is None:
            return None
        compute = self._compute(instruction)
        modifiers = self._output_modifiers(view, instruction.slot)

        def step(state: _State) -> int:
            value = compute(state)
            for modifier in modifiers:
                value = modifier(value)
            write(state, value)
            return next_index
        return step

    def _kill_step(self, view: FragmentView, next_index: int) -> Step:
        condition = view.condition

        def kill(state: _State) -> int:
            lanes = mask_and(_condition_lanes(state, condition), state.active)
            state.killed = np.ones(state.lanes, dtype=bool) if lanes is None else state.killed | lanes
            return next_index
        return kill

    # -- flow --

    def _compile(self, program: Program) -> None:
        instructions = program.instructions
        program_end = instructions[-1].slot + instructions[-1].slots
        boundaries = {instruction.slot for instruction in instructions} | {program_end}
        open_constructs: list[_Construct] = []
        for instruction in instructions:
            self._close_blocks(open_constructs, instruction.slot)
            self._compile_instruction(instruction, open_constructs, boundaries)
        self._close_blocks(open_constructs, program_end)
        if open_constructs:
            raise InputError(f"slot {open_constructs[-1].slot}: the block does not end inside the program")

    def _close_blocks(self, open_constructs: list[_Construct], slot: int) -> None:
        while open_constructs:
            construct = open_constructs[-1]
            if construct.has_else and not construct.in_else and construct.else_slot == slot:
                construct.in_else = True
                construct.else_index = len(self.steps)
                self._append(self._else_step(construct), slot)
            elif construct.end_slot == slot:
                open_constructs.pop()
                construct.end_index = len(self.steps)
                marker = self._end_if_step if construct.kind == "if" else self._end_loop_step
                self._append(marker(construct), slot)
            else:
                return

    def _append(self, step: Step, slot: int) -> None:
        self.steps.append(step)
        self.step_slots.append(slot)

    def _compile_instruction(self, instruction: Instruction, open_constructs: list[_Construct],
                             boundaries: set[int]) -> None:
        view = instruction.view
        slot = instruction.slot
        opcode = view.opcode
        if opcode is None:
            raise InputError(f"slot {slot}: unknown fragment opcode 0x{view.opcode_value:02X}")
        if opcode.unimplemented:
            raise InputError(f"slot {slot}: {opcode.name} is not implemented by the RSX and cannot run")
        if opcode.name in _NO_OPERATION:
            return
        next_index = len(self.steps) + 1
        if opcode.name in ("IFE", "LOOP", "REP"):
            construct = self._open_block(view, slot, open_constructs, boundaries)
            step = self._if_step(construct, view.condition) if construct.kind == "if" else \
                self._loop_step(construct)
            self._append(step, slot)
            construct.body_index = len(self.steps)
            open_constructs.append(construct)
            return
        if opcode.name == "BRK":
            if not any(construct.kind == "loop" for construct in open_constructs):
                raise InputError(f"slot {slot}: BRK outside a LOOP or REP")
            self._append(self._exit_step(view.condition, next_index, up_to_loop=True), slot)
            return
        if opcode.name == "RET":
            self._append(self._exit_step(view.condition, next_index, up_to_loop=False), slot)
            return
        if opcode.name == "CAL":
            raise InputError(f"slot {slot}: CAL (fragment subroutine call) is not supported")
        if opcode.name == "KIL":
            self._append(self._kill_step(view, next_index), slot)
            return
        step = self._arithmetic_step(instruction, next_index)
        if step is not None:
            self._append(step, slot)

    @staticmethod
    def _open_block(view: FragmentView, slot: int, open_constructs: list[_Construct],
                    boundaries: set[int]) -> _Construct:
        if view.opcode.name == "IFE":
            construct = _Construct("if", slot, view.else_slot, view.end_slot)
        else:
            construct = _Construct("loop", slot, view.end_slot, view.end_slot, view.loop_count,
                                   view.loop_start, view.loop_increment,
                                   sets_counter=view.opcode.name == "LOOP")
        limit = open_constructs[-1].next_boundary() if open_constructs else max(boundaries)
        if not (slot < construct.else_slot <= construct.end_slot <= limit
                and construct.else_slot in boundaries and construct.end_slot in boundaries):
            raise InputError(f"slot {slot}: {view.opcode.name} offsets (else slot {construct.else_slot}, "
                             f"end slot {construct.end_slot}) do not fit the program's block structure")
        return construct

    def _if_step(self, construct: _Construct, condition: Condition) -> Step:
        machine = self
        next_index = len(self.steps) + 1

        def if_step(state: _State) -> int:
            passed = _condition_lanes(state, condition)
            active = state.active
            taken = mask_and(active, passed)
            otherwise = _and_not(active, passed, state.lanes)
            state.frames.append(_IfFrame(construct, active, otherwise))
            state.active = taken
            return next_index if _any(taken) else _leave(state, machine.program_end)
        return if_step

    def _else_step(self, construct: _Construct) -> Step:
        next_index = len(self.steps) + 1

        def else_step(state: _State) -> int:
            frame = state.frames[-1]
            frame.in_else = True
            state.active = frame.else_mask
            return next_index if _any(frame.else_mask) else construct.end_index
        return else_step

    def _end_if_step(self, construct: _Construct) -> Step:
        machine = self
        next_index = len(self.steps) + 1

        def end_if_step(state: _State) -> int:
            frame = state.frames.pop()
            state.active = frame.saved
            return next_index if _any(frame.saved) else _leave(state, machine.program_end)
        return end_if_step

    def _loop_step(self, construct: _Construct) -> Step:
        next_index = len(self.steps) + 1

        def loop_step(state: _State) -> int:
            if construct.count == 0:
                return construct.end_index + 1
            counter = construct.start if construct.sets_counter else state.loop_counter
            state.frames.append(_LoopFrame(construct, state.active, counter=counter))
            state.loop_counter = counter
            return next_index
        return loop_step

    def _end_loop_step(self, construct: _Construct) -> Step:
        machine = self
        next_index = len(self.steps) + 1

        def end_loop_step(state: _State) -> int:
            frame = state.frames[-1]
            frame.iteration += 1
            running = frame.saved if frame.broken is None else _and_not(frame.saved, frame.broken,
                                                                        state.lanes)
            if frame.iteration < construct.count and _any(running):
                state.active = running
                if construct.sets_counter:
                    frame.counter = construct.start + frame.iteration * construct.increment
                    state.loop_counter = frame.counter
                return construct.body_index
            state.frames.pop()
            state.active = frame.saved
            state.loop_counter = next((outer.counter for outer in reversed(state.frames)
                                       if isinstance(outer, _LoopFrame)), 0)
            return next_index if _any(frame.saved) else _leave(state, machine.program_end)
        return end_loop_step

    def _exit_step(self, condition: Condition, next_index: int, up_to_loop: bool) -> Step:
        machine = self

        def exit_step(state: _State) -> int:
            lanes = mask_and(state.active, _condition_lanes(state, condition))
            if lanes is None:
                lanes = np.ones(state.lanes, dtype=bool)
            elif not lanes.any():
                return next_index
            _remove_lanes(state, lanes, up_to_loop)
            return next_index if _any(state.active) else _leave(state, machine.program_end)
        return exit_step

    # -- running --

    def wants_compiled(self, lanes: int, compiled: bool | None) -> bool:
        """Whether a run over ``lanes`` should try the compiled path: ``compiled`` if given, else
        when the work is large enough to repay compiling (:data:`COMPILED_WORK`)."""
        if compiled is not None:
            return compiled
        return lanes >= COMPILED_MINIMUM_LANES and lanes * len(self.steps) >= COMPILED_WORK

    def run(self, inputs: Mapping[str, np.ndarray], *, grid: tuple[int, int] | None = None,
            textures: Mapping[int, Texture] = {}, output_from_h0: bool = False,
            budget: RunBudget | int | None = None, compiled: bool | None = None) -> FragmentResult:
        """Run the program once per lane (see :func:`run_fragment_program`).

        ``compiled``: True runs the generated kernels of :mod:`.fragment_compiled` where they
        cover the program (else this interpreter, transparently), False always interprets, None
        (default) compiles when the run is big enough to repay it (:meth:`wants_compiled`).
        Both give the same bits (tests/isa/rsx/test_rsx_fragment_compiled.py).
        """
        if self.wants_compiled(_lane_count(inputs, grid), compiled):
            from .fragment_compiled import run_lanes
            budget = as_budget(budget)
            result = run_lanes(self, inputs, grid=grid, textures=textures, output_from_h0=output_from_h0,
                               budget=budget)
            if result is not None:
                return result
        return self.interpret(inputs, grid=grid, textures=textures, output_from_h0=output_from_h0, budget=budget)

    def interpret(self, inputs: Mapping[str, np.ndarray], *, grid: tuple[int, int] | None = None,
                  textures: Mapping[int, Texture] = {}, output_from_h0: bool = False,
                  budget: RunBudget | int | None = None) -> FragmentResult:
        """Run the program with this step-list interpreter, the reference for the compiled path."""
        lanes, grid = _lane_layout(inputs, grid)
        state = _State(lanes, len(self.register_rows), _input_table(inputs, lanes, self.inputs_read),
                       self.uses_cc, grid, textures)
        budget = as_budget(budget)
        started, deadline = budget.start()
        steps, total = self.steps, len(self.steps)
        index = 0
        # Every step computes all lanes (masked ones too), so each costs `lanes` of the budget.
        remaining = budget.remaining
        try:
            with np.errstate(all="ignore"):
                while index < total:
                    remaining -= lanes
                    if remaining < 0 or (deadline is not None and time.monotonic() > deadline):
                        raise budget.stop(ProgramKind.FRAGMENT, self.step_slots[index], remaining)
                    index = steps[index](state)
        finally:
            budget.finish(started, remaining)
        return self._result(state, output_from_h0)

    def _result(self, state: _State, output_from_h0: bool) -> FragmentResult:
        # Exports are transposed views of the register storage (no copy); registers the program
        # never touches export zeros.
        def export(index: int) -> np.ndarray:
            row = self.register_rows.get(index)
            if row is None:
                return np.zeros((state.lanes, 4), dtype=F32)
            register = state.registers[row]
            return (halfs.unpack_register(register, 2 * index) if output_from_h0 else register).T

        depth_row = self.register_rows.get(DEPTH_REGISTER)
        return FragmentResult(
            color=export(0),
            killed=state.killed,
            depth=np.zeros(state.lanes, dtype=F32) if depth_row is None else state.registers[depth_row, 2],
            mrt=tuple(export(index) for index in MRT_REGISTERS),
        )


def _inputs_read(program: Program) -> set[int]:
    """Indexes of the inputs a program may read (every texcoord if it indexes them)."""
    read = set()
    for instruction in program.instructions:
        view = instruction.view
        if any(source.file == "f" for source in view.sources):
            if view.indexed_input:
                read.update(range(_FIRST_TEXCOORD, _LAST_TEXCOORD + 1))
            read.add(view.input)
    return read


def _uses_cc(view: FragmentView) -> bool:
    if view.opcode is None:
        return False
    if view.set_cc or view.opcode.name == "KIL":
        return True
    return not view.condition.always


def _lane_count(inputs: Mapping[str, np.ndarray], grid) -> int:
    """The number of lanes of a run, 0 when the inputs do not tell (the interpreter reports it)."""
    try:
        return _lane_layout(inputs, grid)[0]
    except InputError:
        return 0


def _lane_layout(inputs: Mapping[str, np.ndarray], grid) -> tuple[int, tuple[int, int] | None]:
    if grid is not None:
        try:
            height, width = (int(size) for size in grid)
        except (TypeError, ValueError):
            raise InputError("grid must be (height, width)") from None
        if height < 1 or width < 1:
            raise InputError(f"grid {height} x {width} has no lanes")
        grid = (height, width)
    counts = {np.shape(value)[0] for value in inputs.values() if np.ndim(value) == 2}
    if grid is not None:
        counts.add(grid[0] * grid[1])
    if len(counts) != 1:
        raise InputError("cannot tell the number of lanes: inputs and grid disagree or are missing"
                         if counts else "cannot tell the number of lanes: give inputs or a grid")
    return counts.pop(), grid


def _input_table(inputs: Mapping[str, np.ndarray], lanes: int, needed: set[int]) -> list[np.ndarray]:
    """Inputs by index as (4, n) arrays, or (4, 1) columns for constants; every input is checked,
    only the ``needed`` ones are converted."""
    table = [np.zeros((4, 1), dtype=F32) for _ in FP_INPUTS]
    for name, value in inputs.items():
        if name not in _INPUT_INDEX:
            raise InputError(f"unknown fragment input {name!r} (expected one of {', '.join(FP_INPUTS)})")
        try:
            array = np.asarray(value, dtype=F32)
        except (TypeError, ValueError):
            raise InputError(f"fragment input {name} is not numeric") from None
        index = _INPUT_INDEX[name]
        if array.shape not in ((4,), (lanes, 4)):
            raise InputError(f"fragment input {name} has shape {array.shape}, expected ({lanes}, 4)")
        if index not in needed:
            continue
        if array.shape == (4,):
            column = array.reshape(4, 1)
        else:
            # A broadcast constant (stride 0 between lanes) stays one column.
            column = array[:1].T.copy() if array.strides[0] == 0 else np.ascontiguousarray(array.T)
        table[index] = np.clip(column, F32(0.0), F32(1.0)) if index in _CLAMPED_INPUTS else column
    return table
