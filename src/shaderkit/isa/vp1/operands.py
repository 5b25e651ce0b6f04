"""The operands of VP1's text (spec/vp1.md §3, §4.3, §10), as core operand bindings.

Every placeholder of the forms (:mod:`.forms_scalar`, :mod:`.forms_vector`, :mod:`.forms_address`,
:mod:`.forms_branch`) names one of :data:`OPERANDS`. The conventions of envydis's text live here:

* ``$r31`` prints as ``0x0`` in a plain ``$r`` position (and ``0x0`` there reads as ``$r31``,
  so ``add $r1 $r2 0x0`` is the register form, as envyas reads it); suffixed pair and quad
  bases print ``$r31d``/``$r31q``;
* the flag select names of §3.2, ``unk11``/``unk12`` marked unknown;
* a mangled source is a sub-table: ``$rN`` for flag select 14, ``(slct $cC b20 $rNq)`` for 4,
  ``(slct $cC FLAG $rNd)`` otherwise (the same for ``$a`` and ``$v``);
* numbers are lowercase hex, signed where the field is, branch targets as 64-bit two's
  complement when negative; every number also reads written as 64-bit two's complement (envyas
  writes negative SHIFT/FACTOR values that way).
"""

from __future__ import annotations

from ...core.model import Choice, CodeAddress, Immediate, Operand, Registers, SubTable, case

# Numbers: hex, and a 64-bit two's complement number reads as the negative value it is.
HEX = Immediate(radix=16, twos_complement=64)
TARGET = CodeAddress(radix=16, twos_complement=64, prints_twos_complement=True, label_prefix="#")


def _file(prefix: str, count: int, suffix: str = "", special: dict[int, tuple[str, ...]] | None = None) -> Registers:
    names = {number: (f"{prefix}{number}{suffix}",) for number in range(count)}
    names.update(special or {})
    return Registers(names)


# $r31 reads 0 and prints as 0x0 in plain positions; "$r31" is read too.
R = _file("$r", 32, special={31: ("0x0", "$r31")})
RD = _file("$r", 32, "d")
RQ = _file("$r", 32, "q")
V = _file("$v", 32)
VD = _file("$v", 32, "d")
VQ = _file("$v", 32, "q")
A = _file("$a", 32)
AD = _file("$a", 32, "d")
AQ = _file("$a", 32, "q")
C = _file("$c", 4)
VC = _file("$vc", 4)
L = _file("$l", 4)
L32 = _file("$l", 32)  # mov to/from $l prints the whole 5-bit index
SR = _file("$sr", 32, special={30: ("$tick", "$sr30"), 31: ("$csreq", "$sr31")})
MI = _file("$mi", 32)
UC = _file("$uc", 32, special={16: ("$uccfg", "$uc16")})
M = _file("$m", 64)
D = _file("$d", 8)
F = _file("$f", 2)
X = _file("$x", 16)

FLAG_NAMES = ("sf", "zf", "b19", "b20d", "b20", "b21", "b19a", "b18", "asf", "azf", "aef", "unk11", "unk12",
              "lzf", "false", "true")
FLAGS = Choice(dict(enumerate(FLAG_NAMES)), unknown=frozenset({11, 12}))
SLCT_PLAIN = 14  # flag select "false": the source is not mangled
SLCT_QUAD = 4  # rotate inside an aligned quad


def _choice(*names: str) -> Choice:
    return Choice(dict(enumerate(names)))


def _mangled(title: str, plain: str, pair: str, quad: str) -> SubTable:
    """``S2m`` of §4.3 over ``src2``: plain for flag select 14, a quad for 4, a pair otherwise."""
    return SubTable((case(f"{{{plain}}}", slct=SLCT_PLAIN),
                     case(f"(slct {{mcond}} b20 {{{quad}}})", slct=SLCT_QUAD),
                     case(f"(slct {{mcond}} {{mflag}} {{{pair}}})")), title=title)


OPERANDS = {
    # $r, by field
    "rd": Operand("dst", R, title="destination"),
    "rs1": Operand("src1", R, title="source 1"),
    "rs2": Operand("src2", R, title="source 2"),
    "rs2q": Operand("src2", RQ, title="quad base"),
    # $v
    "vd": Operand("dst", V, title="destination"),
    "vdq": Operand("dst", VQ, title="quad destination"),
    "vs1": Operand("src1", V, title="source 1"),
    "vs1d": Operand("src1", VD, title="pair source 1"),
    "vs1q": Operand("src1", VQ, title="quad source 1"),
    "vs2": Operand("src2", V, title="source 2"),
    "vs3": Operand("src3", V, title="source 3"),
    # $a
    "ad": Operand("dst", A, title="address register"),
    "add": Operand("dst", AD, title="address pair"),
    "as1": Operand("src1", A, title="address source"),
    "as1d": Operand("src1", AD, title="address pair source"),
    "as2": Operand("src2", A, title="address source 2"),
    # mangled sources (§4.3) and their parts
    "m2r": _mangled("scalar source 2", "rs2", "m2rd", "m2rq"),
    "m2v": _mangled("vector source 2", "vs2", "m2vd", "m2vq"),
    "m2a": _mangled("address source 2", "as2", "m2ad", "m2aq"),
    "m2rd": Operand("src2", RD), "m2rq": Operand("src2", RQ),
    "m2vd": Operand("src2", VD), "m2vq": Operand("src2", VQ),
    "m2ad": Operand("src2", AD), "m2aq": Operand("src2", AQ),
    "mcond": Operand("cond", C, title="condition register"),
    "mflag": Operand("slct", FLAGS, title="flag"),
    # condition destinations and predicates
    "c": Operand("cdst", C, title="condition destination"),
    "vc": Operand("cdst", VC, title="vector condition destination"),
    "pc": Operand("cond", C, title="condition register"),
    "flag": Operand("slct", FLAGS, title="flag"),
    "ls": Operand("cond", L, title="loop source"),
    "ld": Operand("vcsrc", L, title="loop destination"),
    # multiply / lerp modifiers
    "rnd": Operand("rnd", _choice("rd", "rn"), title="rounding"),
    "altrnd": Operand("altrnd", _choice("rd", "rn"), title="rounding"),
    "fi": Operand("fractint", _choice("fract", "int"), title="fract/int"),
    "hilo": Operand("hilo", _choice("hi", "lo"), title="hi/lo"),
    "sign1": Operand("sign1", _choice("u", "s"), title="source 1 signedness"),
    "sign2": Operand("sign2", _choice("u", "s"), title="source 2 signedness"),
    "signs": Operand("signs", _choice("u", "s"), title="source signedness"),
    "signd": Operand("signd", _choice("u", "s"), title="result signedness"),
    "s2vmode": Operand("s2vmode", _choice("factor", "mask"), title="factor/mask"),
    "lrp2x": Operand("lrp2x", _choice("", "xor"), title="xor"),
    "vawrite": Operand("vawrite", _choice("", "va"), title="va"),
    "shift": Operand("shift", HEX, title="shift"),
    "altshift": Operand("altshift", HEX, title="shift"),
    "vcsrc": Operand("vcsrc", VC, title="vector condition source"),
    "vcsel": Operand("vcsel", _choice("sf", "zf"), title="sf/zf"),
    "swz": Operand("swzlohi", _choice("lo", "hi"), title="lo/hi"),
    # s2v selection
    "vci": Operand("vcidx", VC, title="vector condition"),
    "vcflag": Operand("vcflag", _choice("sf", "zf"), title="sf/zf"),
    "vcxfrm": Operand("vcxfrm", HEX, title="transform"),
    # immediates
    "imm": Operand("imm", HEX, title="immediate"),
    "uimm": Operand("uimm", HEX, title="immediate"),
    "bimm": Operand("bimm", HEX, title="byte immediate"),
    "bimmmul": Operand("bimmmul", HEX, title="multiplier immediate"),
    "bimmbad": Operand("bimmbad", HEX, title="byte immediate"),
    "imm19": Operand("imm19", HEX, title="immediate"),
    "imm16": Operand("imm16", HEX, title="immediate"),
    "immh": Operand("immh", HEX, title="high half"),
    "factor1": Operand("factor1", HEX, title="factor 1"),
    "factor2": Operand("factor2", HEX, title="factor 2"),
    "bitop": Operand("bitop", HEX, title="truth table"),
    "cmpop": Operand("cmpop", HEX, title="truth table"),
    "comp": Operand("comp", HEX, title="word index"),
    "xdimm": Operand("xdimm", HEX, title="DMA immediate"),
    "barw": Operand("barw", HEX, title="barrier"),
    "baru": Operand("baru", HEX, title="barrier"),
    "target": Operand("btarg", TARGET, title="branch target"),
    "abs": Operand("abtarg", TARGET, title="branch target"),
    "intr": Operand("bit16", _choice("", "intr"), title="intr"),
    "stld19": Operand("bit19", _choice("st", "ld"), title="st/ld"),
    "stld0": Operand("bit0", _choice("st", "ld"), title="st/ld"),
    # moves to and from other register files (0x6a writes DST's file, 0x6b reads SRC1's)
    "lci_l": Operand("vcidx", L, title="loop register"),
    "lci_c": Operand("vcidx", C, title="condition register"),
    "srd": Operand("dst", SR, title="special register"),
    "srs1": Operand("src1", SR, title="special register"),
    "mid": Operand("dst", MI, title="memory-interface register"),
    "mis1": Operand("src1", MI, title="memory-interface register"),
    "ucd": Operand("dst", UC, title="control register"),
    "ucs1": Operand("src1", UC, title="control register"),
    "l32d": Operand("dst", L32, title="loop register"),
    "l32s1": Operand("src1", L32, title="loop register"),
    "cs1": Operand("c_src1", C, title="condition register"),
    "md": Operand("m_dst", M, title="method register"),
    "ms1": Operand("m_src1", M, title="method register"),
    "dd": Operand("d_dst", D, title="DMA register"),
    "ds1": Operand("d_src1", D, title="DMA register"),
    "fd": Operand("f_dst", F, title="FIFO register"),
    "fs1": Operand("f_src1", F, title="FIFO register"),
    "xd": Operand("x_dst", X, title="extra register"),
    "xs1": Operand("x_src1", X, title="extra register"),
}
