"""Operand bindings: what a placeholder of a template stands for, in bits and in text.

* :class:`Operand` — one field read through an :class:`~.kinds.OperandKind` (a register, an
  immediate, a condition suffix), optionally limited to ``allowed`` values unless a
  permission is unlocked (``.allow NAME``).
* :class:`SubTable` — a table of :class:`Case` s, each with its own fixed field values and
  its own template (Mesa isaspec's bitset-typed fields, envydis ``T(...)`` sub-tables,
  customasm ``#subruledef``). A case template may hold any placeholder, other sub-tables
  included, and it reads whatever fields of the enclosing instruction it names. A case may
  make the instruction longer (``extra_words``: a trailing literal slot).
* :class:`Flags` — a set of named flags written after a prefix in any order
  (``.skipinv.nosched.end``), each setting a field to a value, printed in declaration order.

Every binding decodes from a :class:`Reading` (the instruction's bits, recording which
fields it reads, so unclaimed bits can be found) and parses into raw field values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from ..diagnostics import SourceError
from ..suggest import did_you_mean
from .kinds import CodeAddress, OperandKind, ParseContext
from .templates import Mismatch, Token, most_specific, moved, parse_token

__all__ = ["Binding", "Operand", "SubTable", "Case", "case", "Flags", "Reading"]


class Reading:
    """One instruction being decoded or printed: its value, its address, label names for
    code addresses, names for other operand values (field → value → name), and the fields
    read so far (the bits the instruction claims).

    ``original`` is the instruction's value; ``value`` is what its text stands for: where an
    operand cannot show its field's value it shows a stand-in, written into ``value``
    (:meth:`substitute`), so what is read afterwards agrees with the text.
    """

    def __init__(self, description, value: int, address: int = 0, labels: Mapping[int, str] | None = None,
                 names: Mapping[str, Mapping[int, str]] | None = None):
        self.description = description
        self.original = value
        self.value = value
        self.address = address
        self.labels = labels
        self.names = names or {}
        self.used: set[str] = set()
        self.extra_words = 0
        self.unknown_operand = False  # an operand showed a value its kind marks as unknown

    def raw(self, name: str) -> int:
        self.used.add(name)
        return self.description.fields[name].read(self.value)

    def number(self, name: str) -> int:
        """The field's value as its transform reads it (signed, scaled, PC-relative)."""
        return self.description.fields[name].value(self.raw(name), self.address)

    def substitute(self, name: str, raw: int) -> None:
        """Show ``raw`` in field ``name`` instead of its value (a stand-in the text can carry)."""
        self.value = self.description.fields[name].write(self.value, raw)

    def __getitem__(self, name: str) -> int:  # predicates read raw fields through this
        return self.raw(name)


class Binding:
    """The interface every placeholder target implements (see the module docstring)."""

    title: str = ""

    def fields_set(self, description) -> tuple[str, ...]:
        raise NotImplementedError

    def render(self, reading: Reading) -> str:
        raise NotImplementedError

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        """Raw field values for ``text``; SourceError with columns counted within ``text``."""
        raise NotImplementedError

    def pattern(self, description) -> str:
        """A regular expression (no capturing groups) for this operand inside a token."""
        return r".+?"

    def spellings(self) -> tuple[str, ...]:
        return ()

    def is_default(self, reading: Reading) -> bool:
        """Whether its fields hold what leaving it out would give (a trailing optional
        operand is then not printed)."""
        fields = reading.description.fields
        return all(reading.raw(name) == (fields[name].default or 0) for name in self.fields_set(reading.description))

    def value(self, reading: Reading) -> int | None:
        """The operand's number, for bindings that are one number (else None)."""
        return None

    def claim(self, reading: Reading) -> None:
        """Mark the fields this operand reads in ``reading`` (as rendering would, without the text)."""
        reading.used.update(self.fields_set(reading.description))


@dataclass(frozen=True)
class Operand(Binding):
    """A field read through a kind; ``allowed`` limits values unless ``unlock`` is granted.

    ``stand_in`` (a raw value) is what the operand shows when its kind cannot write the
    field's value (a register number beyond the documented file, a jump target with no
    label): the text stays valid and the bits it loses are reported (see :class:`Reading`).
    Values named in the reading's ``names`` for this field print as that name, and the
    parser reads the name back from :attr:`ParseContext.value_names`.
    """

    field: str
    kind: OperandKind
    allowed: frozenset[int] | None = None
    unlock: str | None = None
    refusal: str = "value not allowed here"
    title: str = ""  # how messages name it ("condition"); the placeholder name by default
    stand_in: int | None = None

    def fields_set(self, description) -> tuple[str, ...]:
        return (self.field,)

    def value(self, reading: Reading) -> int:
        return reading.number(self.field)

    def _shown(self, reading: Reading) -> int:
        """The number the text shows (the stand-in, substituted, when the value cannot be)."""
        number = reading.number(self.field)
        if self.stand_in is not None and not self._printable(number, reading):
            reading.substitute(self.field, self.stand_in)
            number = reading.number(self.field)
        if number in self.kind.unknown:
            reading.unknown_operand = True
        return number

    def _printable(self, number: int, reading: Reading) -> bool:
        if number in reading.names.get(self.field, {}):
            return True
        if isinstance(self.kind, CodeAddress) and reading.labels is not None:
            return number in reading.labels or not self.kind.labels_only
        return self.kind.can_format(number)

    def render(self, reading: Reading) -> str:
        number = self._shown(reading)
        named = reading.names.get(self.field, {})
        if number in named:
            return named[number]
        if reading.labels and isinstance(self.kind, CodeAddress) and number in reading.labels:
            return self.kind.label_prefix + reading.labels[number]
        return self.kind.format(number)

    def claim(self, reading: Reading) -> None:
        self._shown(reading)

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        named = context.value_names.get(self.field, {})
        if text.strip() in named:
            return {self.field: named[text.strip()]}
        number = self.kind.parse(text, context)
        if (context.final and self.allowed is not None and number not in self.allowed
                and self.unlock not in context.unlocked):
            raise SourceError(self.refusal.format(text=text), 1, len(text))
        try:
            raw = description.fields[self.field].raw(number, context.address)
        except ValueError as error:
            if not context.final:  # labels are not placed yet in the first pass
                return {self.field: 0}
            raise SourceError(str(error), 1, len(text)) from None
        return {self.field: raw}

    def pattern(self, description) -> str:
        return self.kind.pattern()

    def spellings(self) -> tuple[str, ...]:
        return self.kind.spellings()


@dataclass(frozen=True)
class Case:
    """One row of a :class:`SubTable`: the field values that select it and how it reads."""

    template: str
    fixed: tuple[tuple[str, int], ...] = ()
    extra_words: int = 0

    @cached_property
    def token(self) -> Token:
        # Parsed once: sub-tables read it for every instruction they decode, print or parse.
        return parse_token(self.template)


def case(template: str, *, extra_words: int = 0, **fixed: int) -> Case:
    return Case(template, tuple(fixed.items()), extra_words)


@dataclass(frozen=True)
class SubTable(Binding):
    """An operand whose type is a table of cases (see the module docstring).

    ``order`` is how a decoded operand picks its case: ``"specific"`` (the case fixing the
    most bits among those that match) or ``"first"`` (the first that matches, in table order).
    Parsing tries the cases in table order; the first that reads the text wins.
    ``stand_in`` (field → raw value) is substituted when no case matches (a register type
    the text has no spelling for), so the operand still prints, as the case it then matches.
    Several cases may share a spelling (more than one way the bits say the same thing): the
    first in table order is the one the text reads back as, so a decoded later case reports
    the fields where it differs from that one as lost.

    Reading may accept more than printing writes: ``read_only`` cases are read after the
    printed ones and never printed (another name for the same bits); with ``blanks`` the text
    may hold blanks, which count for nothing; ``refusals`` are (regular expression, message)
    pairs, a text matching one is refused with that message (a spelling the language knows and
    forbids).
    """

    cases: tuple[Case, ...]
    title: str = ""
    order: str = "specific"
    stand_in: tuple[tuple[str, int], ...] = ()
    read_only: tuple[Case, ...] = ()
    blanks: bool = False
    refusals: tuple[tuple[str, str], ...] = ()

    @property
    def readable(self) -> tuple[Case, ...]:
        """Every case the parser reads: the printed ones, then the read-only ones."""
        return self.cases + self.read_only

    def __post_init__(self):
        if self.order not in ("specific", "first"):
            raise ValueError(f"unknown case order {self.order!r}")

    def fields_set(self, description) -> tuple[str, ...]:
        # Asked for every instruction parsed: worked out once per description.
        known = self.__dict__.setdefault("_fields_set", {})
        if id(description) not in known:
            names: dict[str, None] = {}
            for row in self.readable:
                names.update(dict.fromkeys(name for name, _ in row.fixed))
                for slot in row.token.slots:
                    names.update(dict.fromkeys(description.operands[slot.name].fields_set(description)))
            known[id(description)] = tuple(names)
        return known[id(description)]

    def chosen(self, reading: Reading) -> Case:
        rows = list(self.cases)
        if self.order == "specific":
            fields = reading.description.fields
            rows.sort(key=lambda row: -sum(fields[name].width for name, _ in row.fixed))
        fields = reading.description.fields
        for attempt in range(2):
            for row in rows:
                # Only the chosen case claims its fields: probing the others reads no bits.
                if all(fields[name].read(reading.value) == value for name, value in row.fixed):
                    return self._as_spelled(row, reading)
            if not self.stand_in or attempt:
                break
            for name, value in self.stand_in:
                reading.substitute(name, value)
        raise ValueError(f"no case of {self.title or 'a sub-table'} matches")  # tables must be total

    def _as_spelled(self, row: Case, reading: Reading) -> Case:
        """``row`` claimed as its text reads back: a case written like an earlier one (a second
        way to select the same spelling) parses as that one, so the text stands for the
        earlier case's field values and the fields only ``row`` fixes are left unclaimed."""
        spelled = next(earlier for earlier in self.cases if earlier.template == row.template)
        for name, value in spelled.fixed:
            reading.substitute(name, value)
            reading.used.add(name)
        return row

    def render(self, reading: Reading) -> str:
        row = self.chosen(reading)
        reading.extra_words += row.extra_words
        return reading.description.render_token(row.token, reading)

    def claim(self, reading: Reading) -> None:
        row = self.chosen(reading)
        reading.extra_words += row.extra_words
        for slot in row.token.slots:
            reading.description.operands[slot.name].claim(reading)

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        written = re.sub(r"\s+", "", text) if self.blanks else text
        for refused, message in self.refusals:
            if re.fullmatch(refused, written, re.IGNORECASE):
                raise SourceError(message, 1, max(1, len(text)))
        try:
            return self._read_cases(written, context, description)
        except SourceError as error:
            if written == text:
                raise
            # Columns count in the text without its blanks: point at all of it as written.
            raise moved(error, 1, max(1, len(text))) from None

    def _read_cases(self, text: str, context: ParseContext, description) -> dict[str, int]:
        shaped: list[SourceError] = []  # from cases with literal text, which the text has
        errors: list[SourceError] = []
        several = len(self.readable) > 1
        for row in self.readable:
            if several and row.token.single_slot is not None and not description.token_regex(row.token).match(text):
                # Not this case's shape: only the shaped cases' errors are reported when there are
                # several, so skip reading it (a register file's "did you mean" is costly).
                continue
            try:
                fields = description.read_token(row.token, text, context)
            except SourceError as error:
                # A bare operand has a shape when the text matches its kind's pattern.
                has_shape = row.token.single_slot is None or description.token_regex(row.token).match(text)
                (shaped if has_shape else errors).append(error)
                continue
            return {**fields, **dict(row.fixed)}
        if len(self.readable) == 1:
            only = (shaped + errors)[0]
            if isinstance(only, Mismatch) and self.title:
                raise Mismatch(f"'{text}' is not a valid {self.title}", 1, max(1, len(text)))
            raise only
        # The case whose shape the text has says what is wrong in it; a bare operand whose
        # pattern the text does not match says no more than that the text is not that case.
        found = most_specific(shaped) if shaped else None
        if found is not None and not isinstance(found, Mismatch):
            raise found
        expected = ""
        if not any(row.token.slots for row in self.readable):
            expected = " (expected " + ", ".join(f"'{row.token.literal}'" for row in self.readable) + ")"
        hint = None if expected else (lambda: did_you_mean(text, self.names(description)))
        raise Mismatch(f"'{text}' is not a valid {self.title or 'operand'}{expected}", 1, max(1, len(text)), hint)

    def names(self, description) -> list[str]:
        """What the cases read as whole words: their plain text, and the names of an operand a
        case starts with (register names): candidates for "did you mean"."""
        names: list[str] = []
        for row in self.readable:
            first = row.token.pieces[0] if row.token.pieces else None
            if not row.token.slots or isinstance(first, str):
                names.append(first if row.token.slots else row.token.literal)  # the text before any operand
            else:
                operand = description.operands[first.name]
                names.extend(operand.names(description) if isinstance(operand, SubTable) else operand.spellings())
        return [name for name in names if len(name) > 2]

    def pattern(self, description) -> str:
        spelled = [*(f"(?:{description.token_pattern(row.token)})" for row in self.readable),
                   *(f"(?:{refused})" for refused, _ in self.refusals)]
        return (r"\s*" if self.blanks else "") + "(?:" + "|".join(spelled) + ")"

    def spellings(self) -> tuple[str, ...]:
        return tuple(row.token.literal for row in self.readable if row.token.literal.strip())


@dataclass(frozen=True)
class Flags(Binding):
    """Named flags after ``prefix`` in any order: ``entries`` maps a flag's name to the
    (field, raw value) it sets. Unset fields read as their default (or 0)."""

    entries: tuple[tuple[str, tuple[str, int]], ...]
    prefix: str = "."
    title: str = "flag"
    case_sensitive: bool = False

    def fields_set(self, description) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for _, (name, _) in self.entries))

    def render(self, reading: Reading) -> str:
        return "".join(f"{self.prefix}{flag}" for flag, (name, value) in self.entries if reading.raw(name) == value)

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        if text and not text.startswith(self.prefix):
            raise SourceError(f"expected {self.title}s starting with '{self.prefix}'", 1, len(text))
        fields: dict[str, int] = {}
        lookup = {self._key(flag): (flag, target) for flag, target in self.entries}
        column = 1
        for part in text.split(self.prefix)[1:] if text else []:
            column += len(self.prefix)
            found = lookup.get(self._key(part))
            if found is None:
                hint = did_you_mean(part, [flag for flag, _ in self.entries])
                raise SourceError(f"unknown {self.title} '{part}'{hint}", column, max(1, len(part)))
            flag, (name, value) = found
            if name in fields:
                raise SourceError(f"'{flag}' repeats or contradicts an earlier {self.title}", column, len(part))
            fields[name] = value
            column += len(part)
        return fields

    def pattern(self, description) -> str:
        names = sorted((flag for flag, _ in self.entries), key=len, reverse=True)
        return f"(?:{re.escape(self.prefix)}(?:{'|'.join(re.escape(name) for name in names)}))*"

    def spellings(self) -> tuple[str, ...]:
        return tuple(f"{self.prefix}{flag}" for flag, _ in self.entries)

    def _key(self, text: str) -> str:
        return text if self.case_sensitive else text.lower()


def flags(prefix: str = ".", title: str = "flag", **entries: tuple[str, int] | str) -> Flags:
    """``flags(skipinv="skipinv", f16=("fmt", 0), f32=("fmt", 1))``: a bare field name sets it to 1."""
    normalised = tuple((name, target if isinstance(target, tuple) else (target, 1)) for name, target in entries.items())
    return Flags(normalised, prefix, title)


__all__.append("flags")
