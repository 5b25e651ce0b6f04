"""What the conformance tests share: the instruction sets under test, their ``(hex, text)`` tables,
their inline-expectation ``.s`` files, real programs to mutate, and word strategies.

Everything here is generic: an instruction set is a registered name whose ISA object decodes
bare words (:func:`shaderkit.isa.instruction_sets`), and what is per-ISA lives in data files
(``tables/<name>.tsv``, ``asm/<name>/*.s``), never in code.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from shaderkit.core.diagnostics import ShaderkitError
from shaderkit.isa import get, instruction_sets

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
TABLES = HERE / "tables"
ASM_FILES = HERE / "asm"
INSTRUCTION_SETS = instruction_sets()

# The inline expectation of a customasm-style test line (README.md): no instruction set's
# syntax contains it, so it can follow any statement or comment.
MARKER = "~>"


@functools.cache
def isa(name: str):
    return get(name)


# --- (hex, text) tables ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    name: str
    line: int
    words: tuple[int, ...]
    text: str

    @property
    def id(self) -> str:
        return f"{self.name}:{self.line}"


def table_path(name: str) -> Path:
    return TABLES / f"{name}.tsv"


def table_comments(name: str) -> list[str]:
    return [line for line in table_path(name).read_text(encoding="utf-8").splitlines() if line.startswith("#")]


def table_rows(name: str) -> list[TableRow]:
    """Rows ``HEX WORDS<TAB>TEXT``; lines starting with ``#`` are comments (the text of a row may
    hold ``#`` itself, as RSX hints and TPP immediates do)."""
    rows = []
    for number, line in enumerate(table_path(name).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        hex_words, text = line.split("\t", 1)
        rows.append(TableRow(name, number, tuple(int(word, 16) for word in hex_words.split()), text))
    return rows


def all_table_rows() -> list[TableRow]:
    return [row for name in INSTRUCTION_SETS for row in table_rows(name)]


# --- inline-expectation assembly files ---------------------------------------------------------------


@dataclass(frozen=True)
class ExpectedError:
    line: int
    column: int
    fragment: str


@dataclass(frozen=True)
class AsmCase:
    """One ``.s`` file: the source with the expectations cut off, and what they expect."""

    path: Path
    source: str
    words: tuple[int, ...]  # the expected words of every line, in order
    errors: tuple[ExpectedError, ...]

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


_WORDS = re.compile(r"(0x[0-9a-fA-F]+\s*)+")
_ERROR = re.compile(r"error\s+(\d+):\s*(.+)")


def read_asm_case(path: Path) -> AsmCase:
    lines, words, errors = [], [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        code, marker, expectation = line.partition(MARKER)
        lines.append(code.rstrip())
        if not marker:
            continue
        expectation = expectation.strip()
        if _WORDS.fullmatch(expectation):
            words.extend(int(word, 16) for word in expectation.split())
        elif error := _ERROR.fullmatch(expectation):
            errors.append(ExpectedError(number, int(error.group(1)), error.group(2).strip()))
        else:
            raise ValueError(f"{path}:{number}: expectation '{expectation}' is neither words nor 'error COL: text'")
    if words and errors:
        raise ValueError(f"{path}: a file expects either words or errors (nothing is assembled when one fails)")
    return AsmCase(path, "\n".join(lines) + "\n", tuple(words), tuple(errors))


def asm_cases(name: str) -> list[AsmCase]:
    return [read_asm_case(path) for path in sorted((ASM_FILES / name).glob("*.s"))]


def all_asm_cases() -> list[tuple[str, AsmCase]]:
    return [(name, case) for name in INSTRUCTION_SETS for case in asm_cases(name)]


# --- real programs to mutate ---------------------------------------------------------------------

SOURCE_SUFFIXES = (".s", ".vp", ".fp", ".asm", ".txt")
SOURCE_FOLDERS = ("examples", "tests/golden")
LARGEST_SOURCE = 64 * 1024


@functools.cache
def repository_sources() -> tuple[str, ...]:
    """Every program text in examples/ and tests/golden/, of any instruction set."""
    texts = []
    for folder in SOURCE_FOLDERS:
        for path in sorted((REPOSITORY / folder).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and path.stat().st_size <= LARGEST_SOURCE:
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
    return tuple(texts)


@functools.cache
def own_sources(name: str) -> tuple[str, ...]:
    """The repository programs this instruction set assembles: its real programs, found by trying
    them all rather than by knowing where each ISA keeps its files."""
    own = []
    for text in repository_sources():
        try:
            isa(name).assemble(without_includes(text))
        except ShaderkitError:
            continue
        own.append(text)
    return tuple(own)


def without_includes(text: str) -> str:
    """``text`` with every ``include`` spelled differently: an include directive reads a file, and
    a mutated one could name any path; the assembler's include handling is tested elsewhere."""
    return re.sub("include", "inc1ude", text, flags=re.IGNORECASE)


# --- strategies ------------------------------------------------------------------------------------


def any_word(name: str) -> st.SearchStrategy[int]:
    return st.integers(0, (1 << isa(name).word_bits) - 1)


@st.composite
def instruction_words(draw, name: str) -> list[int]:
    """As many words as the longest instruction takes: random, or the words of a table row
    with a few bits flipped (random words of a wide instruction set are mostly data)."""
    count = isa(name).max_instruction_words
    if draw(st.booleans()):
        return draw(st.lists(any_word(name), min_size=count, max_size=count))
    words = list(draw(st.sampled_from([row.words for row in table_rows(name)])))
    words += draw(st.lists(any_word(name), min_size=count - len(words), max_size=count - len(words)))
    for index, bit in draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, isa(name).word_bits - 1)),
                                    max_size=3)):
        words[index] ^= 1 << bit
    return words


# Short enough for the smallest program memory of any instruction set, and too short to be
# mistaken for a program image with a header.
MAX_PROGRAM_INSTRUCTIONS = 8


@st.composite
def programs(draw, name: str) -> list[int]:
    """The words of 1 to MAX_PROGRAM_INSTRUCTIONS whole instructions (data items included)."""
    words: list[int] = []
    for _ in range(draw(st.integers(1, MAX_PROGRAM_INSTRUCTIONS))):
        candidate = draw(instruction_words(name))
        words += candidate[:isa(name).decode(candidate).length]
    return words


@st.composite
def mutated_sources(draw, name: str) -> str:
    """A real program of the instruction set (any repository program if it has none) with a few
    edits: a span deleted, text inserted, a line repeated or two lines swapped."""
    text = draw(st.sampled_from(own_sources(name) or repository_sources()))
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(("delete", "insert", "repeat", "swap")))
        if edit in ("delete", "insert"):
            start = draw(st.integers(0, len(text)))
            if edit == "delete":
                text = text[:start] + text[start + draw(st.integers(0, 12)):]
            else:
                text = text[:start] + draw(st.text(max_size=8)) + text[start:]
            continue
        lines = text.split("\n")
        first, second = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        if edit == "repeat":
            lines.insert(second, lines[first])
        else:
            lines[first], lines[second] = lines[second], lines[first]
        text = "\n".join(lines)
    return text
