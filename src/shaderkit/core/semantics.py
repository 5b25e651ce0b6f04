"""The semantics registry: for every mnemonic of an instruction set, what carries it out.

Each ISA's ``semantics`` module builds one :class:`Semantics` from an explicit table, written
next to the functions it names, so that searching for a function finds both its definition and
its registration. A mnemonic maps either to the one function that computes it (its docstring is
the meaning the reference manual prints) or to :class:`HandledByMachine`, for an instruction the
machine carries out itself (no-ops, jumps and other flow control, texture fetches, outputs),
with a sentence saying what it does.

Three kinds of reader use the registry:

* the machines resolve a function once, when they prepare a program
  (:meth:`Semantics.function`), so running it costs no look-up;
* the reference manuals read every meaning from it (:meth:`Semantics.meaning`);
* tests check that every mnemonic of a description is registered (:meth:`Semantics.missing`).

Where one mnemonic means different things in different *groups* of an instruction set (say, two
units or two program kinds with opcode tables of their own), ``per_group`` holds the entries of
each group; a group falls back to the plain table for every mnemonic it does not list.

This module knows no ISA.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class HandledByMachine:
    """A mnemonic the machine carries out itself, with no semantics function; ``meaning`` is
    what the reference manual says it does (Markdown)."""

    meaning: str


Entry = Callable | HandledByMachine


class Semantics:
    """The semantics of one instruction set: mnemonic → function or :class:`HandledByMachine`.

    ``name`` only labels error messages. ``table`` applies to every group; ``per_group`` maps a
    group name to the entries that differ in that group.
    """

    def __init__(self, name: str, table: Mapping[str, Entry],
                 per_group: Mapping[str, Mapping[str, Entry]] | None = None):
        self.name = name
        self._table = dict(table)
        self._per_group = {group: dict(entries) for group, entries in (per_group or {}).items()}

    def entry(self, mnemonic: str, group: str = "") -> Entry:
        """What carries out ``mnemonic`` in ``group``; KeyError if it is not registered."""
        group_entries = self._per_group.get(group, {})
        if mnemonic in group_entries:
            return group_entries[mnemonic]
        if mnemonic in self._table:
            return self._table[mnemonic]
        where = f" ({group})" if group else ""
        raise KeyError(f"{self.name}: no semantics registered for {mnemonic}{where}")

    def function(self, mnemonic: str, group: str = "") -> Callable:
        """The function that computes ``mnemonic``; KeyError if the machine handles it itself."""
        entry = self.entry(mnemonic, group)
        if isinstance(entry, HandledByMachine):
            raise KeyError(f"{self.name}: {mnemonic} has no semantics function (the machine carries it out)")
        return entry

    def has_function(self, mnemonic: str, group: str = "") -> bool:
        try:
            self.function(mnemonic, group)
        except KeyError:
            return False
        return True

    def functions(self, group: str = "") -> dict[str, Callable]:
        """Every mnemonic of ``group`` that has a function, in table order → its function."""
        visible = {**self._table, **self._per_group.get(group, {})}
        return {mnemonic: entry for mnemonic, entry in visible.items() if not isinstance(entry, HandledByMachine)}

    def meaning(self, mnemonic: str, group: str = "") -> str:
        """What ``mnemonic`` does: its function's cleaned docstring, or the machine's sentence."""
        entry = self.entry(mnemonic, group)
        if isinstance(entry, HandledByMachine):
            return entry.meaning
        return inspect.getdoc(entry) or ""

    def missing(self, mnemonics: Iterable[str], group: str = "") -> list[str]:
        """The mnemonics that have no entry in ``group`` (empty when all are registered)."""
        found = []
        for mnemonic in mnemonics:
            try:
                self.entry(mnemonic, group)
            except KeyError:
                found.append(mnemonic)
        return found
