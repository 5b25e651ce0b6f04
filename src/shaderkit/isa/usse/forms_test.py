"""Tests (spec/usse.md §2.1 rows 10 and 11, §5, §5.1): VTST, which writes a predicate, and
VTSTMSK, which writes a mask, in our syntax (§6.2).

* ``vtst.<alu>.<op>.<cond>{flags} p<n>, dest, src1, src2`` — ``<alu>`` is the ALU the test runs
  (``f`` float, ``i`` 16/32-bit integer, ``b`` 8-bit integer, ``bit`` bitwise; it decides whether
  register fields count pairs), ``<op>`` its operation (``add``, ``isub16``, ``and``… or ``op<n>``
  for a code the spec gives no name), ``<cond>`` the comparison of the result with 0 (``eq le ge``
  with ``zero_test`` 1, ``ne lt gt`` with ``zero_test`` 0; any other combination as ``t<sign><zero>``);
  ``.ch<c>`` the channel tested (``chx``…, or ``ch4``–``ch7``).
* ``vtstmsk.<alu>.<op>.<cond>.mask<t>{flags} dest, src1, src2`` — ``mask<t>`` is ``tst_mask_type``.
"""

from __future__ import annotations

from ...core.model import Operand, Registers
from . import tables
from .syntax import FormSyntax

ALUS = ("f", "i", "b", "bit")
OPERATIONS = {
    0: {2: "add", 3: "frc", 4: "rcp", 5: "rsq", 6: "log", 7: "exp", 8: "dp", 9: "min", 10: "max", 11: "dsx",
        12: "dsy", 13: "mul", 14: "sub"},
    1: {6: "iadd16", 7: "isub16", 8: "imul16", 9: "iaddu16", 10: "isubu16", 11: "imulu16", 12: "iadd32",
        13: "iaddu32", 14: "isub32", 15: "isubu32"},
    2: {0: "iadd8", 1: "isub8", 2: "iaddu8", 3: "isubu8", 4: "imul8", 5: "fpmul8", 6: "imulu8", 7: "fpadd8",
        8: "fpsub8"},
    3: {0: "and", 1: "or", 2: "xor", 3: "shl", 4: "shr", 5: "rol", 7: "asr"},
}
CHANNELS = ("chx", "chy", "chz", "chw", "ch4", "ch5", "ch6", "ch7")


def comparison_name(code: int) -> str:
    """The name of a (sign_test << 2 | zero_test) code: the comparison §5.1 gives it."""
    sign, zero = code >> 2, code & 3
    if sign < 3 and zero in (0, 1):
        return (("ne", "lt", "gt"), ("eq", "le", "ge"))[zero][sign]
    return f"t{sign}{zero}"


def _test_forms(syntax: FormSyntax, mnemonic: str, negate: str, writes_predicate: bool):
    condition = syntax.combined("condition", "sign_test", "zero_test")
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    src2 = syntax.register("src2", banks=tables.SRC12_BANKS, bank="src2_bank", ext="src2_ext", number="src2_n")
    if writes_predicate:
        predicate = syntax.bind("pdst", Operand("pdst_n", Registers({n: (f"p{n}",) for n in range(4)}),
                                                title="predicate"))
    for alu, alu_name in enumerate(ALUS):
        float_test = alu == 0
        internal = 8 if float_test else 7
        dest = syntax.register(f"dest{int(float_test)}", banks=tables.DEST_BANKS, bank="dest_bank", ext="dest_ext",
                               number="dest_n", doubled=float_test, internal_bits=internal)
        src1 = syntax.modified(f"src1_{int(float_test)}", syntax.register(
            f"src1_reg{int(float_test)}", banks=tables.SRC12_BANKS, bank="src1_bank", ext="src1_ext", number="src1_n",
            doubled=float_test, internal_bits=internal), negate=negate)
        src2_operand = syntax.register(f"src2_{int(float_test)}", banks=tables.SRC12_BANKS, bank="src2_bank",
                                       ext="src2_ext", number="src2_n", doubled=True,
                                       internal_bits=internal) if float_test else src2
        operations = [(f"{OPERATIONS[alu].get(code, f'op{code}')}", "alu_op", code) for code in range(16)]
        precision = (("f16", "prec", 0), ("f32", "prec", 1)) if float_test else (("prec", "prec", 1),)
        flags = syntax.flags(*operations, *((comparison_name(code), condition, code) for code in range(16)),
                             *((("ch" + "xyzw4567"[value], "chan_cc", value) for value in range(8))
                               if writes_predicate else ((f"mask{value}", "tst_mask_type", value) for value in range(4))),
                             *precision, ("skipinv", "skipinv", 1), ("onceonly", "onceonly", 1),
                             ("syncstart", "syncstart", 1), ("vscomp", "src2_vscomp", 1),
                             ("crcomb", "test_crcomb_and", 1), ("wben", "test_wben", 1),
                             *((f"rpt{count + 1}", "rpt_count", count) for count in range(1, 4)),
                             role=f"flags{alu}")
        operands = [f"{{{dest}}}", f"{{{src1}}}", f"{{{src2_operand}}}"]
        if writes_predicate:
            operands.insert(0, f"{{{predicate}}}")
        yield syntax.build(f"{{{pred}?}} {mnemonic}.{alu_name}{{{flags}}} " + ", ".join(operands), alu_sel=alu)


def vtst(syntax: FormSyntax):
    return _test_forms(syntax, "vtst", "src1_neg", writes_predicate=True)


def vtstmsk(syntax: FormSyntax):
    return _test_forms(syntax, "vtstmsk", "test_flag_2", writes_predicate=False)


DECLARED = {"VTST": vtst, "VTSTMSK": vtstmsk}
