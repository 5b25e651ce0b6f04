"""Fuzzing the TPP tools (design invariants): the assembler never crashes on any text
(it returns a program or raises DiagnosticError), and the disassembler never raises
on any non-empty words, however they were read (an empty image is an error)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shaderkit.core.binfmt import read_words
from shaderkit.core.diagnostics import DiagnosticError, InputError
from shaderkit.isa.tpp import TinyPixelProcessor

REVISIONS = {rev: TinyPixelProcessor(rev) for rev in "AB"}

MNEMONICS = ["NOP", "SET", "MOV", "ADD", "SUB", "SL", "SR", "AND", "NAND", "OR", "NOR", "XOR",
             "OUT", "SIN", "RAMP", "SAW", "COMP", "FH", "HSD", "TT", "Credits", "FlagP", "ESE",
             "ADDLT", "SETEQ", "NOPGT", "nop", "comp", "OUTEQ"]
REGISTERS = ["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "RX", "RY", "RT", "RR", "rx", "r0"]
PUNCTUATION = ["#", ":", "(", ")", ",", "-", "+", "*", "/", "%", "<<", ">>", "~", "=", ";", "//", "'", '"']
DIRECTIVES = [".word", ".equ", ".allow", ".include", ".define", ".set", "special-writes", "##devMode##",
              ".WORD", "EQ", "GT", "LT"]
NUMBERS = st.one_of(
    st.integers(-100, 100).map(str),
    st.integers(0, 0x1FFFF).map(hex),
    st.integers(0, 255).map(bin),
    st.sampled_from(["63", "64", "0", "-1", "1_0", "0x", "08", "1.5", "1e3", "9" * 30]),
)
LABELS = st.sampled_from(["loop", "end", "x", "W", "_a", "a.b", "$"])
TOKENS = st.one_of(st.sampled_from(MNEMONICS), st.sampled_from(REGISTERS), st.sampled_from(PUNCTUATION),
                   st.sampled_from(DIRECTIVES), NUMBERS, LABELS,
                   st.tuples(st.just("#"), NUMBERS).map("".join),
                   st.tuples(LABELS, st.just(":")).map("".join))
SEPARATORS = st.sampled_from([" ", " ", " ", "", "\t", "  "])


@st.composite
def plausible_lines(draw):
    tokens = draw(st.lists(st.tuples(TOKENS, SEPARATORS), max_size=7))
    return "".join(token + separator for token, separator in tokens)


@st.composite
def plausible_sources(draw):
    return "\n".join(draw(st.lists(plausible_lines(), max_size=25)))


def assemble_or_diagnose(rev: str, source: str) -> None:
    """The only acceptable outcomes: a 20-word image, or DiagnosticError with located diagnostics."""
    tpp = REVISIONS[rev]
    try:
        program = tpp.assemble(source, "fuzz.s", reader=refuse_to_read)
    except DiagnosticError as error:
        assert error.diagnostics
        line_count = max(1, len(source.splitlines()))
        for diagnostic in error.diagnostics:
            assert diagnostic.file == "fuzz.s"
            assert 1 <= diagnostic.line <= line_count
            assert diagnostic.col >= 1
            assert diagnostic.render().startswith(f"fuzz.s:{diagnostic.line}:{diagnostic.col}: ")
        return
    assert len(program.image) == 20
    # OUT R0, or the NOP of a devMode upload (or of a 20-word listing of one).
    assert program.image[19] in (0x6003, 0x0000)
    assert all(0 <= word <= 0xFFFF for word in program.image)


def refuse_to_read(path):
    raise FileNotFoundError(2, "No such file or directory", str(path))


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(rev=st.sampled_from("AB"), source=st.text(max_size=200))
def test_random_text_never_crashes_the_assembler(rev, source):
    assemble_or_diagnose(rev, source)


@FUZZ
@given(rev=st.sampled_from("AB"), source=st.text(alphabet="#:()0123456789xXRrAaDdEeTt .-+*/;\n=,'\"~<>", max_size=200))
def test_random_operand_like_text_never_crashes_the_assembler(rev, source):
    assemble_or_diagnose(rev, source)


@FUZZ
@given(rev=st.sampled_from("AB"), source=plausible_sources())
def test_random_plausible_lines_never_crash_the_assembler(rev, source):
    assemble_or_diagnose(rev, source)


@FUZZ
@given(rev=st.sampled_from("AB"), source=plausible_sources(), prefix=st.sampled_from(
    ["", "##devMode##\n", ".allow special-writes\n", ".equ W 3\nx = W*2\n"]))
def test_random_lines_after_directives_never_crash_the_assembler(rev, source, prefix):
    assemble_or_diagnose(rev, prefix + source)


def test_pathological_sources_are_diagnosed():
    for source in ["SET R0 #" + "-" * 5000 + "1", "SET R0 #" + "(" * 1000 + "1" + ")" * 1000,
                   ".equ X " + "1+" * 3000 + "1", "\x00", "\ufeffNOP", ".include", "x:" * 2000,
                   "NOP " * 1000, ".equ , ", ".set ,,1"]:
        assemble_or_diagnose("B", source)


# --------------------------------------------------------------------------------------
# the disassembler


def disassemble_everything(words: list[int]) -> None:
    for tpp in REVISIONS.values():
        if not words:  # an empty image is an error (issue 10), never an empty listing
            with pytest.raises(InputError, match="empty image"):
                tpp.disassemble(words)
            continue
        listing = tpp.disassemble(words)
        headers = [line for line in listing.splitlines()[:2] if line in (".slots written", ".allow special-writes")]
        assert len(listing.splitlines()) == len(words) + len(headers)
        tpp.disassemble(words, addresses=False)
        assert [i.words for i in tpp.decode_all(words)] == [(w,) for w in words]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_as_raw_words_disassemble(data):
    data = data[: len(data) // 2 * 2]
    words = read_words(data, "raw", word_bits=16, byte_order="big")
    assert len(words) == len(data) // 2
    disassemble_everything(words)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_as_hex_text_disassemble_or_are_refused(data):
    try:
        words = read_words(data, "hex", word_bits=16)
    except InputError:
        return
    disassemble_everything(words)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 0xFFFF).map(lambda w: f"{w:04X}"), max_size=40))
def test_hex_word_files_disassemble(lines):
    words = read_words("\n".join(lines).encode(), "hex", word_bits=16)
    assert words == [int(line, 16) for line in lines]
    disassemble_everything(words)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 0xFFFF), max_size=64))
def test_raw_word_lists_disassemble(words):
    disassemble_everything(words)
