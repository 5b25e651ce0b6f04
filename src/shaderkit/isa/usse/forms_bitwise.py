"""The bitwise forms (spec/usse.md §2.1 row 12, §5): VBW on major opcodes 0x0A–0x0E, in our
syntax (§6.2).

``and or xor shl rol shr asr`` (``bitwise<op1><op2>`` for the pairs the spec names nothing)
``dest, src1, src2[, rol #n]`` with ``~src2`` where ``src2_invert`` is set and ``.16`` for
``bitwise_partial``. ``src2`` as an immediate (its bank immediate) is the 16-bit value
``src2_exth:src2_sel:src2_n`` in hex; with a register ``src2``, ``src2_sel`` and ``src2_exth``
have no known meaning and print as assignments when set. Register numbers are not doubled
(§3.2); there is no internal-register range.
"""

from __future__ import annotations

from ...core.model import Immediate, Operand, SubTable, case
from . import tables
from .syntax import HEX_IMMEDIATE, FormSyntax

# (op1, op2) -> mnemonic (§2.1: 0x0A AND/OR, 0x0B XOR, 0x0C SHL/ROL, 0x0D SHR/ASR; 0x0E has none)
MNEMONICS = {(2, 0): "and", (2, 1): "or", (3, 0): "xor", (4, 0): "shl", (4, 1): "rol", (5, 0): "shr", (5, 1): "asr"}
IMMEDIATE_BANK = (2, 1)


def vbw(syntax: FormSyntax):
    flags = syntax.flags(("16", "bitwise_partial", 1), ("skipinv", "skipinv", 1), ("nosched", "nosched", 1),
                         ("syncstart", "sync_start", 1), ("end", "end", 1), ("rptsel", "repeat_sel", 1),
                         *((f"rpt{count + 1}", "repeat_count", count) for count in range(1, 16)))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank", ext="dest_ext", number="dest_n")
    src1 = syntax.register("src1", banks=tables.SRC12_BANKS, bank="src1_bank", ext="src1_ext", number="src1_n")
    rotation = syntax.bind("rotation", Operand("src2_rot", Immediate(prefix="rol #"), title="rotation"))
    value = syntax.combined("src2_value", "src2_exth", "src2_sel", "src2_n")
    for bank_choice, kind in tables.SRC12_BANKS.items():
        if bank_choice == IMMEDIATE_BANK:
            register = syntax.bind("src2_immediate", Operand(value, HEX_IMMEDIATE, title="immediate"))
        else:
            register = syntax.register(f"src2_{kind}", banks={bank_choice: kind}, bank="src2_bank", ext="src2_ext",
                                       number="src2_n")
        inverted = syntax.bind(f"src2_{kind}_inverted", SubTable(
            (case("{" + register + "}", src2_invert=0), case("~{" + register + "}", src2_invert=1)),
            title="source", order="first"))
        for op1 in range(2, 7):
            for op2 in (0, 1):
                mnemonic = MNEMONICS.get((op1, op2), f"bitwise{op1}{op2}")
                yield syntax.build(f"{{{pred}?}} {mnemonic}{{{flags}}} {{{dest}}}, {{{src1}}}, {{{inverted}}}, "
                                   f"{{{rotation} if src2_rot}}", op1=op1, op2=op2, src2_bank=bank_choice[0],
                                   src2_ext=bank_choice[1])


DECLARED = {"VBW": vbw}
