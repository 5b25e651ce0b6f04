"""Diagnostics and the project's error types.

Two kinds of user error exist:

* errors *in source text* carry a position and render as
  ``file:line:col: error: message`` followed by the source line and a caret;
* any other bad input (a truncated binary, an unknown option, a malformed
  scene) is a :class:`InputError` with a one-line message.

Both map to exit code 2 in the command-line tool; nothing else should escape
to the user as a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EXIT_BAD_INPUT = 2


class ShaderkitError(Exception):
    """Base of every error that is the user's input, never a bug."""

    exit_code = EXIT_BAD_INPUT

    def render(self) -> str:
        return str(self)


class InputError(ShaderkitError):
    """Bad input that has no source position: one line of text."""


@dataclass(frozen=True)
class Diagnostic:
    """One message about a place in a source file (lines and columns count from 1)."""

    file: str
    line: int
    col: int
    message: str
    severity: str = "error"
    source_line: str | None = None
    length: int = 1

    def render(self) -> str:
        head = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"
        if self.source_line is None:
            return head
        text = self.source_line.rstrip("\r\n").expandtabs(1)
        caret = " " * (self.col - 1) + "^" + "~" * max(0, self.length - 1)
        return f"{head}\n{text}\n{caret}"


@dataclass
class DiagnosticError(ShaderkitError):
    """Errors (at least one) found in source text; carries them all."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class SourceError(ShaderkitError):
    """Raised inside a parser for one located problem; the driver turns it into a Diagnostic.

    ``col`` counts from 1 within the text handed to the parser; the driver adds the
    offset of that text within the line.
    """

    def __init__(self, message: str, col: int = 1, length: int = 1):
        super().__init__(message)
        self.message = message
        self.col = col
        self.length = length
