"""The sum-of-products and integer multiply-add forms (spec/usse.md §2.1 rows 13–18 and 23, §3,
§4, §5): SOP2, SOP2M, SOP3, I8MAD, I16MAD, I32MAD and I32MAD2, in our syntax (§6.2), with the
spec's mnemonics.

* ``sop2{flags} dest, src1, src2`` — SOP2 has no source 0;
* ``sop2m{flags} dest.mask, src1, src2`` — ``wmask`` as the destination's write mask (§3.5);
* ``sop3{flags} dest, src0, src1, src2``;
* ``ima8{flags} dest, [-]src0, src1, src2`` — I8MAD, ``-`` where ``src0_neg`` is set, ``.sat``
  for ``saturated``;
* ``ima16{flags} dest, src0, src1, [-]src2`` — I16MAD, ``-`` where ``src2_neg`` is set;
* ``ima32{flags} dest, src0, src1, src2`` — I32MAD, ``.signed`` (``is_signed``), ``.sat``
  (``is_sat``);
* ``ima32b{flags} dest, src0, [-]src1, [-]src2`` — I32MAD2, ``-`` where ``negative_src1`` /
  ``negative_src2`` is set, ``.signed`` (``is_signed``).

Predicates: the short table (§4: ``p0``, ``p1``, ``!p0``) for all but I32MAD2, which has the
extended one. Flags ``.skipinv``, ``.nosched``, ``.end`` where the form has the bit, and a repeat
count as ``.rpt2``–``.rpt8`` (the field holds count − 1: SOP2 ``count``, I8MAD/I16MAD/I32MAD
``repeat_count``, I32MAD2 ``count``). Banks come from each operand's bank field and extension bit
(§3.1; SOP3, I8MAD, I16MAD and I32MAD have no source-0 extension bit: ``r`` or ``pa``). Register
numbers are not doubled (§3.2), and the spec gives these forms no internal-register range, so a
temporary prints as ``r<n>`` whatever its number.

The colour/alpha selectors, modifiers and operations (``csel*``, ``asel*``, ``cmod*``, ``amod*``,
``cop``, ``aop``, SOP2's ``src1_mod``/``asrc1_mod``/``dest_mod``, SOP2M's ``sel*``/``mod*``, SOP3's
``dmod``), I16MAD's ``abs``, ``mode``, ``src1_format``, ``src2_format``, ``sel1h_upper8``,
``sel2h_upper8`` and ``or_shift``, I32MAD's ``src*_high`` and ``src2_type`` and I32MAD2's ``sn``
have no meaning in the spec beyond their names (§5: "exact saturation, rounding and selection
semantics are unknown"): they print as trailing ``name=value`` assignments when not 0, as do the
patterns' free bits (``unused``).
"""

from __future__ import annotations

from . import tables
from .syntax import FormSyntax

SINGLE_FLAGS = ("skipinv", "nosched", "end")


def _flags(syntax: FormSyntax, repeat: str | None = None, *extra: tuple[str, str, int]) -> str:
    """``.skipinv .nosched .end`` where the form has them, ``extra`` entries, ``.rpt2``–``.rpt8``."""
    entries = [(name, name, 1) for name in SINGLE_FLAGS if name in syntax.fields]
    entries += extra
    if repeat is not None:
        entries += [(f"rpt{count + 1}", repeat, count) for count in range(1, 1 << syntax.width(repeat))]
    return syntax.flags(*entries)


def _registers(syntax: FormSyntax, *operands: tuple[str, dict, str, str | None, str],
               negate: dict[str, str] | None = None) -> dict[str, str]:
    """(role, banks, bank field, extension field, number field) → the role's operand binding: its
    register, written ``-reg`` where the role's ``negate`` field is set."""
    negate = negate or {}
    bindings = {}
    for role, banks, bank, ext, number in operands:
        register = syntax.register(f"{role}_reg" if role in negate else role, banks=banks, bank=bank, ext=ext,
                                   number=number)
        bindings[role] = syntax.modified(role, register, negate=negate[role]) if role in negate else register
    return bindings


def sop2(syntax: FormSyntax):
    flags = _flags(syntax, "count")
    pred = syntax.choice("pred", "pred", tables.PREDICATES_SHORT)
    registers = _registers(syntax, ("dest", tables.DEST_BANKS, "dest_bank", "dest_bank_ext", "dest_n"),
                           ("src1", tables.SRC12_BANKS, "src1_bank", "src1_bank_ext", "src1_n"),
                           ("src2", tables.SRC12_BANKS, "src2_bank", "src2_bank_ext", "src2_n"))
    operands = ", ".join("{" + registers[role] + "}" for role in ("dest", "src1", "src2"))
    yield syntax.build(f"{{{pred}?}} sop2{{{flags}}} {operands}")


def sop2m(syntax: FormSyntax):
    flags = _flags(syntax)
    pred = syntax.choice("pred", "pred", tables.PREDICATES_SHORT)
    registers = _registers(syntax, ("dest", tables.DEST_BANKS, "destbank", "destbankext", "destnum"),
                           ("src1", tables.SRC12_BANKS, "src1bank", "src1bankext", "src1num"),
                           ("src2", tables.SRC12_BANKS, "src2bank", "src2bankext", "src2num"))
    mask = syntax.write_mask("wmask")
    yield syntax.build(f"{{{pred}?}} sop2m{{{flags}}} {{{registers['dest']}}}.{{{mask}}}, "
                       f"{{{registers['src1']}}}, {{{registers['src2']}}}")


def sop3(syntax: FormSyntax):
    flags = _flags(syntax)
    pred = syntax.choice("pred", "pred", tables.PREDICATES_SHORT)
    registers = _registers(syntax, ("dest", tables.DEST_BANKS, "destbank", "destbext", "destn"),
                           ("src0", tables.SRC0_BANKS, "src0bank", None, "src0n"),
                           ("src1", tables.SRC12_BANKS, "src1bank", "src1bext", "src1n"),
                           ("src2", tables.SRC12_BANKS, "src2bank", "src2bext", "src2n"))
    operands = ", ".join("{" + registers[role] + "}" for role in ("dest", "src0", "src1", "src2"))
    yield syntax.build(f"{{{pred}?}} sop3{{{flags}}} {operands}")


def _multiply_add(syntax: FormSyntax, mnemonic: str, *, predicates, repeat: str, extra_flags=(),
                  src0_ext: str | None = None, negate: dict[str, str] | None = None):
    """The integer multiply-adds: ``dest, src0, src1, src2``, a source negated (``-``) where its
    ``negate`` field is set. Their fields share the names ``dest_bank``, ``src0_bank``, …"""
    flags = _flags(syntax, repeat, *extra_flags)
    pred = syntax.choice("pred", "pred", predicates)
    number = "num" if "dest_num" in syntax.fields else "n"
    registers = _registers(syntax, ("dest", tables.DEST_BANKS, "dest_bank", "dest_bank_ext", f"dest_{number}"),
                           ("src0", tables.SRC0_BANKS, "src0_bank", src0_ext, f"src0_{number}"),
                           ("src1", tables.SRC12_BANKS, "src1_bank", "src1_bank_ext", f"src1_{number}"),
                           ("src2", tables.SRC12_BANKS, "src2_bank", "src2_bank_ext", f"src2_{number}"),
                           negate=negate)
    operands = ", ".join("{" + registers[role] + "}" for role in ("dest", "src0", "src1", "src2"))
    yield syntax.build(f"{{{pred}?}} {mnemonic}{{{flags}}} {operands}")


def i8mad(syntax: FormSyntax):
    return _multiply_add(syntax, "ima8", predicates=tables.PREDICATES_SHORT, repeat="repeat_count",
                         extra_flags=(("sat", "saturated", 1),), negate={"src0": "src0_neg"})


def i16mad(syntax: FormSyntax):
    return _multiply_add(syntax, "ima16", predicates=tables.PREDICATES_SHORT, repeat="repeat_count",
                         negate={"src2": "src2_neg"})


def i32mad(syntax: FormSyntax):
    return _multiply_add(syntax, "ima32", predicates=tables.PREDICATES_SHORT, repeat="repeat_count",
                         extra_flags=(("signed", "is_signed", 1), ("sat", "is_sat", 1)))


def i32mad2(syntax: FormSyntax):
    return _multiply_add(syntax, "ima32b", predicates=tables.PREDICATES_EXTENDED, repeat="count",
                         extra_flags=(("signed", "is_signed", 1),), src0_ext="src0_bank_ext",
                         negate={"src1": "negative_src1", "src2": "negative_src2"})


DECLARED = {"SOP2": sop2, "SOP2M": sop2m, "SOP3": sop3, "I8MAD": i8mad, "I16MAD": i16mad, "I32MAD": i32mad,
            "I32MAD2": i32mad2}

_UNKNOWN = ("Exact saturation, rounding and selection semantics are unknown (spec §5); not modelled by the "
            "emulator.")
_OPERANDS = ("Banks from each operand's bank field and extension bit; register numbers are not doubled and a "
             "temporary is `r<n>` at any number. `.rptN` repeats N times (the field holds N − 1).")

MEANINGS = {
    "sop2": f"Colour sum of products with two sources (major opcode 0x10), `dest` from `src1` and `src2`. "
            f"{_UNKNOWN} The colour/alpha selectors, modifiers and operations (`csel*`, `cmod*`, `cop`, `asel*`, "
            f"`amod*`, `aop`) and `src1_mod`, `asrc1_mod`, `dest_mod` have no known meaning. {_OPERANDS}",
    "sop2m": f"Colour sum of products with a write mask (major opcode 0x12): `dest.mask` (`wmask`) from `src1` "
             f"and `src2`. {_UNKNOWN} `sel*`, `mod*`, `cop` and `aop` have no known meaning. "
             f"Banks from each operand's bank field and extension bit; register numbers are not doubled.",
    "sop3": f"Colour sum of products with three sources (major opcode 0x11). {_UNKNOWN} The selectors, "
            f"modifiers and operations (`csel*`, `cmod*`, `cop`, `asel1`, `amod1`, `aop`, `dmod`) have no known "
            f"meaning. Source 0 is `r` or `pa` (no extension bit). Banks from each operand's bank field and "
            f"extension bit; register numbers are not doubled.",
    "ima8": f"8-bit integer multiply-add (I8MAD, major opcode 0x13); `-src0` where `src0_neg` is set, `.sat` "
            f"for `saturated`. {_UNKNOWN} The selectors and modifiers (`csel*`, `cmod*`, `asel0`, `amod*`) have "
            f"no known meaning. Source 0 is `r` or `pa`. {_OPERANDS}",
    "ima16": f"16-bit integer multiply-add (I16MAD, major opcode 0x14; Vita3K prints `IMAD16`); `-src2` where "
             f"`src2_neg` is set. {_UNKNOWN} `abs`, `mode`, `src1_format`, `src2_format`, `sel1h_upper8`, "
             f"`sel2h_upper8` and `or_shift` have no known meaning. Source 0 is `r` or `pa`. {_OPERANDS}",
    "ima32": f"32-bit integer multiply-add (I32MAD, major opcode 0x15 with `w1[15]`, `w1[9:8]` and `w1[5:3]` "
             f"zero; Vita3K prints `IMAD2`); `.signed` for `is_signed`, `.sat` for `is_sat`. {_UNKNOWN} "
             f"`src0_high`, `src1_high`, `src2_high` and `src2_type` have no known meaning. Source 0 is `r` or "
             f"`pa`. {_OPERANDS}",
    "ima32b": f"32-bit integer multiply-add (I32MAD2, major opcode 0x1A with `w1[11:10]` and `w1[6:3]` zero; "
              f"Vita3K prints `IMAD`); `-src1`/`-src2` where `negative_src1`/`negative_src2` is set, `.signed` for "
              f"`is_signed`; the extended predicate. {_UNKNOWN} `sn` has no known meaning. Source 0 has an "
              f"extension bit (`r`, `pa`, `o`, `sa`). {_OPERANDS}",
}
