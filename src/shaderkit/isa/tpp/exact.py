"""The exact cycle model of the Tiny Pixel Processor (spec ``tpp.md`` 7.2).

This module owns the clock-by-clock emulation of the TPP: the 2-stage pipeline, run
flag, PC, the hardware updates of RX/RY/RT/RR, the VGA counters and the sampling of
frames at the points the golden captures use. It also owns the reset programs of both
revisions and a simulation of the golden "upload" procedure (UART bytes arriving with
the upstream cocotb bit timing while the reset program runs).

What instructions compute is not decided here: the ALU, LUT, COMP and ROM results come
from :func:`shaderkit.isa.tpp.semantics.result_tables`, and which opcodes a revision
decodes from :func:`shaderkit.isa.tpp.opcodes.hardware_mnemonic`.

Design: every program slot is decoded once, outside the clock loop, into one row of
small integers (table, two operand sources, destination, condition, ROM flag). The
compiled kernel keeps the machine in local scalars plus one small "value" vector that
holds the registers, flag, ODR, a write sink and the 64 constants an immediate can
name, so every instruction executes as ``dest ← table[source1, source2]`` without
any branching on the opcode.

The control rules (which row executes, the RX/RY/RT/RR updates, PC, pipeline, VGA
counters, sampling) are small functions of the control state alone. The clock model
applies them clock by clock; :mod:`.line_kernel` runs the same functions in Python to lay
out a steady line and generates a per-program kernel from it, which
``ExactMachine(line_kernel=True)`` uses for long requests.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.core.jit import jit

from .opcodes import REVISIONS, hardware_mnemonic
from .semantics import ROM_MNEMONICS, TARGET, Flag, Target, lfsr_step, result_tables

__all__ = [
    "CLOCKS_PER_FRAME",
    "CLOCKS_PER_LINE",
    "ExactMachine",
    "OUT_R0",
    "RESET_PROGRAMS",
    "SLOT_COUNT",
    "UartEffect",
    "first_frame_with_rt",
    "rt_of_frame",
    "render_frames",
    "render_uploaded_frames",
    "upload_capture_frame",
    "upload_schedule",
]

# --- machine geometry (spec 1, 7.2, 8) ----------------------------------------------
SLOT_COUNT = 20
WRITABLE_SLOTS = 19  # spec 6: the RTL writes only addresses < 19
OUT_R0 = 0x6003  # slot 19, fixed in hardware on both revisions
LINE_PIXELS = 800
FRAME_LINES = 525
VISIBLE_WIDTH = 640
VISIBLE_HEIGHT = 480
CLOCKS_PER_LINE = 2 * LINE_PIXELS
CLOCKS_PER_FRAME = CLOCKS_PER_LINE * FRAME_LINES  # 840 000
RESET_DIVISOR = 5
ROM_ROWS = 48
# Requests shorter than this run on the clock model even when the line kernel is on.
LINE_KERNEL_MIN_CLOCKS = CLOCKS_PER_FRAME


def _word(op: int, a: int = 0, b: int = 0, imm: int = 0, cond: int = 3) -> int:
    """Encode one instruction (spec 2): OOOOO AAA BBB/IIIIII CC; imm overlaps b."""
    return (op << 11) | (a << 8) | (b << 5) | (imm << 2) | cond


def _reset_program(head: Sequence[int]) -> tuple[int, ...]:
    padding = (0x0000,) * (WRITABLE_SLOTS - len(head))
    return (*head, *padding, OUT_R0)


# Spec 6 / README: instruction memory contents at reset. RX=4, RY=5, RT=6, RR=7.
RESET_PROGRAMS: dict[str, tuple[int, ...]] = {
    "A": _reset_program([_word(2, a=0, b=7)]),  # MOV R0 RR
    "B": _reset_program([
        _word(20, a=0),  # TT R0
        _word(1, a=1, imm=63),  # SET R1 #63
        _word(17, a=1, b=0),  # COMP R1 R0
        _word(3, a=0, b=6, cond=Flag.EQ),  # ADDEQ R0 RT
        _word(3, a=0, b=4, cond=Flag.EQ),  # ADDEQ R0 RX
        _word(3, a=0, b=5, cond=Flag.EQ),  # ADDEQ R0 RY
    ]),
}

# --- the value vector the kernel executes on -------------------------------------------
# Indices 0–7 are R0–R7; an instruction names its operands and destination by index.
REG_RX, REG_RY, REG_RT, REG_RR = 4, 5, 6, 7
VALUE_FLAG = 8
VALUE_ODR = 9
VALUE_SINK = 10  # destination of instructions that write nothing
VALUE_CONSTANTS = 11  # VALUE_CONSTANTS + i holds the constant i (immediates)
VALUE_COUNT = VALUE_CONSTANTS + 64

# --- prepared program rows --------------------------------------------------------------
FIELD_TABLE, FIELD_SOURCE1, FIELD_SOURCE2, FIELD_DEST, FIELD_COND, FIELD_ROM = range(6)
FIELD_COUNT = 6
# Rows 0–19 are the slots. The pipeline registers hold row numbers, so an instruction
# already fetched must keep its old decoding when its slot is rewritten: rows 20 and 21
# hold such in-flight copies, row 22 the NOP both pipeline registers contain at reset.
SHADOW_ROWS = (20, 21)
RESET_NOP_ROW = 22
PROGRAM_ROWS = 23

# Mnemonics whose table is indexed [a, imm] rather than [a, b] (see result_tables).
IMMEDIATE_MNEMONICS = frozenset({"SET", "SL", "SR"})
TABLE_NAMES: tuple[str, ...] = tuple(result_tables())
TABLE_INDEX = {name: index for index, name in enumerate(TABLE_NAMES)}

# --- kernel state vector ---------------------------------------------------------------
(S_PC, S_IR, S_DR, S_RUN, S_TIME_COUNTER, S_DIVISOR, S_LINE_COUNTER,
 S_PIXEL_X, S_PIXEL_Y, S_STROBE, S_ROM_OUT_OF_RANGE) = range(11)
STATE_COUNT = 11


def _stacked_tables() -> np.ndarray:
    """All result tables in one flat array; table t, inputs (p, q) at t*4096 + p*64 + q."""
    return np.ascontiguousarray(np.stack([result_tables()[name] for name in TABLE_NAMES]).reshape(-1))


_TABLES = _stacked_tables()
_LFSR_STEP = np.array([lfsr_step(value) for value in range(64)], dtype=np.int64)


def decode_slot(word: int, rev: str) -> np.ndarray:
    """One prepared program row for ``word`` on revision ``rev`` (see FIELD_*)."""
    op, a, b = word >> 11, (word >> 8) & 7, (word >> 5) & 7
    imm, cond = (word >> 2) & 63, word & 3
    mnemonic = hardware_mnemonic(op, rev)  # undecoded opcodes (14, 24–31, rev A 18–23) → NOP
    target = TARGET[mnemonic]
    is_rom = 0
    if target == Target.NOTHING:
        table, source1, source2, dest = TABLE_INDEX["MOV"], VALUE_CONSTANTS, VALUE_CONSTANTS, VALUE_SINK
    elif target == Target.OUTPUT:
        # MOV's table is [a, b] → b, i.e. ODR ← the OUT register. Spec 10: rev A reads
        # the register from bits 10–8, rev B from bits 7–5.
        register = a if rev == "A" else b
        table, source1, source2, dest = TABLE_INDEX["MOV"], VALUE_CONSTANTS, register, VALUE_ODR
    elif target == Target.FLAG:
        table, source1, source2, dest = TABLE_INDEX[mnemonic], a, b, VALUE_FLAG
    elif mnemonic in ROM_MNEMONICS:
        # ROM tables are [RY, RX], addressed by the live registers (spec 4.3, 11).
        table, source1, source2, dest = TABLE_INDEX[mnemonic], REG_RY, REG_RX, a
        is_rom = 1
    elif mnemonic in IMMEDIATE_MNEMONICS:
        table, source1, source2, dest = TABLE_INDEX[mnemonic], a, VALUE_CONSTANTS + imm, a
    else:
        table, source1, source2, dest = TABLE_INDEX[mnemonic], a, b, a
    row = np.empty(FIELD_COUNT, dtype=np.int64)
    row[FIELD_TABLE] = table * 4096
    row[FIELD_SOURCE1] = source1
    row[FIELD_SOURCE2] = source2
    row[FIELD_DEST] = dest
    row[FIELD_COND] = cond
    row[FIELD_ROM] = is_rom
    return row


# --- the control rules (7.2 rules 2-9), shared by the clock model and the line kernel -----
# What a clock does to RX and RR besides the ALU write (rules 4 and 7).
RX_KEEP, RX_STEP, RX_CLEAR = 0, 1, 2
RR_KEEP, RR_STEP, RR_RESEED = 0, 1, 2


# Each rule is a function of the control state before the clock; the clock model calls
# them where it applies them, the line kernel's generator through control_step.
@jit(inline="always")
def rx_rule(pc, run):
    """Rule 4: RX counts runs; it is held at 0 while the CPU idles."""
    if run != 0:
        return RX_STEP if pc == 19 else RX_KEEP
    return RX_CLEAR


@jit(inline="always")
def ry_ticks(run, px, py, strobe):
    """Rule 5: the 0-9 line counter steps at PixelX 780 of visible lines."""
    return run == 0 and px == 780 and strobe == 1 and py < VISIBLE_HEIGHT


@jit(inline="always")
def rt_ticks(px, py):
    """Rule 6 (5.2): true on both clocks of PixelX 0 of line 524 -> two steps per frame."""
    return px == 0 and py == FRAME_LINES - 1


@jit(inline="always")
def rr_rule(pc, px):
    """Rule 7 (5.3): the end of a run steps RR; the pre-roll run re-seeds it."""
    if pc == 19:
        return RR_RESEED if px > VISIBLE_WIDTH else RR_STEP
    return RR_KEEP


@jit(inline="always")
def rx_update(rule, rx):
    """RX after rule 4's update ``rule`` (RX_STEP or RX_CLEAR) from RX before the clock."""
    return (rx + 1) & 63 if rule == RX_STEP else 0


@jit(inline="always")
def rr_update(rule, rr, ry, lfsr_step_table):
    """RR after rule 7's update ``rule`` (RR_STEP or RR_RESEED) from RR and RY before the clock."""
    return lfsr_step_table[(ry + 1) & 63] if rule == RR_RESEED else lfsr_step_table[rr]


@jit(inline="always")
def next_control(pc, ir, run, px, py, strobe):
    """Rules 2, 3, 8, 9 and the sampling point: ``(pc, ir, dr, run, px, py, strobe, sample)``
    after the clock, ``sample`` saying the counters then read a visible pixel (7.2)."""
    # Rule 8: two-stage pipeline; the slot read now executes two clocks later.
    next_dr = ir
    next_ir = pc
    # Rule 3: PC (uses the old run flag); rule 2: run flag from the old PixelX.
    if run != 0:
        next_pc = 0 if pc == 19 else pc + 1
    else:
        next_pc = 0
    next_run = 1 if (px > 788 or px < VISIBLE_WIDTH) else 0
    # Rule 9: VGA counters; PixelX advances on the clocks where strobe was 1.
    next_px, next_py = px, py
    if strobe == 1:
        next_px = px + 1
        if next_px == LINE_PIXELS:
            next_px = 0
            next_py = py + 1
            if next_py == FRAME_LINES:
                next_py = 0
    next_strobe = strobe ^ 1
    # Sampling (7.2): after the update the counters read (x, y) with strobe = 1.
    sample = next_strobe == 1 and next_px < VISIBLE_WIDTH and next_py < VISIBLE_HEIGHT
    return next_pc, next_ir, next_dr, next_run, next_px, next_py, next_strobe, sample


def control_step(pc, ir, dr, run, px, py, strobe):
    """One clock of everything that does not depend on data, from the same rule functions
    the clock model applies: ``(executes_row, rx_rule, ry_tick, rt_tick, rr_rule, sample,
    pc, ir, dr, run, px, py, strobe)``, where ``executes_row`` is the decode register
    (rule 1) and the last seven are the control state after the clock. The line kernel's
    generator (:mod:`.line_kernel`) runs it in Python to lay out a steady line.
    """
    (next_pc, next_ir, next_dr, next_run, next_px, next_py, next_strobe,
     sample) = next_control.py_func(pc, ir, run, px, py, strobe)
    return (dr, rx_rule.py_func(pc, run), ry_ticks.py_func(run, px, py, strobe), rt_ticks.py_func(px, py),
            rr_rule.py_func(pc, px), sample, next_pc, next_ir, next_dr, next_run, next_px, next_py, next_strobe)


@jit(inline="always")
def ry_step(ry):
    """Rule 5's row step: RY wraps from 47 to 0, otherwise counts (6-bit)."""
    return 0 if ry == 47 else (ry + 1) & 63


@jit
def _run_clocks(clocks, state, values, program, tables, lfsr_step_table, frame):
    """Perform ``clocks`` state updates (spec 7.2 rules 1-9), sampling pixels into ``frame``.

    ``state`` (S_*), ``values`` (registers, flag, ODR, constants) and ``program``
    (prepared rows) are updated in place; all other state lives in locals meanwhile.
    The control rules are the functions above (:func:`control_step` puts them together);
    each is called where its effect is applied, which keeps few values live at once.
    """
    pc = state[S_PC]
    ir = state[S_IR]
    dr = state[S_DR]
    run = state[S_RUN]
    time_counter = state[S_TIME_COUNTER]
    divisor = state[S_DIVISOR]
    line_counter = state[S_LINE_COUNTER]
    px = state[S_PIXEL_X]
    py = state[S_PIXEL_Y]
    strobe = state[S_STROBE]
    rom_out_of_range = state[S_ROM_OUT_OF_RANGE]

    for _ in range(clocks):
        # Every right-hand side below uses the values before the clock (7.2).
        old_rx = values[REG_RX]
        old_ry = values[REG_RY]
        old_rt = values[REG_RT]
        old_rr = values[REG_RR]

        # Rule 1: execute the decode register if COND = 11 or COND = flag.
        cond = program[dr, FIELD_COND]
        executes = cond == 3 or cond == values[VALUE_FLAG]
        result = tables[program[dr, FIELD_TABLE]
                        + values[program[dr, FIELD_SOURCE1]] * 64
                        + values[program[dr, FIELD_SOURCE2]]]
        if executes:
            if program[dr, FIELD_ROM] != 0 and old_ry >= ROM_ROWS:
                rom_out_of_range += 1  # spec 4.3: outside the 48-row ROM
            values[program[dr, FIELD_DEST]] = result

        # Rules 4-7 come after the ALU write: a hardware update wins (spec 4.3).
        rule = rx_rule(pc, run)
        if rule != RX_KEEP:
            values[REG_RX] = rx_update(rule, old_rx)
        if ry_ticks(run, px, py, strobe):
            if line_counter == 9:
                line_counter = 0
                values[REG_RY] = ry_step(old_ry)
            else:
                line_counter += 1
        if rt_ticks(px, py):
            if time_counter == divisor:
                time_counter = 0
                values[REG_RT] = (old_rt + 1) & 63
            else:
                time_counter = (time_counter + 1) & 63
        rule = rr_rule(pc, px)
        if rule != RR_KEEP:
            values[REG_RR] = rr_update(rule, old_rr, old_ry, lfsr_step_table)

        pc, ir, dr, run, px, py, strobe, sample = next_control(pc, ir, run, px, py, strobe)
        if sample:
            frame[py, px] = values[VALUE_ODR]

    state[S_PC] = pc
    state[S_IR] = ir
    state[S_DR] = dr
    state[S_RUN] = run
    state[S_TIME_COUNTER] = time_counter
    state[S_LINE_COUNTER] = line_counter
    state[S_PIXEL_X] = px
    state[S_PIXEL_Y] = py
    state[S_STROBE] = strobe
    state[S_ROM_OUT_OF_RANGE] = rom_out_of_range


def _check_revision(rev: str) -> str:
    if rev not in REVISIONS:
        raise InputError(f"unknown TPP revision {rev!r} (expected one of {', '.join(REVISIONS)})")
    return rev


def _check_divisor(n: int) -> int:
    if not 0 <= int(n) <= 63:
        raise InputError(f"TPP time divisor must be 0–63, got {n}")
    return int(n)


def _image_words(image) -> list[int]:
    words = [int(word) for word in np.asarray(image).reshape(-1)]
    if len(words) not in (WRITABLE_SLOTS, SLOT_COUNT):
        raise InputError(f"a TPP program image has 19 or 20 words, got {len(words)}")
    for word in words:
        if not 0 <= word <= 0xFFFF:
            raise InputError(f"TPP instruction word out of range: {word}")
    # Spec 6: slot 19 is OUT R0 in hardware whatever the image says.
    return words[:WRITABLE_SLOTS] + [OUT_R0]


class ExactMachine:
    """One TPP, clock-exact, starting at the reset state with ``image`` as the preload.

    ``image`` is the instruction memory's reset contents (19 or 20 words; slot 19 is
    always ``OUT R0``). ``divisor`` is the time divisor N at reset (rev B only; rev A
    has the constant 5).
    """

    def __init__(self, image, rev: str = "B", divisor: int = RESET_DIVISOR, line_kernel: bool = False):
        self.rev = _check_revision(rev)
        if self.rev == "A" and divisor != RESET_DIVISOR:
            raise InputError("rev A has a fixed time divisor of 5")
        self._words = _image_words(image)
        self._program = np.empty((PROGRAM_ROWS, FIELD_COUNT), dtype=np.int64)
        for slot, word in enumerate(self._words):
            self._program[slot] = decode_slot(word, self.rev)
        for row in (*SHADOW_ROWS, RESET_NOP_ROW):
            self._program[row] = decode_slot(0x0003, self.rev)
        # The word each prepared row was decoded from (for snapshots).
        self._row_words = [*self._words, 0x0003, 0x0003, 0x0003]
        # Reset state (7.2): R0–R7 = 0, flag = 11, ODR = 0.
        self._values = np.zeros(VALUE_COUNT, dtype=np.int64)
        self._values[VALUE_FLAG] = Flag.ALWAYS
        self._values[VALUE_CONSTANTS:] = np.arange(64)
        # PC = 0, both pipeline registers NOP, run = 0, counters 0, N = divisor.
        self._state = np.zeros(STATE_COUNT, dtype=np.int64)
        self._state[S_IR] = RESET_NOP_ROW
        self._state[S_DR] = RESET_NOP_ROW
        self._state[S_DIVISOR] = _check_divisor(divisor)
        # The frame, and a scratch row after it where the line kernel samples invisible lines.
        self._rows = np.zeros((VISIBLE_HEIGHT + 1, VISIBLE_WIDTH), dtype=np.uint8)
        self._frame = self._rows[:VISIBLE_HEIGHT]
        self.clock = 0  # state updates performed since reset (update n is the n-th)
        # The compiled steady-line path (:mod:`.line_kernel`): built for the current program
        # on the first request of at least line_kernel_min_clocks, dropped by write_slot.
        self.uses_line_kernel = line_kernel
        self.line_kernel_min_clocks = LINE_KERNEL_MIN_CLOCKS
        self._line_kernel = None
        self._rgb = None  # run_frame_rgb's buffer

    # --- observation ---------------------------------------------------------------------
    @property
    def frame_index(self) -> int:
        """The frame the next :meth:`run_frame` produces (0 = the frame starting at reset)."""
        return self.clock // CLOCKS_PER_FRAME

    @property
    def rt(self) -> int:
        """RT now; at a frame boundary that is RT during the next frame (it changes on line 524)."""
        return int(self._values[REG_RT])

    @property
    def divisor(self) -> int:
        return int(self._state[S_DIVISOR])

    @property
    def rom_out_of_range_reads(self) -> int:
        """How many executed ROM ops addressed a row RY > 47 (undefined in the RTL)."""
        return int(self._state[S_ROM_OUT_OF_RANGE])

    @property
    def words(self) -> tuple[int, ...]:
        """The current instruction memory (20 words)."""
        return tuple(self._words)

    def snapshot(self) -> dict:
        """Every piece of machine state, for debugging and cross-checking."""
        state, values = self._state, self._values
        return {
            "clock": self.clock,
            "registers": [int(v) for v in values[:8]],
            "flag": int(values[VALUE_FLAG]),
            "odr": int(values[VALUE_ODR]),
            "pc": int(state[S_PC]),
            "instruction_register": self._row_words[int(state[S_IR])],
            "decode_register": self._row_words[int(state[S_DR])],
            "run": int(state[S_RUN]),
            "time_counter": int(state[S_TIME_COUNTER]),
            "divisor": int(state[S_DIVISOR]),
            "line_counter": int(state[S_LINE_COUNTER]),
            "pixel_x": int(state[S_PIXEL_X]),
            "pixel_y": int(state[S_PIXEL_Y]),
            "strobe": int(state[S_STROBE]),
        }

    # --- running -------------------------------------------------------------------------
    def run_clocks(self, clocks: int) -> None:
        """Perform ``clocks`` state updates; pixels they pass are kept for :meth:`run_frame`."""
        if clocks < 0:
            raise ValueError("cannot run a negative number of clocks")
        if self.uses_line_kernel and clocks >= self.line_kernel_min_clocks:
            self.line_kernel().run_clocks(clocks, self._state, self._values, self._program, _TABLES, _LFSR_STEP,
                                          self._rows)
        else:
            _run_clocks(clocks, self._state, self._values, self._program, _TABLES, _LFSR_STEP, self._frame)
        self.clock += clocks

    def use_line_kernel(self, enabled: bool = True) -> None:
        """Run requests of at least :attr:`line_kernel_min_clocks` on the compiled steady-line
        path (same results; it pays on long runs, and costs a compile per program)."""
        self.uses_line_kernel = enabled

    def line_kernel(self):
        """The compiled steady-line kernel of the current program (built now if needed)."""
        if self._line_kernel is None:
            from .line_kernel import kernel_for  # imported late: it imports this module
            self._line_kernel = kernel_for(self._program[:SLOT_COUNT])
        return self._line_kernel

    def run_until(self, update: int) -> None:
        """Run until update number ``update`` has been performed (no-op if already past)."""
        if update > self.clock:
            self.run_clocks(update - self.clock)

    def run_frame(self) -> np.ndarray:
        """Finish frame :attr:`frame_index` and return its (480, 640) uint8 6-bit colours.

        Pixel (x, y) of frame k is ODR after update 840000k + 1600y + 2x + 1 (7.2).
        """
        self.run_until((self.frame_index + 1) * CLOCKS_PER_FRAME)
        return self._frame.copy()

    def run_frame_rgb(self) -> np.ndarray:
        """:meth:`run_frame` as (480, 640, 3) uint8 RGB (each 2-bit channel c as 85·c).
        Returns an internal buffer, overwritten by the next call."""
        from .rgb import colours_to_rgb  # imported late: the converter is compiled on first use
        self.run_until((self.frame_index + 1) * CLOCKS_PER_FRAME)
        if self._rgb is None:
            self._rgb = np.empty((VISIBLE_HEIGHT, VISIBLE_WIDTH, 3), dtype=np.uint8)
        return colours_to_rgb(self._frame, self._rgb)

    def periodic_state(self) -> bytes:
        """At a frame boundary, everything that decides the frames to come.

        Two boundaries with equal keys start identical futures, so the frames between them
        repeat for ever (every example repeats with RT, every 192 frames at N = 5). The
        count of out-of-range ROM reads is a diagnostic, not state, and is left out.
        """
        state = self._state.copy()
        state[S_ROM_OUT_OF_RANGE] = 0
        return state.tobytes() + self._values.tobytes()

    def skip_frames(self, count: int) -> None:
        """Advance ``count`` frames without running them: only right when ``count`` is a
        multiple of a period found with :meth:`periodic_state` (the state is then unchanged)."""
        if count < 0:
            raise ValueError("cannot skip a negative number of frames")
        self.clock += count * CLOCKS_PER_FRAME

    # --- external inputs -----------------------------------------------------------------
    def write_slot(self, slot: int, word: int) -> None:
        """A UART program write, effective for the next fetch; slots >= 19 are ignored (spec 6)."""
        if not 0 <= slot <= 31:
            raise InputError(f"a UART write addresses slot 0–31, got {slot}")
        if not 0 <= word <= 0xFFFF:
            raise InputError(f"TPP instruction word out of range: {word}")
        if slot >= WRITABLE_SLOTS:
            return
        self._keep_in_flight_copy(slot)
        self._line_kernel = None  # generated for the old program
        self._words[slot] = word
        self._row_words[slot] = word
        self._program[slot] = decode_slot(word, self.rev)

    def _keep_in_flight_copy(self, slot: int) -> None:
        """Point pipeline registers holding ``slot`` at a copy of its old decoding."""
        holders = [index for index in (S_IR, S_DR) if self._state[index] == slot]
        if not holders:
            return
        in_use = {int(self._state[S_IR]), int(self._state[S_DR])}
        shadow = next(row for row in SHADOW_ROWS if row not in in_use)
        self._program[shadow] = self._program[slot]
        self._row_words[shadow] = self._row_words[slot]
        for index in holders:
            self._state[index] = shadow

    def set_divisor(self, n: int) -> None:
        """UART byte 0x40 | N (rev B): N changes at once, the counter is kept. Rev A: ignored."""
        n = _check_divisor(n)
        if self.rev == "B":
            self._state[S_DIVISOR] = n


def render_frames(image, frames: Iterable[int], rev: str = "B",
                  divisor: int = RESET_DIVISOR) -> Iterator[tuple[int, np.ndarray]]:
    """Run ``image`` from reset and yield ``(k, frame)`` for each requested frame number, ascending."""
    machine = ExactMachine(image, rev=rev, divisor=divisor)
    for k in sorted(set(frames)):
        if k < 0:
            raise InputError(f"frame numbers count from 0, got {k}")
        while machine.frame_index < k:
            machine.run_frame()
        yield k, machine.run_frame()


def rt_of_frame(frame: int, divisor: int = RESET_DIVISOR) -> int:
    """RT during frame ``frame`` after reset with divisor N fixed: floor(2k/(N+1)) mod 64 (5.2)."""
    return (2 * frame // (divisor + 1)) % 64


def first_frame_with_rt(rt: int, divisor: int = RESET_DIVISOR, earliest: int = 0) -> int:
    """The first frame k >= ``earliest`` (counted from reset) during which RT = ``rt``."""
    divisor = _check_divisor(divisor)
    for k in range(earliest, earliest + 64 * (divisor + 1) + 1):  # one whole RT period
        if rt_of_frame(k, divisor) == rt:
            return k
    raise InputError(f"RT never equals {rt} with divisor {divisor}")


# --- the golden "upload" procedure ------------------------------------------------------
# README "How the frames were captured": 20 ns clock; rst_n rises right after edge 0;
# update n happens at rising edge n + 1; bytes start after 5 more edges, each 11 bit
# times of 104 166 ns (idle, start, 8 data bits LSB first, stop).
CLOCK_NS = 20
UART_BIT_NS = 104_166
UART_BITS_PER_BYTE = 11
UART_START_EDGE = 5
# Spec 9: the receiver counts 5244 clocks per bit, behind a 2-flip-flop synchroniser.
RECEIVER_CLOCKS_PER_BIT = 5244
SYNCHRONISER_CLOCKS = 2
# Spec 9 says the write happens "a few clocks after the third byte"; we pick 2.
WRITE_LATENCY_CLOCKS = 2
VSYNC_RISE_LINE = 492  # VSYNC is low on lines 490–491 (7.2)


class UartEffect(NamedTuple):
    """What a received command does, applied right after update ``after_update``."""

    after_update: int
    action: str  # "write" (slot, word) or "divisor" (value = N)
    slot: int
    value: int


def _byte_received_update(byte_index: int) -> int:
    """Update number after which byte ``byte_index`` of a back-to-back stream is accepted.

    The start bit falls at T0 + (11i + 1)·bit; the first rising edge after that samples
    it, the synchroniser delays it by 2 clocks, and the byte is complete when the
    receiver samples the middle of the stop bit, 9.5 receiver bit times later.
    """
    start_ns = UART_START_EDGE * CLOCK_NS + (UART_BITS_PER_BYTE * byte_index + 1) * UART_BIT_NS
    first_low_edge = start_ns // CLOCK_NS + 1
    stop_sample_edge = first_low_edge + SYNCHRONISER_CLOCKS + (19 * RECEIVER_CLOCKS_PER_BIT) // 2
    return stop_sample_edge - 1  # update n happens at edge n + 1


def upload_schedule(uart_bytes: Iterable[int], rev: str = "B") -> list[UartEffect]:
    """The effects of a back-to-back UART stream sent with the golden (cocotb) timing.

    Runs the spec-9 command interpreter: 0x80–0xBF + hi + lo writes slot (byte & 31)
    (dropped if >= 19); 0xC0–0xFF + 2 bytes writes on rev A, is consumed on rev B;
    0x40 | N sets the divisor on rev B; everything else is ignored. A write lands
    WRITE_LATENCY_CLOCKS after the third byte is accepted.
    """
    _check_revision(rev)
    effects: list[UartEffect] = []
    pending: list[int] = []  # the command byte and data bytes of an unfinished write
    for index, byte in enumerate(uart_bytes):
        if not 0 <= byte <= 0xFF:
            raise InputError(f"UART byte out of range: {byte}")
        received = _byte_received_update(index)
        if pending:
            pending.append(byte)
            if len(pending) == 3:
                command, high, low = pending
                pending = []
                slot = command & 31
                writes = command < 0xC0 or rev == "A"
                if writes and slot < WRITABLE_SLOTS:
                    effects.append(UartEffect(received + WRITE_LATENCY_CLOCKS, "write", slot, (high << 8) | low))
        elif byte >= 0x80:
            pending = [byte]
        elif byte >= 0x40 and rev == "B":
            effects.append(UartEffect(received + WRITE_LATENCY_CLOCKS, "divisor", 0, byte & 63))
    return effects


def upload_capture_frame(byte_count: int) -> int:
    """The frame the cocotb capture records after a ``byte_count``-byte upload.

    It waits for the end of the last stop bit, then for a rising edge of VSYNC (line
    492 of some frame f) and captures the next complete frame, f + 1.
    """
    end_ns = UART_START_EDGE * CLOCK_NS + UART_BITS_PER_BYTE * byte_count * UART_BIT_NS
    end_update = -(-end_ns // CLOCK_NS)
    frame = end_update // CLOCKS_PER_FRAME
    if end_update > frame * CLOCKS_PER_FRAME + VSYNC_RISE_LINE * CLOCKS_PER_LINE:
        frame += 1
    return frame + 1


def render_uploaded_frames(uart_bytes: Sequence[int], frames: Iterable[int],
                           rev: str = "B") -> Iterator[tuple[int, np.ndarray]]:
    """Reset with the revision's own program, send ``uart_bytes``, yield the requested frames."""
    machine = ExactMachine(RESET_PROGRAMS[_check_revision(rev)], rev=rev)
    effects = upload_schedule(uart_bytes, rev)
    for k in sorted(set(frames)):
        receive(machine, effects, (k + 1) * CLOCKS_PER_FRAME)
        while machine.frame_index < k:
            machine.run_frame()
        yield k, machine.run_frame()


def receive(machine: ExactMachine, effects: list[UartEffect], update: int) -> None:
    """Apply, each at its clock, the effects in ``effects`` that land by update ``update``
    (removing them from the list)."""
    while effects and effects[0].after_update <= update:
        effect = effects.pop(0)
        machine.run_until(effect.after_update)
        if effect.action == "write":
            machine.write_slot(effect.slot, effect.value)
        else:
            machine.set_divisor(effect.value)
