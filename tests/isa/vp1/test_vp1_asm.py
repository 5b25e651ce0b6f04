"""VP1 assembly: envyas's encoding of every golden text, programs with labels and directives,
bundle warnings, negative numbers, and errors that name their place."""

from __future__ import annotations

import pytest
from conftest import golden_dir
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shaderkit.isa as isas
from shaderkit.core.diagnostics import DiagnosticError, ShaderkitError

GOLDEN = golden_dir("vp1")
REASSEMBLED = [line.split("\t") for line in (GOLDEN / "reassembled.tsv").read_text(encoding="utf-8").splitlines()]
VP1 = isas.get("vp1")
PLAIN = isas.get("vp1", plain=True)


def words(source: str) -> list[int]:
    return VP1.assemble(source, "t.s").words


def test_every_reassembled_text_gives_envyas_word():
    assert len(REASSEMBLED) == 2000
    assembled = PLAIN.assemble("\n".join(text for text, _, _ in REASSEMBLED) + "\n", "reassembled.txt").words
    wrong = [(text, expected, f"{got:08x}") for (text, expected, _), got in zip(REASSEMBLED, assembled)
             if f"{got:08x}" != expected]
    assert not wrong, f"{len(wrong)} texts differ, e.g. {wrong[:3]}"
    assert len(assembled) == 2000


@pytest.mark.parametrize("text, word", [
    ("add $r1 $r2 0x0", 0x4c08bfc4),  # 0x0 in a register position is $r31: the register form
    ("add $r1 $r2 $r31", 0x4c08bfc4),
    ("abs $r2 $c3 $r5", 0x4a114003),  # the lowest duplicate opcode
    ("babs s $r1 $r2", 0x0a088004),
    ("bra 0x40", 0xe00021e4),
    ("call 0x40", 0xe40021e4),
    ("exit 0xdead", 0xff00dead),
    ("vmov $v0 0x0", 0xad000004),
    ("mov $r2 0x1", 0x65100001),
    ("mov $l0 $c0 0x0", 0xf0000000),
    ("vmul s rd int -0x1 hi # s $v22 s $v2", 0x800584ee),  # SHIFT -1 written -0x1 ...
    ("vmul s rd int 0xffffffffffffffff hi # s $v22 s $v2", 0x800584ee),  # ... or as envyas writes it
    ("bra 0xffffffffffffcd20", 0xe0e691e4),
    ("bra -0x32e0", 0xe0e691e4),
])
def test_canonical_words(text, word):
    assert PLAIN.assemble(text + "\n").words == [word]


def test_spec_section_14_words():
    for text, word in [("add $a0 $c0 $a0 $a0", 0xcb0001c0), ("add 0x0 $c0 0x0 0x0", 0x4cffffc0),
                       ("ldavh $v0 $a0 0x0", 0xd0000004), ("mov $v0 0x0 $r0", 0x6a000000),
                       ("vclip $v0 $vc0 $v0 $v1 $v2", 0xa4000220), ("star $v0 $a0 (slct $c0 sf $a0d)", 0xd7000001),
                       ("ldr $v0 $a0 $v1", 0xd7000200), ("mov $x3 $r0", 0x6a1800c7 & ~0x7),
                       ("anop", 0xdf000000), ("bnop", 0xef000000)]:
        assert PLAIN.assemble(text).words == [word], text


def test_labels_with_and_without_hash_and_directives():
    source = """
    .equ COUNT 3
    start:  mov $r0 COUNT          // a comment
            bra #start ; bnop
    .b32 0x12345678
    .skip 2
    .align 4
    later:  call later
    .section code
    """
    assembled = words(source)
    assert assembled == [0x65000003, 0xe00001e4, 0xef000000, 0x12345678, 0, 0, 0, 0, 0xe40001e4]  # later = 8: the offset counts from its own group


def test_branch_targets_must_be_reachable_and_aligned():
    with pytest.raises(DiagnosticError) as raised:
        words("bra 0x41\n")
    assert "multiple of 4" in raised.value.diagnostics[0].message


def test_errors_name_file_line_and_column():
    with pytest.raises(DiagnosticError) as raised:
        VP1.assemble("mov $r1 0x5\nadd $r1 $r99 $r2\nfoo $r1\nvmov $v0 0x100\n", "bad.s")
    found = [(d.file, d.line, d.col) for d in raised.value.diagnostics]
    assert found == [("bad.s", 2, 9), ("bad.s", 3, 1), ("bad.s", 4, 10)]
    rendered = raised.value.render()
    assert "bad.s:2:9: error:" in rendered and "^" in rendered


def test_plain_mode_reads_each_line_at_address_zero():
    assembled = PLAIN.assemble("bra 0x40\nbra 0x40\nbra 0x40\nbra 0x40\nbra 0x40\n").words
    assert assembled == [0xe00021e4] * 5
    assert not PLAIN.assemble("mov $r1 0x1\nvmov $v0 0x0\n").warnings


def test_a_warning_where_lines_written_as_one_bundle_split():
    # Alignment: address 3 is scalar, address 4 starts a new aligned group.
    program = VP1.assemble("bnop\nbnop\nbnop\n\nmov $r1 0x1\nvmov $v1 0x2\n", "w.s")
    assert [(w.line, w.col) for w in program.warnings] == [(6, 1)]
    assert "aligned group of 4 words" in program.warnings[0].message
    # Order: a vector word cannot follow a branch word.
    program = VP1.assemble("add $r1 $r2 $r3\nbra 0x40\nvmov $v0 0x0\n", "w.s")
    assert [(w.line, w.severity) for w in program.warnings] == [(3, "warning")]
    assert "a vector instruction cannot follow a branch one" in program.warnings[0].message
    # One bundle A S V B, and ordinary sequential code, are not warned about.
    assert not VP1.assemble("add $a1 $a2 $a3\nadd $r1 $r2 $r3\nvadd s $v1 $v2 $v3\nbnop\n").warnings
    assert not VP1.assemble("mov $r1 0x1\nmov $r2 0x2\nmov $r3 0x3\n").warnings


TEXTS = [text for text, _, _ in REASSEMBLED]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_text_never_crashes_the_assembler(data):
    if data.draw(st.booleans()):
        text = data.draw(st.text(max_size=60))
    else:
        text = data.draw(st.sampled_from(TEXTS))
        start = data.draw(st.integers(0, len(text)))
        text = text[:start] + data.draw(st.text(max_size=6)) + text[start + data.draw(st.integers(0, 6)):]
    for isa in (VP1, PLAIN):
        try:
            isa.assemble(text, "fuzz.s")
        except ShaderkitError:
            pass
