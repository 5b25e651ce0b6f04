"""The exact model's fast path: a kernel generated per program for the steady scan line.

In the steady state every scan line starts with the same control state (PC, pipeline,
run flag; PixelX = 0, strobe = 0), so the 1 600 clocks of a line always execute the same
slots in the same order, with the same hardware updates and the same sampling points.
Only the data differ. This module lays that sequence out once, by running the clock
model's own control rules (:func:`.exact.control_step`, in Python) over one line, and
writes it out as straight Python code for one program: registers, flag and ODR are
locals, each executed slot is a line of code with its operands, table and destination
filled in, a conditional write is a select on the flag, and a hardware update (RX, RY,
RR) is written where the control rules put it. Stretches that repeat (the 64 visible
runs, the idle clocks that re-execute slot 0) become loops. Numba compiles the source
(:func:`shaderkit.core.jit.compile_source`, cached on disk by content).

The generated driver runs a whole request of clocks: a line that starts in the steady
control state (and is not line 524, where RT steps) runs as one call of the line kernel;
anything else (reset, line 524, a line whose pipeline holds a slot's old decoding after a
write, a partial line) runs on the clock model :func:`.exact._run_clocks`, in the same
compiled loop. The line is generated in two parts, split at the clock where RY may step
(PixelX 780, after the last sample): the head, with every run and every pixel, and the
tail (the RY step, the last idle clocks, the next line's pre-roll run). A head that starts
with the same registers, flag and ODR as the previous steady line's ends as it did, so
its pixels and end state are copied instead of recomputed; only the short tail runs
again. The ten lines of a block row of a well-behaved program cost about one.

:class:`.exact.ExactMachine` uses it only when asked (``line_kernel=True``) and only for
requests of at least a frame; writing a slot drops the kernel (the next long request
builds the new program's).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from shaderkit.core.jit import compile_source

from . import exact
from .codegen import operand, result_expression, write_statement
from .exact import (CLOCKS_PER_LINE, FIELD_COND, FIELD_DEST, FIELD_ROM, FRAME_LINES, REG_RR, REG_RX, REG_RY,
                    ROM_ROWS, RR_KEEP, RX_KEEP, SLOT_COUNT, VALUE_FLAG, VALUE_ODR, VALUE_SINK,
                    VISIBLE_WIDTH, control_step)

__all__ = ["LineKernel", "kernel_for", "kernel_source", "line_schedule", "steady_control"]

# Lines used to derive the schedule of a visible and of an invisible steady line.
VISIBLE_SAMPLE_LINE = 1
INVISIBLE_SAMPLE_LINE = 500
# A stretch of idle clocks shorter than this is written out, not looped.
MIN_LOOP_CLOCKS = 8


class Clock(NamedTuple):
    """What one clock of a steady line does (see :func:`.exact.control_step`)."""

    row: int
    rx_rule: int
    ry_tick: bool
    rr_rule: int
    sample_x: int  # the pixel sampled after the clock, or -1


class Control(NamedTuple):
    pc: int
    ir: int
    dr: int
    run: int


def _step(control: Control, px: int, py: int, strobe: int):
    return control_step(control.pc, control.ir, control.dr, control.run, px, py, strobe)


def _run_line(control: Control, py: int) -> tuple[list[Clock], Control, bool]:
    """The clocks of line ``py`` started at PixelX 0, strobe 0 in ``control``; the control
    state after it; whether RT stepped (line 524 only)."""
    clocks, px, strobe, rt = [], 0, 0, False
    for _ in range(CLOCKS_PER_LINE):
        (row, rx_rule, ry_tick, rt_tick, rr_rule, sample,
         pc, ir, dr, run, next_px, next_py, strobe) = _step(control, px, py, strobe)
        clocks.append(Clock(int(row), int(rx_rule), bool(ry_tick), int(rr_rule), next_px if sample else -1))
        rt = rt or bool(rt_tick)
        control, px = Control(int(pc), int(ir), int(dr), int(run)), next_px
    assert px == 0 and strobe == 0 and next_py == (py + 1) % FRAME_LINES
    return clocks, control, rt


@functools.cache
def steady_control() -> Control:
    """The control state at the start of every line after line 0 of frame 0 (from reset:
    PC 0, both pipeline registers the reset NOP, run 0)."""
    reset = Control(0, exact.RESET_NOP_ROW, exact.RESET_NOP_ROW, 0)
    _, after_line_0, _ = _run_line(reset, 0)
    _, after_line_1, _ = _run_line(after_line_0, 1)
    if after_line_1 != after_line_0:
        raise AssertionError("the control rules have no steady line")  # the derivation below relies on it
    return after_line_0


@functools.cache
def line_schedule() -> tuple[Clock, ...]:
    """The clocks of a steady line. Visible and invisible lines differ only in sampling and
    in the line counter's step (rule 5), so one schedule serves both: ``sample_x`` and
    ``ry_tick`` are those of a visible line, and the kernel is told which kind it runs."""
    start = steady_control()
    visible, end, rt = _run_line(start, VISIBLE_SAMPLE_LINE)
    invisible, invisible_end, invisible_rt = _run_line(start, INVISIBLE_SAMPLE_LINE)
    if end != start or invisible_end != start or rt or invisible_rt:
        raise AssertionError("a steady line does not end where it started")
    for seen, unseen in zip(visible, invisible, strict=True):
        if seen._replace(ry_tick=False, sample_x=-1) != unseen or unseen.ry_tick or unseen.sample_x >= 0:
            raise AssertionError("visible and invisible steady lines differ beyond sampling and rule 5")
    return tuple(visible)


# --- writing the source ------------------------------------------------------------------

def _clock_lines(clock: Clock, rows: np.ndarray, x: str) -> list[str]:
    """The code of one clock; ``x`` is the expression of the sampled pixel's column.

    Order as in the clock model: every right-hand side reads the values before the clock,
    and a hardware update wins over the ALU write to the same register (spec 4.3).
    """
    lines: list[str] = []
    fields = rows[clock.row]
    dest = int(fields[FIELD_DEST])
    hardware = set()
    updates = []
    # The same update functions as the clock model's, with the rule a constant.
    if clock.rx_rule != RX_KEEP:
        updates.append(f"r{REG_RX} = rx_update({clock.rx_rule}, r{REG_RX})")
        hardware.add(REG_RX)
    if clock.rr_rule != RR_KEEP:
        updates.append(f"r{REG_RR} = rr_update({clock.rr_rule}, r{REG_RR}, r{REG_RY}, lfsr)")
        hardware.add(REG_RR)
    if clock.ry_tick:  # only on the lines where the line counter wraps (ry_steps)
        updates.append(f"r{REG_RY} = ry_step(r{REG_RY})")
    cond = int(fields[FIELD_COND])
    executes = "" if cond == 3 else f"flag == {cond}"
    if dest != VALUE_SINK:
        lines.append(f"result = {result_expression(fields)}")
        if fields[FIELD_ROM]:
            out_of_range = f"r{REG_RY} >= {ROM_ROWS}"
            lines.append(f"if {out_of_range}{' and ' + executes if executes else ''}:")
            lines.append("    out_of_range += 1")
    # Hardware updates read the values before the clock: compute them into temporaries.
    temporaries = []
    for update in updates:
        target, expression = update.split(" = ", 1)
        temporaries.append((target, f"new_{target}"))
        lines.append(f"new_{target} = {expression}")
    if dest != VALUE_SINK and dest not in hardware:
        lines.append(write_statement(operand(dest), cond))
    for target, temporary in temporaries:
        lines.append(f"{target} = {temporary} if ry_steps else {target}" if target == f"r{REG_RY}"
                     else f"{target} = {temporary}")
    if clock.sample_x >= 0:
        lines.append(f"row[{x}] = odr")
    return lines


def _chunk(schedule: Sequence[Clock], start: int, period: int) -> tuple:
    """Clocks ``start`` … ``start + period - 1`` with sampled columns relative to the first."""
    base = start // 2
    return tuple(clock._replace(sample_x=clock.sample_x - base if clock.sample_x >= 0 else -1)
                 for clock in schedule[start:start + period])


def _repeats(schedule: Sequence[Clock], start: int, period: int, end: int) -> int:
    """How many times the chunk at ``start`` repeats back to back before ``end`` (1 = only itself)."""
    first = _chunk(schedule, start, period)
    count = 1
    while start + (count + 1) * period <= end and _chunk(schedule, start + count * period, period) == first:
        count += 1
    return count


def _line_body(rows: np.ndarray, schedule: Sequence[Clock], begin: int, end: int) -> list[str]:
    """Clocks ``begin`` to ``end`` of the steady line as code: repeating runs and idle
    stretches as loops, the rest inline."""
    body: list[str] = []
    run_period = SLOT_COUNT  # one run of slots 0-19; PixelX moves 10 in it
    start = begin
    while start < end:
        idle = _repeats(schedule, start, 1, end)
        if idle >= MIN_LOOP_CLOCKS and schedule[start].sample_x < 0:
            body += _idle_loop(schedule[start], rows, idle)
            start += idle
            continue
        runs = _repeats(schedule, start, run_period, end) if start % 2 == 0 else 1
        if runs >= 2:
            body.append(f"for run_index in range({runs}):")
            body.append(f"    column = {start // 2} + {run_period // 2} * run_index")
            for clock in _chunk(schedule, start, run_period):
                body += ["    " + line for line in _clock_lines(clock, rows, f"column + {clock.sample_x}")]
            start += runs * run_period
            continue
        body += _clock_lines(schedule[start], rows, str(schedule[start].sample_x))
        start += 1
    return body


def _idle_loop(clock: Clock, rows: np.ndarray, count: int) -> list[str]:
    """``count`` identical clocks without sampling (the idle CPU re-executing slot 0).

    Every such clock maps the registers, flag and ODR through the same function, so once a
    clock leaves them unchanged the remaining clocks do too; only the count of out-of-range
    ROM reads still grows, by the same amount each clock.
    """
    code = _clock_lines(clock, rows, "")
    names = [name for name in [f"r{index}" for index in range(8)] + ["flag", "odr"]
             if any(line.startswith((f"{name} = ", f"{name} += ")) for line in code)]
    lines = [f"for idle_index in range({count}):"]
    lines += ["    " + name + "_before = " + name for name in names]
    lines.append("    reads_before = out_of_range")
    lines += ["    " + line for line in code]
    changes = " | ".join(f"({name} ^ {name}_before)" for name in names) or "0"
    lines.append(f"    if ({changes}) == 0:")
    lines.append(f"        out_of_range += (out_of_range - reads_before) * ({count - 1} - idle_index)")
    lines.append("        break")
    return lines


KERNEL_TEMPLATE = '''\
\"\"\"Generated by shaderkit.isa.tpp.line_kernel for one program; see that module.\"\"\"
from shaderkit.core.jit import jit
from shaderkit.isa.tpp.exact import _run_clocks, rr_update, rx_update, ry_step


@jit(nogil=True)
def head(r0, r1, r2, r3, r4, r5, r6, r7, flag, odr, row, tables, lfsr):
    \"\"\"The line up to the clock where RY may step: every run and every sample.\"\"\"
    out_of_range = 0
    result = 0
{head}
    return r0, r1, r2, r3, r4, r5, r6, r7, flag, odr, out_of_range


@jit(nogil=True)
def tail(r0, r1, r2, r3, r4, r5, r6, r7, flag, odr, ry_steps, tables, lfsr):
    \"\"\"The rest of the line: the RY step (when ry_steps), idle clocks, the pre-roll run.\"\"\"
    out_of_range = 0
    result = 0
{tail}
    return r0, r1, r2, r3, r4, r5, r6, r7, flag, odr, out_of_range


def run(clocks, state, values, program, tables, lfsr, frame, rows, last, outcome):
    """``rows`` is ``frame`` and one scratch row after it (for invisible lines);
    ``last`` and ``outcome`` hold the remembered head's inputs and results."""
    remaining = clocks
    remembered = False
    last_row = rows[{VISIBLE_HEIGHT}]
    while remaining > 0:
        px = state[{S_PIXEL_X}]
        py = state[{S_PIXEL_Y}]
        position = 2 * px + state[{S_STROBE}]
        steady = (position == 0 and remaining >= {CLOCKS_PER_LINE} and py != {LAST_LINE}
                  and state[{S_PC}] == {pc} and state[{S_IR}] == {ir} and state[{S_DR}] == {dr}
                  and state[{S_RUN}] == {run})
        if not steady:
            count = {CLOCKS_PER_LINE} - position
            if count > remaining:
                count = remaining
            _run_clocks(count, state, values, program, tables, lfsr, frame)
            remaining -= count
            remembered = False
            continue
        visible = py < {VISIBLE_HEIGHT}
        line_counter = state[{S_LINE_COUNTER}]
        target = rows[py if visible else {VISIBLE_HEIGHT}]
        # The head of a line that starts as the previous one did ends as it did.
        same = remembered
        if same:
            for index in range(10):
                if values[index] != last[index]:
                    same = False
                    break
        if same:
            if visible:
                for x in range({VISIBLE_WIDTH}):
                    target[x] = last_row[x]
        else:
            for index in range(10):
                last[index] = values[index]
            (r0, r1, r2, r3, r4, r5, r6, r7, flag, odr, out_of_range) = head(
                values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7],
                values[{VALUE_FLAG}], values[{VALUE_ODR}], target, tables, lfsr)
            outcome[0] = r0
            outcome[1] = r1
            outcome[2] = r2
            outcome[3] = r3
            outcome[4] = r4
            outcome[5] = r5
            outcome[6] = r6
            outcome[7] = r7
            outcome[8] = flag
            outcome[9] = odr
            outcome[10] = out_of_range
            remembered = True
            last_row = target
        (r0, r1, r2, r3, r4, r5, r6, r7, flag, odr, out_of_range) = tail(
            outcome[0], outcome[1], outcome[2], outcome[3], outcome[4], outcome[5], outcome[6], outcome[7],
            outcome[8], outcome[9], visible and line_counter == 9, tables, lfsr)
        values[0] = r0
        values[1] = r1
        values[2] = r2
        values[3] = r3
        values[4] = r4
        values[5] = r5
        values[6] = r6
        values[7] = r7
        values[{VALUE_FLAG}] = flag
        values[{VALUE_ODR}] = odr
        state[{S_ROM_OUT_OF_RANGE}] += outcome[10] + out_of_range
        if visible:
            state[{S_LINE_COUNTER}] = 0 if line_counter == 9 else line_counter + 1
        state[{S_PIXEL_Y}] = py + 1
        remaining -= {CLOCKS_PER_LINE}
'''


def kernel_source(rows: np.ndarray) -> str:
    """The generated module for the program whose prepared slot rows are ``rows[0:20]``."""
    assert VALUE_FLAG == 8 and VALUE_ODR == 9  # the driver copies values[0:10] as r0-r7, flag, odr
    control = steady_control()
    if max(control.ir, control.dr, control.pc) >= SLOT_COUNT:
        raise AssertionError("a steady line's pipeline holds only program slots")
    schedule = line_schedule()
    (step,) = [index for index, clock in enumerate(schedule) if clock.ry_tick]
    if any(clock.sample_x >= 0 for clock in schedule[step:]):
        raise AssertionError("a line samples pixels after its RY step")

    def code(begin: int, end: int) -> str:
        return "\n".join("    " + line for line in _line_body(rows, schedule, begin, end)) or "    pass"
    return KERNEL_TEMPLATE.format(
        head=code(0, step), tail=code(step, len(schedule)), CLOCKS_PER_LINE=CLOCKS_PER_LINE, LAST_LINE=FRAME_LINES - 1,
        VISIBLE_HEIGHT=exact.VISIBLE_HEIGHT, VISIBLE_WIDTH=VISIBLE_WIDTH, VALUE_FLAG=VALUE_FLAG, VALUE_ODR=VALUE_ODR,
        pc=control.pc, ir=control.ir, dr=control.dr, run=control.run,
        **{name: getattr(exact, name) for name in ("S_PIXEL_X", "S_PIXEL_Y", "S_STROBE", "S_PC", "S_IR", "S_DR",
                                                   "S_RUN", "S_LINE_COUNTER", "S_ROM_OUT_OF_RANGE")})


class LineKernel:
    """The compiled driver for one program (prepared slot rows 0-19)."""

    def __init__(self, source: str):
        self.source = source
        (self.run,) = compile_source(source, ("run",), nogil=True)

    def run_clocks(self, clocks, state, values, program, tables, lfsr, rows) -> None:
        """``rows``: the (480, 640) frame with a scratch row after it, (481, 640). The kernel
        is shared by every machine running the program, so its work arrays are per call."""
        self.run(clocks, state, values, program, tables, lfsr, rows[:exact.VISIBLE_HEIGHT], rows,
                 np.zeros(10, dtype=np.int64), np.zeros(11, dtype=np.int64))

    @property
    def dispatchers(self) -> tuple:
        return (self.run,)


def kernel_for(rows: np.ndarray) -> LineKernel:
    """The line kernel of the program whose prepared slot rows are ``rows[0:20]``; one per
    program per process (and compiled once per program while the disk cache keeps it)."""
    return LineKernel(kernel_source(np.asarray(rows)[:SLOT_COUNT]))
