"""Moves, packs and immediates (spec/usse.md §2.1 rows 8, 9 and 32, §3.2, §5, §5.1): VMOV,
VPCK and LIMM, in our syntax (§6.2).

* ``vmov.<type> dest.mask, src1.swz`` — the data type (``i8 i16 i32 c10 f16 f32``, or ``t6``/``t7``
  for the two codes without a name) follows the mnemonic, because it decides whether register
  fields count pairs (float types) or single registers; ``vmovc.<type>.<test> dest.mask, src0,
  src1.swz, src2.swz`` moves ``src1`` where ``src0 <test> 0`` (``eq ne lt le``) and ``src2``
  elsewhere, ``vmovcu8`` tests ``src0`` as unsigned bytes; the swizzle code is shared by
  ``src1`` and ``src2`` (and ``src0`` with ``.src0swz``). Move type 3 has no name: ``vmovt3``.
* ``vpck<dest><source> dest.mask, src1.sel, src2`` — formats ``u8 s8 o8 u16 s16 f16 f32 c10``;
  ``sel`` names, per destination channel, which of the four selectable source channels it takes
  (``x y z w`` = 0–3: source 1's two registers and source 2's for an F32 source, source 1's four
  halves otherwise, §5.1). Only an F32 source reads ``src2``; for the others its number's bit 0 is
  selector 0's high bit, so the two must agree (the assembler refuses a text where they differ).
* ``limm dest, #0x…`` — a 32-bit immediate (Vita3K prints ``MOV``).
"""

from __future__ import annotations

from ...core.model import Operand
from . import tables
from .syntax import HEX_IMMEDIATE, FormSyntax

DATA_TYPES = ("i8", "i16", "i32", "c10", "f16", "f32", "t6", "t7")
FLOAT_DATA_TYPES = frozenset({3, 4, 5})
MOVE_MNEMONICS = ("vmov", "vmovc", "vmovcu8", "vmovt3")
TESTS = ("eq", "ne", "lt", "le")
PACK_FORMATS = ("u8", "s8", "o8", "u16", "s16", "f16", "f32", "c10")
FLOAT_FORMATS = frozenset({5, 6, 7})
F32 = 6


def vmov(syntax: FormSyntax):
    test = syntax.combined("test", "test_bit_2", "test_bit_1")
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    mask = syntax.write_mask("dest_mask")
    swizzle = syntax.swizzle("swizzle", "src0_swiz", tables.VEC4_STD, "dest_mask")
    for move_type, mnemonic in enumerate(MOVE_MNEMONICS):
        conditional = move_type in (1, 2)
        # An unconditional move reads w1[18] as its end flag and shows its test bits only when set.
        flags = syntax.flags(("skipinv", "skipinv", 1), ("syncstart", "syncstart", 1), ("nosched", "nosched", 1),
                             *(() if conditional else (("end", "end_or_src0_bank_ext", 1),)),
                             ("src0swz", "src0_comp_sel", 1),
                             *((f"rpt{count + 1}", "repeat_count", count) for count in range(1, 4)),
                             *((name, test, value) for value, name in enumerate(TESTS) if conditional or value),
                             role=f"flags{int(conditional)}")
        for data_type, type_name in enumerate(DATA_TYPES):
            doubled = data_type in FLOAT_DATA_TYPES
            internal = 7 if doubled else 6
            registers = {}
            for operand, banks, bank, ext in (
                    ("dest", tables.DEST_BANKS, "dest_bank_sel", "dest_bank_ext"),
                    ("src0", tables.SRC0_BANKS, "src0_bank_sel", "end_or_src0_bank_ext"),
                    ("src1", tables.SRC12_BANKS, "src1_bank_sel", "src1_bank_ext"),
                    ("src2", tables.SRC12_BANKS, "src2_bank_sel", "src2_bank_ext")):
                registers[operand] = syntax.register(f"{operand}_{int(doubled)}", banks=banks, bank=bank, ext=ext,
                                                     number=f"{operand}_n", doubled=doubled, internal_bits=internal)
            operands = [f"{{{registers['dest']}}}.{{{mask}}}"]
            if conditional:
                operands += [f"{{{registers['src0']}}}", f"{{{registers['src1']}}}.{{{swizzle}}}",
                             f"{{{registers['src2']}}}.{{{swizzle}}}"]
            else:
                operands.append(f"{{{registers['src1']}}}.{{{swizzle}}}")
            yield syntax.build(f"{{{pred}?}} {mnemonic}.{type_name}{{{flags}}} " + ", ".join(operands),
                               move_type=move_type, move_data_type=data_type)


def vpck(syntax: FormSyntax):
    flags = syntax.flags(("skipinv", "skipinv", 1), ("nosched", "nosched", 1), ("syncstart", "syncstart", 1),
                         ("end", "end", 1), ("scale", "scale", 1),
                         *((f"rpt{count + 1}", "repeat_count", count) for count in range(1, 16)))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank_sel", ext="dest_bank_ext",
                           number="dest_n", internal_bits=7)
    mask = syntax.write_mask("dest_mask")
    # The four component selectors, channel k in bits 2k+1:2k of the code; selector 0's high bit
    # is w0[7] for an F32 source and bit 0 of src2_n (w0[1]) for any other (§5.1).
    selectors = tuple("".join("xyzw"[code >> (2 * channel) & 3] for channel in range(4)) for code in range(256))
    selection = {
        True: syntax.combined("selection_f32", "comp_sel_3", "comp_sel_2", "comp_sel_1", "comp0_sel_bit1",
                              "comp_sel_0_bit0"),
        False: syntax.combined("selection", "comp_sel_3", "comp_sel_2", "comp_sel_1", "comp_sel_0_bit0",
                               layout="20:19,15:14,17:16,1,0"),
    }
    src2 = syntax.register("src2", banks=tables.SRC12_BANKS, bank="src2_bank_sel", ext="src2_bank_ext",
                           number="src2_n", doubled=True, internal_bits=7)
    # An integer source's register number is src1_n:w0[7], not doubled (§3.2).
    integer_number = syntax.combined("src1_number", "src1_n", "comp0_sel_bit1")
    for source_format, source_name in enumerate(PACK_FORMATS):
        f32_source = source_format == F32
        if source_format in FLOAT_FORMATS:
            src1 = syntax.register("src1_float", banks=tables.SRC12_BANKS, bank="src1_bank_sel", ext="src1_bank_ext",
                                   number="src1_n", doubled=True, internal_bits=7)
        else:
            src1 = syntax.register("src1_integer", banks=tables.SRC12_BANKS, bank="src1_bank_sel",
                                   ext="src1_bank_ext", number=integer_number, internal_bits=7)
        select = syntax.swizzle(f"selection_{int(f32_source)}", selection[f32_source], selectors, None,
                                title="component selection")
        operands = [f"{{{dest}}}.{{{mask}}}", f"{{{src1}}}.{{{select}}}", f"{{{src2}}}"]
        for dest_format, dest_name in enumerate(PACK_FORMATS):
            yield syntax.build(f"{{{pred}?}} vpck{dest_name}{source_name}{{{flags}}} " + ", ".join(operands),
                               src_fmt=source_format, dest_fmt=dest_format)


def limm(syntax: FormSyntax):
    flags = syntax.flags(("skipinv", "skipinv", 1), ("nosched", "nosched", 1), ("end", "end", 1))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank", ext="dest_bank_ext", number="dest_num")
    value = syntax.combined("value", "imm_value_bits26to31", "imm_value_bits21to25", "imm_value_first_21bits")
    immediate = syntax.bind("value", Operand(value, HEX_IMMEDIATE, title="immediate"))
    yield syntax.build(f"{{{pred}?}} limm{{{flags}}} {{{dest}}}, {{{immediate}}}")


DECLARED = {"VMOV": vmov, "VPCK": vpck, "LIMM": limm}
