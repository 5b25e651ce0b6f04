"""The RSX fragment-program instruction (spec/rsx.md section 3) in core's description model.

This module owns the FP fields (OPDEST, SRC0, SRC1, SRC2 as words 0-3, the literal slot as
words 4-7), the operand bindings and one form per opcode spelling, written in form A (spec
5.1, the disassembler's text, :mod:`.printer`), and :data:`FRAGMENT`, the description; the
opcode table's other names (PK2, REFL, IFE, …) and SUB / ABS are spellings the parser reads
and the printer never writes, an opcode with no name reads as a fallback NOP. What the
text does not show is *implied* the way cgcomp writes it (unused sources 0x1C800, the 0x7FC
displacement for texcoord reads, the perspective flag of DP/MUL/DIV/NRM on a texcoord src0,
…), so ``encode(parse(text))`` gives cgcomp's words and a decoded instruction reports the bits
its text loses (``unknown_bits``). The end bit and the IF/LOOP/REP block offsets are carried:
the assembler driver sets them from the program around the instruction.

The parser reads NV text's spellings too: f[N], fragment.texcoord and the other
input names, result.color[n], result.depth (R1, mask z unless one is written), o[COLR],
o[COLH], o[DEPR], ``C0``, a condition in parentheses after KIL/IF/BRK/RET, and a texture
instruction without its target (2D).
"""

from __future__ import annotations

from dataclasses import replace

from shaderkit.core.diagnostics import SourceError
from shaderkit.core.model import (Annotate, Choice, CodeAddress, Description, FEWEST_LOST, Instruction, Operand,
                                  ParseContext, Registers, SubTable, case, field, form)

from . import syntax
from .description import (CONDITION_NAMES, LITERAL_BITS, FloatVector, IndexedRegisters, LoopCounts, RegisterIndex,
                          Swizzle, WriteMask, bits_in, other_spellings, source_operands, top_level_plus,
                          with_spellings)
from .limits import FP_TEMPORARIES
from .opcodes import FP

SOURCE_FILLER = 0x1C800  # temp R0, identity swizzle (spec 3.1)
TEXCOORD_DISPLACEMENT = 0x7FC  # spec 3.5
PERSPECTIVE_OPCODES = frozenset({0x02, 0x05, 0x06, 0x38, 0x39, 0x3A})  # cgcomp, spec 3.5
FLOW_PRECISION_H = frozenset({0x42, 0x43, 0x44})  # IFE, LOOP, REP carry OPDEST precision 1
SUFFIX_FIELDS = ("precision", "set_cc", "set_cc_register", "saturate", "scale")  # what a mnemonic suffix sets


class Precision(Choice):
    """The precision suffix (R, H, X); left out, as the old NV spelling ``ADD`` has it, it reads
    as R, the precision cgcomp writes for an instruction without one. It always prints."""

    def parse(self, text, context):
        return 0 if text == "" else super().parse(text, context)

    def pattern(self) -> str:
        return f"(?:{super().pattern()})?"


def _source_fields(number: int, word: int) -> dict[str, object]:
    name = f"source{number}"
    return {name: field(bits_in(word, 17, 0)),
            f"{name}_type": field(bits_in(word, 1, 0)), f"{name}_index": field(bits_in(word, 7, 2)),
            f"{name}_half": field(bits_in(word, 8)), f"{name}_swizzle": field(bits_in(word, 16, 9)),
            f"{name}_negate": field(bits_in(word, 17))}


FIELDS = {
    "end": field(bits_in(0, 0)), "destination": field(bits_in(0, 6, 1)), "destination_half": field(bits_in(0, 7)),
    "set_cc": field(bits_in(0, 8)), "mask": field(bits_in(0, 12, 9)), "input": field(bits_in(0, 16, 13)),
    "texture_unit": field(bits_in(0, 20, 17)), "expand_texture": field(bits_in(0, 21)),
    "precision": field(bits_in(0, 23, 22)), "opcode_low": field(bits_in(0, 29, 24)),
    "no_destination": field(bits_in(0, 30)), "saturate": field(bits_in(0, 31)),
    **_source_fields(0, 1),
    "condition": field(bits_in(1, 20, 18), default=7), "cc_swizzle": field(bits_in(1, 28, 21), default=0xE4),
    "source0_abs": field(bits_in(1, 29)), "set_cc_register": field(bits_in(1, 30)),
    "test_cc_register": field(bits_in(1, 31)),
    **_source_fields(1, 2),
    "source1_abs": field(bits_in(2, 18)), "source0_clamp": field(bits_in(2, 21, 19)),
    "source1_clamp": field(bits_in(2, 24, 22)), "source2_clamp": field(bits_in(2, 27, 25)),
    "scale": field(bits_in(2, 30, 28)), "opcode_high": field(bits_in(2, 31)),
    **_source_fields(2, 3),
    "source2_abs": field(bits_in(3, 18)), "displacement": field(bits_in(3, 29, 19)),
    "indexed_input": field(bits_in(3, 30)), "perspective": field(bits_in(3, 31)),
    "literal": field(LITERAL_BITS),
    # Flow-control overlays (spec 3.4, 3.5, 3.9): word offsets and loop counts.
    "else_offset": field(bits_in(2, 30, 0)), "end_offset": field(bits_in(3, 31, 0)),
    "loop_counts": field(f"{bits_in(2, 26, 19)},{bits_in(2, 17, 10)},{bits_in(2, 9, 2)}"),
    "loop_count": field(bits_in(2, 9, 2)), "loop_start": field(bits_in(2, 17, 10)),
    "loop_increment": field(bits_in(2, 26, 19)),
    "loop_pad_low": field(bits_in(2, 1, 0)), "loop_pad_high": field(bits_in(2, 30, 27)),
}

# The fields of the hint syntax (``#! name=value``): every bit once, as :mod:`.fields` names them.
HINT_FIELDS = ("end", "destination", "destination_half", "set_cc", "mask", "input", "texture_unit",
               "expand_texture", "precision", "opcode_low", "no_destination", "saturate", "source0", "condition",
               "cc_swizzle", "source0_abs", "set_cc_register", "test_cc_register", "source1", "source1_abs",
               "source0_clamp", "source1_clamp", "source2_clamp", "scale", "opcode_high", "source2", "source2_abs",
               "displacement", "indexed_input", "perspective", "literal")

# The printed name first; then every other way NV text names the input: f[TEX0] (NV
# short names), f[N], fragment.color.primary, fragment.texcoord (= fragment.texcoord[0]).
INPUT_NAMES = with_spellings({index: (syntax.fp_input_name(index),) for index in range(16)},
                             {**{f"f[{short}]": index for short, index in syntax.FP_INPUT_SHORT_NAMES.items()},
                              **{f"f[{index}]": index for index in range(16)},
                              **syntax.FP_INPUT_SPELLINGS, "fragment.texcoord": 4,
                              **{f"fragment.texcoord[{unit}]": 4 + unit for unit in range(syntax.FP_TEXCOORDS)}})


def _register_table(number: int) -> SubTable:
    """What source ``number`` reads: a temp, an input or the literal (the invalid type 3 shows
    as R0)."""
    name = f"source{number}"
    swizzle = f"{{s{number}_swizzle}}"
    return SubTable((case(f"H{{s{number}_index}}{swizzle}", **{f"{name}_type": 0, f"{name}_half": 1}),
                     case(f"R{{s{number}_rindex}}{swizzle}", **{f"{name}_type": 0, f"{name}_half": 0}),
                     case(f"{{input}}{swizzle}", **{f"{name}_type": 1}),
                     case(f"{{literal}}{swizzle}", **{f"{name}_type": 2})),
                    title="source register",
                    stand_in=((f"{name}_type", 0), (f"{name}_half", 0), (f"{name}_index", 0)))


class TextureTarget(Registers):
    """A texture instruction's target: the names of the perspective field's two values."""

    def parse(self, text: str, context) -> int:
        try:
            return super().parse(text, context)
        except SourceError:
            raise SourceError(f"expected a texture target ({', '.join(syntax.TEXTURE_TARGETS)})", 1,
                              max(1, len(text))) from None


# A blank may come before a condition (``R0 (GT.x)``); KIL, IF, BRK and RET read theirs also in
# parentheses (``KIL (GT.x)``).
CONDITION = SubTable((case("", condition=7, cc_swizzle=0xE4, test_cc_register=0),
                          case("({test}{test_register}{cc_swizzle})")), title="condition", blanks=True)
BARE_CONDITION = SubTable((case("{test}{test_register}{cc_swizzle}"),), title="condition such as GT.x or (NE1.xy)",
                              blanks=True,
                              read_only=(case("({test}{test_register}{cc_swizzle})"),))


def _written_outputs() -> tuple:
    """NV text's output names, as the registers cgcomp gives them (spec 3.1):
    ``result.color[n]`` / ``o[COLR]`` an R register, ``o[COLH]`` H0, ``result.depth`` /
    ``o[DEPR]`` R1 with the mask z unless a mask is written."""
    temp = {"no_destination": 0, "destination_half": 0}
    colors = [("result.color", 0), ("o[COLR]", 0),
              *((f"result.color[{number}]", register) for number, register in syntax.FP_COLOR_OUTPUTS.items())]
    cases = [case(f"{name}{{mask}}{{condition}}", destination=register, **temp) for name, register in colors]
    cases.append(case("o[COLH]{mask}{condition}", destination=0, no_destination=0, destination_half=1))
    depth_z = 1 << 2  # the mask's z bit
    for name in ("result.depth", "o[DEPR]"):
        cases += [case(f"{name}{{condition}}", destination=syntax.FP_DEPTH_REGISTER, mask=depth_z, **temp),
                  case(f"{name}{{mask}}{{condition}}", destination=syntax.FP_DEPTH_REGISTER, **temp)]
    return tuple(cases)

OPERANDS = {
    "precision": Operand("precision", Precision({0: "R", 1: "H", 2: "X"}), stand_in=0),
    "cc": SubTable((case("", set_cc=0), case("C", set_cc=1, set_cc_register=0),
                        case("C1", set_cc=1, set_cc_register=1)), title="CC update",
                       read_only=(case("C0", set_cc=1, set_cc_register=0),)),
    "saturate": Operand("saturate", Choice({0: "", 1: "_SAT"})),
    "scale": Operand("scale", Choice({0: "", **syntax.SCALE_SUFFIXES}), stand_in=0),
    "mask": Operand("mask", WriteMask(x_in_high_bit=False), stand_in=0xF),
    "condition": CONDITION, "bare_condition": BARE_CONDITION,
    "test": Operand("condition", Choice(dict(enumerate(CONDITION_NAMES)))),
    "test_register": Operand("test_cc_register", Choice({0: "", 1: "1"})),
    "cc_swizzle": Operand("cc_swizzle", Swizzle(x_in_high_bits=False)),
    "rindex": Operand("destination", RegisterIndex("R", FP_TEMPORARIES), stand_in=0),
    "hindex": Operand("destination", RegisterIndex("H", syntax.FP_HALF_REGISTERS)),
    "dst": SubTable((case("RC{mask}{condition}", no_destination=1, destination_half=0),
                         case("HC{mask}{condition}", no_destination=1, destination_half=1),
                         case("H{hindex}{mask}{condition}", no_destination=0, destination_half=1),
                         case("R{rindex}{mask}{condition}", no_destination=0, destination_half=0)),
                        title="destination", read_only=_written_outputs()),
    # The titles name the one field two sources of an instruction cannot read differently.
    "input": Operand("input", IndexedRegisters(INPUT_NAMES, "f", 16), title="input attribute"),
    "literal": Operand("literal", FloatVector(), title="literal slot"),
    "unit": Operand("texture_unit", Registers({n: (str(n),) for n in range(16)})),
    # cgc and the RPCS3-style listing name the unit TEX0 … TEX15.
    "texture": SubTable((case("texture[{unit}]"),), title="texture unit", read_only=(case("TEX{unit}"),)),
    "target": Operand("perspective", TextureTarget({0: ("2D", "1D", "3D", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT"),
                                                     1: ("CUBE",)})),
    "loop_counts": Operand("loop_counts", LoopCounts()),
    "rep_count": Operand("loop_count", LoopCounts(count_only=True)),
    "call_target": Operand("else_offset", CodeAddress(labels_only=True), stand_in=0),
}
for _number in range(3):
    OPERANDS.update(source_operands(_number))
    OPERANDS[f"s{_number}_register"] = _register_table(_number)
    OPERANDS[f"s{_number}_index"] = Operand(f"source{_number}_index", RegisterIndex("H", syntax.FP_HALF_REGISTERS))
    OPERANDS[f"s{_number}_rindex"] = Operand(f"source{_number}_index", RegisterIndex("R", FP_TEMPORARIES), stand_in=0)
    OPERANDS[f"s{_number}_swizzle"] = Operand(f"source{_number}_swizzle", Swizzle(x_in_high_bits=False))

# --- forms ---------------------------------------------------------------------------------------

_ALL_SOURCES = (0, 1, 2)


def _reads_literal(slots) -> str:
    return " or ".join(f"source{slot}_type == 2" for slot in _ALL_SOURCES)


LITERAL_WORDS = f"4 if ({_reads_literal(_ALL_SOURCES)}) else 0"


def _opcode_fields(value: int) -> dict[str, int]:
    return {"opcode_low": value & 0x3F, "opcode_high": value >> 6}


def _unused_source(slot: int) -> dict[str, object]:
    return {f"source{slot}": SOURCE_FILLER, f"source{slot}_abs": 0}


def _used_source(slot: int) -> dict[str, object]:
    """A source's fields its case does not read: what cgcomp leaves there."""
    return {f"source{slot}_index": 0, f"source{slot}_half": 0}


def _implied(opcode_value: int, slots: tuple[int, ...], texture: bool, destination: bool) -> dict[str, object]:
    reads_input = " or ".join(f"source{slot}_type == 1" for slot in slots) or "0"
    implied: dict[str, object] = {}
    for slot in _ALL_SOURCES:
        implied.update(_used_source(slot) if slot in slots else _unused_source(slot))
    implied.update(input=0, literal=0, destination=0x3F)
    if not destination:
        implied.update(no_destination=1, destination=0x3F, destination_half=0, mask=0xF)
    implied.update({"precision": 0, "set_cc": 0, "set_cc_register": 0, "saturate": 0, "scale": 0,
                    "condition": 7, "cc_swizzle": 0xE4, "test_cc_register": 0,
                    "source0_clamp": 0, "source1_clamp": 0, "source2_clamp": 0, "expand_texture": 0,
                    "texture_unit": 0, "indexed_input": 0,
                    "displacement": f"{TEXCOORD_DISPLACEMENT} if 4 <= input <= 13 and ({reads_input}) else 0"})
    if texture:
        implied.pop("texture_unit")
    elif opcode_value in PERSPECTIVE_OPCODES and 0 in slots:
        implied["perspective"] = "1 if source0_type == 1 and 4 <= input <= 13 else 0"
    else:
        implied["perspective"] = 0
    return implied


def _arithmetic_forms(opcode) -> list:
    name = syntax.FP_NV_NAMES.get(opcode.value, opcode.name)
    precision = "" if opcode.value in syntax.FP_PACK_OPCODES else "{precision}"
    head = f"{name}{precision}{{cc}}{{saturate}}{{scale}} {{dst}}"
    slot_sets = [opcode.sources]
    if opcode.name in ("SFL", "STR"):  # cgcomp encodes the operands written after SFL/STR
        slot_sets.append((0, 1))
    if opcode.name == "TXL":  # cgcomp's TXL has one operand and reads the LOD from its w
        slot_sets.insert(0, (0,))
    forms = []
    for slots in slot_sets:
        template = ", ".join([head, *(f"{{s{slot}}}" for slot in slots)])
        if opcode.texture:
            template += ", {texture}, {target}"
        implied = _implied(opcode.value, slots, opcode.texture, destination=True)
        if precision == "":
            implied["precision"] = 0
        for kept in ("precision", "set_cc", "set_cc_register", "saturate", "scale", "condition", "cc_swizzle",
                     "test_cc_register"):
            if kept != "precision" or precision:
                implied.pop(kept)
        if opcode.name == "TXL" and slots == (0,):
            implied["source1"] = "(source0 & ~0x1fe00) | ((((source0 >> 15) & 3) * 0x55) << 9)"
            implied["source1_abs"] = "source0_abs"
        forms.append(form(template, name=f"{name} {' '.join(map(str, slots))}".strip(), implied=implied,
                          carries=("end",), extra_words=LITERAL_WORDS, **_opcode_fields(opcode.value)))
    if opcode.texture:
        forms += [_without_target(declared) for declared in forms]
    if not precision:
        forms += [_suffixed(declared, "{precision}", ("precision",)) for declared in forms]
    return forms


def _without_target(declared):
    """A spelling-only copy of a texture form with the target left out: 2D, as NV text
    reads ``TEX R0, f[TEX0], texture[1]``."""
    template = declared.template.removesuffix(", {target}")
    return replace(declared, template=template, implied=(*declared.implied, ("perspective", 0)), spelling_only=True,
                   name=f"{declared.name} (no target)")


def _suffixed(declared, suffixes: str, fields: tuple[str, ...]):
    """A spelling-only copy of ``declared`` whose mnemonic takes ``suffixes`` (fields the
    printed name leaves at cgcomp's value): NV text reads a precision, CC update,
    saturation and scale after every arithmetic name, and writes them (``PK4BH``, ``NOPRC``)."""
    mnemonic = declared.mnemonic
    template = mnemonic + suffixes + declared.template[len(mnemonic):]
    implied = {name: value for name, value in declared.implied if name not in fields}
    return replace(declared, template=template, implied=tuple(implied.items()), spelling_only=True,
                   name=f"{declared.name or mnemonic} (with {suffixes})")


def _bare_form(opcode) -> list:
    implied = _implied(opcode.value, (), False, destination=False)
    if opcode.name != "KIL":
        bare = form(opcode.name, implied=implied, carries=("end",), extra_words=LITERAL_WORDS,
                    **_opcode_fields(opcode.value))
        return [bare, _suffixed(bare, "{precision}{cc}{saturate}{scale}", SUFFIX_FIELDS)]
    for kept in ("condition", "cc_swizzle", "test_cc_register"):
        implied.pop(kept)
    return [form("KIL {bare_condition?}", implied=implied, carries=("end",), extra_words=LITERAL_WORDS,
                 **_opcode_fields(opcode.value))]


def _flow_form(opcode) -> list:
    # Every word cgcomp writes for a flow instruction (spec 3.9), bit by bit.
    implied: dict[str, object] = {name: 0 for name in ("destination", "destination_half", "set_cc", "mask", "input",
                                                       "texture_unit", "expand_texture", "saturate", "source0",
                                                       "source0_abs", "set_cc_register")}
    implied.update(no_destination=1, precision=1 if opcode.value in FLOW_PRECISION_H else 0)
    carries = ["end"]
    name = opcode.name
    if name == "IFE":
        carries += ["else_offset", "end_offset"]
        template = "IF {bare_condition}"
    elif name in ("LOOP", "REP"):
        carries.append("end_offset")
        implied.update(loop_pad_low=0, source1_abs=0, loop_pad_high=0)  # the SRC1 bits around the counts
        template = f"{name} {{{'loop_counts' if name == 'LOOP' else 'rep_count'}}}{{condition}}"
        if name == "REP":  # cgcomp writes REP n as n/n/n
            implied.update(loop_start="loop_count", loop_increment="loop_count")
    elif name == "CAL":
        implied["end_offset"] = 0
        template = "CAL {call_target}{condition}"
    else:
        implied.update(else_offset=0, end_offset=0)
        template = f"{name} {{bare_condition?}}"
    return [form(template, implied=implied, carries=tuple(carries), **_opcode_fields(opcode.value))]


def _forms() -> list:
    forms = []
    for opcode in FP.values():
        if opcode.flow:
            forms += _flow_form(opcode)
        elif opcode.value in syntax.FP_BARE_OPCODES:
            forms += _bare_form(opcode)
        else:
            forms += _arithmetic_forms(opcode)
    # An opcode with no name prints as NOP and loses every bit that differs from NOP's.
    nop = _implied(0, (), False, destination=False)
    nop.update(opcode_low=0, opcode_high=0)
    forms.append(form("NOP", name="NOP (unknown opcode)", implied=nop, carries=("end",), extra_words=LITERAL_WORDS,
                      fallback=True))
    return forms + other_spellings(forms, _other_spellings())


def _other_spellings() -> dict[str, list[tuple[str, dict[str, str]]]]:
    """The opcode table's names and aliases beside the NV name printed, and SUB / ABS (one
    instruction each: ADD with its second source negated, MOV with its source in bars)."""
    spellings: dict[str, list[tuple[str, dict[str, str]]]] = {"ADD": [("SUB", {"{s1}": "{s1_negated}"})],
                                                              "MOV": [("ABS", {"{s0}": "{s0_absolute}"})]}
    for opcode in FP.values():
        printed = "IF" if opcode.name == "IFE" else syntax.FP_NV_NAMES.get(opcode.value, opcode.name)
        for name in (opcode.name, *opcode.aliases):
            if name != printed:
                spellings.setdefault(printed, []).append((name, {}))
    return spellings


class FragmentDescription(Description):
    """The FP description, which says so when a statement co-issues (a vertex program's ``+``)."""

    def parse(self, text: str, context: ParseContext | None = None) -> Instruction:
        plus = top_level_plus(text)
        if plus is not None:
            raise SourceError("co-issue ('+') exists only in vertex programs", plus)
        return super().parse(text, context)


FRAGMENT = FragmentDescription(
    "rsx-fp", word_bits=32, words_per_instruction=4, max_length=8, first_word_most_significant=False,
    operand_separator=r"\s*,\s*", fields=FIELDS, operands=OPERANDS, forms=_forms(), order=FEWEST_LOST,
    unknown_bits=Annotate(fields=HINT_FIELDS), instruction_noun="fragment program instruction")
