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

The parser reads NV text's spellings too: v[N], v[OPOS], vertex.attrib[N] and the
other input names, o[HPOS], result.texcoord and the other output names, result.clip[n] (a
fixed lane of the fog or point-size output), RC for CC, ``c[A0.x]``, ``C0``, ``RET GT.x``,
``… + NOP`` for an idle scalar unit, and a co-issued pair in either order with its suffixes
and condition on either operation (:class:`VertexDescription`; ``+`` where an operand starts
is a sign).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import (Annotate, Choice, CodeAddress, Description, FEWEST_LOST, Immediate, Instruction,
                                  Operand, ParseContext, Registers, SubTable, case, field, form, split_operands)

from . import syntax
from .description import (CONDITION_NAMES, IndexedRegisters, RegisterIndex, Swizzle, WriteMask, bits_in,
                          inline_constant, other_spellings, source_operands, with_spellings)
from .limits import VP_CONSTANTS, VP_TEMPORARIES
from .opcodes import VP_SCALAR, VP_VECTOR, by_name

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

# The printed name first; then every other way NV text names the register: v[N],
# v[OPOS] (NV short names), vertex.color.primary, vertex.texcoord (= vertex.texcoord[0]),
# vertex.attrib[N]; o[N], o[HPOS], result.color.front…, result.texcoord (= result.texcoord[0]).
INPUT_NAMES = with_spellings({index: (syntax.vp_input_name(index),) for index in range(16)},
                             {**{f"v[{index}]": index for index in range(16)},
                              **{f"v[{short}]": index for short, index in syntax.VP_INPUT_SHORT_NAMES.items()},
                              **syntax.VP_INPUT_SPELLINGS, "vertex.texcoord": 8,
                              **{f"vertex.texcoord[{unit}]": 8 + unit for unit in range(8)},
                              **{f"vertex.attrib[{index}]": index for index in range(16)}})
OUTPUT_NAMES = with_spellings({index: (syntax.vp_output_name(index),) for index in range(16)},
                              {**{f"o[{index}]": index for index in range(16)},
                               **{f"o[{short}]": index for short, index in syntax.VP_OUTPUT_SHORT_NAMES.items()},
                               **syntax.VP_OUTPUT_SPELLINGS, "result.texcoord": 7,
                               **{f"result.texcoord[{unit}]": 7 + unit for unit in range(syntax.VP_TEXCOORD_OUTPUTS)}})
NUMBERS = Immediate()


def _numbers(count: int) -> Registers:
    return Registers({n: (str(n),) for n in range(count)})


def _register_table(number: int) -> SubTable:
    """What source ``number`` reads: a temp, an input or a constant, directly or relative to
    an address register lane (read also without an offset: ``c[A0.x]`` is ``c[A0.x+0]``)."""
    name = f"source{number}"
    swizzle = f"{{s{number}_swizzle}}"
    relative = "A{address_register}.{address_lane}"
    return SubTable((case(f"R{{s{number}_index}}{swizzle}", **{f"{name}_type": 1}),
                         case(f"{{input}}{swizzle}", **{f"{name}_type": 2, "index_input": 0}),
                         case(f"v[{relative}+{{input_number}}]{swizzle}", **{f"{name}_type": 2, "index_input": 1}),
                         case(f"c[{{constant}}]{swizzle}", **{f"{name}_type": 3, "index_constant": 0}),
                         case(f"c[{relative}+{{constant}}]{swizzle}", **{f"{name}_type": 3, "index_constant": 1})),
                        title="source register", stand_in=((f"{name}_type", 1), (f"{name}_index", 0)),
                        read_only=(case(f"v[{relative}]{swizzle}", **{f"{name}_type": 2, "index_input": 1, "input": 0}),
                                   case(f"c[{relative}]{swizzle}",
                                        **{f"{name}_type": 3, "index_constant": 1, "constant": 0})))


def _clip_cases(**unit: int) -> tuple:
    """``result.clip[n]``: the lane of the fog or point-size output cgcomp routes a user clip
    distance to (``syntax.VP_CLIP_OUTPUTS``), that lane alone written; ``unit`` names the
    unit's mask field and what else its output case fixes."""
    mask_field = next(name for name in unit if name.endswith("_mask"))
    fixed = {name: value for name, value in unit.items() if name != mask_field}
    return tuple(case(f"result.clip[{clip}]", output=output, **fixed, **{mask_field: 1 << (3 - lane)})
                 for clip, (output, lane) in syntax.VP_CLIP_OUTPUTS.items())


CLIP_MASK_REFUSED = ((r"result\.clip\[\d+\]\.[A-Za-z]*", "result.clip[n] writes one fixed lane; write no mask"),)
CONDITION_CASES = (case("", condition_test=0), case("({test}{test_register}{cc_swizzle})", condition_test=1))


OPERANDS = {
    "cc": SubTable((case("", cc_update=0, cc_update_b=0), case("C", cc_update=1, cc_update_b=1, cc_register=0),
                        case("C1", cc_update=1, cc_update_b=1, cc_register=1)), title="CC update",
                       stand_in=(("cc_update", 1), ("cc_update_b", 1)),
                       read_only=(case("C0", cc_update=1, cc_update_b=1, cc_register=0),)),
    "saturate": Operand("saturate", Choice({0: "", 1: "_SAT"})),
    # A blank may come before the condition (``R0 (GT.x)``); RET's may be written bare (``RET GT.x``).
    "condition": SubTable(CONDITION_CASES, title="condition", blanks=True),
    "flow_condition": SubTable(CONDITION_CASES, title="condition", blanks=True,
                                   read_only=(case("{test}{test_register}{cc_swizzle}", condition_test=1),)),
    "test": Operand("condition", Choice(dict(enumerate(CONDITION_NAMES)))),
    "test_register": Operand("cc_register", Choice({0: "", 1: "1"}), title="CC register"),
    "cc_swizzle": Operand("cc_swizzle", Swizzle(x_in_high_bits=True)),
    "vmask": Operand("vector_mask", WriteMask(x_in_high_bit=True), stand_in=0xF),
    "smask": Operand("scalar_mask", WriteMask(x_in_high_bit=True), stand_in=0xF),
    "output": Operand("output", IndexedRegisters(OUTPUT_NAMES, "o", 16), stand_in=0),
    "vtemp": Operand("vector_temp", RegisterIndex("R", VP_TEMPORARIES), stand_in=0),
    "atemp": Operand("address_destination", _numbers(2)),
    "adst": SubTable((case("A{atemp}{vmask}"),), title="address register (A0 or A1): only ARL writes one"),
    "stemp": Operand("scalar_temp", RegisterIndex("R", VP_TEMPORARIES), stand_in=0),
    # Read also: RC for CC, and result.clip[n] (a fixed lane, no mask written).
    "vdst": SubTable((case("{output}{vmask}", vector_to_output=1), case("CC{vmask}", vector_to_output=0,
                                                                            vector_temp=0x3F),
                          case("R{vtemp}{vmask}", vector_to_output=0)), title="destination",
                         read_only=(case("RC{vmask}", vector_to_output=0, vector_temp=0x3F),
                                    *_clip_cases(vector_to_output=1, vector_mask=0)),
                         refusals=CLIP_MASK_REFUSED),
    # A scalar result with no temp shows as CC when no output is named or the output field is
    # the vector unit's (vector_to_output); CC reads back as the first case, leaving the
    # output field to the vector destination or to the form (no output).
    "sdst": SubTable((case("CC{smask}", scalar_temp=0x3F),
                          case("CC{smask}", scalar_temp=0x3F, output=0x1F),
                          case("{output}{smask}", scalar_temp=0x3F, vector_to_output=0),
                          case("R{stemp}{smask}")), title="destination",
                         read_only=(case("RC{smask}", scalar_temp=0x3F),
                                    *_clip_cases(scalar_temp=0x3F, vector_to_output=0, scalar_mask=0)),
                         refusals=CLIP_MASK_REFUSED),
    # The titles name the one field two sources of an instruction cannot read differently.
    "input": Operand("input", IndexedRegisters(INPUT_NAMES, "v", 16), title="input attribute"),
    "input_number": Operand("input", _numbers(16), title="input attribute"),
    "constant": Operand("constant", RegisterIndex("c", VP_CONSTANTS, bracketed=True), stand_in=0, title="constant"),
    "address_register": Operand("address_register", _numbers(2), title="address register"),
    "address_lane": Operand("address_swizzle", Choice(dict(enumerate("xyzw"))), title="address register lane"),
    "target": Operand("branch_target", CodeAddress(labels_only=True), stand_in=0),
    "branch_index": Operand("branch_index", NUMBERS),
    "branch_value": Operand("branch_value", NUMBERS),
}
for _number in range(3):
    OPERANDS.update(source_operands(_number))
    OPERANDS[f"s{_number}_register"] = _register_table(_number)
    OPERANDS[f"s{_number}_index"] = Operand(f"source{_number}_index", RegisterIndex("R", VP_TEMPORARIES), stand_in=0)
    OPERANDS[f"s{_number}_swizzle"] = Operand(f"source{_number}_swizzle", Swizzle(x_in_high_bits=True))

# --- forms ---------------------------------------------------------------------------------------

FLAGS = "{cc}{saturate}"


def _vector_part(opcode, slots) -> str:
    destination = "{adst}" if opcode.name == "ARL" else "{vdst}"
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
        return "RET" + (" {flow_condition?}" if flags else ""), implied
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
    return forms + other_spellings(alone, OTHER_SPELLINGS) + _idle_scalar_spellings(forms)


def _idle_scalar_spellings(forms) -> list:
    """``… + NOP``: NV text's NOP written for the scalar unit, which writes the scalar
    mask xyzw as a flow operation does (``MUL R0, R1, R2 + NOP``, ``NOP + NOP``); read, never
    printed (the printer shows the mask as the bits the plain form loses)."""
    return [replace(declared, template=f"{declared.template} + NOP", name=f"{declared.template} + NOP",
                    implied=tuple((name, 0xF if name == "scalar_mask" else value) for name, value in declared.implied),
                    spelling_only=True)
            for declared in forms if "scalar_opcode" not in dict(declared.fixed)]


# SUB and ABS (one vector instruction each: ADD with its second source negated, MOV with its
# source in bars) and the scalar opcodes' aliases.
OTHER_SPELLINGS = {"ADD": [("SUB", {"{s2}": "{s2_negated}"})], "MOV": [("ABS", {"{s0}": "{s0_absolute}"})],
                   **{opcode.name: [(alias, {}) for alias in opcode.aliases]
                      for opcode in VP_SCALAR.values() if opcode.aliases}}


# --- co-issued statements as NV text writes them ----------------------------------------

# NV text's units: a name both units have (MOV, NOP) is the vector unit's when written first.
VECTOR_NAMES = frozenset(by_name(VP_VECTOR))
SCALAR_NAMES = frozenset(by_name(VP_SCALAR)) - VECTOR_NAMES
_NAMES_LONGEST_FIRST = sorted(VECTOR_NAMES | SCALAR_NAMES, key=len, reverse=True)
_SUFFIXES = re.compile(r"(?P<cc>C[01]?)?(?P<saturate>_SAT)?", re.IGNORECASE)
_OPERATION = re.compile(r"\s*(?P<head>\S+)\s*(?P<operands>.*?)\s*", re.DOTALL)
_TRAILING_CONDITION = re.compile(r"(?P<operand>.*?)\s*\((?P<condition>[^()]*)\)\s*", re.DOTALL)
_BARE_CONDITION = re.compile(r"\s*(?:FL|LT|EQ|LE|GT|NE|GE|TR)[01]?(?:\.[xyzw]{1,4})*\s*", re.IGNORECASE)
_OPERAND_SEPARATOR = re.compile(r"\s*,\s*")
MISMATCHED_CONDITIONS = "the two co-issued operations test different conditions; a slot has one condition"
MISMATCHED_UPDATES = "a vertex instruction selects one CC register for its test and its update (D0 bit 25)"


@dataclass
class _Operation:
    """One operation of a co-issued statement as written: its name (upper case), its suffixes
    (``C``/``C0``/``C1``, ``_SAT``), its operand texts and its condition (taken off its operands)."""

    name: str
    cc: str
    saturate: bool
    operands: list[str]
    condition: str | None
    column: int

    @property
    def unit(self) -> str:
        return "vector" if self.name in VECTOR_NAMES else "scalar"

    @property
    def bare(self) -> bool:
        """A NOP with nothing written after it."""
        return self.name == "NOP" and not (self.cc or self.saturate or self.operands or self.condition)

    def text(self, *, suffixes: bool = True, condition: bool = True) -> str:
        operands = list(self.operands)
        if condition and self.condition is not None:
            if operands and not (self.name == "RET" and len(operands) == 1):
                operands[0] += f"({self.condition})"
            else:
                operands = [f"({self.condition})"]
        head = self.name + (self.cc + ("_SAT" if self.saturate else "") if suffixes else "")
        return " ".join([head, ", ".join(operands)]) if operands else head


def _operation(text: str, column: int) -> _Operation | None:
    found = _OPERATION.fullmatch(text)
    if found is None:
        return None
    word = found["head"].upper()
    for name in _NAMES_LONGEST_FIRST:
        suffixes = _SUFFIXES.fullmatch(word, len(name)) if word.startswith(name) else None
        if suffixes is not None:
            break
    else:
        return None
    operands = [operand for operand, _ in split_operands(found["operands"], _OPERAND_SEPARATOR)]
    condition = None
    if name == "RET" and len(operands) == 1 and _BARE_CONDITION.fullmatch(operands[0]):
        condition, operands = operands[0].strip(), []
    else:
        for position, operand in enumerate(operands):
            written = _TRAILING_CONDITION.fullmatch(operand)
            if written is not None and condition is None:
                condition = written["condition"].strip()
                if written["operand"]:
                    operands[position] = written["operand"]
                else:
                    del operands[position]
                break
    cc = (suffixes["cc"] or "").upper().replace("C0", "C")
    return _Operation(name, cc, bool(suffixes["saturate"]), operands, condition, column)


def _same_condition(first: str, second: str) -> bool:
    """Whether two condition texts test the same (``GT.x`` and ``GT.xxxx`` do)."""
    reading = [OPERANDS["flow_condition"].read(text, ParseContext(), VERTEX) for text in (first, second)]
    return reading[0] == reading[1]


def _one_statement_order(operations: list[tuple[str, int]]) -> list[tuple[str, str, int]] | None:
    """A co-issued statement as the forms write it: (operation text, the text it comes from,
    that text's column) per operation, or None when it is written so already or is no pair of
    operations NV text reads. NV text writes the vector operation or the
    scalar one first (a scalar-only name written first is swapped over), a suffix (``C``,
    ``_SAT``) or condition on either operation (one slot has one of each), and ``NOP`` for an
    idle vector unit; the forms have the vector operation first carrying the slot's suffixes
    and condition, and an idle vector unit left out (but ``NOP + MOV`` for a lone scalar MOV)."""
    if len(operations) != 2:
        return None
    read = [_operation(text, column) for text, column in operations]
    if None in read:
        return None
    written = {id(operation): (text, column) for operation, (text, column) in zip(read, operations)}
    first, second = read
    if first.unit == "scalar" and second.unit == "vector":
        first, second = second, first
    if first.bare and second.name == "MOV":
        return None  # a lone scalar MOV: its suffixes and condition are its own
    if first.bare and not second.bare:
        arranged = [(second.text(), second)]
    else:
        if second.cc and first.cc and second.cc != first.cc:
            raise SourceError(MISMATCHED_UPDATES, second.column, len(second.name))
        if second.condition is not None and first.condition is not None:
            if not _same_condition(first.condition, second.condition):
                raise SourceError(MISMATCHED_CONDITIONS, second.column, len(second.name))
        merged = replace(first, cc=first.cc or second.cc, saturate=first.saturate or second.saturate,
                         condition=first.condition if first.condition is not None else second.condition)
        arranged = [(merged.text(), first), (second.text(suffixes=False, condition=False), second)]
    result = [(text, *written[id(operation)]) for text, operation in arranged]
    if [text for text, _, _ in result] == [re.sub(r"\s+", " ", text) for text, _ in operations]:
        return None
    return result


def _issue_points(text: str) -> list[int]:
    """Where ``text`` splits into co-issued operations: a ``+`` outside brackets (and braces,
    which hold template placeholders) after a complete operand or mnemonic. A ``+`` where an
    operand starts (after a comma, a sign or an opening bar) is a sign, as NV text
    reads it (``MOV R0, +R1``, ``-|+R1|``)."""
    points = []
    depth = 0
    operand_starts = True
    for position, character in enumerate(text):
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth = max(0, depth - 1)
            operand_starts = False
        elif depth or character.isspace():
            continue
        elif character == "+" and not operand_starts:
            points.append(position)
            operand_starts = True
        elif character not in ",+-|" or (character == "|" and not operand_starts):
            operand_starts = False  # a name, a number, a closing bar
        else:
            operand_starts = True
    return points


class VertexDescription(Description):
    """The VP description, reading co-issued statements in every order and arrangement the old
    grammar reads (:func:`_one_statement_order`) and a ``+`` that starts an operand as a sign."""

    def operations(self, text: str) -> list[tuple[str, int]]:
        pieces, start = [], 0
        for point in [*_issue_points(text), len(text)]:
            piece = text[start:point]
            blank = len(piece) - len(piece.lstrip())
            pieces.append((piece.strip(), start + blank + 1))
            start = point + 1
        return pieces if len(pieces) > 1 else [(text, 1)]

    def parse(self, text: str, context: ParseContext | None = None) -> Instruction:
        brace = inline_constant(text)
        if brace is not None:
            closing = text.find("}", brace)
            raise SourceError("vertex programs have no inline constants; declare '#const c[N] = …' and read c[N]",
                              brace, (closing + 2 - brace) if closing >= 0 else 1)
        arranged = _one_statement_order(self.operations(text))
        if arranged is None:
            return super().parse(text, context)
        statement = " + ".join(piece for piece, _, _ in arranged)
        try:
            return super().parse(statement, context)
        except SourceError as error:
            raise _in_written_text(error, arranged) from None


def _in_written_text(error: SourceError, arranged: list[tuple[str, str, int]]) -> SourceError:
    """``error`` (columns in the arranged statement) pointing into the text as written: inside
    the operation it is in, where that operation is written unchanged, else at all of it."""
    start = 1
    for piece, written, column in arranged:
        if start <= error.col < start + len(piece) + 3 or (piece, written, column) == arranged[-1]:
            if piece == written.strip():
                return SourceError(error.message, column + max(0, error.col - start), error.length)
            return SourceError(error.message, column, len(written.strip()))
        start += len(piece) + 3  # " + "
    return error


VERTEX = VertexDescription(
    "rsx-vp", word_bits=32, words_per_instruction=4, first_word_most_significant=False,
    operand_separator=r"\s*,\s*", fields=FIELDS, operands=OPERANDS, forms=_forms(), order=FEWEST_LOST,
    unknown_bits=Annotate(fields=HINT_FIELDS), issue_separator="+", instruction_noun="vertex program instruction")
