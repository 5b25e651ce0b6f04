"""A processor's reference manual, rendered from its description so that it cannot drift.

This module owns the shape of a reference (:class:`Reference`: hand-written prose around
one generated :class:`InstructionEntry` per instruction), its Markdown rendering — the same
text ``docs/<isa>.md`` holds and ``shaderkit doc`` prints — and the helpers an ISA uses to
derive entries from what it already declares: the syntax and the bit diagram of a
:class:`~shaderkit.core.model.Form`. The meaning of an instruction comes from the ISA's semantics
registry (:meth:`shaderkit.core.semantics.Semantics.meaning`: a function's docstring, or the
sentence registered for what the machine carries out itself).

It knows no ISA. Each ISA object offers ``documentation()`` returning a :class:`Reference`;
:mod:`shaderkit.isa.docs` writes and checks the files of every registered processor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources

from .diagnostics import InputError
from .model import Description, Form
from .suggest import did_you_mean

# The line of a prose file that the generated instruction entries replace.
INSTRUCTIONS_MARKER = "<!-- instructions -->"
# A period that ends these does not end the sentence.
_ABBREVIATIONS = ("i.e.", "e.g.", "etc.")


@dataclass(frozen=True)
class InstructionEntry:
    """What a reader needs to know about one instruction.

    ``syntax`` is how it reads in assembly, ``encoding`` where its bits go, ``meaning``
    what it does (Markdown paragraphs), ``flags`` which conditions or flags it reads or
    writes. ``group`` tells apart instructions that share a mnemonic (the RSX vertex and
    fragment ADD); ``aliases`` are other accepted spellings.
    """

    mnemonic: str
    syntax: str
    encoding: str
    meaning: str
    flags: str = ""
    group: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.mnemonic} ({self.group})" if self.group else self.mnemonic

    @property
    def summary(self) -> str:
        """The meaning's first sentence, for the overview table."""
        text = self.meaning.strip().split("\n\n")[0].replace("\n", " ")
        depth = 0
        for position, character in enumerate(text):
            depth += {"(": 1, ")": -1}.get(character, 0)
            ends_sentence = text[position + 1:position + 2] in ("", " ")
            if character == "." and depth == 0 and ends_sentence and not text[:position + 1].endswith(_ABBREVIATIONS):
                return text[:position]
        return text.rstrip(".")

    def render(self) -> str:
        lines = [f"### {self.title}", "", f"- syntax: `{self.syntax}`"]
        if self.aliases:
            lines.append(f"- also spelled: {', '.join(f'`{alias}`' for alias in self.aliases)}")
        lines.append(f"- encoding: {self.encoding}")
        if self.flags:
            lines.append(f"- flags: {self.flags}")
        lines += ["", self.meaning.strip(), ""]
        return "\n".join(lines)


@dataclass(frozen=True)
class Reference:
    """One processor's manual: ``prose`` (Markdown) holds :data:`INSTRUCTIONS_MARKER` once,
    where the overview table and the entries go.

    ``stem`` names the file (``docs/<stem>.md``); several processor names may share one
    reference (``rsx``, ``rsx-vp``, ``rsx-fp``), each looking mnemonics up only in its
    ``scope`` of groups (empty: all of them).
    """

    stem: str
    title: str
    prose: str
    entries: tuple[InstructionEntry, ...]
    scope: tuple[str, ...] = field(default=())
    source: str = ""

    def __post_init__(self):
        if self.prose.count(INSTRUCTIONS_MARKER) != 1:
            raise ValueError(f"{self.stem}: the prose must hold the line {INSTRUCTIONS_MARKER!r} exactly once")

    def render(self) -> str:
        """The whole manual as Markdown: prose with the generated instruction section."""
        before, after = self.prose.split(INSTRUCTIONS_MARKER)
        header = (f"<!-- Generated from {self.source or 'the ' + self.stem + ' package'} and the instruction "
                  f"descriptions by `python -m shaderkit.isa.docs --write docs`; edit those, not this file. -->\n\n")
        return header + before.rstrip() + "\n\n" + self.render_instructions() + "\n" + after.lstrip()

    def render_instructions(self) -> str:
        rows = ["| mnemonic | syntax | what it does |", "|---|---|---|"]
        for entry in self.entries:
            rows.append(f"| {entry.title} | `{_table_cell(entry.syntax)}` | {_table_cell(entry.summary)} |")
        return "\n".join(rows) + "\n\n" + "\n".join(entry.render() for entry in self.entries)

    def mnemonics(self) -> list[str]:
        """Every name :meth:`find` accepts in this scope, mnemonics and aliases."""
        names: list[str] = []
        for entry in self.scoped_entries():
            for name in (entry.mnemonic, *entry.aliases):
                if name not in names:
                    names.append(name)
        return names

    def scoped_entries(self) -> list[InstructionEntry]:
        return [entry for entry in self.entries if not self.scope or entry.group in self.scope]

    def find(self, mnemonic: str) -> list[InstructionEntry]:
        """The entries for ``mnemonic`` (any case, aliases too; else every ``mnemonic.<variant>``);
        InputError with a suggestion if none."""
        wanted = mnemonic.casefold()
        found = [entry for entry in self.scoped_entries()
                 if wanted in (name.casefold() for name in (entry.mnemonic, *entry.aliases))]
        if not found:
            # A mnemonic whose variants carry a dotted part (USSE's vmov.f32, vmov.i8 ...): all of them.
            found = [entry for entry in self.scoped_entries() if entry.mnemonic.casefold().startswith(wanted + ".")]
        if not found:
            where = f"the {self.stem} manual" + (f" ({' and '.join(self.scope)} instructions)" if self.scope else "")
            raise InputError(f"no instruction '{mnemonic}' in {where}{did_you_mean(mnemonic, self.mnemonics())}")
        return found


def _table_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# --------------------------------------------------------------------------------------
# Helpers that derive entry parts from what an ISA declares


def prose(package: str, name: str = "reference.md") -> str:
    """A Markdown file shipped inside ``package`` (package data)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def form_syntax(form: Form) -> str:
    """A form's template as readers see it: ``ADD{cond} {rd} {rs}`` → ``ADD{cond} rd rs``.

    A placeholder glued to the mnemonic stays in braces (it is an optional suffix); an
    operand that may be left out is shown in brackets.
    """
    head, _, rest = form.template.partition(" ")
    operands = re.sub(r"\{(\w+)\?\}", r"[\1]", rest)
    operands = re.sub(r"\{(\w+)\}", r"\1", operands)
    return f"{head} {operands}".strip()


@dataclass(frozen=True)
class BitRange:
    """A run of bits ``high..low`` of an instruction that one thing owns."""

    high: int
    low: int
    name: str  # field or operand name; '' for bits nothing reads
    value: int | None = None  # fixed value, if the encoding fixes these bits

    def render(self) -> str:
        span = f"{self.high}" if self.high == self.low else f"{self.high}–{self.low}"
        if self.value is not None:
            width = self.high - self.low + 1
            shown = f"{self.value:0{width}b}" if width <= 8 else f"0x{self.value:0{(width + 3) // 4}x}"
            return f"{self.name}={shown} ({span})"
        return f"{self.name or 'unused'} ({span})"


def bit_diagram(ranges: Sequence[BitRange]) -> str:
    """Ranges, most significant first, as one line: ``op=00011 (15–11) · rd (10–8) · …``."""
    return "`" + " · ".join(piece.render() for piece in ranges) + "`"


def form_bit_ranges(description: Description, form: Form) -> list[BitRange]:
    """Who owns each bit of ``form``'s instruction word(s), most significant first.

    Fixed fields show their value (bits a form's ``pattern`` fixes without a name show as
    ``fixed``); operand fields their operand name; a form with fields of its own reads them
    through its compiled scope; bits the form neither fixes nor reads are ``unused`` (the disassembler prints words that set them
    as data).
    """
    # A form with fields of its own reads them through its compiled scope (its fields over the description's).
    scope = description.compiled(form).scope if form.fields else description
    owner: dict[int, tuple[str, int | None, int]] = {}
    for name, value in form.fixed:
        _claim(owner, scope.fields[name].pieces, name, value)
    pattern_mask, pattern_value = form.pattern
    for bit in range(description.instruction_bits):
        if pattern_mask >> bit & 1:  # bits a bit-pattern table fixes without a name
            owner.setdefault(bit, ("fixed", pattern_value, bit))
    for placeholder in form.placeholders:
        # An operand owns its field; a sub-table every field its cases read.
        for field_name in scope.operands[placeholder].fields_set(scope):
            _claim(owner, scope.fields[field_name].pieces, placeholder, None)
    ranges: list[BitRange] = []
    for bit in range(description.instruction_bits - 1, -1, -1):
        name = owner.get(bit, ("", None, 0))[0]
        if ranges and ranges[-1].name == name:
            ranges[-1] = BitRange(ranges[-1].high, bit, name)
        else:
            ranges.append(BitRange(bit, bit, name))
    return [_with_value(piece, owner) for piece in ranges]


def _claim(owner: dict, pieces: Iterable[tuple[int, int]], name: str, value: int | None) -> None:
    pieces = list(pieces)
    width = sum(msb - lsb + 1 for msb, lsb in pieces)
    position = width
    for msb, lsb in pieces:
        for bit in range(msb, lsb - 1, -1):
            position -= 1
            owner.setdefault(bit, (name, value, position))


def _with_value(piece: BitRange, owner: dict) -> BitRange:
    name, value, _ = owner.get(piece.low, ("", None, 0))
    if value is None or not name:
        return piece
    bits_value = 0
    for bit in range(piece.high, piece.low - 1, -1):
        _, _, position = owner[bit]
        bits_value = (bits_value << 1) | ((value >> position) & 1)
    return BitRange(piece.high, piece.low, name, bits_value)


def form_entry(description: Description, form: Form, meaning: str, *, flags: str = "",
               group: str = "") -> InstructionEntry:
    """An entry for one form of a :class:`Description`: syntax and bit diagram derived."""
    return InstructionEntry(form.mnemonic, form_syntax(form), bit_diagram(form_bit_ranges(description, form)),
                            meaning, flags, group)
