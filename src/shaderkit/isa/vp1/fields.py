"""The fields of a VP1 instruction word (spec/vp1.md §4.1), shared by the description (text)
and the emulator (execution).

Every VP1 word is 32 bits with the opcode byte in bits 24–31; the other fields overlap freely
and each form reads the ones it names. A field here is raw bits plus how they read as a number
(signed, scaled, PC-relative), as :mod:`shaderkit.core.model.fields` defines; the emulator
reads raw bits with :meth:`Field.read` and numbers with :meth:`Field.value`.
"""

from __future__ import annotations

from ...core.model import field


def branch_base(address: int) -> int:
    """Branch offsets count 4-word groups from the start of the branch's aligned group (§9)."""
    return address & ~3


FIELDS = {
    "op": field("31:24"),
    "dst": field("23:19"),
    "src1": field("18:14"),
    "src2": field("13:9"),
    "src3": field("8:4"),
    # $c / $vc destination: written iff bit 2 is 0; envyas writes 4 when no operand is given.
    "cdst": field("2:0", default=4),
    "cond": field("4:3"),
    "slct": field("8:5"),
    "imm": field("13:3", signed=True),
    "uimm": field("13:3"),
    "bimm": field("10:3"),
    # Bits 9–13 are value bits 0–4 and bit 0 value bit 5; the operand is the value << 2.
    "bimmmul": field("0,13:9", scale=4),
    "bimmbad": field("7:0"),
    "imm19": field("18:0", signed=True),
    "imm16": field("15:0"),
    "immh": field("15:0", scale=0x10000),
    "factor1": field("9:1", signed=True),
    "factor2": field("18:10", signed=True),
    "vcidx": field("20:19"),
    "vcflag": field("21"),
    # Bits 22–23 are value bits 0–1 and bit 0 value bit 2.
    "vcxfrm": field("0,23:22"),
    "bitop": field("6:3"),
    "rfile": field("7:3"),
    "sign2": field("1"),
    "sign1": field("2"),
    "rnd": field("8"),
    "s2vmode": field("0"),
    "fractint": field("3"),
    "hilo": field("4"),
    "shift": field("7:5", signed=True),
    "altrnd": field("9"),
    "signs": field("9"),
    "lrp2x": field("10"),
    "vawrite": field("11"),
    "altshift": field("13:11", signed=True),
    "signd": field("12"),
    "vcsrc": field("1:0"),
    "vcsel": field("2"),
    "swzlohi": field("3"),
    "cmpop": field("22:19"),
    "comp": field("4:3"),
    "btarg": field("23:9", signed=True, scale=4, relative_to=branch_base),
    "abtarg": field("15:0", scale=4),
    "xdimm": field("12:0"),
    "barw": field("21:20"),
    "baru": field("4:3"),
    "signed_op": field("28"),  # 0 → s, 1 → u
    # Single bits and groups some forms select on or print (the text side, spec §5.4, §8.3, §9).
    "bit0": field("0"),
    "bit13": field("13"),  # c3/c7: 1 = no XDIMM
    "bit16": field("16"),  # ce/cf: 1 = address-register form; ff: intr
    "bit19": field("19"),  # ce/cf without an address register: ld
    "condslct": field("8:3"),  # e0/e1/e4/e5: 0x3c (COND 0, SLCT true) is the short form
    "rfile_top": field("7:5"),  # 0x6a/0x6b: RFILE 0-3 ($v words) have these 0
    "rfile_hi": field("7:4"),  # 0x6a/0x6b: RFILE 20/21 ($m) have these 0xa
    "m_dst": field("3,23:19"),  # $m index: RFILE bit 0 (word bit 3) is index bit 5
    "m_src1": field("3,18:14"),
    "d_dst": field("21:19"),
    "d_src1": field("16:14"),
    "f_dst": field("19"),
    "f_src1": field("14"),
    "x_dst": field("22:19"),
    "x_src1": field("17:14"),
    "c_src1": field("15:14"),  # envydis prints bits 14-15 of SRC1 for mov from $c
}
