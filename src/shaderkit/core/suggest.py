"""Spelling suggestions for unknown names ("did you mean ADD?").

One place decides what counts as a near miss, so every assembler, option parser and CLI
message suggests the same way.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable


CUTOFF = 0.6  # difflib's similarity ratio below which a name is not a near miss


def closest_name(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to ``word`` (case-insensitive), or None when none is close.

    The candidate is returned as it is spelled in ``candidates``. Among equally similar
    candidates the one sharing the longest start with ``word`` wins (typos tend to keep
    the start: ADX is ADD rather than AND), then the one listed first.
    """
    by_folded: dict[str, str] = {}
    for candidate in candidates:
        by_folded.setdefault(candidate.casefold(), candidate)
    folded = word.casefold()
    matcher = difflib.SequenceMatcher(b=folded)
    best: tuple[float, int, int] | None = None
    best_name = None
    for index, candidate in enumerate(by_folded):
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() < CUTOFF or matcher.quick_ratio() < CUTOFF:
            continue
        ratio = matcher.ratio()
        if ratio < CUTOFF:
            continue
        score = (ratio, len(os.path.commonprefix([folded, candidate])), -index)
        if best is None or score > best:
            best, best_name = score, candidate
    return by_folded[best_name] if best_name is not None else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``" (did you mean ADD?)"`` for a near miss, else the empty string: append it to a message."""
    match = closest_name(word, candidates)
    return f" (did you mean {match}?)" if match else ""
