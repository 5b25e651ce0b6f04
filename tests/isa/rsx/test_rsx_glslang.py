"""glslangValidator (the Khronos reference compiler) accepts every decompiled program.

All 22 bare-ucode programs of golden/rsx/asm and the 6 real containers of golden/rsx/real are
decompiled (fragment programs also with ``fullscreen=True``), together with the programs built
in test_rsx_glsl, and each shader is validated as GLSL (``.frag``/``.vert`` by suffix). The
validator is part of the test environment (Debian glslang-tools; CI installs it): when it is
missing the tests fail, they do not skip.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rsx_glsl import FRAGMENT_PROGRAMS, GOLDEN, VERTEX_PROGRAMS, golden_program

from shaderkit.core.diagnostics import InputError
from shaderkit.isa.rsx.container import ProgramKind
from shaderkit.isa.rsx.glsl import decompile
from shaderkit.isa.rsx.instruction import decode_program

CORPUS = sorted((GOLDEN / "asm").glob("*.bin")) + sorted((GOLDEN / "real").glob("*.?po"))


def validate(text: str, kind: ProgramKind, directory: Path) -> None:
    validator = shutil.which("glslangValidator")
    if validator is None:
        pytest.fail("glslangValidator is not installed (Debian/Ubuntu: apt install glslang-tools)")
    path = directory / ("shader.frag" if kind is ProgramKind.FRAGMENT else "shader.vert")
    path.write_text(text)
    run = subprocess.run([validator, str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{run.stdout}{run.stderr}\n{text}"


def test_the_corpus_is_complete():
    assert len(CORPUS) == 28
    assert sum(path.parent.name == "asm" for path in CORPUS) == 22


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.name)
def test_corpus_program_validates(path, tmp_path):
    program, parameters, header = golden_program(path)
    validate(decompile(program, parameters, header=header), program.kind, tmp_path)
    if program.kind is ProgramKind.FRAGMENT:
        validate(decompile(program, parameters, header=header, fullscreen=True), program.kind, tmp_path)


@pytest.mark.parametrize("name", sorted(FRAGMENT_PROGRAMS))
def test_built_fragment_program_validates(name, tmp_path):
    validate(decompile(FRAGMENT_PROGRAMS[name]()), ProgramKind.FRAGMENT, tmp_path)


@pytest.mark.parametrize("name", sorted(VERTEX_PROGRAMS))
def test_built_vertex_program_validates(name, tmp_path):
    validate(decompile(VERTEX_PROGRAMS[name]()), ProgramKind.VERTEX, tmp_path)


def plausible_fragment_slot(words: tuple[int, int, int, int]) -> list[int]:
    """Random words made more often decompilable: no flow opcodes (opcode bit 6, SRC1 bit 31),
    no input clamps (SRC1 19-27), temp or input sources only (type bit 1 clear)."""
    opdest, source0, source1, source2 = words
    source1 &= ~(1 << 31) & ~(0x1FF << 19)
    return [opdest, source0 & ~2, source1 & ~2, source2 & ~2]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 0xFFFFFFFF)] * 4), min_size=1, max_size=6), st.booleans())
def test_random_fragment_programs_validate(slots, fullscreen):
    words = [word for slot in slots for word in plausible_fragment_slot(slot)]
    try:
        text = decompile(decode_program(words, ProgramKind.FRAGMENT, "random"), fullscreen=fullscreen)
    except InputError:
        return
    with tempfile.TemporaryDirectory() as directory:
        validate(text, ProgramKind.FRAGMENT, Path(directory))


def test_the_validator_rejects_broken_glsl(tmp_path):
    """The check can fail: a shader with an undeclared variable is refused."""
    validator = shutil.which("glslangValidator")
    if validator is None:
        pytest.fail("glslangValidator is not installed (Debian/Ubuntu: apt install glslang-tools)")
    path = tmp_path / "broken.frag"
    path.write_text("#version 430\nout vec4 fragColor;\nvoid main() { fragColor = r9; }\n")
    assert subprocess.run([validator, str(path)], capture_output=True).returncode != 0
