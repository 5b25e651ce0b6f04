"""Spelling suggestions for unknown names ("did you mean ADD?").

One place decides what counts as a near miss, so every assembler, option parser and CLI
message suggests the same way.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest_name(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to ``word`` (case-insensitive), or None when none is close.

    The candidate is returned as it is spelled in ``candidates``.
    """
    by_folded = {}
    for candidate in candidates:
        by_folded.setdefault(candidate.casefold(), candidate)
    matches = difflib.get_close_matches(word.casefold(), list(by_folded), n=1, cutoff=0.6)
    return by_folded[matches[0]] if matches else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``" (did you mean ADD?)"`` for a near miss, else the empty string: append it to a message."""
    match = closest_name(word, candidates)
    return f" (did you mean {match}?)" if match else ""
