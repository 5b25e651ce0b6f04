"""Flow control and addressing-mode forms (spec/usse.md §2.1 rows 26–34, §4, §5), in our syntax
(§6.2): ``nop``, ``ba``/``br``, ``kill``, ``smlsi`` and ``smbo``. PHAS, DEPTHF and SPEC keep the
raw-field spelling (:func:`~.description.raw_form`): the spec gives their fields no meaning
beyond names.

* ``br #offset`` / ``ba #offset`` — ``br_off``, in instructions: signed for BR, unsigned for BA
  (Vita3K sign-extends only for BR; whether BA is absolute on hardware is unknown, §5). Flags
  ``link`` (save_link), ``syncend``, ``exception``, ``pwait``, ``syncext``, ``nosched``,
  ``monitor``, ``anyinst``, ``allinst``.
* ``smlsi #dest, #src0, #src1, #src2, temp=#, pa=#, sa=#`` — per-operand increments (signed
  8-bit), or ``swz.xyzw`` in swizzle mode (four 2-bit entries), and the register limits.
* ``smbo #dest, #src0, #src1, #src2`` — per-operand base offsets.
"""

from __future__ import annotations

from ...core.model import Immediate, Operand, SubTable, Swizzle, case, field
from . import tables
from .syntax import IMMEDIATE, FormSyntax

INCREMENT_SWIZZLES = tuple("".join("xyzw"[code >> (2 * index) & 3] for index in range(4)) for code in range(256))


def nop(syntax: FormSyntax):
    yield syntax.build("nop")


def br(syntax: FormSyntax):
    flags = syntax.flags(("link", "save_link", 1), ("syncend", "syncend", 1), ("exception", "exception", 1),
                         ("pwait", "pwait", 1), ("syncext", "sync_ext", 1), ("nosched", "nosched", 1),
                         ("monitor", "br_monitor", 1), ("anyinst", "any_inst", 1), ("allinst", "all_inst", 1))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    syntax.fields["_offset"] = field(syntax.fields["br_off"], signed=True)
    syntax.pieces["_offset"] = ("br_off",)
    absolute = syntax.bind("absolute", Operand("br_off", IMMEDIATE, title="branch target"))
    relative = syntax.bind("relative", Operand("_offset", IMMEDIATE, title="branch offset"))
    yield syntax.build(f"{{{pred}?}} ba{{{flags}}} {{{absolute}}}", br_type=0)
    yield syntax.build(f"{{{pred}?}} br{{{flags}}} {{{relative}}}", br_type=1)


def kill(syntax: FormSyntax):
    pred = syntax.choice("pred", "pred", tables.PREDICATES_SHORT)
    yield syntax.build(f"{{{pred}?}} kill")


def smlsi(syntax: FormSyntax):
    flags = syntax.flags(("nosched", "nosched", 1))
    increments = []
    for operand in ("dest", "src0", "src1", "src2"):
        syntax.fields[f"_{operand}_step"] = field(syntax.fields[f"{operand}_inc"], signed=True)
        syntax.pieces[f"_{operand}_step"] = (f"{operand}_inc",)
        step = syntax.bind(f"{operand}_step", Operand(f"_{operand}_step", IMMEDIATE, title="increment"))
        swizzle = syntax.bind(f"{operand}_swizzle", Swizzle(f"{operand}_inc", INCREMENT_SWIZZLES, unknown_prefix=""))
        increments.append(syntax.bind(f"{operand}_increment", SubTable(
            (case("{" + step + "}", **{f"{operand}_inc_mode": 0}),
             case("swz.{" + swizzle + "}", **{f"{operand}_inc_mode": 1})), title="increment", order="first")))
    limits = [syntax.bind(f"{name}_limit", Operand(f"{name}_limit", Immediate(prefix=f"{name}=#"), title="limit"))
              for name in ("temp", "pa", "sa")]
    operands = ", ".join("{" + name + "}" for name in (*increments, *limits))
    yield syntax.build(f"smlsi{{{flags}}} {operands}")


def smbo(syntax: FormSyntax):
    flags = syntax.flags(("nosched", "nosched", 1))
    offsets = [syntax.bind(f"{name}_offset", Operand(f"{name}_offset", IMMEDIATE, title="base offset"))
               for name in ("dest", "src0", "src1", "src2")]
    yield syntax.build(f"smbo{{{flags}}} " + ", ".join("{" + name + "}" for name in offsets))





DECLARED = {"NOP": nop, "BR": br, "KILL": kill, "SMLSI": smlsi, "SMBO": smbo}
