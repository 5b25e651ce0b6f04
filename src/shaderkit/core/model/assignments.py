"""Raw field values written as ``name=value`` assignments: the text of fields a form's syntax
gives no meaning (a reverse-engineered form whose semantics are unknown, bits a form keeps but
does not use), so that any word still reads back as itself.

An :class:`Assignments` binding is one operand: the fields among ``fields`` that are not 0,
each as ``name=0x…`` (``in_place`` fields at their bit positions; a leading ``_`` of a field's
name, which keeps it out of an instruction's fields, is not written), separated by blanks, in
declaration order; reading takes them in any order. Left out as a trailing optional operand
when every field is 0, one binding stands for any number of fields without making the parser
try every way to leave some of them out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..diagnostics import SourceError
from ..suggest import did_you_mean
from .kinds import ParseContext
from .operands import Binding, Reading

__all__ = ["Assignments"]

_ASSIGNMENT = re.compile(r"(\w+)=(\S+)")


@dataclass(frozen=True)
class Assignments(Binding):
    fields: tuple[str, ...]
    title: str = "field assignment"

    def fields_set(self, description) -> tuple[str, ...]:
        return self.fields

    def render(self, reading: Reading) -> str:
        shown = []
        for name in self.fields:
            raw = reading.raw(name)
            if raw:
                shown.append(f"{name.lstrip('_')}=0x{reading.description.fields[name].value(raw):x}")
        return " ".join(shown)

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        values: dict[str, int] = {}
        column = 1
        for part in text.split(" "):
            if not part:
                column += 1
                continue
            found = _ASSIGNMENT.fullmatch(part)
            if found is None:
                raise SourceError(f"'{part}' is not a name=value assignment", column, len(part))
            written, number = found.groups()
            spelled = {field_name.lstrip("_"): field_name for field_name in self.fields}
            name = spelled.get(written)
            if name is None:
                raise SourceError(f"no field '{written}' to assign here{did_you_mean(written, spelled)}", column,
                                  len(written))
            if name in values:
                raise SourceError(f"'{written}' is assigned twice", column, len(written))
            try:
                value = int(number, 0)
                values[name] = description.fields[name].raw(value)
            except ValueError as error:
                message = str(error) if number[:1].isdigit() else f"'{number}' is not a number"
                raise SourceError(f"{written}: {message}", column + len(written) + 1, len(number)) from None
            column += len(part) + 1
        return values

    def pattern(self, description) -> str:
        return r"\w+=\S+(?: +\w+=\S+)*"

    def spellings(self) -> tuple[str, ...]:
        return tuple(f"{name.lstrip('_')}=" for name in self.fields)
