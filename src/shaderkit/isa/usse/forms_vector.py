"""The vector float forms (spec/usse.md §2.1 rows 1–5 and 7, §3, §5): VMAD2, V32NMAD, V16NMAD,
VMAD, VDP and VCOMP, in our syntax (§6.2).

* ``vmad2``/``vf16mad2 dest.mask, src0.swz, src1.swz, src2.swz`` — ``dest = src0 * src1 + src2``;
* ``vmul vadd vfrc vdsx vdsy vmin vmax vdp`` (``vf16…`` for V16NMAD) ``dest.mask, src1.swz, src2.swz``;
* ``vmad3``/``vmad4 dest.mask, gpi0.swz, src1.swz, gpi1.swz`` — VMAD on 3 or 4 channels (its
  ``opcode2``), ``dest = gpi0 * src1 + gpi1``; ``vdp3``/``vdp4 dest.mask, gpi0.swz, src1.swz``;
* ``vrcp vrsq vlog vexp dest.mask, src1.c`` — one source channel ``c``; the destination type is a
  flag (``.f16``, ``.c10``, ``.type3``; F32 when none), the source type ``.src_f16`` … likewise.

Register fields count 64-bit pairs in all of them (§3.2); a temporary number at or above the
internal limit prints as ``i0``–``i3``.
"""

from __future__ import annotations

from . import tables
from .syntax import FormSyntax

COMMON_FLAGS = (("skipinv", "skipinv", 1), ("syncstart", "syncstart", 1), ("nosched", "nosched", 1))
NMAD_OPERATIONS = ("mul", "add", "frc", "dsx", "dsy", "min", "max", "dp")
VECTOR_SWIZZLE_12 = tuple(tables.vector_swizzle_12(code) for code in range(1 << 12))
REPEATS_2 = tuple((f"rpt{count + 1}", "repeat_count", count) for count in range(1, 4))


def vmad2(syntax: FormSyntax):
    flags = syntax.flags(*COMMON_FLAGS)
    pred = syntax.choice("pred", "pred", tables.PREDICATES_VMAD2)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank", ext=None, number="dest_n",
                           doubled=True, internal_bits=7)
    mask = syntax.write_mask("dest_mask")
    sources = []
    src0 = syntax.register("src0_reg", banks=tables.SRC0_BANKS, bank="src0_bank", ext=None, number="src0_n",
                           doubled=True, internal_bits=7)
    sources.append((syntax.modified("src0", src0, absolute="src0_abs"),
                    syntax.combined("src0_swizzle", "src0_swiz_bits2", "src0_swiz_bits01"), "src0"))
    for index in (1, 2):
        register = syntax.register(f"src{index}_reg", banks=tables.SRC12_BANKS, bank=f"src{index}_bank",
                                   ext=f"src{index}_bank_ext", number=f"src{index}_n", doubled=True, internal_bits=7)
        code = syntax.combined("src1_swizzle", "src1_swiz_bit2", "src1_swiz_bits01") if index == 1 else "src2_swiz"
        sources.append((syntax.modified(f"src{index}", register, modifier=f"src{index}_mod"), code, f"src{index}"))
    operands = [f"{{{dest}}}.{{{mask}}}"]
    for source, code, table in sources:
        swizzle = syntax.swizzle(f"{table}_swizzle", code, tables.VMAD2_SWIZZLES[table], "dest_mask")
        operands.append(f"{{{source}}}.{{{swizzle}}}")
    for mnemonic, data_format in (("vmad2", 0), ("vf16mad2", 1)):
        yield syntax.build(f"{{{pred}?}} {mnemonic}{{{flags}}} " + ", ".join(operands), dat_fmt=data_format)


def nmad(syntax: FormSyntax, prefix: str):
    flags = syntax.flags(*COMMON_FLAGS)
    pred = syntax.choice("pred", "pred", tables.PREDICATES_VECTOR)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank_sel", ext="dest_bank_ext",
                           number="dest_n", doubled=True, internal_bits=7)
    mask = syntax.write_mask("dest_mask")
    src1 = syntax.modified("src1", syntax.register("src1_reg", banks=tables.SRC12_BANKS, bank="src1_bank_sel",
                                                   ext="src1_bank_ext", number="src1_n", doubled=True,
                                                   internal_bits=7), modifier="src1_mod")
    src2 = syntax.modified("src2", syntax.register("src2_reg", banks=tables.SRC12_BANKS, bank="src2_bank_sel",
                                                   ext="src2_bank_ext", number="src2_n", doubled=True,
                                                   internal_bits=7), modifier="src2_mod")
    code = syntax.combined("src1_swizzle", "src1_swiz_10_11", "src1_swiz_9", "src1_swiz_7_8", "src1_swiz_0_6")
    swizzle1 = syntax.swizzle("src1_swizzle", code, VECTOR_SWIZZLE_12, "dest_mask")
    swizzle2 = syntax.swizzle("src2_swizzle", "src2_swiz", tables.VEC4_STD, "dest_mask")
    operands = f"{{{dest}}}.{{{mask}}}, {{{src1}}}.{{{swizzle1}}}, {{{src2}}}.{{{swizzle2}}}"
    for op2, operation in enumerate(NMAD_OPERATIONS):
        yield syntax.build(f"{{{pred}?}} {prefix}{operation}{{{flags}}} {operands}", op2=op2)


def v32nmad(syntax: FormSyntax):
    return nmad(syntax, "v")


def v16nmad(syntax: FormSyntax):
    return nmad(syntax, "vf16")


def _gpi_forms(syntax: FormSyntax, mnemonic: str, *, with_gpi1: bool):
    """VMAD and VDP: single-issue forms with internal-register (GPI) sources."""
    flags = syntax.flags(*COMMON_FLAGS[:1], ("nosched", "nosched", 1), ("end", "end", 1), *REPEATS_2,
                         ("rpt_internal", "repeat_mode", 1), ("rpt_both", "repeat_mode", 2),
                         ("rpt_smlsi", "repeat_mode", 3),
                         *((("clip", "clip_plane_enable", 1),) if not with_gpi1 else ()),
                         *(((f"plane{n}", "clip_plane_n", n) for n in range(1, 8)) if not with_gpi1 else ()))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_VECTOR)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank", ext="dest_use_bank_ext",
                           number="dest_n", doubled=True, internal_bits=7)
    mask = syntax.write_mask("write_mask")
    gpi0 = syntax.modified("gpi0", syntax.gpi("gpi0_reg", "gpi0_n"), negate="gpi0_neg", absolute="gpi0_abs")
    src1 = syntax.modified("src1", syntax.register("src1_reg", banks=tables.SRC12_BANKS, bank="src1_bank",
                                                   ext="src1_bank_ext", number="src1_n", doubled=True,
                                                   internal_bits=7), negate="src1_neg", absolute="src1_abs")
    # VDP has no extension bit for gpi0's swizzle (its bits hold the clip plane): standard table only.
    gpi0_code = syntax.combined("gpi0_swizzle", "gpi0_swiz_ext", "gpi0_swiz") if with_gpi1 else "gpi0_swiz"
    if with_gpi1:
        src1_code = syntax.combined("src1_swizzle", "src1_swiz_ext", "src1_swiz")
        gpi1 = syntax.modified("gpi1", syntax.gpi("gpi1_reg", "gpi1_n"), negate="gpi1_neg", absolute="gpi1_abs")
        gpi1_code = syntax.combined("gpi1_swizzle", "gpi1_swiz_ext", "gpi1_swiz")
    else:
        src1_code = syntax.combined("src1_swizzle", "src1_swiz_w", "src1_swiz_z", "src1_swiz_y", "src1_swiz_x")
    for opcode2, (standard, extended) in enumerate(((tables.VEC3_STD, tables.VEC3_EXT),
                                                     (tables.VEC4_STD, tables.VEC4_EXT))):
        both = standard + extended
        swizzles = [syntax.swizzle(f"gpi0_swizzle{opcode2}", gpi0_code, both if with_gpi1 else standard,
                                   "write_mask")]
        if with_gpi1:
            swizzles.append(syntax.swizzle(f"src1_swizzle{opcode2}", src1_code, both, "write_mask"))
            swizzles.append(syntax.swizzle(f"gpi1_swizzle{opcode2}", gpi1_code, both, "write_mask"))
            sources = (gpi0, src1, gpi1)
        else:
            swizzles.append(syntax.swizzle("src1_swizzle", src1_code, VECTOR_SWIZZLE_12, "write_mask"))
            sources = (gpi0, src1)
        operands = ", ".join([f"{{{dest}}}.{{{mask}}}",
                              *(f"{{{source}}}.{{{swizzle}}}" for source, swizzle in zip(sources, swizzles))])
        yield syntax.build(f"{{{pred}?}} {mnemonic}{3 + opcode2}{{{flags}}} {operands}", opcode2=opcode2)


def vmad(syntax: FormSyntax):
    return _gpi_forms(syntax, "vmad", with_gpi1=True)


def vdp(syntax: FormSyntax):
    return _gpi_forms(syntax, "vdp", with_gpi1=False)


COMPLEX_OPERATIONS = ("vrcp", "vrsq", "vlog", "vexp")
VALUE_TYPES = ("f32", "f16", "c10", "type3")


def vcomp(syntax: FormSyntax):
    flags = syntax.flags(*COMMON_FLAGS, ("end", "end", 1),
                         *((f"rpt{count + 1}", "repeat_count", count) for count in range(1, 16)),
                         *((name, "dest_type", value) for value, name in enumerate(VALUE_TYPES) if value),
                         *((f"src_{name}", "src_type", value) for value, name in enumerate(VALUE_TYPES) if value))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="dest_bank", ext="dest_bank_ext",
                           number="dest_n", doubled=True, internal_bits=8)
    mask = syntax.write_mask("write_mask")
    src1 = syntax.modified("src1", syntax.register("src1_reg", banks=tables.SRC12_BANKS, bank="src1_bank",
                                                   ext="src1_bank_ext", number="src1_n", doubled=True,
                                                   internal_bits=8), modifier="src1_mod")
    component = syntax.choice("component", "src_comp", "xyzw")
    for op2, mnemonic in enumerate(COMPLEX_OPERATIONS):
        yield syntax.build(f"{{{pred}?}} {mnemonic}{{{flags}}} {{{dest}}}.{{{mask}}}, {{{src1}}}.{{{component}}}",
                           op2=op2)


DECLARED = {"VMAD2": vmad2, "V32NMAD": v32nmad, "V16NMAD": v16nmad, "VMAD": vmad, "VDP": vdp, "VCOMP": vcomp}
