"""The USSE reference manual: ``reference.md`` (prose) with one entry per mnemonic.

The syntax and the bit diagram of each entry come from the first form of the listing
description (:func:`.description.listing`) that has the mnemonic; the meaning is written here
from spec/usse.md §5 and §5.1 (and §2.1 for what a form is), generated per family where the
family is regular: the NMAD operations, the ``vmov`` move and data types, the 64 ``vpck<dst><src>``
conversions, the ``vtst``/``vtstmsk`` ALUs and the bitwise ``op1``/``op2`` pairs. Where the spec
says a form's behaviour is unknown, the entry says so.

Forms sharing a mnemonic (VBW's eight source-2 banks) share one entry. Operand names in the
syntax drop the form-name prefix the description gives them (``VMAD2_dest`` reads ``dest``); a
form's trailing ``name=value`` operand (fields the syntax does not show, left out while 0) reads
``[name=value …]``, and the diagram names those bits by field.
"""

from __future__ import annotations

import re
from functools import cache

from ...core.docs import BitRange, InstructionEntry, Reference, bit_diagram, form_bit_ranges, prose
from ...core.model.assignments import Assignments
from .description import declared_syntax, form_modules, listing
from .forms_move import DATA_TYPES, PACK_FORMATS
from .forms_test import ALUS, OPERATIONS

# -- meanings ------------------------------------------------------------------------------

_FLOAT_NOTE = ("Register numbers count 64-bit pairs (the doubling rule); a temporary at or above the "
               "internal limit is `i0`–`i3`.")

_NMAD = {
    "mul": "Per-channel multiply, `dest = src1 * src2`.",
    "add": "Per-channel add, `dest = src1 + src2`.",
    "frc": "Per-channel `dest = src1 - floor(src2)`: the fractional part when both sources are the same register.",
    "dsx": "Screen-space derivative in x (fragment programs). Its meaning in a vertex program is unknown; "
           "the emulator does not model it.",
    "dsy": "Screen-space derivative in y (fragment programs). Its meaning in a vertex program is unknown; "
           "the emulator does not model it.",
    "min": "Per-channel minimum of the two sources.",
    "max": "Per-channel maximum of the two sources.",
    "dp": "Dot product of the two sources over four channels, a scalar result (the emulator writes it to "
          "every enabled channel).",
}

_COMPLEX = {"vrcp": "Reciprocal, `1/x`", "vrsq": "Reciprocal square root, `1/sqrt(x)`",
            "vlog": "Base-2 logarithm, `log2(x)`", "vexp": "Base-2 exponential, `2^x`"}

_BITWISE = {
    "and": "Bitwise AND, `dest = src1 & src2'`.",
    "or": "Bitwise OR, `dest = src1 | src2'`.",
    "xor": "Bitwise XOR, `dest = src1 ^ src2'`.",
    "shl": "Shift left, `dest = src1 << src2'`.",
    "rol": "Rotate left, `src1` by `src2'`. Vita3K does not implement ROL; the emulator rotates within the "
           "operation's width.",
    "shr": "Logical shift right, `dest = src1 >> src2'`.",
    "asr": "Arithmetic shift right, `dest = src1 >> src2'` keeping the sign.",
    "bitwise31": "Major opcode 0x0B (XOR) with `op2` = 1, a combination the spec names nothing: semantics "
                 "unknown (the emulator runs it as XOR, which ignores `op2`).",
    "bitwise60": "Major opcode 0x0E with `op2` = 0: it matches the VBW pattern but Vita3K assigns it no "
                 "operation (the older family's map calls 0x0E RLP). Semantics unknown; not modelled.",
    "bitwise61": "Major opcode 0x0E with `op2` = 1: it matches the VBW pattern but Vita3K assigns it no "
                 "operation. Semantics unknown; not modelled.",
}
_BITWISE_NOTE = ("`src2'` is source 2 rotated left by `rol #n` (`src2_rot`), then inverted where it is written "
                 "`~src2`; with `.16` (`bitwise_partial`) the operation works on 16 bits. Source 2 may be a "
                 "16-bit immediate `#0x…` (`src2_exth:src2_sel:src2_n`); with a register source 2, "
                 "`src2_sel` and `src2_exth` have no known meaning and print as `name=value`. Register numbers "
                 "are not doubled. Flags `.rptsel` and `.rptN` select and count repeats.")

_RAW_NOTE = ("The spec names this form's fields but gives no syntax for them: it prints as its name and "
             "its non-zero fields, `name=value` in hex.")

_CONTROL = {
    "i8mad2": "Major opcode 0x19: recognised, not decoded (Vita3K: \"Unimplemented Opcode: i8mad2\"). Its "
              "fields and semantics are unknown; not modelled.",
    "nop": "No operation (major opcode 0x1F, `w1[22:20]` = 0, `w1[8:6]` = 5). Any predicate and flag bits "
           "are accepted; they print as `unused=…`.",
    "ba": "Branch with the unsigned 20-bit `br_off` (`w1[6]` = 0). Vita3K's analyser, and the emulator, go to "
          "the branch's own index plus `br_off`; whether BA is absolute on hardware is unknown. `.link` "
          "(`save_link`) stores the return address in the link register; a return (`w1[8:6]` = 2, a SPEC "
          "word) jumps back to it. `.anyinst`/`.allinst` take the branch when the predicate holds in any / all "
          "lanes; the other flags (`syncend`, `exception`, `pwait`, `syncext`, `nosched`, `monitor`) have no "
          "known semantics.",
    "br": "Relative branch: target = PC + the sign-extended 20-bit `br_off` (`w1[6]` = 1), in instructions. "
          "`.link` (`save_link`) stores the return address in the link register; a return (`w1[8:6]` = 2, a "
          "SPEC word) jumps back to it. `.anyinst`/`.allinst` take the branch when the predicate holds in any / "
          "all lanes; the other flags (`syncend`, `exception`, `pwait`, `syncext`, `nosched`, `monitor`) have "
          "no known semantics.",
    "smlsi": "Set the MOE increments of the four operand slots (dest, src0, src1, src2) for the repeated "
             "instructions that follow: a signed 8-bit step each, or `swz.xyzw` (four 2-bit entries, one per "
             "iteration) where the slot's `*_inc_mode` bit is set; and the register limits `temp`, `pa`, `sa`, "
             "whose meaning is unknown. Iteration k of a repeat uses `k * inc` (or the swizzle entry k), "
             "doubled for storage operands in float forms.",
    "smbo": "Set the base offsets (12 bits each) of the four operand slots dest, src0, src1, src2. Their "
            "effect on execution is unknown; not modelled.",
    "kill": "Discard the fragment when the short predicate (`p0`, `p1`, `!p0`, or always) holds. The emulator, "
            "which runs vertex programs, does not model it.",
    "limm": "Load a 32-bit immediate: `dest = #imm`, the value assembled as `w0[20:0]` | `w1[8:4]` << 21 | "
            "`w1[17:12]` << 26 (Vita3K prints `MOV`). Register numbers are not doubled; `.end` ends the program "
            "after it.",
    "spec": "Every other word of major opcode 0x1F (the catch-all): Vita3K logs only `category` (`w1[21:20]`) and "
            "`special` (`w1[22]`). EMIT, IDF/WDF, LOCK/RELEASE, LDR/STR, IDXSC and CFI words land here; their "
            "semantics are unknown. The emulator ends a program at the closing word `0xFB275000A0200000` "
            "(probably an end-of-program emit of the outputs) and follows a return (`w1[8:6]` = 2) to the link "
            "register; any other SPEC word is not modelled.",
}


def _vmov_meaning(mnemonic: str) -> str:
    move, _, type_name = mnemonic.partition(".")
    data_type = DATA_TYPES.index(type_name)
    if type_name in ("t6", "t7"):
        kind = (f"Data type code {data_type}, which the spec does not name: semantics unknown; not modelled.")
    elif type_name in ("f32", "f16", "c10"):
        kind = (f"Data type {type_name.upper()}: a vector move; register numbers count 64-bit pairs (the "
                f"doubling rule) and the one 4-bit swizzle code (vec4 standard table) applies to the sources"
                + (" (C10 moves are not modelled)." if type_name == "c10" else "."))
    else:
        kind = (f"Data type {type_name.upper()}: the whole 32-bit register, channel x only, no swizzle (Vita3K); "
                f"register numbers are 6 bits, not doubled.")
    if move == "vmov":
        head = "Unconditional move, `dest = src1` (swizzled), under the write mask. `.end` (`w1[18]`) ends the program."
    elif move == "vmovc":
        head = ("Conditional move: per written channel, `dest = (src0 <test> 0) ? src1 : src2`, comparing in "
                "the move's data type; `<test>` is `.eq`, `.ne`, `.lt` or `.le` (`test_bit_2:test_bit_1`). "
                "Source 0 reads `xyzw` unless `.src0swz` applies the swizzle to it too.")
    elif move == "vmovcu8":
        head = ("Conditional move on an unsigned 8-bit test: per written channel, `dest = (src0 <test> 0) ? src1 "
                ": src2`, source 0 read as four U8 channels of one register (channel 0 = bits 7:0); `<test>` is "
                "`.eq`, `.ne`, `.lt` or `.le`.")
    else:
        return f"Move type 3, which the spec does not name: semantics unknown; not modelled. {kind}"
    return f"{head} {kind}"


def _vpck_meaning(mnemonic: str) -> str:
    rest = mnemonic[len("vpck"):]
    dest = next(name for name in sorted(PACK_FORMATS, key=len, reverse=True) if rest.startswith(name))
    source = rest[len(dest):]
    text = (f"Convert {source.upper()} data to {dest.upper()} (`src_fmt` {PACK_FORMATS.index(source)}, "
            f"`dest_fmt` {PACK_FORMATS.index(dest)}). `sel` names, per destination channel, which of four "
            f"selectable source channels it takes; `.scale` normalises integer formats. ")
    if source == "f32":
        text += ("An F32 source offers the first two registers of source 1 and of source 2; or four consecutive "
                 "registers of source 1 when source 2 is an immediate, or when the selection is the identity for "
                 "the written channels, both sources are the same register and the mask is `x`, `xy`, `xyz` or "
                 "`xyzw`. Source numbers count 64-bit pairs. ")
    elif source == "f16":
        text += "An F16 source offers the four F16 halves of the 64-bit source 1 pair; source numbers count pairs. "
    elif source == "c10":
        text += "Source numbers count 64-bit pairs. C10 conversions are not modelled by the emulator. "
    else:
        text += ("An integer source's register number is `src1_n:w0[7]` (not doubled), and bit 0 of source 2's "
                 "number is selector 0's high bit, so the two must agree. ")
    if dest == "c10":
        text += "C10 conversions are not modelled by the emulator. "
    text += "The destination number is not doubled; an F16 destination packs two channels per register."
    if source == dest == "f32":
        text += " On hardware, F32→F32 with mask `xyzw` was observed not to work."
    return text


_ALU_NAMES = {"f": "float (F16 with `.f16`, F32 with `.f32`)", "i": "16/32-bit integer", "b": "8-bit integer",
              "bit": "bitwise"}


def _test_meaning(mnemonic: str) -> str:
    test, _, alu_name = mnemonic.partition(".")
    alu = ALUS.index(alu_name)
    operations = ", ".join(f"`{name}`" for name in OPERATIONS[alu].values())
    text = (f"Run a {_ALU_NAMES[alu_name]} ALU operation on src1 and src2 ({operations}; another code prints "
            f"`.op<n>`, meaning unknown) and test it: subtracts compare src1 with src2 directly, every other "
            f"operation compares its result with 0: `.eq .le .ge` with `zero_test` 1, `.ne .lt .gt` with "
            f"`zero_test` 0 (`sign_test` 0, 1, 2). Other combinations print as `.t<sign><zero>`: `zero_test` 2 "
            f"compares as 0 does, and `sign_test` 3 is not handled (unknown). ")
    text += (("Register numbers count 64-bit pairs; source 2 reads `xxxx` with `.vscomp`. " if alu == 0 else
              "Register numbers are not doubled. ") + "A `-` on src1 negates it. ")
    if test == "vtst":
        text += ("Writes predicate `p<n>`; `.chx`…`.chw` picks the channel tested (`.ch4`–`.ch7` unknown). "
                 "`.crcomb` (`test_crcomb_and`) has no known effect.")
    else:
        text += ("Writes a mask value into dest (known only with `.wben`, `test_wben` = 1): float tests 1.0 or 0.0, integer tests 0 or the "
                 "type's maximum. `.mask2` with a float test tests all four channels; other types test channel x "
                 "and write one value; `.mask3` is invalid, and the bit pattern of a `.mask0` result is unknown.")
    return text


def meaning(mnemonic: str) -> str:
    """What the instruction does (Markdown), from spec §5/§5.1."""
    for module in form_modules():  # meanings a form module gives with its syntax
        if mnemonic in getattr(module, "MEANINGS", {}):
            return module.MEANINGS[mnemonic]
    if mnemonic in _CONTROL:
        return _CONTROL[mnemonic]
    if mnemonic in ("vmad2", "vf16mad2"):
        kind = "F16" if mnemonic == "vf16mad2" else "F32"
        return (f"Multiply-add on {kind} channels, `dest = src0 * src1 + src2` (fused) per enabled channel; each "
                f"source has a 3-bit swizzle of VMAD2's own table and a modifier; a 2-bit predicate. "
                f"{_FLOAT_NOTE} Unless dest is internal, the write mask is re-interpreted: F32 keeps x and y, F16 "
                f"widens x to x,y and z to z,w.")
    match = re.fullmatch(r"v(f16)?(mul|add|frc|dsx|dsy|min|max|dp)", mnemonic)
    if match:
        kind = "F16" if match.group(1) else "F32"
        return (f"{_NMAD[match.group(2)]} {kind} data; source 1 takes a full 12-bit swizzle, source 2 a code of "
                f"the vec4 standard table. {_FLOAT_NOTE}")
    match = re.fullmatch(r"(vmad|vdp)([34])", mnemonic)
    if match:
        count = match.group(2)
        if match.group(1) == "vmad":
            return (f"Single-issue multiply-add on {count} channels, `dest = gpi0 * src1 + gpi1`, where gpi0 and "
                    f"gpi1 name internal registers `i0`–`i3` directly. Repeats: `.rpt2`–`.rpt4`, stepping "
                    f"storage operands (default), internal ones (`.rpt_internal`), both (`.rpt_both`) or by "
                    f"SMLSI (`.rpt_smlsi`). {_FLOAT_NOTE}")
        return (f"Single-issue dot product of {count} channels of internal register gpi0 and src1; the write mask "
                f"rotates left by one per repeat. `.clip`/`.planeN` (clip planes) are decoded but not modelled. "
                f"{_FLOAT_NOTE}")
    if mnemonic in _COMPLEX:
        return (f"{_COMPLEX[mnemonic]}, of one source channel `c` (`src_comp`), written to the enabled channels. "
                f"The destination type is F32, or `.f16`/`.c10` (`dest_type`); the source type likewise "
                f"`.src_f16`/`.src_c10`. {_FLOAT_NOTE}")
    if mnemonic.startswith("vmov"):
        return _vmov_meaning(mnemonic)
    if mnemonic.startswith("vpck"):
        return _vpck_meaning(mnemonic)
    if mnemonic.startswith("vtst"):
        return _test_meaning(mnemonic)
    if mnemonic in _BITWISE:
        return f"{_BITWISE[mnemonic]} {_BITWISE_NOTE}"
    raise KeyError(mnemonic)


# -- syntax and diagram ---------------------------------------------------------------------

_ROLES = [
    (r"\{src2_\w+_inverted\}", "[~]src2"),
    (r", \{rotation if src2_rot\}", "[, rol #n]"),
    (r"\{pred\?\} ", "[pred] "),
    (r"\{flags\d?\}", "{.flags}"),
    (r"\{pdst\}", "p<n>"),
    (r"\{(op[12])(_vec4)?\}", r".\1_<n>"),
    (r"\{mask_xyz\}", "mask"),
    (r"\{absolute\}", "#target"),
    (r"\{relative\}", "#offset"),
    (r"\{value\}", "#0x…"),
    (r"\{(temp|pa|sa)_limit\}", r"\1=#n"),
    (r"\{(\w+)_increment\}", r"\1_inc"),
    (r"\{(\w+)_offset\}", r"#\1_offset"),
    (r"\{component\}", "c"),
    (r"\{selection_\d\}", "sel"),
    (r"\{(\w*?_)?swizzle\d?\}", "swizzle"),
    (r"\{(dest|src\d)_?(\d|reg\d|integer|float)?\}", r"\1"),
    (r"\{(\w+)\}", r"\1"),
]


def _syntax(form) -> str:
    text = form.template.replace("{" + form.name + "_", "{")
    text = re.sub(r", \{raw_\w+\?\}", "[, name=value …]", text)
    text = re.sub(r" \{raw_\w+\?\}", " [name=value …]", text)
    for pattern, replacement in _ROLES:
        text = re.sub(pattern, replacement, text)
    return text


# Operand names (without the form-name prefix) as the diagram shows them, like the syntax does.
_DIAGRAM_NAMES = [(r"src2_\w+_inverted", "src2"), (r"selection_\d", "sel"), (r"(\w+_swizzle)\d", r"\1"),
                  (r"(dest|src\d)(_?\d|_reg\d|_integer|_float)", r"\1"), (r"flags\d", "flags"),
                  (r"(\w+)_increment", r"\1_inc"), ("absolute", "target"), ("relative", "offset")]


def _diagram_name(name: str) -> str:
    for pattern, replacement in _DIAGRAM_NAMES:
        if re.fullmatch(pattern, name):
            return re.sub(pattern, replacement, name)
    return name


def _bit_ranges(description, form) -> list[BitRange]:
    """form_bit_ranges with the form-name prefix dropped and the ``name=value`` operand's bits named
    by field (its pattern's free bits ``unused``)."""
    scope = description.compiled(form).scope
    prefix = form.name + "_"
    by_bit: dict[int, str] = {}
    for placeholder in form.placeholders:
        binding = scope.operands[placeholder]
        if isinstance(binding, Assignments):
            for name in binding.fields:
                for msb, lsb in scope.fields[name].pieces:
                    for bit in range(lsb, msb + 1):
                        by_bit.setdefault(bit, "" if name == "_unused" else name.lstrip("_"))
    ranges: list[BitRange] = []
    for piece in form_bit_ranges(description, form):
        if piece.value is not None or not piece.name.startswith(prefix + "raw_"):
            name = _diagram_name(piece.name[len(prefix):]) if piece.name.startswith(prefix) else piece.name
            if piece.value is None and ranges and ranges[-1].name == name and ranges[-1].value is None:
                ranges[-1] = BitRange(ranges[-1].high, piece.low, name)
            else:
                ranges.append(BitRange(piece.high, piece.low, name, piece.value))
            continue
        for bit in range(piece.high, piece.low - 1, -1):
            name = by_bit.get(bit, "")
            if ranges and ranges[-1].name == name and ranges[-1].value is None and ranges[-1].low == bit + 1:
                ranges[-1] = BitRange(ranges[-1].high, bit, name)
            else:
                ranges.append(BitRange(bit, bit, name))
    return ranges


@cache
def documentation() -> Reference:
    description = listing()
    entries = []
    seen: set[str] = set()
    for form in description.forms:
        if form.mnemonic in seen:
            continue
        seen.add(form.mnemonic)
        text = meaning(form.mnemonic)
        raw = [name for name in form.placeholders if name.startswith(form.name + "_raw_")]
        if raw:
            fields = [name.lstrip("_") for name in description.operands[raw[0]].fields]
            shown = ", ".join(f"`{name}`" for name in fields)
            if form.name not in declared_syntax():
                text += f"\n\n{_RAW_NOTE} Fields: {shown}."
            else:
                text += f"\n\nShown as `name=value` when not 0: {shown}."
        sharing = [other for other in description.forms if other.mnemonic == form.mnemonic]
        if len(sharing) > 1:
            differing = sorted({name for other in sharing for name, value in other.fixed
                                if (name, value) not in form.fixed})
            text += (f"\n\n{len(sharing)} forms share this mnemonic, told apart by "
                     f"{', '.join(f'`{name}`' for name in differing)}; the syntax and the diagram are the first's.")
        entries.append(InstructionEntry(form.mnemonic, _syntax(form), bit_diagram(_bit_ranges(description, form)),
                                        text, group=f"{form.name}"))
    return Reference("usse", "USSE — PowerVR SGX543/SGX544 shader processor", prose(__package__), tuple(entries),
                     source="src/shaderkit/isa/usse/reference.md")
