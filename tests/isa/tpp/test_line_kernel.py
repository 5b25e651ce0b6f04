"""The exact model's compiled steady-line path (:mod:`shaderkit.isa.tpp.line_kernel`) against
the clock-by-clock model: random programs, random chunkings of the clocks, the whole state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shaderkit.isa.tpp import TinyPixelProcessor
from shaderkit.isa.tpp.bench import BENCH_PROGRAM, DEPENDENT_PROGRAM
from shaderkit.isa.tpp import machine as machine_module
from shaderkit.isa.tpp.exact import CLOCKS_PER_FRAME, CLOCKS_PER_LINE, RESET_PROGRAMS, ExactMachine, render_frames
from shaderkit.isa.tpp.line_kernel import kernel_source, line_schedule, steady_control
from shaderkit.isa.tpp.machine import RunSession


def random_program(generator: random.Random) -> list[int]:
    """19 words, most of them opcodes 0-23 with every field random (so R4-R7 get written,
    conditions and ROM reads happen), some any 16 bits."""
    return [generator.randrange(24) << 11 | generator.randrange(0x800) if generator.random() < 0.85
            else generator.randrange(0x10000) for _ in range(19)]


def random_chunks(generator: random.Random, total: int) -> list[int]:
    """Clock counts adding up to ``total``: whole lines, partial lines, single clocks, frames."""
    chunks = []
    while sum(chunks) < total:
        kind = generator.random()
        if kind < 0.3:
            chunk = generator.randrange(1, 40)
        elif kind < 0.6:
            chunk = generator.randrange(1, 3 * CLOCKS_PER_LINE)
        elif kind < 0.9:
            chunk = CLOCKS_PER_LINE * generator.randrange(1, 200) + generator.choice([0, 0, 1, -1, 7])
        else:
            chunk = CLOCKS_PER_FRAME
        chunks.append(max(1, min(chunk, total - sum(chunks))))
    return chunks


def assert_same_machine(fast: ExactMachine, slow: ExactMachine) -> None:
    assert fast.snapshot() == slow.snapshot()
    assert fast.rom_out_of_range_reads == slow.rom_out_of_range_reads
    assert np.array_equal(fast._frame, slow._frame)


def run_both(image, rev, divisor, chunks, writes=()):
    """Both models through ``chunks``; ``writes`` are (chunk index, slot, word) applied after it."""
    fast = ExactMachine(image, rev=rev, divisor=divisor, line_kernel=True)
    fast.line_kernel_min_clocks = 0  # every request on the compiled path
    slow = ExactMachine(image, rev=rev, divisor=divisor)
    for index, chunk in enumerate(chunks):
        fast.run_clocks(chunk)
        slow.run_clocks(chunk)
        assert_same_machine(fast, slow)
        for at, slot, word in writes:
            if at == index:
                fast.write_slot(slot, word)
                slow.write_slot(slot, word)
    return fast, slow


@pytest.mark.parametrize("seed", range(3))
def test_random_programs_in_random_chunks_match_the_clock_model(seed):
    generator = random.Random(seed)
    rev = "AB"[seed % 2]
    divisor = generator.randrange(64) if rev == "B" else 5
    run_both(random_program(generator), rev, divisor, random_chunks(generator, 2 * CLOCKS_PER_FRAME + 12345))


@pytest.mark.parametrize("source", [BENCH_PROGRAM, DEPENDENT_PROGRAM])
def test_bench_programs_match_the_clock_model(source):
    image = TinyPixelProcessor("B").assemble(source, "<bench>").image
    fast, _ = run_both(image, "B", 5, random_chunks(random.Random(source), 3 * CLOCKS_PER_FRAME))
    assert fast._line_kernel is not None


def test_a_slot_write_drops_the_kernel_and_the_next_program_matches():
    generator = random.Random(7)
    chunks = random_chunks(generator, 2 * CLOCKS_PER_FRAME)
    # A write in mid-line, while the slot may still be in the pipeline, then more clocks.
    writes = [(1, 3, 0x1083), (1, 0, 0x18C3)]
    fast, _ = run_both(list(RESET_PROGRAMS["B"][:19]), "B", 0, [1603, *chunks], writes)
    assert fast.words[0] == 0x18C3


def test_the_steady_line_is_derived_from_the_control_rules():
    control = steady_control()
    schedule = line_schedule()
    assert len(schedule) == CLOCKS_PER_LINE
    assert sorted(clock.sample_x for clock in schedule if clock.sample_x >= 0) == list(range(640))
    assert sum(clock.ry_tick for clock in schedule) == 1
    # Per line slot 0 executes 363 times, slots 1 and 2 66 times, slots 3-19 65 times (7.2).
    rows = [clock.row for clock in schedule]
    assert (rows.count(0), rows.count(1), rows.count(2), rows.count(3), rows.count(19)) == (363, 66, 66, 65, 65)
    assert control.run == 1


def test_the_source_is_one_program_s_own():
    one = ExactMachine(TinyPixelProcessor("B").assemble(BENCH_PROGRAM, "<bench>").image)
    two = ExactMachine(TinyPixelProcessor("B").assemble(DEPENDENT_PROGRAM, "<bench>").image)
    assert kernel_source(one._program) != kernel_source(two._program)
    assert kernel_source(one._program) == kernel_source(one._program.copy())


def test_a_long_session_moves_on_to_the_line_kernel(monkeypatch):
    monkeypatch.setattr(machine_module, "LINE_KERNEL_AFTER_FRAMES", 3)
    image = TinyPixelProcessor("B").assemble(BENCH_PROGRAM, "<bench>").image
    session = RunSession(image, model="exact")
    frames = list(session.frames_colours(range(6)))
    assert session._exact.uses_line_kernel and session._exact._line_kernel is not None
    for (k, expected), colours in zip(render_frames(image, range(6)), frames, strict=True):
        assert np.array_equal(colours, expected), k
