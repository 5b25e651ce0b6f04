"""RSX instructions described in core's model: what the two descriptions share.

This module owns the operand kinds the RSX text needs beyond core's (swizzles, write masks,
float vectors, loop counts), the source operands with their SUB / ABS spellings, the tables
that read spellings they never print (:class:`~shaderkit.core.model.SubTable` (``read_only``)), the way spelling-only copies of
forms are made, and the way the hints of the ``#!`` syntax are read off a decoded instruction; :mod:`.description_fragment` and :mod:`.description_vertex` declare the fields
and forms (spec/rsx.md sections 2 and 3). Word order follows the model's convention for
variable length: word 0 (D0 / OPDEST) is the least significant word, fields are written with
:func:`~shaderkit.core.model.in_word` on the normalised words of spec section 1, and an FP
literal slot is words 4 to 7.

Program-level spellings come from the printer's caller, as the model allows: a literal prints
as ``c[k]`` and a LOOP/REP count as ``c[k]`` through ``names`` (field → value → name), branch
targets as ``L<n>`` through ``labels``; without them literals and counts print inline
(``{1, 0, 0.5, 2}``, ``{3, 0, 1}``) and targets as numbers. Fields the text never shows are
either implied by the form (what the assembler writes, as PSL1GHT cgcomp does) or carried
(the end bit, FP block offsets) for the assembler driver to set.

The descriptions read every spelling of NV assembly text that the retired hand-written
assembler read (its tables of names are in :mod:`.syntax`) and print one: the printed names come first in a register
file's names, other spellings are later names, read-only cases of a :class:`~shaderkit.core.model.SubTable` (``read_only``) or
spelling-only forms. A source reads its sign and bars in any arrangement that substituting a
declared name as text gives (:func:`fold_source`: ``--x``, ``|-x|``, ``|x|.y``), and chained
swizzles compose (``R0.zw.x`` is ``R0.z``); FP reads a bare number as a literal and ``c[N]``
through the context's ``value_names["literal"]`` (LOOP and REP counts too).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import (Description, Instruction, OperandKind, ParseContext, Registers, SubTable, case,
                                  in_word)
from shaderkit.core.model.templates import moved

from . import syntax

LANES = "xyzw"
CONDITION_NAMES = ("FL", "LT", "EQ", "LE", "GT", "NE", "GE", "TR")
LITERAL_BITS = "255:128"  # words 4..7: the FP literal slot (x in word 4)


def bits_in(word: int, msb: int, lsb: int | None = None) -> str:
    return in_word(word, msb, lsb, word_bits=32)


def swizzle_lanes(text: str) -> tuple[int, int, int, int]:
    """The lanes ``text`` selects: ``""`` is the identity, ``.xy`` is ``.xyyy`` (the last letter
    repeats), and a swizzle of a swizzle composes (``.zw.x`` is ``.z``: a declared name written
    with a swizzle, substituted where the name is read with one). ValueError for anything else."""
    lanes = (0, 1, 2, 3)
    if not text:
        return lanes
    if not re.fullmatch(r"(?:\.[xyzw]{1,4})+", text):
        raise ValueError(text)
    for letters in text[1:].split("."):
        step = [LANES.index(letter) for letter in letters]
        step += [step[-1]] * (4 - len(step))
        lanes = tuple(lanes[lane] for lane in step)
    return lanes


SWIZZLES = r"(?:\.[xyzw]{1,4})*"


class Swizzle(OperandKind):
    """``.x`` / ``.xzzw`` / nothing for the identity; 8 raw bits, x in the high or low pair. On
    input, chained swizzles compose (:func:`swizzle_lanes`)."""

    def __init__(self, x_in_high_bits: bool):
        self.x_in_high_bits = x_in_high_bits

    def _lanes(self, value: int) -> tuple[int, ...]:
        lanes = tuple((value >> (2 * position)) & 3 for position in range(4))
        return tuple(reversed(lanes)) if self.x_in_high_bits else lanes

    def _raw(self, lanes: tuple[int, ...]) -> int:
        ordered = tuple(reversed(lanes)) if self.x_in_high_bits else lanes
        return sum(lane << (2 * position) for position, lane in enumerate(ordered))

    def format(self, value: int) -> str:
        return syntax.swizzle_suffix(self._lanes(value))

    def parse(self, text: str, context: ParseContext) -> int:
        try:
            return self._raw(swizzle_lanes(text))
        except ValueError:
            raise SourceError(f"'{text}' is not a swizzle (1 to 4 of x, y, z, w)", 1, len(text)) from None

    def pattern(self) -> str:
        return SWIZZLES


class WriteMask(OperandKind):
    """``.xz`` / nothing for xyzw; an empty mask has no spelling (its operand shows xyzw)."""

    def __init__(self, x_in_high_bit: bool):
        self.x_in_high_bit = x_in_high_bit

    def _bit(self, lane: int) -> int:
        return 1 << (3 - lane if self.x_in_high_bit else lane)

    def format(self, value: int) -> str:
        return syntax.mask_suffix(tuple(bool(value & self._bit(lane)) for lane in range(4)))

    def can_format(self, value: int) -> bool:
        return value != 0

    def parse(self, text: str, context: ParseContext) -> int:
        if not text:
            return 0xF
        if not re.fullmatch(r"\.x?y?z?w?", text) or text == ".":
            raise SourceError(f"'{text[1:]}' is not a write mask (x, y, z, w in that order)", 2, max(1, len(text) - 1))
        return sum(self._bit(LANES.index(letter)) for letter in text[1:])

    def pattern(self) -> str:
        # Any run of lane letters, so one out of order is read here and reported as such.
        return r"(?:\.[xyzw]+)?"


def top_level_plus(text: str) -> int | None:
    """The column of a ``+`` outside brackets that joins two operations (not a sign: something
    other than a comma, bracket or bar comes before it), or None."""
    depth = 0
    previous = ""
    for position, character in enumerate(text):
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth = max(0, depth - 1)
        elif character == "+" and depth == 0 and previous not in ("", ",", "|", "-", "+"):
            return position + 1
        if not character.isspace():
            previous = character
    return None


def inline_constant(text: str) -> int | None:
    """The column of a ``{`` that starts an operand (after any signs and bars), or None."""
    found = re.search(r"(?:^|,)[\s+\-|]*(\{)", text)
    return None if found is None else found.start(1) + 1


class IndexedRegisters(Registers):
    """A register file whose names include ``<letter>[n]``: an index past the file reads as
    this file's, so the error says where the file ends."""

    def __init__(self, names, letter: str, count: int):
        super().__init__(names)
        self.letter = letter
        self.count = count

    def parse(self, text: str, context: ParseContext) -> int:
        found = re.fullmatch(rf"{self.letter}\[(\d+)\]", text)
        if found is not None and (syntax.small_decimal(found.group(1)) or 0) >= self.count:
            raise SourceError(f"{self.letter} index {found.group(1)} is out of range (0..{self.count - 1})",
                              3, len(found.group(1)))
        return super().parse(text, context)

    def pattern(self) -> str:
        return super().pattern() + rf"|{self.letter}\[\d+\]"


class RegisterIndex(OperandKind):
    """The number after a register letter (the 3 of R3): any digits read, so a number past the
    file says where the file ends."""

    def __init__(self, letter: str, count: int, bracketed: bool = False):
        self.letter = letter
        self.count = count
        self.bracketed = bracketed  # c[5] rather than R5

    def format(self, value: int) -> str:
        return str(value)

    def can_format(self, value: int) -> bool:
        return 0 <= value < self.count

    def parse(self, text: str, context: ParseContext) -> int:
        value = syntax.small_decimal(text.lstrip("0") or "0") if text.isdigit() else None
        if value is None or value >= self.count:
            if self.bracketed:
                raise SourceError(f"{self.letter} index {text} is out of range (0..{self.count - 1})", 1, len(text))
            # Column 0: the register's letter, just before the number.
            raise SourceError(f"{self.letter}{text}: {self.letter} registers go up to {self.letter}{self.count - 1}",
                              0, len(text) + 1)
        return value

    def pattern(self) -> str:
        return r"\d+"


def _float_words(text: str, column: int) -> list[int]:
    values = []
    for item in text.split(","):
        item = item.strip()
        item = re.sub(r"\(.*\)$", "", item).strip()  # the listing spelling 0x3f800000(1)
        if re.fullmatch(r"-?0[xX][0-9a-fA-F]{1,8}", item):
            negative = item.startswith("-")
            bits = int(item.lstrip("-"), 16)
            values.append(bits ^ (0x80000000 if negative else 0))
            continue
        if re.fullmatch(r"-?0[xX][0-9a-fA-F]+", item):
            raise SourceError("raw float bits need at most 8 hex digits", column, len(item))
        try:
            number = float(item)
        except ValueError:
            raise SourceError(f"'{item}' is not a number", column, max(1, len(item))) from None
        try:
            if math.isinf(number) and item.lstrip("+-").lower() not in ("inf", "infinity"):
                raise ValueError(item)  # 1e400: a number too large, not an infinity written as one
            values.append(syntax.float_bits_of(number))
        except ValueError:
            raise SourceError(f"{item} does not fit in a 32-bit float", column, max(1, len(item))) from None
    return values


def literal_words(value: int) -> tuple[int, int, int, int]:
    """The four 32-bit words (x first) of a 128-bit literal value."""
    return tuple((value >> (32 * lane)) & 0xFFFFFFFF for lane in range(4))


def literal_value(words) -> int:
    """The 128-bit literal value of four 32-bit words (x first)."""
    return sum(word << (32 * lane) for lane, word in enumerate(words))


# A number written alone where a constant vector may stand: every lane of an inline literal
# (``MOVR R0, 0.5`` is ``{0.5}``), in NV text's spelling (no sign: a sign before it is
# the source's negation, so ``-0.5`` reads as ``-{0.5}``, as cgcomp's text reads).
BARE_NUMBER = r"0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"


class FloatVector(OperandKind):
    """A literal vec4 (128 raw bits, x in the low word): ``{1, 0, 0.5, 2}``; on input also
    ``{0.5}`` (every lane), ``{a, b}`` / ``{a, b, c}`` (ARB: y, z = 0 and w = 1), the listing's
    ``{0x3f800000(1), …}`` and a bare number (:data:`BARE_NUMBER`, every lane)."""

    def format(self, value: int) -> str:
        return "{" + ", ".join(syntax.float_text(word) for word in literal_words(value)) + "}"

    def parse(self, text: str, context: ParseContext | None) -> int:
        if re.fullmatch(BARE_NUMBER, text):
            return literal_value(_float_words(text, 1) * 4)
        if re.fullmatch(r"c\[\d+\]", text):  # a constant the context does not name (``value_names``)
            raise SourceError(f"{text} is not declared (#const or #var)", 1, len(text))
        if not (text.startswith("{") and text.endswith("}")):
            raise SourceError(f"expected a constant such as {{1, 0, 0, 1}}, got '{text}'", 1, len(text))
        values = _float_words(text[1:-1], 2)
        if len(values) > 4:
            raise SourceError("a constant vector has at most 4 values", 1, len(text))
        if len(values) == 1:
            values = values * 4
        values = values + [0, 0, 0, syntax.float_bits_of(1.0)][len(values):]
        return literal_value(values)

    def pattern(self) -> str:
        # c[k]: the name a program-level printer gives the literal (``names``).
        return rf"\{{[^{{}}]*\}}|c\[\d+\]|{BARE_NUMBER}"


class LoopCounts(OperandKind):
    """FP LOOP's count, start and increment (8 bits each, count lowest): ``{3, 0, 1}``; with
    ``count_only`` (REP) one number: ``{4}``."""

    def __init__(self, count_only: bool = False):
        self.count_only = count_only

    def format(self, value: int) -> str:
        if self.count_only:
            return f"{{{value}}}"
        return "{" + ", ".join(str((value >> shift) & 0xFF) for shift in (0, 8, 16)) + "}"

    def parse(self, text: str, context: ParseContext) -> int:
        """The counts are the x, y and z lanes of a constant vector, as a ``#const`` line holds
        them (``{3, 0, 1, 0}``; ``{3, 0, 1}``, ``{4}`` and a bare ``4`` widen as every literal
        does), each truncated to a whole number; REP reads x alone. The constant may be a
        ``c[N]`` the context names as a literal (``value_names["literal"]``, the words a
        ``#const`` gives it), and a swizzle picks its lanes (``c[2].zyx``)."""
        found = re.fullmatch(rf"(?P<constant>.*?)(?P<swizzle>{SWIZZLES})", text.strip(), re.DOTALL)
        constant, swizzle = found["constant"], found["swizzle"]
        named = context.value_names.get("literal", {}) if context is not None else {}
        value = named[constant] if constant in named else FloatVector().parse(constant, context)
        words = literal_words(value)
        lanes = [syntax.bits_to_float(words[lane]) for lane in swizzle_lanes(swizzle)]
        counts = lanes[:1] if self.count_only else lanes[:3]
        if not all(0 <= value <= 255 for value in counts):  # NaN fails too
            raise SourceError(f"{'REP' if self.count_only else 'LOOP'} count, start and step must be 0..255", 1,
                              len(text))
        return sum(int(value) << (8 * index) for index, value in enumerate(counts))

    def pattern(self) -> str:
        return rf"(?:\{{[^{{}}]*\}}|c\[\d+\]|{BARE_NUMBER}){SWIZZLES}"


def fold_source(text: str) -> str:
    """A source's text with its signs and bars as the printed spellings have them: blanks go,
    ``+x`` is ``x``, ``--x`` is ``x`` (signs multiply), ``|-x|`` and ``||x||`` are ``|x|`` (abs
    applies before negate, spec 3.8, so a sign inside bars counts for nothing), and a swizzle
    after the bars moves inside them (``|x|.y`` is ``|x.y|``, composing with a swizzle ``x``
    has). These are the texts that substituting a declared name gives (``-n`` with ``n`` =
    ``-R0`` is ``--R0``, ``|n|.x`` with ``n`` = ``-R0.zw`` is ``|-R0.zw|.x``), which the old
    grammar read as ``R0`` and ``|R0.z|``. A text of another shape is returned as it is."""
    compact = re.sub(r"\s+", "", text)
    try:
        negate, absolute, body, end = _folded(compact, 0)
    except ValueError:
        return text
    if end != len(compact):
        return text
    return ("-" if negate else "") + (f"|{body}|" if absolute else body)


def _folded(text: str, position: int) -> tuple[bool, bool, str, int]:
    """(negated, in bars, register text, end) of the operand starting at ``position``."""
    negate = False
    while position < len(text) and text[position] in "+-":
        negate ^= text[position] == "-"
        position += 1
    if text.startswith("|", position):
        _, _, body, end = _folded(text, position + 1)
        if not text.startswith("|", end):
            raise ValueError(text)
        swizzle = re.compile(SWIZZLES).match(text, end + 1)
        return negate, True, body + swizzle.group(), swizzle.end()
    end = text.find("|", position)
    end = len(text) if end < 0 else end
    if end == position:
        raise ValueError(text)
    return negate, False, text[position:end], end


@dataclass(frozen=True)
class SourceTable(SubTable):
    """A source operand's table (sign and bars around a register): its text is folded first
    (:func:`fold_source`), so every way of writing the same sign and bars reads as the one the
    printer writes."""

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        folded = fold_source(text)
        try:
            return super().read(folded, context, description)
        except SourceError as error:
            if folded == text:
                raise
            raise moved(error, 1, max(1, len(text))) from None


SOURCE_SPELLINGS = ("-|{}|", "|{}|", "-{}", "{}")


def source_operands(number: int) -> dict[str, SubTable]:
    """Source ``number`` (negation and bars around what its ``s<n>_register`` operand reads) as
    written, and the two pseudo-instruction spellings of it: ``s<n>_negated`` (SUB's second
    operand, which ADD negates) and ``s<n>_absolute`` (ABS's operand, which MOV reads in bars:
    abs applies before negate, spec 3.8, so ABS of ``-a`` or ``-|a|`` is ``|a|``). Each reads
    its text folded (:class:`SourceTable`)."""
    body = f"{{s{number}_register}}"
    negate, absolute = f"source{number}_negate", f"source{number}_abs"

    def table(spellings, flags) -> SubTable:
        return SourceTable(tuple(case(written.format(body), **{negate: negated, absolute: barred})
                                 for written, (negated, barred) in zip(spellings, flags)), title="source")

    return {f"s{number}": table(SOURCE_SPELLINGS, ((1, 1), (0, 1), (1, 0), (0, 0))),
            f"s{number}_negated": table(SOURCE_SPELLINGS, ((0, 1), (1, 1), (0, 0), (1, 0))),
            f"s{number}_absolute": table(SOURCE_SPELLINGS, ((0, 1),) * 4)}


def with_spellings(names: Mapping[int, tuple[str, ...]], spellings: Mapping[str, int]) -> dict[int, tuple[str, ...]]:
    """``names`` (number → names, the printed one first) with each of ``spellings`` (name →
    number) added after the names its number has: read, never printed."""
    result = {number: tuple(written) for number, written in names.items()}
    for name, number in spellings.items():
        if number in result and name not in result[number]:
            result[number] = (*result[number], name)
    return result


def other_spellings(forms, spellings: Mapping[str, Sequence[tuple[str, Mapping[str, str]]]]) -> list:
    """Spelling-only copies of ``forms`` (read, never printed): ``spellings`` maps a form's
    mnemonic to its other spellings, each a mnemonic and the operands it writes differently
    (``{"{s1}": "{s1_negated}"}`` for SUB as ADD)."""
    copies = []
    for declared in forms:
        for mnemonic, operands in spellings.get(declared.mnemonic, ()):
            template = mnemonic + declared.template[len(declared.mnemonic):]
            for written, replacement in operands.items():
                template = template.replace(written, replacement)
            copies.append(replace(declared, template=template, name=f"{mnemonic} ({declared.name or declared.template})",
                                  spelling_only=True))
    return copies


def hints(description: Description, instruction: Instruction, partition: tuple[str, ...]) -> list[str]:
    """``field=0x…`` for each field of ``partition`` (the fields that cover every bit once)
    holding bits the text loses, in partition order; ``literal=w,w,w,w`` for a lost literal,
    or for a literal slot the text does not read."""
    lost = instruction.unknown_bits
    # A decoded instruction's own words: bits no field of its form claims are not in its fields.
    words = instruction.words or description.encode(instruction)
    value = sum(word << (32 * index) for index, word in enumerate(words))
    found = []
    for name in partition:
        field = description.fields[name]
        if lost & field.mask or (name == "literal" and _literal_unread(description, words, value, lost)):
            if name == "literal":
                words = [(value >> (128 + 32 * lane)) & 0xFFFFFFFF for lane in range(4)]
                found.append("literal=" + ",".join(f"{word:#x}" for word in words))
            else:
                found.append(f"{name}={field.read(value):#x}")
    return found


def _literal_unread(description: Description, words, value: int, lost: int) -> bool:
    """Whether an instruction followed by a literal slot has a text that reads none (every
    source reading the literal shows something else), so the slot's words must be hinted
    even where they are zero."""
    if len(words) <= description.words_per_instruction:
        return False
    types = (description.fields[f"source{slot}_type"] for slot in range(3))
    return not any(kind.read(value) == 2 and not lost & kind.mask for kind in types)


def value_names(names: Mapping[str, Mapping[int, str]]) -> dict[str, dict[str, int]]:
    """The parser's side of printing ``names``: field → name → value."""
    return {field: {name: value for value, name in values.items()} for field, values in names.items()}
