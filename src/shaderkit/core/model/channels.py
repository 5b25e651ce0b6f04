"""Channel selections of vector processors: a swizzle chosen by a code from a table, shown only
at the channels a write mask enables.

A :class:`Swizzle` reads a code field; the code picks an entry of ``table`` (one character per
channel: ``xyzw`` or constants such as ``0 1 2 h``). The text shows the entry at the channels the
``mask`` field enables, a ``-`` at each disabled channel before the last enabled one (Vita3K's
``r2.-y``): what the instruction uses. A text may also give the whole entry. Reading a text
takes the first code whose entry agrees with it at every position it shows, so it needs no
other field; a code that is not the first of its shown channels prints its whole entry, and a
code without an entry prints as ``<unknown_prefix><code>``, so every code reads back as itself.

:func:`mask_names` spells a write mask the same way (``xy``, ``x-z``, ``-`` for none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ..diagnostics import SourceError
from .kinds import ParseContext
from .operands import Binding, Reading

__all__ = ["Swizzle", "mask_names", "masked"]


def masked(entry: str, mask: int) -> str:
    """``entry`` at the channels ``mask`` enables (bit k = channel k), ``-`` at disabled ones
    before the last enabled one; '' when none is enabled."""
    return "".join(character if mask >> index & 1 else "-" for index, character in enumerate(entry)).rstrip("-")


def mask_names(letters: str = "xyzw") -> dict[int, str]:
    """Write mask → text, every mask of ``len(letters)`` bits (``-`` for the empty mask)."""
    return {mask: masked(letters, mask) or "-" for mask in range(1 << len(letters))}


@dataclass(frozen=True)
class Swizzle(Binding):
    field: str
    table: tuple[str | None, ...]
    mask: str | None = None  # the field whose bit k enables channel k; None: every channel shows
    unknown_prefix: str = "sw"
    title: str = "swizzle"

    @cached_property
    def _width(self) -> int:
        return max(len(entry) for entry in self.table if entry)

    def fields_set(self, description) -> tuple[str, ...]:
        return (self.field,)

    @cached_property
    def _codes(self) -> dict[str, int | None]:
        return {}

    def _code_of(self, text: str) -> int | None:
        """The first code whose entry agrees with ``text`` at every channel it shows."""
        if text not in self._codes:
            self._codes[text] = next((code for code, entry in enumerate(self.table) if entry and len(text) <= len(entry)
                                      and all(shown in ("-", wanted) for shown, wanted in zip(text, entry))), None)
        return self._codes[text]

    def render(self, reading: Reading) -> str:
        code = reading.raw(self.field)
        entry = self.table[code] if code < len(self.table) else None
        if not entry:
            return f"{self.unknown_prefix}{code}"
        mask = reading.raw(self.mask) if self.mask else (1 << len(entry)) - 1
        shown = masked(entry, mask)
        if shown.strip("-") and self._code_of(shown) == code:
            return shown
        return entry if self._code_of(entry) == code else f"{self.unknown_prefix}{code}"

    def read(self, text: str, context: ParseContext, description) -> dict[str, int]:
        lowered = text.strip().lower()
        prefix = self.unknown_prefix
        if prefix and lowered.startswith(prefix) and lowered[len(prefix):].isdigit():
            code = int(lowered[len(prefix):])
            if code >= 1 << description.fields[self.field].width:
                raise SourceError(f"{self.title} code {code} does not fit in the {self.title} field", 1, len(text))
            return {self.field: code}
        code = self._code_of(lowered) if lowered.strip("-") else None
        if code is None:
            raise SourceError(f"'{text}' is not a {self.title} this operand can select", 1, max(1, len(text)))
        return {self.field: code}

    def pattern(self, description) -> str:
        characters = "".join(sorted({c for entry in self.table if entry for c in entry} | {"-"}))
        spelled = f"[{re.escape(characters)}]{{1,{self._width}}}"
        return f"(?:{re.escape(self.unknown_prefix)}\\d+|{spelled})" if self.unknown_prefix else spelled

    def spellings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(entry for entry in self.table if entry))
