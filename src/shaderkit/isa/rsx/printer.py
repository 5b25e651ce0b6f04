"""RSX instructions as text: one statement per instruction, in form A or form B (spec 5.1, 5.2).

This module owns how a decoded instruction reads: mnemonic and suffixes, destination, write
mask, condition, source operands, texture operands. It works from the views of
:mod:`.instruction` only and knows nothing about the rest of the program: the spelling of FP
literals and loop constants (``c[k]`` numbered by the disassembler, or the form-B inline
``{0x…(v), …}``) and of branch targets comes from a :class:`Naming`.

:func:`render` returns candidate texts, the most natural first. Form A text must read back to
the same words, so where cgcomp's text has optional operands (``SFL``/``STR`` operands, the
second ``TXL`` operand) both spellings are offered and the disassembler keeps the one that
needs the fewest ``#!`` hints. Values the syntax cannot carry (an index beyond the documented
register file, an invalid register type) print as a valid stand-in (``R0``, ``c[0]``,
``result.position``) that the hints then correct.

:func:`outline` places the FP block keywords (ELSE, ENDIF, ENDLOOP, ENDREP) from the flow
offsets (spec 3.9); a construct whose offsets cannot be shown as properly nested blocks is
printed as an empty block right after its opening instruction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import syntax
from .container import ProgramKind
from .instruction import CONDITION_TRUE, FP_TEMPORARIES, Instruction, Program, Source
from .syntax import IDENTITY

VP_FLOW_IMMEDIATE = {0x09: "BRA", 0x0B: "CAL", 0x11: "BRB", 0x12: "CLB"}
VP_FLOW_REGISTER = {0x08: "BRA", 0x0A: "CAL"}


@dataclass(frozen=True)
class Style:
    """Form A (``form_b=False``) reads back exactly; form B is the RPCS3-style listing."""

    form_b: bool


FORM_A = Style(form_b=False)
FORM_B = Style(form_b=True)


@dataclass(frozen=True)
class Naming:
    """Program-level spellings: an FP instruction's literal, a LOOP/REP constant, a branch target."""

    literal: Callable[[Instruction], str]
    loop_constant: Callable[[Instruction], str]
    target: Callable[[int], str]


def render(instruction: Instruction, naming: Naming, style: Style) -> list[str]:
    """Candidate statement texts (without ';'), the preferred one first."""
    if instruction.kind is ProgramKind.VERTEX:
        return _vertex(instruction, naming, style)
    return _fragment(instruction, naming, style)


# --- vertex ------------------------------------------------------------------------------------


def _vp_temp(index: int) -> str:
    return f"R{index if index < syntax.VP_LIMITS['R'] else 0}"


def _vp_source(view, source: Source, style: Style) -> str:
    if source.file == "v":
        if source.relative:
            text = f"v[A{view.address_register}.{syntax.LANES[view.address_lane]}+{source.index}]"
        else:
            text = f"v[{source.index}]" if style.form_b else syntax.vp_input_name(source.index)
    elif source.file == "c":
        index = source.index if source.index < syntax.VP_LIMITS["c"] else 0
        if source.relative:
            text = f"c[A{view.address_register}.{syntax.LANES[view.address_lane]}+{index}]"
        else:
            text = f"c[{index}]"
    else:  # a temp, or the invalid type 0 printed as the stand-in R0
        text = _vp_temp(source.index if source.file == "R" else 0)
    return _decorate(text, source)


def _decorate(text: str, source: Source) -> str:
    text += syntax.swizzle_suffix(source.swizzle)
    if source.absolute:
        text = f"|{text}|"
    return "-" + text if source.negate else text


def _vp_output(index: int, style: Style) -> str:
    index = index if index < syntax.VP_OUTPUTS else 0
    return f"o[{index}]" if style.form_b else syntax.vp_output_name(index)


def _vp_condition(view) -> str:
    condition = view.condition
    return "(" + syntax.condition_text(condition.test, condition.register, condition.swizzle) + ")"


def _vertex(instruction: Instruction, naming: Naming, style: Style) -> list[str]:
    view = instruction.view
    vector = view.vector if view.vector is not None and view.vector.value else None
    scalar = view.scalar if view.scalar is not None and view.scalar.value else None
    # The slot's shared flags (suffixes, condition) are written on the first operation shown.
    vector_texts = _vp_vector(view, vector, style, flags=True) if vector else [None]
    scalar_texts = _vp_scalar(view, scalar, naming, style, flags=vector is None) if scalar else [None]
    joiner = "; " if style.form_b else " + "
    candidates = []
    for vector_text in vector_texts:
        for scalar_text in scalar_texts:
            if vector_text and scalar_text:
                candidates.append(vector_text + joiner + scalar_text)
            elif vector_text:
                candidates.append(vector_text)
            elif scalar_text:
                # A scalar-unit MOV alone would read back as the vector MOV.
                lone_mov = scalar.name == "MOV" and not style.form_b
                candidates.append(("NOP + " if lone_mov else "") + scalar_text)
            else:
                candidates.append("NOP")
    return candidates


def _vp_suffix(view, flags: bool) -> str:
    if not flags:
        return ""
    text = ""
    if view.cc_update:
        text += "C1" if view.condition.register else "C"
    return text + ("_SAT" if view.saturate else "")


def _vp_vector(view, opcode, style: Style, flags: bool) -> list[str]:
    if opcode.name == "ARL":
        temp = view.vector_temp if view.vector_temp is not None else 0
        destination = f"A{temp & 1}"
    elif view.vector_to_output:
        destination = _vp_output(view.output if view.output is not None else 0, style)
    elif view.vector_temp is not None:
        destination = _vp_temp(view.vector_temp)
    else:
        destination = "RC" if style.form_b else "CC"
    destination += syntax.mask_suffix(view.vector_mask)
    if flags and view.condition_test:
        destination += _vp_condition(view)
    head = f"{opcode.name}{_vp_suffix(view, flags)} {destination}"
    slot_sets = [opcode.sources]
    if opcode.name in ("SFL", "STR"):  # cgcomp encodes the operands written after SFL/STR
        slot_sets.append((0, 1))
    return [", ".join([head] + [_vp_source(view, view.sources[slot], style) for slot in slots])
            for slots in slot_sets]


def _vp_scalar(view, opcode, naming: Naming, style: Style, flags: bool) -> list[str]:
    condition = _vp_condition(view) if flags and view.condition_test else ""
    if condition and style.form_b:
        condition = " " + condition
    if opcode.value in VP_FLOW_IMMEDIATE:
        text = f"{VP_FLOW_IMMEDIATE[opcode.value]} {naming.target(view.branch_target)}"
        if opcode.value in (0x11, 0x12):
            text += f", {view.branch_index}, {view.branch_value}"
        return [text + condition]
    if opcode.value in VP_FLOW_REGISTER:
        register = f"A{view.address_register}.{syntax.LANES[view.address_lane]}"
        return [f"{VP_FLOW_REGISTER[opcode.value]} {register}{condition}"]
    if opcode.name == "RET":
        return ["RET" + (" " + condition.strip() if condition else "")]
    if not opcode.scalar:  # PSH, POP
        return [" ".join([opcode.name] + [_vp_source(view, view.sources[slot], style) for slot in opcode.sources])]
    if view.scalar_temp is not None:
        destination = _vp_temp(view.scalar_temp)
    elif not view.vector_to_output and view.output is not None:
        destination = _vp_output(view.output, style)
    else:
        destination = "RC" if style.form_b else "CC"
    destination += syntax.mask_suffix(view.scalar_mask) + condition
    head = f"{opcode.name}{_vp_suffix(view, flags)} {destination}"
    return [f"{head}, {_vp_source(view, view.sources[2], style)}"]


# --- fragment ----------------------------------------------------------------------------------


def _fp_name(opcode, style: Style) -> str:
    if style.form_b:
        return opcode.name
    return syntax.FP_NV_NAMES.get(opcode.value, opcode.name)


def _fp_condition_text(view) -> str:
    condition = view.condition
    return syntax.condition_text(condition.test, condition.register, condition.swizzle)


def _fp_condition_is_default(view) -> bool:
    condition = view.condition
    return condition.test == CONDITION_TRUE and condition.swizzle == IDENTITY and not condition.register


def _fp_source(view, instruction: Instruction, source: Source, naming: Naming, style: Style) -> str:
    if source.file == "f":
        if style.form_b:
            prefix = "g" if view.perspective else "f"
            text = f"{prefix}[{syntax.FP_LISTING_INPUT_NAMES[view.input]}]"
        else:
            text = syntax.fp_input_name(view.input)
    elif source.file == "c":
        text = naming.literal(instruction)
    elif source.file == "H":
        text = f"H{source.index}"
    else:  # R, or the invalid type 3 printed as the stand-in R0
        index = source.index if source.file == "R" and source.index < FP_TEMPORARIES else 0
        text = f"R{index}"
    return _decorate(text, source)


def _fp_suffix(view, opcode, style: Style) -> str:
    text = ""
    if opcode.value not in syntax.FP_PACK_OPCODES or style.form_b:
        text += syntax.PRECISION_SUFFIXES[view.precision] if view.precision < 3 else "R"
    if view.set_cc:
        text += "C1" if view.set_cc_register else "C"
    if view.saturate:
        text += "_SAT"
    return text + syntax.SCALE_SUFFIXES.get(view.scale, "")


def _fp_destination(view) -> str:
    if view.no_destination:
        text = "HC" if view.destination_half else "RC"
    elif view.destination_half:
        text = f"H{view.destination}"
    else:
        text = f"R{view.destination if view.destination < FP_TEMPORARIES else 0}"
    text += syntax.mask_suffix(view.mask)
    if not _fp_condition_is_default(view):
        text += f"({_fp_condition_text(view)})"
    return text


def _fragment(instruction: Instruction, naming: Naming, style: Style) -> list[str]:
    view = instruction.view
    opcode = view.opcode
    if opcode is None:
        return ["NOP"]
    if opcode.flow:
        return [_fp_flow(view, instruction, naming, style)]
    if opcode.value in syntax.FP_BARE_OPCODES:
        if opcode.name == "KIL" and not _fp_condition_is_default(view):
            return [f"KIL {_fp_condition_text(view)}"]
        return [opcode.name]
    head = f"{_fp_name(opcode, style)}{_fp_suffix(view, opcode, style)} {_fp_destination(view)}"
    slot_sets = [opcode.sources]
    if opcode.name in ("SFL", "STR"):
        slot_sets.append((0, 1))
    if opcode.name == "TXL":  # cgcomp's TXL has one operand and reads the LOD from its w
        slot_sets.insert(0, (0,))
    texture = ""
    if opcode.texture:
        target = "CUBE" if view.perspective else "2D"
        texture = f", TEX{view.texture_unit}" if style.form_b else f", texture[{view.texture_unit}], {target}"
    return [", ".join([head] + [_fp_source(view, instruction, view.sources[slot], naming, style)
                                for slot in slots]) + texture
            for slots in slot_sets]


def _fp_flow(view, instruction: Instruction, naming: Naming, style: Style) -> str:
    name = view.opcode.name
    condition = "" if _fp_condition_is_default(view) else _fp_condition_text(view)
    if name == "IFE":
        if style.form_b:
            return f"IFE ({_fp_condition_text(view)})"
        return f"IF {_fp_condition_text(view)}"
    if name in ("LOOP", "REP"):
        if style.form_b:
            constant = f"{{{view.loop_count}, {view.loop_start}, {view.loop_increment}}}"
        else:
            constant = naming.loop_constant(instruction)
        return f"{name} {constant}" + (f"({condition})" if condition else "")
    if name == "CAL":
        target_words = instruction.words[2] & 0x7FFFFFFF
        return f"CAL {naming.target(target_words // 4)}" + (f"({condition})" if condition else "")
    if not condition:
        return name
    return f"{name} ({condition})" if style.form_b else f"{name} {condition}"


# --- block structure ---------------------------------------------------------------------------

_CLOSERS = {"IFE": "ENDIF", "LOOP": "ENDLOOP", "REP": "ENDREP"}


@dataclass(frozen=True)
class Outline:
    """Program order with block keywords: ``events`` are ("instruction", Instruction) and
    ("keyword", "ELSE" | "ENDIF" | …); ``targets`` maps an opening instruction's slot to the
    (else, end) slots its printed block encodes."""

    events: tuple[tuple[str, object], ...]
    targets: dict[int, tuple[int, int]]


def outline(program: Program) -> Outline:
    events: list[tuple[str, object]] = []
    targets: dict[int, tuple[int, int]] = {}
    boundaries = {instruction.slot for instruction in program.instructions} | {program.slot_count}
    stack: list[list] = []  # [name, else slot, end slot, else printed]

    def close_at(slot: int) -> None:
        while stack:
            name, else_slot, end_slot, else_printed = stack[-1]
            if end_slot == slot:
                if name == "IFE" and not else_printed and else_slot == slot and else_slot != end_slot:
                    events.append(("keyword", "ELSE"))
                events.append(("keyword", _CLOSERS[name]))
                stack.pop()
            elif name == "IFE" and else_slot == slot and not else_printed:
                events.append(("keyword", "ELSE"))
                stack[-1][3] = True
                return
            else:
                return

    for instruction in program.instructions:
        close_at(instruction.slot)
        events.append(("instruction", instruction))
        if program.kind is not ProgramKind.FRAGMENT:
            continue
        opcode = instruction.view.opcode
        if opcode is None or opcode.name not in _CLOSERS:
            continue
        slot = instruction.slot
        span = _block_span(instruction, opcode.name, boundaries, stack)
        if span is None:  # not expressible as nested blocks: an empty block plus hints
            targets[slot] = (slot + 1, slot + 1)
            events.append(("keyword", _CLOSERS[opcode.name]))
            continue
        targets[slot] = span
        stack.append([opcode.name, span[0], span[1], False])
    close_at(program.slot_count)
    return Outline(tuple(events), targets)


def _block_span(instruction: Instruction, name: str, boundaries: set[int], stack: list) -> tuple[int, int] | None:
    words = instruction.words
    if words[3] % 4 or (name == "IFE" and (words[2] & 0x7FFFFFFF) % 4):
        return None
    end = words[3] // 4
    else_slot = (words[2] & 0x7FFFFFFF) // 4 if name == "IFE" else end
    slot = instruction.slot
    if not (slot < else_slot <= end and end in boundaries and else_slot in boundaries):
        return None
    if stack:
        parent_name, parent_else, parent_end, else_printed = stack[-1]
        limit = parent_else if parent_name == "IFE" and not else_printed and slot < parent_else else parent_end
        if end > limit:
            return None
    return else_slot, end
