"""Collects the fuzz campaign's tallies (over xdist workers too) and prints them at the end of
the session; with ``SHADERKIT_FUZZ_SUMMARY=FILE`` also writes them as a Markdown table.

    SHADERKIT_FUZZ_SUMMARY=tests/fuzz/RESULTS.md .venv/bin/python -m pytest tests/fuzz -n 2 -p no:cacheprovider
"""

from __future__ import annotations

import collections
import json
import os
from pathlib import Path

import pytest

from . import fuzz_harness

_MERGED: dict[tuple[str, str, str], collections.Counter] = collections.defaultdict(collections.Counter)
_KEY = "shaderkit_fuzz_tally"


def _encode(tally) -> str:
    return json.dumps([[list(key), dict(counts)] for key, counts in tally.items()])


def _merge(text: str) -> None:
    for key, counts in json.loads(text):
        _MERGED[tuple(key)].update(counts)


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the tallies to the controller
        workeroutput[_KEY] = _encode(fuzz_harness.TALLY)
    else:
        _merge(_encode(fuzz_harness.TALLY))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    text = getattr(node, "workeroutput", {}).get(_KEY)
    if text:
        _merge(text)


def summary_lines() -> list[str]:
    outcomes = fuzz_harness.OUTCOMES
    rows = sorted(_MERGED.items())
    lines = ["| processor | command | input kind | cases | " + " | ".join(outcomes) + " |",
             "|---|---|---|--:|" + "--:|" * len(outcomes)]
    totals = collections.Counter()
    for (processor, command, kind), counts in rows:
        totals.update(counts)
        lines.append(f"| {processor} | {command} | {kind} | {sum(counts.values())} | "
                     + " | ".join(str(counts.get(outcome, 0)) for outcome in outcomes) + " |")
    lines.append(f"| **all** | | | **{sum(totals.values())}** | "
                 + " | ".join(f"**{totals.get(outcome, 0)}**" for outcome in outcomes) + " |")
    return lines


def compact_lines() -> list[str]:
    """Cases per command and processor as ``cases (results / clean errors / failures)``."""
    processors = sorted({key[0] for key in _MERGED})
    commands = sorted({key[1] for key in _MERGED})
    cells: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    for (processor, command, _), counts in _MERGED.items():
        cells[(command, processor)].update(counts)

    def cell(counts) -> str:
        if not counts:
            return "–"
        failures = sum(counts.values()) - counts.get("result", 0) - counts.get("clean error", 0)
        return f"{sum(counts.values())} ({counts.get('result', 0)} / {counts.get('clean error', 0)} / {failures})"

    lines = ["| command | " + " | ".join(processors) + " |", "|---|" + "---|" * len(processors)]
    for command in commands:
        lines.append(f"| {command} | " + " | ".join(cell(cells.get((command, p))) for p in processors) + " |")
    return lines


def pytest_terminal_summary(terminalreporter):
    if not _MERGED:
        return
    lines = summary_lines() + ["", "cases per command and processor: cases (results / clean errors / failures)", ""]
    lines += compact_lines()
    terminalreporter.section("fuzz campaign: cases per processor, command and input kind")
    for line in lines:
        terminalreporter.write_line(line)
    target = os.environ.get("SHADERKIT_FUZZ_SUMMARY")
    if target:
        Path(target).write_text("# Fuzz campaign: last recorded run\n\n"
                                "Written by `SHADERKIT_FUZZ_SUMMARY=tests/fuzz/RESULTS.md .venv/bin/python -m "
                                "pytest tests/fuzz -n 2 -p no:cacheprovider` (see tests/fuzz/README.md).\n\n"
                                + "\n".join(lines) + "\n", encoding="utf-8")
