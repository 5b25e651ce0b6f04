"""The RSX vertex-program instruction (spec/rsx.md section 2) in core's description model.

This module owns the VP fields (D0..D3 as words 0-3; the 17-bit sources gathered from three
words), the operand bindings, and :data:`VERTEX`, whose forms are the co-issue of one vector
operation and one scalar operation (``MUL R0, v[0], c[4] + RCP R1.x, R2.w``, the model's
issue separator), written in form A (the disassembler's text, :mod:`.printer`): the slot's
suffixes and condition on the first operation shown, a lone scalar MOV as ``NOP + MOV …``,
an empty slot as ``NOP``. What the text does not show is implied the way cgcomp writes it
(unused sources 0x1B02, no temp 0x3F, no output 0x1F, …); the end bit is carried. Forms
with an idle unit are fallbacks (an unnamed opcode reads as the unit idle); SUB, ABS and the
scalar aliases (PUSHA, POPA) are spellings the parser reads and the printer never writes.
"""

from __future__ import annotations

from shaderkit.core.model import (Annotate, Choice, CodeAddress, Description, FEWEST_LOST, Immediate, Operand,
                                  Registers, SubTable, case, field, form)

from . import syntax
from .description import CONDITION_NAMES, Swizzle, WriteMask, bits_in, other_spellings, source_operands
from .instruction import VP_CONSTANTS, VP_TEMPORARIES
from .opcodes import VP_SCALAR, VP_VECTOR

SOURCE_FILLER = 0x1B02  # input type, identity swizzle (spec 2.6)
FLOW_IMMEDIATE = {0x09: "BRA", 0x0B: "CAL", 0x11: "BRB", 0x12: "CLB"}
FLOW_REGISTER = {0x08: "BRA", 0x0A: "CAL"}

FIELDS = {
    "address_swizzle": field(bits_in(0, 1, 0)), "cc_swizzle": field(bits_in(0, 9, 2), default=0x1B),
    "condition": field(bits_in(0, 12, 10), default=7), "condition_test": field(bits_in(0, 13)),
    "cc_update": field(bits_in(0, 14)), "vector_temp": field(bits_in(0, 20, 15)),
    "source0_abs": field(bits_in(0, 21)), "source1_abs": field(bits_in(0, 22)), "source2_abs": field(bits_in(0, 23)),
    "address_register": field(bits_in(0, 24)), "cc_register": field(bits_in(0, 25)), "saturate": field(bits_in(0, 26)),
    "index_input": field(bits_in(0, 27)), "d0_bit28": field(bits_in(0, 28)), "cc_update_b": field(bits_in(0, 29)),
    "vector_to_output": field(bits_in(0, 30)), "d0_bit31": field(bits_in(0, 31)),
    "source0": field(f"{bits_in(1, 7, 0)},{bits_in(2, 31, 23)}"),
    "input": field(bits_in(1, 11, 8)), "constant": field(bits_in(1, 21, 12)),
    "vector_opcode": field(bits_in(1, 26, 22)), "scalar_opcode": field(bits_in(1, 31, 27)),
    "source1": field(bits_in(2, 22, 6)),
    "source2": field(f"{bits_in(2, 5, 0)},{bits_in(3, 31, 21)}"),
    "end": field(bits_in(3, 0)), "index_constant": field(bits_in(3, 1)), "output": field(bits_in(3, 6, 2)),
    "scalar_temp": field(bits_in(3, 12, 7)), "vector_mask": field(bits_in(3, 16, 13)),
    "scalar_mask": field(bits_in(3, 20, 17)),
    # Source pieces (spec 2.6: type 0-1, temp 2-7, swizzle 8-15, negate 16).
    "source0_type": field(bits_in(2, 24, 23)), "source0_index": field(bits_in(2, 30, 25)),
    "source0_swizzle": field(f"{bits_in(1, 6, 0)},{bits_in(2, 31)}"), "source0_negate": field(bits_in(1, 7)),
    "source1_type": field(bits_in(2, 7, 6)), "source1_index": field(bits_in(2, 13, 8)),
    "source1_swizzle": field(bits_in(2, 21, 14)), "source1_negate": field(bits_in(2, 22)),
    "source2_type": field(bits_in(3, 22, 21)), "source2_index": field(bits_in(3, 28, 23)),
    "source2_swizzle": field(f"{bits_in(2, 4, 0)},{bits_in(3, 31, 29)}"), "source2_negate": field(bits_in(2, 5)),
    # Branch overlays (spec 2.5).
    "branch_target": field(f"{bits_in(0, 23)},{bits_in(2, 5, 0)},{bits_in(3, 31, 29)}"),
    "branch_index": field(bits_in(3, 27, 23)), "branch_value": field(bits_in(3, 28)),
    # ARL's destination A0/A1: the low bit of the vector temp field (cgcomp writes 0 or 1 there).
    "address_destination": field(bits_in(0, 15)),
}

HINT_FIELDS = ("address_swizzle", "cc_swizzle", "condition", "condition_test", "cc_update", "vector_temp",
               "source0_abs", "source1_abs", "source2_abs", "address_register", "cc_register", "saturate",
               "index_input", "d0_bit28", "cc_update_b", "vector_to_output", "d0_bit31", "source0", "input",
               "constant", "vector_opcode", "scalar_opcode", "source1", "source2", "end", "index_constant", "output",
               "scalar_temp", "vector_mask", "scalar_mask")

INPUT_NAMES = {index: (syntax.vp_input_name(index), f"v[{index}]") for index in range(16)}
OUTPUT_NAMES = {index: (syntax.vp_output_name(index), f"o[{index}]") for index in range(16)}
NUMBERS = Immediate()


def _numbers(count: int) -> Registers:
    return Registers({n: (str(n),) for n in range(count)})


def _register_table(number: int) -> SubTable:
    name = f"source{number}"
    swizzle = f"{{s{number}_swizzle}}"
    return SubTable((case(f"R{{s{number}_index}}{swizzle}", **{f"{name}_type": 1}),
                     case(f"{{input}}{swizzle}", **{f"{name}_type": 2, "index_input": 0}),
                     case(f"v[A{{address_register}}.{{address_lane}}+{{input_number}}]{swizzle}",
                          **{f"{name}_type": 2, "index_input": 1}),
                     case(f"c[{{constant}}]{swizzle}", **{f"{name}_type": 3, "index_constant": 0}),
                     case(f"c[A{{address_register}}.{{address_lane}}+{{constant}}]{swizzle}",
                          **{f"{name}_type": 3, "index_constant": 1})),
                    title="source register", stand_in=((f"{name}_type", 1), (f"{name}_index", 0)))


OPERANDS = {
    "cc": SubTable((case("", cc_update=0, cc_update_b=0), case("C", cc_update=1, cc_update_b=1, cc_register=0),
                    case("C1", cc_update=1, cc_update_b=1, cc_register=1)), title="CC update",
                   stand_in=(("cc_update", 1), ("cc_update_b", 1))),
    "saturate": Operand("saturate", Choice({0: "", 1: "_SAT"})),
    "condition": SubTable((case("", condition_test=0), case("({test}{test_register}{cc_swizzle})", condition_test=1)),
                          title="condition"),
    "test": Operand("condition", Choice(dict(enumerate(CONDITION_NAMES)))),
    "test_register": Operand("cc_register", Choice({0: "", 1: "1"})),
    "cc_swizzle": Operand("cc_swizzle", Swizzle(x_in_high_bits=True)),
    "vmask": Operand("vector_mask", WriteMask(x_in_high_bit=True), stand_in=0xF),
    "smask": Operand("scalar_mask", WriteMask(x_in_high_bit=True), stand_in=0xF),
    "output": Operand("output", Registers(OUTPUT_NAMES), stand_in=0),
    "vtemp": Operand("vector_temp", _numbers(VP_TEMPORARIES), stand_in=0),
    "atemp": Operand("address_destination", _numbers(2)),
    "stemp": Operand("scalar_temp", _numbers(VP_TEMPORARIES), stand_in=0),
    "vdst": SubTable((case("{output}{vmask}", vector_to_output=1), case("CC{vmask}", vector_to_output=0,
                                                                        vector_temp=0x3F),
                      case("R{vtemp}{vmask}", vector_to_output=0)), title="destination"),
    # A scalar result with no temp shows as CC when no output is named or the output field is
    # the vector unit's (vector_to_output); CC reads back as the first case, leaving the
    # output field to the vector destination or to the form (no output).
    "sdst": SubTable((case("CC{smask}", scalar_temp=0x3F),
                      case("CC{smask}", scalar_temp=0x3F, output=0x1F),
                      case("{output}{smask}", scalar_temp=0x3F, vector_to_output=0),
                      case("R{stemp}{smask}")), title="destination"),
    "input": Operand("input", Registers(INPUT_NAMES)),
    "input_number": Operand("input", _numbers(16)),
    "constant": Operand("constant", _numbers(VP_CONSTANTS), stand_in=0),
    "address_register": Operand("address_register", _numbers(2)),
    "address_lane": Operand("address_swizzle", Choice(dict(enumerate("xyzw")))),
    "target": Operand("branch_target", CodeAddress(labels_only=True), stand_in=0),
    "branch_index": Operand("branch_index", NUMBERS),
    "branch_value": Operand("branch_value", NUMBERS),
}
for _number in range(3):
    OPERANDS.update(source_operands(_number))
    OPERANDS[f"s{_number}_register"] = _register_table(_number)
    OPERANDS[f"s{_number}_index"] = Operand(f"source{_number}_index", _numbers(VP_TEMPORARIES), stand_in=0)
    OPERANDS[f"s{_number}_swizzle"] = Operand(f"source{_number}_swizzle", Swizzle(x_in_high_bits=True))

# --- forms ---------------------------------------------------------------------------------------

FLAGS = "{cc}{saturate}"


def _vector_part(opcode, slots) -> str:
    destination = "A{atemp}{vmask}" if opcode.name == "ARL" else "{vdst}"
    return ", ".join([f"{opcode.name}{FLAGS} {destination}{{condition}}", *(f"{{s{slot}}}" for slot in slots)])


def _scalar_part(opcode, flags: bool) -> tuple[str, dict]:
    """The scalar operation's text and what it implies; ``flags`` when it is shown first."""
    condition = "{condition}" if flags else ""
    implied: dict[str, object] = {}
    if opcode.value in FLOW_IMMEDIATE:
        text = f"{FLOW_IMMEDIATE[opcode.value]} {{target}}"
        if opcode.value in (0x11, 0x12):
            text += ", {branch_index}, {branch_value}"
        else:
            implied.update(branch_index=0, branch_value=0)
        implied.update(source2_type=2, scalar_mask=0xF)
        return text + ("{condition}" if flags else ""), implied
    implied["scalar_mask"] = 0xF
    if opcode.value in FLOW_REGISTER:
        return f"{FLOW_REGISTER[opcode.value]} A{{address_register}}.{{address_lane}}" + \
            ("{condition}" if flags else ""), implied
    if opcode.name == "RET":
        return "RET" + (" {condition?}" if flags else ""), implied
    if not opcode.scalar:  # PSH, POP
        return " ".join([opcode.name, *(f"{{s{slot}}}" for slot in opcode.sources)]), implied
    implied.pop("scalar_mask")
    suffix = FLAGS if flags else ""
    return f"{opcode.name}{suffix} {{sdst}}{condition}, {{s2}}", implied


def _implied(slots: set[int], flow_target: bool) -> dict[str, object]:
    implied: dict[str, object] = {"vector_temp": 0x3F, "scalar_temp": 0x3F, "output": 0x1F, "vector_to_output": 0,
                                  "vector_mask": 0, "scalar_mask": 0, "input": 0, "index_input": 0, "constant": 0,
                                  "index_constant": 0, "address_register": 0, "address_swizzle": 0,
                                  "condition_test": 0, "condition": 7, "cc_swizzle": 0x1B, "cc_register": 0,
                                  "cc_update": 0, "cc_update_b": 0, "saturate": 0, "d0_bit28": 0, "d0_bit31": 0}
    for slot in (0, 1, 2):
        if slot == 2 and flow_target:
            continue
        if slot in slots:
            implied[f"source{slot}_index"] = 0
        else:
            implied.update({f"source{slot}": SOURCE_FILLER, f"source{slot}_abs": 0})
    return implied


def _forms() -> list:
    vectors = [None, *(opcode for opcode in VP_VECTOR.values() if opcode.value)]
    scalars = [None, *(opcode for opcode in VP_SCALAR.values() if opcode.value)]
    forms = []
    for vector in vectors:
        for scalar in scalars:
            flow_target = scalar is not None and scalar.value in FLOW_IMMEDIATE
            vector_sets = [vector.sources] if vector is not None else [()]
            if vector is not None and vector.name in ("SFL", "STR"):
                vector_sets.append((0, 1))
            for vector_slots in vector_sets:
                parts, implied_by_part = [], {}
                slots = set(vector_slots)
                if vector is not None:
                    parts.append(_vector_part(vector, vector_slots))
                if scalar is not None:
                    text, implied_by_part = _scalar_part(scalar, flags=vector is None)
                    if vector is None and scalar.name == "MOV":
                        parts.append("NOP")  # a lone scalar MOV would read back as the vector MOV
                    parts.append(text)
                    slots |= set(scalar.sources)
                if not parts:
                    parts.append("NOP")
                implied = _implied(slots, flow_target)
                implied.update(implied_by_part)
                if vector is not None and vector.name == "ARL":
                    implied["vector_temp"] = "address_destination"
                if vector is None and scalar is not None and scalar.name == "MOV":
                    parts = [parts[1], parts[0]] if parts[0] != "NOP" else parts
                # An idle unit's opcode is implied, not fixed: an opcode with no name reads as
                # the unit idle, and its bits are reported lost.
                fixed = {}
                for unit, opcode in (("vector_opcode", vector), ("scalar_opcode", scalar)):
                    if opcode is None:
                        implied[unit] = 0
                    else:
                        fixed[unit] = opcode.value
                # A form with an idle unit is a fallback: a known opcode in that unit reads as
                # the form that names it.
                # The branch target overlays source 2, and the assembler writes the branch's
                # source-2 type after a vector source 2: a text showing both loses that type.
                forms.append(form(" + ".join(parts), implied=implied, carries=("end",),
                                  fallback=vector is None or scalar is None,
                                  overrides=("source2_type",) if flow_target and 2 in slots else (), **fixed))
    alone = [declared for declared in forms if "+" not in declared.template]  # spellings never co-issued
    return forms + other_spellings(alone, OTHER_SPELLINGS)


# SUB and ABS (one vector instruction each: ADD with its second source negated, MOV with its
# source in bars) and the scalar opcodes' aliases.
OTHER_SPELLINGS = {"ADD": [("SUB", {"{s2}": "{s2_negated}"})], "MOV": [("ABS", {"{s0}": "{s0_absolute}"})],
                   **{opcode.name: [(alias, {}) for alias in opcode.aliases]
                      for opcode in VP_SCALAR.values() if opcode.aliases}}


VERTEX = Description(
    "rsx-vp", word_bits=32, words_per_instruction=4, first_word_most_significant=False,
    operand_separator=r"\s*,\s*", fields=FIELDS, operands=OPERANDS, forms=_forms(), order=FEWEST_LOST,
    unknown_bits=Annotate(fields=HINT_FIELDS), issue_separator="+")
