"""The customasm-style files ``asm/<isa>/*.s``: each line carries the words it assembles to, or
the error it gives, after the marker (README.md). One harness runs them for every instruction set."""

from __future__ import annotations

import pytest
from conformance_support import (INSTRUCTION_SETS, MARKER, AsmCase, ExpectedError, all_asm_cases, asm_cases, isa,
                                 read_asm_case, repository_sources)

from shaderkit.core.diagnostics import DiagnosticError

CASES = all_asm_cases()


@pytest.mark.parametrize("name, case", CASES, ids=[case.id for _, case in CASES])
def test_file(name: str, case: AsmCase):
    face = isa(name)
    if not case.errors:
        assert list(face.assemble(case.source, case.path.name).words) == list(case.words)
        return
    with pytest.raises(DiagnosticError) as raised:
        face.assemble(case.source, case.path.name)
    errors = [diagnostic for diagnostic in raised.value.diagnostics if diagnostic.severity == "error"]
    reported = "\n".join(f"  {d.line}:{d.col}: {d.message}" for d in errors)
    unmatched = list(errors)
    for expected in case.errors:
        match = next((d for d in unmatched if (d.line, d.col) == (expected.line, expected.column)
                      and expected.fragment in d.message), None)
        assert match is not None, (f"{case.id}:{expected.line}:{expected.column}: no error saying "
                                   f"'{expected.fragment}'; reported:\n{reported}")
        unmatched.remove(match)
    assert not unmatched, f"{case.id}: errors nobody expected:\n{reported}"
    assert all(diagnostic.file == case.path.name for diagnostic in errors)


@pytest.mark.parametrize("name", INSTRUCTION_SETS)
def test_every_instruction_set_has_good_lines_and_at_least_five_error_lines(name):
    cases = asm_cases(name)
    assert sum(len(case.words) for case in cases if not case.errors) > 0
    assert sum(len(case.errors) for case in cases) >= 5


def test_no_program_uses_the_marker():
    # The harness cuts every line at the marker: a program in which it meant something would
    # lose that part.
    assert not any(MARKER in text for text in repository_sources())


def test_the_harness_reads_words_and_errors(tmp_path):
    good = tmp_path / "good.s"
    good.write_text(f"A 1   {MARKER} 0x12 0x34\n\nB   {MARKER} 0xff\n", encoding="utf-8")
    case = read_asm_case(good)
    assert case.source == "A 1\n\nB\n"
    assert case.words == (0x12, 0x34, 0xFF) and case.errors == ()
    bad = tmp_path / "bad.s"
    bad.write_text(f"x\nA 1 {MARKER} error 3: unknown 'A'\n", encoding="utf-8")
    assert read_asm_case(bad).errors == (ExpectedError(2, 3, "unknown 'A'"),)
    for text in (f"A {MARKER} 0x1\nB {MARKER} error 1: b\n", f"A {MARKER} maybe\n"):
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError):
            read_asm_case(bad)
