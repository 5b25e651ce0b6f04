"""The branch unit's forms (opcodes 0xe0–0xff, spec/vp1.md §9), in envyas's table order.

``P`` is ``$cCOND FLAG``; a target prints as the absolute word address ``(pc & ~3) + offset × 4``
(64-bit two's complement when negative). e0, e1, e4 and e5 have a short form when bits 3–8 are
0x3c (``$c0 true``), which the decoder prefers as the more specific one; the ``not`` opcodes
always print ``P``. Opcodes e9, eb–ee and f1–fe have no form (``???``).
"""

from __future__ import annotations

from ...core.model import form
from .forms_scalar import C

ALWAYS = 0x3c  # bits 3-8: COND 0, flag select 15 (true)


def forms():
    for base, name in ((0xe0, "bra"), (0xe4, "call")):
        yield form(f"{name} {C} {{target}}", op=base, condslct=ALWAYS)
        yield form(f"{name} {C} {{pc}} {{flag}} {{target}}", op=base)
        yield form(f"{name} loop {{ld}} {C} $l0 {{target}}", op=base | 1, condslct=ALWAYS)
        yield form(f"{name} loop {{ld}} {C} {{ls}} {{pc}} {{flag}} {{target}}", op=base | 1)
        yield form(f"{name} {C} not {{pc}} {{flag}} {{target}}", op=base | 2)
        yield form(f"{name} loop {{ld}} {C} {{ls}} not {{pc}} {{flag}} {{target}}", op=base | 3)
    yield form(f"ret {C}", op=0xe8, ignore=0xfffff8)
    yield form("abra {abs}", op=0xea, ignore=0xf80000)
    yield form("bnop", op=0xef, ignore=0xffffff)
    yield form("mov {lci_l} {lci_c} {imm16}", op=0xf0)
    yield form("exit {intr?} {imm16}", op=0xff, ignore=0xf80000)
