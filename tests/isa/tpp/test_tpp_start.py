"""Where a TPP program starts (issue 12): preloaded at reset, or sent over UART while the
reset program runs, as on a chip. ``--start auto`` uploads the programs whose picture depends
on what ran before them."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.tpp import TinyPixelProcessor
from shaderkit.isa.tpp.exact import (CLOCKS_PER_LINE, RESET_PROGRAMS, render_frames, render_uploaded_frames,
                                     rt_of_frame, upload_schedule)
from shaderkit.isa.tpp.machine import RunSession
from shaderkit.isa.tpp.uart import upload_bytes
from conftest import invoke_cli

# The shape of the upstream FH/TT/Credits/FlagP demos: a ROM op writes R0, then the rest
# compares and adds to it. On rev A the ROM op runs as NOP, so R0 keeps what the reset program
# (MOV R0 RR) and the upload left there.
ROM_DEMO = [0x9003, 0x09F3, 0x8903, 0x18C2, 0x1882] + [0x0000] * 14 + [0x6003]  # FH R0 … ADDLT R0 RX
# Well-behaved: every register written before it is read.
STRIPES = [0x1083, 0x58A3] + [0x0000] * 17 + [0x6003]  # MOV R0 RX, XOR R0 RY


def test_a_program_reading_prior_state_starts_after_an_upload_by_default():
    session = RunSession(ROM_DEMO, "A")
    assert session.uploads and session.first_frame == 5
    assert "starting after an upload" in session.notes[0] and "COMP reads R0" in session.notes[0]
    shown = session.frame_with_rt_colours(1)
    # The reference: the upload procedure the golden frames were captured with.
    (_, reference), = render_uploaded_frames(upload_bytes(ROM_DEMO), [5], rev="A")
    np.testing.assert_array_equal(shown, reference)
    assert len(np.unique(shown)) == 1 and shown[0, 0] != 0  # a flat colour, not black
    preloaded = RunSession(ROM_DEMO, "A", start="reset").frame_with_rt_colours(1)
    assert not preloaded.any()  # from the reset state R0 stays 0


def test_a_well_behaved_program_is_preloaded_and_an_upload_changes_only_the_frames_before_it():
    assert not RunSession(STRIPES, "B").uploads
    preloaded = RunSession(STRIPES, "B", model="exact", start="reset")
    uploaded = RunSession(STRIPES, "B", model="exact", start="upload")
    for frame in (5, 6, 9):
        np.testing.assert_array_equal(uploaded.frame_colours(frame), preloaded.frame_colours(frame))
    # Frame 0 shows the revision's reset program down to the line where the first write lands.
    (_, reset_program), = render_frames(RESET_PROGRAMS["B"], [0], rev="B")
    first_write_line = upload_schedule(upload_bytes(STRIPES), "B")[0].after_update // CLOCKS_PER_LINE
    assert 50 < first_write_line < 200
    np.testing.assert_array_equal(uploaded.frame_colours(0)[:first_write_line - 1], reset_program[:first_write_line - 1])
    assert (uploaded.frame_colours(0) != preloaded.frame_colours(0)).any()


def test_after_an_upload_rt_and_animations_count_from_the_programs_first_frame():
    session = RunSession(ROM_DEMO, "A")
    for rt in (0, 1, 2, 5):
        frame = session.frame_with_rt_index(rt)
        assert frame >= 5 and rt_of_frame(frame) == rt
        assert all(rt_of_frame(earlier) != rt for earlier in range(5, frame))
    assert session.frame_with_rt_index(0) == 192  # RT 0 comes round again one period later
    assert session.animation_frames(3, 20) == [5, 8, 11]
    assert RunSession(STRIPES, "B").animation_frames(3, 20) == [0, 3, 6]


def test_a_later_frame_after_an_upload_skips_whole_periods_and_matches_running_them():
    far = RunSession(ROM_DEMO, "A").frame_colours(5 + 3 * 192)
    near = RunSession(ROM_DEMO, "A").frame_colours(5)
    np.testing.assert_array_equal(far, near)


def test_an_unknown_start_is_refused():
    with pytest.raises(InputError, match="unknown start 'later'"):
        RunSession(STRIPES, "B", start="later")


def test_the_cli_shows_what_the_chip_shows(tmp_path):
    words = tmp_path / "fh_demo.hex"
    words.write_text("\n".join(f"{word:04X}" for word in ROM_DEMO) + "\n")
    chip, preload = tmp_path / "chip.png", tmp_path / "preload.png"
    result = invoke_cli("run", "-m", "tpp", "--rev", "A", words, "-o", chip)
    assert result.exit_code == 0, result.output
    assert "note: starting after an upload, as on the chip" in result.stderr
    assert result.stderr.endswith("(640×480, exact model, after the upload)\n")
    expected = TinyPixelProcessor("A").run_session(ROM_DEMO).frame_with_rt(1)
    np.testing.assert_array_equal(np.asarray(Image.open(chip)), expected)
    result = invoke_cli("run", "-m", "tpp", "--rev", "A", "--start", "reset", words, "-o", preload)
    assert result.exit_code == 0 and "after the upload" not in result.stderr
    assert not np.asarray(Image.open(preload)).any()
    bad = invoke_cli("run", "-m", "tpp", "--start", "later", words, "-o", preload)
    assert bad.exit_code == 2 and "later" in bad.stderr and "Traceback" not in bad.output
