"""The example programs in examples/tpp: they assemble cleanly, carry a usable header
(`// demo: frames=N fps=F`, `// model: well-behaved | stateful`), the well-behaved ones
are exact under the simple model and draw real pictures, and the animated ones move."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from shaderkit.isa import get
from shaderkit.isa.tpp.analysis import simple_model_obstacles
from shaderkit.isa.tpp.exact import first_frame_with_rt, render_frames
from shaderkit.isa.tpp.simple import SimpleModel

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "tpp"
PROGRAMS = sorted(EXAMPLES.glob("*.s"))
REV = "B"
MAX_USER_INSTRUCTIONS = 18  # the standard flasher's limit (slots 0-17)

DEMO_LINE = re.compile(r"^//\s*demo:\s*frames=(\d+)\s+fps=(\d+)(?:\s+still:\s*--rt\s+\d+)?\s*$")
MODEL_LINE = re.compile(r"^//\s*model:\s*(well-behaved|stateful)\b")
ROM_OPS = ("FH", "HSD", "TT", "Credits", "FlagP", "ESE")


def header(path: Path) -> list[str]:
    """The leading block of `//` comment lines (blank lines allowed inside it)."""
    lines = []
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("//"):
            break
        lines.append(stripped)
    return lines


def demo_settings(path: Path) -> tuple[int, int]:
    matches = [m for m in map(DEMO_LINE.match, header(path)) if m]
    assert len(matches) == 1, f"{path.name}: expected exactly one '// demo: frames=N fps=F' header line"
    return int(matches[0].group(1)), int(matches[0].group(2))


def model_kind(path: Path) -> str:
    matches = [m for m in map(MODEL_LINE.match, header(path)) if m]
    assert len(matches) == 1, f"{path.name}: expected exactly one '// model: well-behaved|stateful' line"
    return matches[0].group(1)


def is_animated(path: Path) -> bool:
    return demo_settings(path)[0] > 1


@lru_cache(maxsize=None)
def assembled(path: Path):
    return get("tpp", rev=REV).assemble(path.read_text(), str(path))


@lru_cache(maxsize=None)
def listing(path: Path) -> tuple[str, ...]:
    text = get("tpp", rev=REV).disassemble(assembled(path).image, addresses=False)
    return tuple(line.split("//")[0].strip() for line in text.splitlines() if line.strip())


def mnemonics(path: Path) -> set[str]:
    return {line.split()[0] for line in listing(path)}


def operands(path: Path) -> set[str]:
    return {token for line in listing(path) for token in line.split()[1:]}


def exact_frame_at_rt(path: Path, rt: int) -> np.ndarray:
    # Frame 0 after reset differs on its first line; use the first later frame with this RT.
    frame = max(1, first_frame_with_rt(rt))
    return dict(render_frames(assembled(path).image, [frame], rev=REV))[frame]


def picture(path: Path, rt: int) -> np.ndarray:
    """6-bit colours of the frame with this RT, from the model that is exact for the program."""
    if model_kind(path) == "well-behaved":
        return SimpleModel(assembled(path).image, REV).frame_colours(rt).copy()
    return exact_frame_at_rt(path, rt)


ids = [path.stem for path in PROGRAMS]


def test_enough_examples():
    assert len(PROGRAMS) >= 8, f"expected at least 8 example programs in {EXAMPLES}"


@pytest.mark.parametrize("path", PROGRAMS, ids=ids)
def test_assembles_without_errors_or_warnings(path):
    program = assembled(path)  # raises DiagnosticError on errors
    assert program.program.warnings == []
    assert 1 <= len(program.words) <= MAX_USER_INSTRUCTIONS


@pytest.mark.parametrize("path", PROGRAMS, ids=ids)
def test_header_describes_the_program(path):
    lines = header(path)
    assert len(lines) >= 5, f"{path.name}: the header comment block is too short"
    assert lines[0].startswith(f"// {path.name}"), f"{path.name}: header should start with the file name"
    frames, fps = demo_settings(path)
    assert fps > 0
    if frames > 1:
        assert 24 <= frames <= 96 and fps == 20
    else:
        assert frames == 1
    model_kind(path)


@pytest.mark.parametrize("path", PROGRAMS, ids=ids)
def test_model_line_matches_the_analysis(path):
    obstacles = simple_model_obstacles(assembled(path).image, REV)
    if model_kind(path) == "well-behaved":
        assert obstacles == []
    else:
        assert obstacles != []
        assert "exact cycle model" in " ".join(header(path))


@pytest.mark.parametrize("path", PROGRAMS, ids=ids)
def test_draws_more_than_one_colour(path):
    for rt in (0, 5):
        assert len(np.unique(picture(path, rt))) > 1, f"{path.name}: constant picture at RT={rt}"


@pytest.mark.parametrize("path", [p for p in PROGRAMS if is_animated(p)],
                         ids=[p.stem for p in PROGRAMS if is_animated(p)])
def test_animated_programs_move(path):
    assert "RT" in operands(path), f"{path.name}: animated but never reads RT"
    assert not np.array_equal(picture(path, 0), picture(path, 5))


@pytest.mark.parametrize("path", [p for p in PROGRAMS if not is_animated(p)],
                         ids=[p.stem for p in PROGRAMS if not is_animated(p)])
def test_static_programs_do_not_depend_on_time(path):
    assert not np.array_equal(picture(path, 0), np.zeros_like(picture(path, 0)))
    assert np.array_equal(picture(path, 0), picture(path, 5))


def test_the_collection_covers_the_features():
    animated = [p for p in PROGRAMS if is_animated(p)]
    stateful = [p for p in PROGRAMS if model_kind(p) == "stateful"]
    with_rom = [p for p in PROGRAMS if mnemonics(p) & set(ROM_OPS)]
    with_rr = [p for p in PROGRAMS if "RR" in operands(p)]
    conditional = {m[-2:] for p in PROGRAMS for m in mnemonics(p)
                   if m != "COMP" and m[-2:] in ("EQ", "GT", "LT")}
    assert len(animated) >= 6
    assert 1 <= len(stateful) <= 2
    assert len(with_rom) >= 2
    assert with_rr
    assert conditional == {"EQ", "GT", "LT"}
    assert any(mnemonics(p) & {"SIN", "RAMP", "SAW"} for p in PROGRAMS)
    assert any("XOR" in mnemonics(p) for p in PROGRAMS)
