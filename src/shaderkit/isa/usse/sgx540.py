"""The older, non-VEC34 USSE family (SGX530/535/540: ``--core sgx540``), as far as the public
opcode map goes (spec/usse.md §2.2, the SEED): every major opcode and the selector that names its
instruction, and the few fields the SEED gives; the rest of each word is shown as it stands.

A form is one (major opcode, selector value) pair with the SEED's name in lower case (``mad``,
``rcp``, ``movc.i16``, ``smpbias``, ``lapc``, ``setfc``…). Fields the SEED names print as
``name=value`` assignments and every other bit as ``bits=0x…`` in place, both only when not 0, so
any word of a named instruction reads back as itself. Selector values the SEED calls invalid, the
invalid major opcodes 0x1A and 0x1B and the 0x1F categories' unused sub-ops have no form: they
list as ``.word``. Operand layouts, register banks and semantics of this family are unknown (§9),
so there is no emulator, no syntax beyond the names and no GLSL for it.
"""

from __future__ import annotations

from functools import cache

from ...core.model import AsData, Description
from .description import usse_description
from .encoding import layout
from .syntax import FormSyntax

# Fields the SEED names (w0/w1 notation as in spec §10).
REPEAT_2 = {"repeat": "w1[13:12]"}
REPEAT_3 = {"repeat": "w1[14:12]"}
SMP_FIELDS = {"coord_dim": "w1[11:10]", "dest_type": "w1[7]", "drc": "w1[1:0]"}
LOAD_STORE_FIELDS = {"repeat_mode": "w1[21]", "count": "w1[15:12]", "dest_type": "w1[7]"}
FLOW_FIELDS = {"syncend": "w1[23]", "offset": "w0[11:0]"}

# (major opcode, mnemonic, {selector layout: value}, named fields), in the SEED's table order.
OPCODES = [
    *((0x00, name, {"w1[10:9]": value}, {}) for value, name in enumerate(("mad", "adm", "msa", "frc"))),
    *((0x01, name, {"w1[10:9]": value}, {}) for value, name in enumerate(("rcp", "rsq", "log", "exp"))),
    *((0x02, name, {"w1[10:9]": value}, {}) for value, name in enumerate(("dp", "ddp", "ddpc"))),
    *((0x03, name, {"w1[10:9]": value}, {}) for value, name in enumerate(("min", "max"))),
    *((0x04, name, {"w1[10:9]": value}, {}) for value, name in enumerate(("dsx", "dsy"))),
    *((0x05, "movc" + suffix, {"w1[10:8]": value}, {})
      for value, suffix in enumerate(("", ".i8", ".i16", ".i32", ".f32", ".i10"))),
    (0x06, "fmad16", {"w1[10:9]": 0}, {}),
    (0x07, "efo", {}, REPEAT_2),
    (0x08, "pckunpck", {}, {"write_mask": "w1[5:2]"}),
    (0x09, "test", {}, {"repeat_mask": "w1[15:12]"}),
    (0x0A, "and", {"w1[3]": 0}, {}), (0x0A, "or", {"w1[3]": 1}, {}),
    (0x0B, "xor", {}, {}),
    (0x0C, "shl", {"w1[3]": 0}, {}), (0x0C, "rol", {"w1[3]": 1}, {}),
    (0x0D, "shr", {"w1[3]": 0}, {}), (0x0D, "asr", {"w1[3]": 1}, {}),
    (0x0E, "rlp", {}, {}),
    (0x0F, "testmask", {}, {}),
    (0x10, "sop2", {}, REPEAT_3),
    (0x11, "sop3", {}, {}),
    (0x12, "sopwm", {}, {"write_mask": "w1[11]:w1[14:12]"}),
    (0x13, "ima8", {}, REPEAT_3), (0x14, "ima16", {}, REPEAT_3), (0x15, "imae", {}, REPEAT_3),
    (0x16, "adif", {"w1[21:20]": 0}, REPEAT_3), (0x16, "bilin", {"w1[21:20]": 2}, REPEAT_3),
    (0x16, "firv", {"w1[21:20]": 3}, REPEAT_3),
    (0x17, "firh", {}, REPEAT_2),
    (0x18, "dot3", {"w1[24]": 0}, {}), (0x18, "dot4", {"w1[24]": 1}, {}),
    (0x19, "fpma", {}, {}),
    *((0x1C, name, {"w1[9:8]": value}, SMP_FIELDS)
      for value, name in enumerate(("smp", "smpbias", "smpreplace", "smpgrad"))),
    (0x1D, "ld", {}, LOAD_STORE_FIELDS), (0x1E, "st", {}, LOAD_STORE_FIELDS),
    *((0x1F, name, {"w1[21:20]": 0, "w1[8:6]": value}, FLOW_FIELDS if value < 2 else {"syncend": "w1[23]"})
      for value, name in enumerate(("ba", "br", "lapc", "setl", "savl", "nop"))),
    *((0x1F, name, {"w1[21:20]": 1, "w1[26:24]": value}, {}) for value, name in enumerate(("smoa", "smr"))),
    (0x1F, "smlsi", {"w1[21:20]": 1, "w1[26:24]": 2},
     {"swizzle_flags": "w1[3:0]", "inc0": "w0[31:24]", "inc1": "w0[23:16]", "inc2": "w0[15:8]", "inc3": "w0[7:0]"}),
    (0x1F, "smbo", {"w1[21:20]": 1, "w1[26:24]": 3},
     {"offset0": "w1[15:4]", "offset1": "w1[3:0]:w0[31:24]", "offset2": "w0[23:12]", "offset3": "w0[11:0]"}),
    (0x1F, "imo", {"w1[21:20]": 1, "w1[26:24]": 4}, {}),
    (0x1F, "setfc", {"w1[21:20]": 1, "w1[26:24]": 5}, {"colour_format": "w0[8]", "efo_format": "w0[0]"}),
    *((0x1F, name, {"w1[21:20]": 2, "w1[26:24]": value}, {})
      for value, name in ((0, "idf"), (1, "wdf"), (2, "setm"), (3, "emit"), (4, "limm"), (7, "wop"))),
    (0x1F, "lock", {"w1[21:20]": 2, "w1[26:24]": 5, "w0[1]": 0}, {}),
    (0x1F, "release", {"w1[21:20]": 2, "w1[26:24]": 5, "w0[1]": 1}, {}),
    (0x1F, "ldr", {"w1[21:20]": 2, "w1[26:24]": 6, "w1[19]": 0}, {}),
    (0x1F, "str", {"w1[21:20]": 2, "w1[26:24]": 6, "w1[19]": 1}, {}),
    (0x1F, "pcoeff", {"w1[21:20]": 3, "w1[26:24]": 0, "w1[15]": 0}, {}),
    (0x1F, "ptoff", {"w1[21:20]": 3, "w1[26:24]": 0, "w1[15]": 1}, {}),
    (0x1F, "atst8", {"w1[21:20]": 3, "w1[26:24]": 1}, {}),
    (0x1F, "depthf", {"w1[21:20]": 3, "w1[26:24]": 3}, {}),
]


def pattern_of(major: int, selectors: dict[str, int]) -> str:
    """The 64-character bit pattern (bit 63 first) fixing the major opcode and the selectors."""
    bits = ["-"] * 64
    for index in range(5):
        bits[index] = str(major >> (4 - index) & 1)
    for notation, value in selectors.items():
        positions = [int(bit) for piece in layout(notation).split(",") for bit in _expand(piece)]
        for offset, position in enumerate(positions):
            bits[63 - position] = str(value >> (len(positions) - 1 - offset) & 1)
    return "".join(bits)


def _expand(piece: str) -> list[int]:
    high, _, low = piece.partition(":")
    return list(range(int(high), int(low or high) - 1, -1))


def forms():
    for major, mnemonic, selectors, named in OPCODES:
        syntax = FormSyntax(mnemonic.upper().replace(".", "_"), pattern_of(major, selectors),
                            {name: layout(notation) for name, notation in named.items()}, rest="bits")
        yield syntax.build(mnemonic), syntax.operands


@cache
def listing() -> Description:
    declared = list(forms())
    operands = {name: binding for _, bound in declared for name, binding in bound.items()}
    return usse_description("usse-sgx540", [form for form, _ in declared], operands, AsData(verify=True),
                            describe_unknown)


def describe_unknown(value: int) -> str:
    return f"no instruction the SGX540 opcode map names (major opcode 0x{value >> 59:02x})"
