"""Tests for shaderkit.isa.tpp.exact: golden frames, single spec rules, a reference stepper."""

from __future__ import annotations

import csv
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image

from shaderkit.isa.tpp.exact import (
    CLOCKS_PER_FRAME,
    CLOCKS_PER_LINE,
    OUT_R0,
    RESET_PROGRAMS,
    ExactMachine,
    first_frame_with_rt,
    render_frames,
    render_uploaded_frames,
    upload_capture_frame,
    upload_schedule,
)
from shaderkit.isa.tpp.opcodes import hardware_mnemonic
from shaderkit.isa.tpp.semantics import ROM_MNEMONICS, TARGET, Target, lfsr_step, result_tables
from conftest import golden_dir

GOLDEN = golden_dir("tpp")


def word(op, a=0, b=0, imm=0, cond=3):
    return (op << 11) | (a << 8) | (b << 5) | (imm << 2) | cond


MOV, SET, OUT, TT = 2, 1, 12, 20
RX, RY, RT, RR = 4, 5, 6, 7


def image(*head):
    """A 20-word image: ``head`` in slots 0…, NOP padding, OUT R0 in slot 19."""
    return [*head, *[0x0000] * (19 - len(head)), OUT_R0]


def one_frame(program, k=1, rev="B"):
    return dict(render_frames(program, [k], rev=rev))[k]


def step_n(value, n):
    for _ in range(n):
        value = lfsr_step(value)
    return value


# --- golden frames -----------------------------------------------------------------------

def golden_rows():
    with open(GOLDEN / "frames.tsv", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@cache
def program_words(program):
    return tuple(int(line, 16) for line in (GOLDEN / f"{program}.words").read_text().split())


@cache
def program_uart(program):
    return tuple(int(byte, 16) for byte in (GOLDEN / f"{program}.uart").read_text().split())


@cache
def preload_frames(program, rev):
    return dict(render_frames(program_words(program), [0, 1, 2], rev=rev))


@cache
def frame_at_rt(program, rev, rt):
    return one_frame(program_words(program), first_frame_with_rt(rt), rev=rev)


@cache
def uploaded_frames(program, rev):
    return dict(render_uploaded_frames(program_uart(program), [5, 6], rev=rev))


def channels(colours):
    """6-bit RRGGBB → (H, W, 3) 2-bit channels, as golden RGB // 85."""
    return np.stack([(colours >> 4) & 3, (colours >> 2) & 3, colours & 3], axis=-1)


def assert_frame_equal(actual_colours, png_name):
    golden_rgb = np.asarray(Image.open(GOLDEN / png_name).convert("RGB"))
    assert golden_rgb.shape == (480, 640, 3)
    assert np.all(golden_rgb % 85 == 0)
    expected = golden_rgb // 85
    actual = channels(actual_colours)
    if not np.array_equal(actual, expected):
        differing = np.argwhere(np.any(actual != expected, axis=-1))
        first = [(int(x), int(y)) for y, x in differing[:5]]
        pytest.fail(f"{png_name}: {len(differing)} pixels differ, first (x, y): {first}")


@pytest.mark.parametrize("row", golden_rows(), ids=lambda row: row["file"])
def test_golden_frame(row):
    program, rev, frame, rt = row["program"], row["rev"], int(row["frame"]), int(row["rt"])
    if row["load"] == "preload":
        assert_frame_equal(preload_frames(program, rev)[frame], row["file"])
    else:
        # These programs are history-independent: any frame with that RT is the same.
        assert first_frame_with_rt(rt) == 3 * rt
        assert_frame_equal(frame_at_rt(program, rev, rt), row["file"])


@pytest.mark.parametrize("row", [row for row in golden_rows() if row["load"] == "upload"],
                         ids=lambda row: row["file"])
def test_golden_frame_through_upload_simulation(row):
    program, rev, frame = row["program"], row["rev"], int(row["frame"])
    assert upload_capture_frame(len(program_uart(program))) == 5
    assert_frame_equal(uploaded_frames(program, rev)[frame], row["file"])


# --- single rules ------------------------------------------------------------------------

@pytest.mark.parametrize("divisor", [0, 1, 2, 5, 7, 63])
def test_rt_follows_formula(divisor):
    machine = ExactMachine(image(), divisor=divisor)
    for k in range(40):
        assert machine.frame_index == k
        assert machine.rt == (2 * k // (divisor + 1)) % 64
        machine.run_frame()


@pytest.mark.parametrize("divisor", [0, 1, 5, 9, 63])
def test_first_frame_with_rt(divisor):
    def formula(k):
        return (2 * k // (divisor + 1)) % 64

    for rt in range(64):
        if divisor == 0 and rt % 2:
            with pytest.raises(Exception):
                first_frame_with_rt(rt, divisor)
            continue
        k = first_frame_with_rt(rt, divisor)
        assert formula(k) == rt
        assert all(formula(earlier) != rt for earlier in range(k))


def test_set_divisor_keeps_time_counter():
    """5.2: N changes at once; a counter above the new N runs up to 63 and wraps."""
    machine = ExactMachine(image(), divisor=63)
    counter, rt, divisor = 0, 0, 63
    for k in range(80):
        if k == 10:  # counter is 20 by now, above the new N
            machine.set_divisor(5)
            divisor = 5
        assert machine.rt == rt, k
        machine.run_frame()
        for _ in range(2):  # two counter steps per frame
            if counter == divisor:
                counter, rt = 0, (rt + 1) % 64
            else:
                counter = (counter + 1) % 64
    assert rt > 0


def test_rev_a_ignores_set_divisor():
    machine = ExactMachine(image(), rev="A")
    machine.set_divisor(0)
    for k in range(10):
        assert machine.rt == k // 3
        machine.run_frame()


def test_rr_seen_by_block_runs():
    """5.3: block bx >= 1 sees step^bx(RY + 1); block 0 sees step^2(RYprev + 1)."""
    frame = one_frame(image(word(MOV, a=0, b=RR)), k=1)
    for y in range(480):
        ry, ry_prev = y // 10, max(y - 1, 0) // 10
        expected = [step_n(ry_prev + 1, 2)] + [step_n(ry + 1, bx) for bx in range(1, 64)]
        assert np.array_equal(frame[y], np.repeat(expected, 10)), y


def test_rr_is_zero_until_first_reseed_in_frame_0():
    frame = one_frame(image(word(MOV, a=0, b=RR)), k=0)
    assert not frame[0].any()
    assert not frame[1, :10].any()
    assert frame[1, 10] == lfsr_step(1)  # block 1 of line 1 (RY = 0): step(RY + 1)


def test_frame_0_line_0_has_no_pre_roll():
    """7.2: on line 0 of frame 0 the run seeing RX = k shows at x = 10k + 11."""
    line = one_frame(image(word(MOV, a=0, b=RX)), k=0)[0]
    assert not line[:11].any()
    assert np.array_equal(line[11:], (np.arange(11, 640) - 11) // 10)


def test_slot_18_sees_next_rx():
    """7.1: slots 18 and 19 of a run already see RX + 1."""
    program = image()
    program[18] = word(MOV, a=0, b=RX)
    frame = one_frame(program)
    assert np.array_equal(frame[200], np.repeat((np.arange(64) + 1) % 64, 10))


def test_write_slot_takes_effect():
    machine = ExactMachine(image(word(MOV, a=0, b=RX)))
    assert np.array_equal(machine.run_frame()[5], np.repeat(np.arange(64), 10)[:640])
    machine.write_slot(0, word(MOV, a=0, b=RY))
    machine.write_slot(19, word(SET, a=0, imm=7))  # slot 19 is not writable: ignored
    assert machine.words[19] == OUT_R0
    frame = machine.run_frame()
    fresh = one_frame(image(word(MOV, a=0, b=RY)), k=1)
    # Block 0 of line 0 shows the pre-roll run, which ran the old program on line 524;
    # slot 0 of run G1 was fetched in frame 0's last clock, so it still executes the old
    # word (MOV R0 RX with RX = 1) after the write.
    assert np.all(frame[0, :10] == 0)
    assert np.all(frame[0, 10:20] == 1)
    assert np.array_equal(frame[0, 20:], fresh[0, 20:])
    assert np.array_equal(frame[1:], fresh[1:])


def test_write_slot_mid_frame():
    machine = ExactMachine(image(word(SET, a=0, imm=12)))
    machine.run_until(CLOCKS_PER_FRAME + 240 * CLOCKS_PER_LINE)
    machine.write_slot(0, word(SET, a=0, imm=48))
    frame = machine.run_frame()
    assert machine.frame_index == 2
    assert np.all(frame[:240] == 12) and np.all(frame[241:] == 48)


def test_rev_a_decodes_rom_opcodes_as_nop():
    program = image(word(SET, a=0, imm=5), word(TT, a=0))
    assert np.all(one_frame(program, rev="A") == 5)
    assert set(np.unique(one_frame(program, rev="B"))) == {0, 63}


def test_out_register_field_per_revision():
    # SET R0 #1; SET R1 #2; SET R2 #3; OUT with bits 10-8 = R1 and bits 7-5 = R2; then R0 ← 0.
    program = image(word(SET, a=0, imm=1), word(SET, a=1, imm=2), word(SET, a=2, imm=3),
                    word(OUT, a=1, b=2), *[0] * 10, word(SET, a=0, imm=1))
    # OUT in slot 3 of run G b shows at x = 10(b - 1) + 2 until slot 19 at x = 10b.
    assert one_frame(program, rev="B")[100, 12] == 3
    assert one_frame(program, rev="A")[100, 12] == 2
    assert one_frame(program, rev="B")[100, 10] == 1


def test_rom_out_of_range_reads_are_counted():
    in_range = ExactMachine(image(word(TT, a=0)))
    in_range.run_frame()
    assert in_range.rom_out_of_range_reads == 0
    out_of_range = ExactMachine(image(word(SET, a=RY, imm=50), word(TT, a=0)))
    out_of_range.run_frame()
    assert out_of_range.rom_out_of_range_reads > 0
    rev_a = ExactMachine(image(word(SET, a=RY, imm=50), word(TT, a=0)), rev="A")
    rev_a.run_frame()
    assert rev_a.rom_out_of_range_reads == 0  # opcode 20 is a NOP on rev A


def test_reset_programs():
    assert RESET_PROGRAMS["A"] == (0x10E3, *[0] * 18, 0x6003)
    assert RESET_PROGRAMS["B"][:6] == (0xA003, 0x09FF, 0x8903, 0x18C0, 0x1880, 0x18A0)
    assert RESET_PROGRAMS["B"][6:] == (*[0] * 13, 0x6003)


def test_image_slot_19_is_always_out_r0():
    program = image(word(SET, a=0, imm=9))
    program[19] = word(SET, a=0, imm=3)
    assert ExactMachine(program).words[19] == OUT_R0
    assert np.all(one_frame(program) == 9)


def test_upload_schedule():
    words = [0x1000 + slot for slot in range(20)]
    stream = [byte for slot, w in enumerate(words) for byte in (0x80 | slot, w >> 8, w & 0xFF)]
    effects = upload_schedule(stream)
    assert [(e.action, e.slot, e.value) for e in effects] == [("write", s, words[s]) for s in range(19)]
    times = [e.after_update for e in effects]
    assert times == sorted(times)
    # Every write lands while the stop bit of its third byte is on the line.
    for slot, effect in enumerate(effects):
        stop_start_ns = 100 + (11 * (3 * slot + 2) + 10) * 104_166
        assert stop_start_ns < effect.after_update * 20 < stop_start_ns + 104_166
    assert upload_capture_frame(len(stream)) == 5
    # Rev B: 0xC0 writes nothing, 0x45 sets the divisor; rev A: 0xC0 writes, 0x45 is ignored.
    stream = [0xC1, 0x12, 0x34, 0x45]
    assert [(e.action, e.slot, e.value) for e in upload_schedule(stream, "B")] == [("divisor", 0, 5)]
    assert [(e.action, e.slot, e.value) for e in upload_schedule(stream, "A")] == [("write", 1, 0x1234)]


# --- cross-check against a plain-Python reading of spec 7.2 --------------------------------

class ReferenceTPP:
    """Spec 7.2 rules 1–9 stepped in Python on raw words, started from a snapshot."""

    def __init__(self, snapshot, words, rev):
        self.rev = rev
        self.words = list(words)
        self.regs = list(snapshot["registers"])
        self.flag = snapshot["flag"]
        self.odr = snapshot["odr"]
        self.pc = snapshot["pc"]
        self.ir = snapshot["instruction_register"]
        self.dr = snapshot["decode_register"]
        self.run = snapshot["run"]
        self.time_counter = snapshot["time_counter"]
        self.divisor = snapshot["divisor"]
        self.line_counter = snapshot["line_counter"]
        self.px, self.py, self.strobe = snapshot["pixel_x"], snapshot["pixel_y"], snapshot["strobe"]
        self.rom_reads_out_of_range = 0
        self.tables = result_tables()

    def execute(self, w):
        op, a, b, imm, cond = w >> 11, (w >> 8) & 7, (w >> 5) & 7, (w >> 2) & 63, w & 3
        if not (cond == 3 or cond == self.flag):
            return
        name = hardware_mnemonic(op, self.rev)
        target = TARGET[name]
        if target == Target.OUTPUT:
            self.odr = self.regs[a if self.rev == "A" else b]
        elif target == Target.FLAG:
            self.flag = int(self.tables[name][self.regs[a], self.regs[b]])
        elif name in ROM_MNEMONICS:
            if self.regs[RY] > 47:
                self.rom_reads_out_of_range += 1
            self.regs[a] = int(self.tables[name][self.regs[RY], self.regs[RX]])
        elif target == Target.REGISTER:
            second = imm if name in ("SET", "SL", "SR") else self.regs[b]
            self.regs[a] = int(self.tables[name][self.regs[a], second])

    def step(self):
        old = list(self.regs)
        self.execute(self.dr)
        run = 1 if (self.px > 788 or self.px < 640) else 0
        pc = ((self.pc + 1) % 20) if self.run else 0
        if self.run and self.pc == 19:
            self.regs[RX] = (old[RX] + 1) % 64
        if not self.run:
            self.regs[RX] = 0
        if not self.run and self.px == 780 and self.py < 480 and self.strobe == 1:
            self.line_counter = (self.line_counter + 1) % 10
            if self.line_counter == 0:
                self.regs[RY] = 0 if old[RY] == 47 else (old[RY] + 1) % 64
        if self.px == 0 and self.py == 524:
            if self.time_counter == self.divisor:
                self.time_counter, self.regs[RT] = 0, (old[RT] + 1) % 64
            else:
                self.time_counter = (self.time_counter + 1) % 64
        if self.pc == 19:
            self.regs[RR] = lfsr_step((old[RY] + 1) % 64) if self.px > 640 else lfsr_step(old[RR])
        self.dr, self.ir = self.ir, self.words[self.pc]
        self.pc, self.run = pc, run
        if self.strobe:
            self.px += 1
            if self.px == 800:
                self.px, self.py = 0, (self.py + 1) % 525
        self.strobe ^= 1
        if self.strobe and self.px < 640 and self.py < 480:
            return self.px, self.py, self.odr
        return None

    def write_slot(self, slot, w):
        if slot < 19:
            self.words[slot] = w


# Start points: reset; before PixelX 780 of line 9 (RY step, pre-roll re-seed); line 524 (RT).
START_POINTS = [0, CLOCKS_PER_FRAME + 9 * CLOCKS_PER_LINE + 1500, 2 * CLOCKS_PER_FRAME - 1700]
WINDOW = 2500
CHECKPOINT = 100  # compare the whole state this often

any_word = st.integers(0, 0xFFFF)
# Opcodes 0-23 with every field random, so most words do something.
useful_word = st.builds(lambda op, rest: (op << 11) | rest, st.integers(0, 23), st.integers(0, 0x7FF))


# Slot 17 executes in the clock where PC = 19, so its ALU write meets the RX step and
# the RR update (which must use RY from before the clock) in that same clock.
SLOT_17_WRITES_RY = [*[0x0003] * 17, word(SET, a=RY, imm=20), 0x0003]
SLOT_17_WRITES_RX = [*[0x0003] * 17, word(SET, a=RX, imm=33), word(MOV, a=0, b=RX)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(program=SLOT_17_WRITES_RY, rev="B", divisor=5, start=START_POINTS[1], writes=[])
@example(program=SLOT_17_WRITES_RX, rev="A", divisor=5, start=START_POINTS[1], writes=[])
@example(program=list(RESET_PROGRAMS["B"][:19]), rev="B", divisor=0, start=START_POINTS[2],
         writes=[(1, 0, 0x1083), (1, 1, 0x6003), (2, 2, 0x1083), (3, 3, 0x1083)])
@given(
    program=st.lists(st.one_of(useful_word, any_word), min_size=19, max_size=19),
    rev=st.sampled_from(["A", "B"]),
    divisor=st.integers(0, 63),
    start=st.sampled_from(START_POINTS),
    writes=st.lists(st.tuples(st.integers(1, WINDOW - 1), st.integers(0, 20), any_word), max_size=4),
)
def test_matches_reference_stepper(program, rev, divisor, start, writes):
    machine = ExactMachine(program, rev=rev, divisor=divisor if rev == "B" else 5)
    machine.run_until(start)
    reference = ReferenceTPP(machine.snapshot(), machine.words, rev)
    rom_reads_before = machine.rom_out_of_range_reads
    samples = []
    stops = sorted({offset for offset, _, _ in writes} | set(range(CHECKPOINT, WINDOW + 1, CHECKPOINT)))
    position = 0
    for stop in stops:
        for _ in range(stop - position):
            sample = reference.step()
            if sample:
                samples.append(sample)
        machine.run_clocks(stop - position)
        position = stop
        assert_same_state(machine, reference)
        for at, slot, w in writes:
            if at == stop:  # a write while the slot's old word may still be in the pipeline
                machine.write_slot(slot, w)
                reference.write_slot(slot, w)
    for x, y, colour in samples:
        assert machine._frame[y, x] == colour, (x, y)
    assert machine.rom_out_of_range_reads - rom_reads_before == reference.rom_reads_out_of_range


def assert_same_state(machine, reference):
    snapshot = machine.snapshot()
    at = snapshot["clock"]
    assert snapshot["registers"] == reference.regs, at
    assert (snapshot["flag"], snapshot["odr"], snapshot["pc"]) == (reference.flag, reference.odr, reference.pc), at
    assert (snapshot["instruction_register"], snapshot["decode_register"]) == (reference.ir, reference.dr), at
    assert (snapshot["time_counter"], snapshot["line_counter"]) == (reference.time_counter, reference.line_counter), at
    assert ((snapshot["pixel_x"], snapshot["pixel_y"], snapshot["strobe"])
            == (reference.px, reference.py, reference.strobe)), at
