"""The block structure of RSX fragment programs (spec/rsx.md 3.9): ``IF``/``LOOP``/``REP`` open a
block and ``ELSE``/``ENDIF``/``ENDLOOP``/``ENDREP`` close it.

An opener is its own instruction; its word offsets (IF: else and end; LOOP/REP: end) are
carried fields (core's macros may set them), taken from labels its closers place: the opener is
a core macro handler that keeps its statement, the closers are directives that define the
labels. A block closed in the first pass has its offsets carried in the second; one never
closed is reported after the last pass, at its opener.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from shaderkit.core.asm_hooks import CheckCall, DirectiveCall, MacroCall
from shaderkit.core.diagnostics import Diagnostic, SourceError

OPENERS = {"IF": "IF", "IFE": "IF", "LOOP": "LOOP", "REP": "REP"}
CLOSERS = {"ELSE": "IF", "ENDIF": "IF", "ENDLOOP": "LOOP", "ENDREP": "REP"}


@dataclass
class Block:
    name: str  # IF, LOOP or REP
    address: int
    else_label: str
    end_label: str
    has_else: bool = False


class Blocks:
    """The block keywords of one assembly; ``guard(call)`` raises for a keyword that may not
    stand where it is (after END)."""

    def __init__(self, guard: Callable[[DirectiveCall | MacroCall], None]):
        self.guard = guard
        self.closed = {False: set(), True: set()}  # end labels of the blocks closed, by pass

    def open(self, call: MacroCall) -> None:
        """IF / LOOP / REP (a macro handler that keeps its statement)."""
        name = OPENERS[call.name.upper()]
        self.guard(call)
        block = Block(name, call.address, call.unique_label("else"), call.unique_label("end"))
        call.data.setdefault("blocks", []).append(block)
        if call.final and block.end_label in self.closed[False]:
            if name == "IF":
                call.carry("else_offset", block.else_label)
            call.carry("end_offset", block.end_label)
        return None

    def close(self, call: DirectiveCall) -> None:
        """ELSE / ENDIF / ENDLOOP / ENDREP (a directive)."""
        keyword = call.name.upper()
        self.guard(call)
        if call.argument:
            raise SourceError(f"{keyword} takes no operands", 1, len(call.argument))
        wanted = CLOSERS[keyword]
        stack = call.data.setdefault("blocks", [])
        where = (-len(keyword), len(keyword))  # the keyword (columns count in its argument)
        if not stack or stack[-1].name != wanted:
            opened = f" (the open block is {stack[-1].name})" if stack else ""
            raise SourceError(f"{keyword} without a matching {wanted}{opened}", *where)
        block = stack[-1]
        if keyword == "ELSE":
            if block.has_else:
                raise SourceError("a second ELSE for one IF", *where)
            block.has_else = True
            call.define(block.else_label, call.address)
            return
        stack.pop()
        if not block.has_else:
            call.define(block.else_label, call.address)
        call.define(block.end_label, call.address)
        self.closed[call.final].add(block.end_label)

    @staticmethod
    def unclosed(call: CheckCall) -> list[Diagnostic]:
        """A diagnostic at the opener of each block the program never closes."""
        found = []
        program = call.program
        for block in call.state.data.get("blocks", ()):
            opener = next((index for index, item in enumerate(program.instructions) if item.address == block.address),
                          None)
            if opener is not None:
                found.append(program.diagnostic(opener, f"{block.name} is never closed (END{block.name})"))
        return found
