"""The dual-issue form (spec/usse.md §2.1 row 6, §3, §4, §10): VDUAL, two vector operations in
one word, written as ONE statement of our syntax (§6.2) that names both operations::

    [pred] vdual3.op1_<n>.op2_<m>{.f16.skipinv} dest.mask, i<a>.swz, [-]i<b>.swz, [-]us.swz
    [pred] vdual4.op1_<n>.op2_<m>{.f16.skipinv} dest.mask, i<a>.swz, [-]i<b>.swz, [-]us.swz

* ``vdual3``/``vdual4`` — ``comp_count_type`` 0 / 1: the operations work on 3 / 4 channels and
  every swizzle reads VDUAL's own vec3 / vec4 tables (§3.4). The value → count mapping is not in
  the spec's tables; it is the one Vita3K's translator uses (a 4-channel internal write mask when
  the bit is 1), as VMAD's ``opcode2`` (0 vec3, 1 vec4).
* ``.op1_<n>``, ``.op2_<m>`` — the two operation codes as numbers: the spec names no operation
  of VDUAL. ``op2`` is ``dual_op2_ext:dual_op2`` (0–15). ``op1`` is
  ``dual_op1_ext_vec3_or_has_w_vec4:dual_op1`` (0–15) in ``vdual3``; in ``vdual4`` that bit is,
  by its name, not op1's extension but the ``w`` bit of the write mask, and ``op1`` is
  ``dual_op1`` (0–7).
* ``dest.mask`` — the primary (unified-store) destination, bank ``prim_dest_bank`` (§3.1
  destination banks without an extension bit: ``r o pa`` or indexed through ``idx1``) and
  number ``prim_dest_num``; its write mask is ``write_mask_non_gpi`` (``xyz``), with
  ``dual_op1_ext_vec3_or_has_w_vec4`` as ``w`` in ``vdual4``.
* ``i<a>.swz`` — GPI operand ``gpi0_slot_num`` (§3.2: 2-bit numbers naming ``i0``–``i3``) with
  swizzle ``gpi0_swizz`` (standard table: VDUAL has no extension bit for it).
* ``[-]i<b>.swz`` — GPI operand ``gpi1_slot_num``, negated by ``gpi1_neg``, swizzle
  ``gpi1_swizz`` from the standard or the extended table by ``gpi1_swizz_ext``.
* ``[-]us.swz`` — the unified-store operand: bank ``unified_store_slot_bank`` (§3.1 source-1/2
  banks without an extension bit: ``r o pa sa``), number ``unified_store_slot_num``, negated by
  ``unified_store_neg``, swizzle ``unified_store_swizz`` (standard table).
* ``pred`` — ``sv_pred``. §4 lists no table for it (and Vita3K prints no predicate for VDUAL).
  Our choice: it reads as VMAD2's 2-bit predicate does, the first four codes of the extended and
  vector tables, which agree (always, ``p0``, ``p1``, ``p2``).
* ``.f16`` — ``type_f16`` (F32 when absent); ``.skipinv``.

Swizzles are printed whole (not cut to a write mask): which operation reads which source, and
so under which mask, is not in the spec. A code whose table entry is empty, or reads the same as
an earlier code, prints as ``sw<code>``.

Register numbers: the spec doubles VDUAL's unified-store operand "when it is a vector" (§3.2)
and leaves the widths of VDUAL's variants unknown (§9). VDUAL is the vector dual-issue form
and its swizzles are vec3/vec4 swizzles, so both unified-store registers (the source and the
primary destination) are read as vector ones: the 7-bit number counts 64-bit pairs, and the
internal-register check uses 8 bits (the width after doubling, §3.2), so fields 124–127 of the
temporary bank are ``i0``–``i3``. Which operations would make the operand scalar (undoubled)
is not in the spec, since it names none of the operation codes.

Left as ``name=value`` assignments (printed when not 0), because the spec gives their names
but not how they are read:

* ``prim_ustore`` — by its name, whether the primary operation writes the unified store;
  which operation writes which destination is not in the spec;
* ``prim_dest_num_gpi_case`` — by its name, a destination number "in the GPI case", i.e. an
  internal destination, for which of the two operations is not in the spec;
* ``src_config`` — which sources each operation reads is not in the spec;
* ``gpi2_slot_num_bit_1``, ``gpi2_slot_num_bit_0_or_unified_store_abs`` — a third GPI operand's
  number, or (bit 0) the unified-store operand's absolute value: when each reading applies is
  not in the spec (nor whether bit 1 extends the unified-store swizzle, as in Vita3K).
"""

from __future__ import annotations

from ...core.model import Choice, Operand, mask_names
from . import tables
from .syntax import MASK, FormSyntax

COMPONENT_COUNTS = {0: (3, tables.VDUAL_VEC3_STD, tables.VDUAL_VEC3_EXT),
                    1: (4, tables.VDUAL_VEC4_STD, tables.VDUAL_VEC4_EXT)}
MASK_XYZ = Choice(mask_names("xyz"))


def vdual(syntax: FormSyntax):
    flags = syntax.flags(("f16", "type_f16", 1), ("skipinv", "skipinv", 1))
    pred = syntax.choice("pred", "sv_pred", tables.PREDICATES_VMAD2)
    op2 = syntax.choice("op2", syntax.combined("op2", "dual_op2_ext", "dual_op2"),
                        {code: f".op2_{code}" for code in range(16)})
    dest = syntax.register("dest", banks=tables.DEST_BANKS, bank="prim_dest_bank", ext=None,
                           number="prim_dest_num", doubled=True, internal_bits=8)
    gpi0 = syntax.gpi("gpi0", "gpi0_slot_num")
    gpi1 = syntax.modified("gpi1", syntax.gpi("gpi1_reg", "gpi1_slot_num"), negate="gpi1_neg")
    unified = syntax.modified("us", syntax.register("us_reg", banks=tables.SRC12_BANKS,
                                                    bank="unified_store_slot_bank", ext=None,
                                                    number="unified_store_slot_num", doubled=True,
                                                    internal_bits=8), negate="unified_store_neg")
    gpi1_code = syntax.combined("gpi1_swizzle", "gpi1_swizz_ext", "gpi1_swizz")
    for comp_count_type, (count, standard, extended) in COMPONENT_COUNTS.items():
        if count == 3:
            op1 = syntax.choice("op1", syntax.combined("op1", "dual_op1_ext_vec3_or_has_w_vec4", "dual_op1"),
                                {code: f".op1_{code}" for code in range(16)})
            mask = syntax.bind("mask_xyz", Operand("write_mask_non_gpi", MASK_XYZ, title="write mask"))
        else:
            op1 = syntax.choice("op1_vec4", "dual_op1", {code: f".op1_{code}" for code in range(8)})
            mask = syntax.bind("mask", Operand(
                syntax.combined("write_mask", "dual_op1_ext_vec3_or_has_w_vec4", "write_mask_non_gpi"), MASK,
                title="write mask"))
        swizzle0 = syntax.swizzle(f"gpi0_swizzle{count}", "gpi0_swizz", standard, None)
        swizzle1 = syntax.swizzle(f"gpi1_swizzle{count}", gpi1_code, standard + extended, None)
        swizzle_us = syntax.swizzle(f"us_swizzle{count}", "unified_store_swizz", standard, None)
        operands = (f"{{{dest}}}.{{{mask}}}, {{{gpi0}}}.{{{swizzle0}}}, {{{gpi1}}}.{{{swizzle1}}}, "
                    f"{{{unified}}}.{{{swizzle_us}}}")
        yield syntax.build(f"{{{pred}?}} vdual{count}{{{op1}}}{{{op2}}}{{{flags}}} {operands}",
                           comp_count_type=comp_count_type)


_COMMON = ("two operations issued together (major opcodes 0x04 and 0x05, `w1[31:28]` = 0010), written as one "
           "statement: `.op1_<n>` and `.op2_<m>` are the two operation codes as numbers (the spec names none of "
           "them); `dest` is the primary, unified-store destination, `i<a>` and `i<b>` the GPI operands "
           "(`gpi0_slot_num`, `gpi1_slot_num`), `us` the unified-store operand; `.f16` is `type_f16`; the "
           "predicate is `sv_pred`, read like VMAD2's 2-bit predicate (the spec gives no table for it). Unified-"
           "store register numbers count 64-bit pairs (read as vector operands; the spec doubles the operand "
           "when it is a vector). Swizzles are whole, from VDUAL's own tables. Which operation reads which "
           "source and writes which destination is unknown: the fields saying so are shown as `name=value`. "
           "Semantics unknown; not modelled.")
MEANINGS = {
    "vdual3": "Dual issue on 3 channels (`comp_count_type` 0, vec3 swizzle tables): " + _COMMON
              + " `op1` includes `dual_op1_ext_vec3_or_has_w_vec4` as its bit 3; the write mask is `xyz`.",
    "vdual4": "Dual issue on 4 channels (`comp_count_type` 1, vec4 swizzle tables): " + _COMMON
              + " `dual_op1_ext_vec3_or_has_w_vec4` is the write mask's `w` bit; `op1` is 0–7.",
}

DECLARED = {"VDUAL": vdual}
