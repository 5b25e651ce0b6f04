"""The run budget of the RSX emulator: how much a program may run before it is stopped.

Work is counted in **lane-instructions**: every instruction the machine executes counts once for
each lane it runs over (a pixel for a fragment program, a vertex for a vertex program), lanes
that flow control has masked off included, because the emulator computes them too. Counting
instructions alone, as the first budget did, let a runaway loop over 512×512 pixels run for
hours; lane-instructions follow the time a run takes once it has a few thousand lanes.

One :class:`RunBudget` covers everything run for one picture: ``run -m rsx`` spends the vertex
program over the vertices and the fragment program over every batch of pixels from the same
budget (each frame of an animation gets a fresh one); ``rsx-vp`` and ``rsx-fp`` spend theirs on
the one program.

Two limits, so that a runaway ends within seconds at any size:

* the work, ``DEFAULT_WORK`` lane-instructions unless the user gives ``--budget N`` (a few
  seconds of plain arithmetic on 4,096 lanes or more; the examples and golden programs stay
  below a tenth of it);
* for a command without ``--budget``, also the wall time spent in the programs,
  ``DEFAULT_SECONDS`` per picture (rasterising and building inputs do not count): on
  a few lanes the per-instruction overhead, not the lanes, sets the pace, and some instructions
  (texture fetches) cost more than others. A budget given explicitly is the only limit, so that
  such a run does the same work on any machine, however long it takes. The library's run
  functions have no time limit either unless given a :class:`RunBudget` with one, so their
  results never depend on the machine's speed.
"""

from __future__ import annotations

import time

from shaderkit.core.diagnostics import InputError

from .container import ProgramKind

DEFAULT_WORK = 2_000_000_000
DEFAULT_SECONDS = 5.0
# What else makes a run smaller: its lanes are pixels or vertices.
_SMALLER = {ProgramKind.FRAGMENT: "a smaller picture", ProgramKind.VERTEX: "a mesh with fewer vertices"}


class BudgetExhausted(InputError):
    """A program ran out of its budget; the message names it, the slot, and what to change."""


class RunBudget:
    """Lane-instructions left (and seconds of running, when a time limit applies) for the runs
    of one picture. ``names`` maps a program kind to how messages name that program (its file);
    ``where`` says which picture (``frame 12``)."""

    def __init__(self, work: int | None = None, *, seconds: float | None = None,
                 names: dict[ProgramKind, str] | None = None, where: str | None = None):
        self.work = DEFAULT_WORK if work is None else int(work)
        if self.work < 1:
            raise InputError(f"the budget must be at least 1 lane-instruction, not {self.work}")
        self.seconds = seconds
        self.remaining = self.work
        self.elapsed = 0.0  # seconds spent running programs (not rasterising or building inputs)
        self.names = dict(names or {})
        self.where = where

    def start(self) -> tuple[float, float | None]:
        """A run begins: its start time and the deadline it compares ``time.monotonic()`` with
        (None: no time limit). Only time spent in programs counts, so the rasteriser of a big
        mesh is never blamed on a program."""
        now = time.monotonic()
        return now, None if self.seconds is None else now + self.seconds - self.elapsed

    def finish(self, started: float, remaining: int) -> None:
        """A run ended (or was stopped) with ``remaining`` lane-instructions left."""
        self.elapsed += time.monotonic() - started
        self.remaining = max(remaining, 0)

    @classmethod
    def for_command(cls, work: int | None, names: dict[ProgramKind, str], where: str | None = None) -> RunBudget:
        """What a command runs with: ``--budget N`` alone, or without it the default work and
        the default wall time."""
        return cls(work, seconds=DEFAULT_SECONDS if work is None else None, names=names, where=where)

    def stop(self, kind: ProgramKind, slot: int, remaining: int) -> BudgetExhausted:
        """The error for a run stopped at ``slot`` with ``remaining`` lane-instructions left
        (negative: the work ran out; else the wall time did)."""
        timed_out = remaining >= 0
        self.remaining = max(remaining, 0)
        name = self.names.get(kind)
        described = ", ".join(part for part in (
            None if name and name.endswith(f"{kind.value} program") else f"{kind.value} program", self.where)
            if part)
        program = (f"{name} ({described})" if described else name) if name else described
        done = self.work - self.remaining
        if timed_out:
            return BudgetExhausted(
                f"{program}: stopped at slot {slot} after {self.seconds:g} s ({done:,} lane-instructions); "
                f"a loop that never ends? If the program is right, give --budget N (lane-instructions; "
                f"then only N limits the run), or {_SMALLER[kind]}")
        return BudgetExhausted(
            f"{program}: the budget of {self.work:,} lane-instructions ran out at slot {slot}; "
            f"a loop that never ends? If the program is right, raise it with --budget N or use {_SMALLER[kind]}")


def as_budget(budget: RunBudget | int | None) -> RunBudget:
    """A :class:`RunBudget` from what the run functions accept: one, a number of
    lane-instructions, or None (``DEFAULT_WORK``; no time limit outside commands, so library
    results never depend on the machine's speed)."""
    if isinstance(budget, RunBudget):
        return budget
    return RunBudget(budget)
