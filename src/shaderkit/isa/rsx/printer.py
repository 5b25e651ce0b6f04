"""RSX instructions as text, one statement per instruction (spec/rsx.md 5.1, 5.2), and the
block structure of a fragment program.

**Form A** (the text that reads back exactly) comes from the instruction descriptions in core's
model (:mod:`.description_vertex`, :mod:`.description_fragment`): :func:`statement_text` and
:func:`statement_line` decode an instruction's words with the program-level spellings of a
:class:`Spelling` (labels for branch targets, ``c[k]`` names for FP literals and LOOP/REP
counts; without names, literals and counts print inline) and :func:`statement_line` adds the
``#!`` hints from the bits the text loses (``unknown_bits``) and the carried fields (end bit,
FP block offsets) that differ from what the program around the instruction gives them, plus
``native`` for an FP LRP/LIT/POW/DDX/DDY the assembler would otherwise expand.

**Form B** (:func:`listing_text`) is the RPCS3-style listing text, for humans and not exact:
``v[n]``/``o[n]``/``RC``, opcode-table names with their precision suffix, ``f[TEX0]`` (``g[…]``
with the perspective flag), ``TEXn``, literals and targets as a :class:`Naming` spells them.
:func:`render` keeps the older entry point (a list of texts, the first to use) for both forms.

:func:`outline` places the FP block keywords (ELSE, ENDIF, ENDLOOP, ENDREP) from the flow
offsets (spec 3.9); a construct whose offsets cannot be shown as properly nested blocks is
printed as an empty block right after its opening instruction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from shaderkit.core.model import Description

from . import fields as layout
from . import syntax
from .container import ProgramKind
from .description import hints
from .assembly_macros import instruction_expands_unless_native
from .description_fragment import FRAGMENT
from .description_fragment import HINT_FIELDS as FRAGMENT_HINT_FIELDS
from .description_vertex import HINT_FIELDS as VERTEX_HINT_FIELDS
from .description_vertex import VERTEX
from .instruction import CONDITION_TRUE, Instruction, Program, Source
from .limits import FP_TEMPORARIES
from .syntax import IDENTITY

VP_FLOW_IMMEDIATE = {0x09: "BRA", 0x0B: "CAL", 0x11: "BRB", 0x12: "CLB"}
VP_FLOW_REGISTER = {0x08: "BRA", 0x0A: "CAL"}
HINT_FIELDS = {ProgramKind.VERTEX: VERTEX_HINT_FIELDS, ProgramKind.FRAGMENT: FRAGMENT_HINT_FIELDS}
LOOPS = ("LOOP", "REP")


# --- form A, through the descriptions ------------------------------------------------------------


@dataclass(frozen=True)
class Spelling:
    """Program-level spellings the descriptions print an instruction with: branch and call
    targets by slot (a target without a label shows the stand-in slot 0, which then has one),
    the names of an FP instruction's literal and of a LOOP/REP's counts (None: inline), and
    the texture units sampled as rectangles, whose texture instructions print the target RECT
    instead of 2D (the words cannot tell them apart)."""

    labels: Mapping[int, str]
    literal: Callable[[Instruction], str | None] = lambda instruction: None
    loop_constant: Callable[[Instruction], str | None] = lambda instruction: None
    rectangle_units: frozenset[int] = frozenset()


class EverySlot(Mapping[int, str]):
    """Labels for every slot below ``slots``, named by ``name`` (``L<slot>`` by default): for
    text that stands alone, where any target may be named."""

    def __init__(self, slots: int, name: Callable[[int], str] = lambda slot: f"L{slot}"):
        self.slots = slots
        self.name = name

    def __getitem__(self, slot: int) -> str:
        if not 0 <= slot < self.slots:
            raise KeyError(slot)
        return self.name(slot)

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.slots))

    def __len__(self) -> int:
        return self.slots


class _ByWordOffset(Mapping[int, str]):
    """Slot labels looked up by an FP target's word offset (4 words a slot)."""

    def __init__(self, labels: Mapping[int, str]):
        self.labels = labels

    def __getitem__(self, offset: int) -> str:
        if offset % layout.INSTRUCTION_WORDS:
            raise KeyError(offset)
        return self.labels[offset // layout.INSTRUCTION_WORDS]

    def __iter__(self) -> Iterator[int]:
        return (slot * layout.INSTRUCTION_WORDS for slot in self.labels)

    def __len__(self) -> int:
        return len(self.labels)


def _combined(words: Sequence[int]) -> int:
    return sum(word << (32 * index) for index, word in enumerate(words))


def _printing(instruction: Instruction, spelling: Spelling) -> tuple[Description, Mapping[int, str], dict]:
    """The description of the instruction's kind, its labels (by the description's target
    units: slots for VP, word offsets for FP) and its value names (field → value → name)."""
    names: dict[str, dict[int, str]] = {}
    if instruction.kind is ProgramKind.VERTEX:
        return VERTEX, spelling.labels, names
    literal = spelling.literal(instruction) if instruction.literal is not None else None
    if literal is not None:
        names["literal"] = {_combined(instruction.literal): literal}
    opcode = instruction.view.opcode
    counts = spelling.loop_constant(instruction) if opcode is not None and opcode.name in LOOPS else None
    if counts is not None:
        view = instruction.view
        names["loop_counts"] = {view.loop_count | view.loop_start << 8 | view.loop_increment << 16: counts}
        names["loop_count"] = {view.loop_count: counts}
    if opcode is not None and opcode.texture and instruction.view.texture_unit in spelling.rectangle_units:
        # The target operand reads the perspective flag: 0 prints as 2D, or RECT on these units.
        names["perspective"] = {0: syntax.RECTANGLE_TARGET}
    return FRAGMENT, _ByWordOffset(spelling.labels), names


def _decoded(instruction: Instruction, spelling: Spelling):
    """(description, decoded instruction, its text)."""
    description, labels, names = _printing(instruction, spelling)
    decoded = description.decode(instruction.words + (instruction.literal or ()), labels=labels, names=names)
    return description, decoded, description.format(decoded, labels=labels, names=names)


def statement_text(instruction: Instruction, spelling: Spelling) -> str:
    """The instruction's form A statement (without ';' and hints)."""
    return _decoded(instruction, spelling)[2]


def statement_line(instruction: Instruction, spelling: Spelling, carried: Mapping[str, int]) -> str:
    """The instruction's statement with ``;`` and the ``#!`` hints that make it exact: the
    bits its text loses, and its carried fields (end bit, FP block offsets) where they differ
    from ``carried``, what the program around it gives them (0 for a field not given)."""
    description, decoded, text = _decoded(instruction, spelling)
    lost = decoded.unknown_bits
    for name in decoded.declaration.carries:
        lost |= description.fields[name].write(0, decoded.fields[name] ^ carried.get(name, 0))
    found = hints(description, replace(decoded, unknown_bits=lost), HINT_FIELDS[instruction.kind])
    if instruction_expands_unless_native(decoded, instruction.kind):
        found.insert(0, "native")
    return f"{text};" + (f"  #! {' '.join(found)}" if found else "")


# --- form B, and the older entry point -----------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """Form A (``form_b=False``) reads back exactly; form B is the RPCS3-style listing."""

    form_b: bool


FORM_A = Style(form_b=False)
FORM_B = Style(form_b=True)


@dataclass(frozen=True)
class Naming:
    """Program-level spellings: an FP instruction's literal, a LOOP/REP constant, a branch target,
    and the texture units sampled as rectangles (form A prints their target RECT)."""

    literal: Callable[[Instruction], str]
    loop_constant: Callable[[Instruction], str]
    target: Callable[[int], str]
    rectangle_units: frozenset[int] = frozenset()


# The most slots a branch target can name: VP targets have 10 bits (spec 2.5); an FP CAL holds
# the target's word offset in 31 bits.
TARGET_SLOTS = {ProgramKind.VERTEX: 1 << 10, ProgramKind.FRAGMENT: (1 << 31) // layout.INSTRUCTION_WORDS}


def render(instruction: Instruction, naming: Naming, style: Style) -> list[str]:
    """The statement text (without ';') in ``style``, as a one-item list."""
    if style.form_b:
        return [listing_text(instruction, naming)]
    spelling = Spelling(EverySlot(TARGET_SLOTS[instruction.kind], naming.target), literal=naming.literal,
                        loop_constant=naming.loop_constant, rectangle_units=naming.rectangle_units)
    return [statement_text(instruction, spelling)]


def listing_text(instruction: Instruction, naming: Naming) -> str:
    """The form B statement (without ';')."""
    if instruction.kind is ProgramKind.VERTEX:
        return _vertex(instruction, naming)
    return _fragment(instruction, naming)


# --- vertex ------------------------------------------------------------------------------------


def _vp_temp(index: int) -> str:
    return f"R{index if index < syntax.VP_LIMITS['R'] else 0}"


def _vp_source(view, source: Source) -> str:
    if source.file == "v":
        if source.relative:
            text = f"v[A{view.address_register}.{syntax.LANES[view.address_lane]}+{source.index}]"
        else:
            text = f"v[{source.index}]"
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


def _vp_output(index: int) -> str:
    return f"o[{index if index < syntax.VP_OUTPUTS else 0}]"


def _vp_condition(view) -> str:
    condition = view.condition
    return "(" + syntax.condition_text(condition.test, condition.register, condition.swizzle) + ")"


def _vertex(instruction: Instruction, naming: Naming) -> str:
    view = instruction.view
    vector = view.vector if view.vector is not None and view.vector.value else None
    scalar = view.scalar if view.scalar is not None and view.scalar.value else None
    # The slot's shared flags (suffixes, condition) are written on the first operation shown.
    texts = [_vp_vector(view, vector, flags=True) if vector else None,
             _vp_scalar(view, scalar, naming, flags=vector is None) if scalar else None]
    return "; ".join(text for text in texts if text) or "NOP"


def _vp_suffix(view, flags: bool) -> str:
    if not flags:
        return ""
    text = ""
    if view.cc_update:
        text += "C1" if view.condition.register else "C"
    return text + ("_SAT" if view.saturate else "")


def _vp_vector(view, opcode, flags: bool) -> str:
    if opcode.name == "ARL":
        temp = view.vector_temp if view.vector_temp is not None else 0
        destination = f"A{temp & 1}"
    elif view.vector_to_output:
        destination = _vp_output(view.output if view.output is not None else 0)
    elif view.vector_temp is not None:
        destination = _vp_temp(view.vector_temp)
    else:
        destination = "RC"
    destination += syntax.mask_suffix(view.vector_mask)
    if flags and view.condition_test:
        destination += _vp_condition(view)
    head = f"{opcode.name}{_vp_suffix(view, flags)} {destination}"
    return ", ".join([head] + [_vp_source(view, view.sources[slot]) for slot in opcode.sources])


def _vp_scalar(view, opcode, naming: Naming, flags: bool) -> str:
    condition = " " + _vp_condition(view) if flags and view.condition_test else ""
    if opcode.value in VP_FLOW_IMMEDIATE:
        text = f"{VP_FLOW_IMMEDIATE[opcode.value]} {naming.target(view.branch_target)}"
        if opcode.value in (0x11, 0x12):
            text += f", {view.branch_index}, {view.branch_value}"
        return text + condition
    if opcode.value in VP_FLOW_REGISTER:
        register = f"A{view.address_register}.{syntax.LANES[view.address_lane]}"
        return f"{VP_FLOW_REGISTER[opcode.value]} {register}{condition}"
    if opcode.name == "RET":
        return "RET" + condition
    if not opcode.scalar:  # PSH, POP
        return " ".join([opcode.name] + [_vp_source(view, view.sources[slot]) for slot in opcode.sources])
    if view.scalar_temp is not None:
        destination = _vp_temp(view.scalar_temp)
    elif not view.vector_to_output and view.output is not None:
        destination = _vp_output(view.output)
    else:
        destination = "RC"
    destination += syntax.mask_suffix(view.scalar_mask) + condition
    head = f"{opcode.name}{_vp_suffix(view, flags)} {destination}"
    return f"{head}, {_vp_source(view, view.sources[2])}"


# --- fragment ----------------------------------------------------------------------------------


def _fp_condition_text(view) -> str:
    condition = view.condition
    return syntax.condition_text(condition.test, condition.register, condition.swizzle)


def _fp_condition_is_default(view) -> bool:
    condition = view.condition
    return condition.test == CONDITION_TRUE and condition.swizzle == IDENTITY and not condition.register


def _fp_source(view, instruction: Instruction, source: Source, naming: Naming) -> str:
    if source.file == "f":
        prefix = "g" if view.perspective else "f"
        text = f"{prefix}[{syntax.FP_LISTING_INPUT_NAMES[view.input]}]"
    elif source.file == "c":
        text = naming.literal(instruction)
    elif source.file == "H":
        text = f"H{source.index}"
    else:  # R, or the invalid type 3 printed as the stand-in R0
        index = source.index if source.file == "R" and source.index < FP_TEMPORARIES else 0
        text = f"R{index}"
    return _decorate(text, source)


def _fp_suffix(view) -> str:
    text = syntax.PRECISION_SUFFIXES[view.precision] if view.precision < 3 else "R"
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


def _fragment(instruction: Instruction, naming: Naming) -> str:
    view = instruction.view
    opcode = view.opcode
    if opcode is None:
        return "NOP"
    if opcode.flow:
        return _fp_flow(view, instruction, naming)
    if opcode.value in syntax.FP_BARE_OPCODES:
        if opcode.name == "KIL" and not _fp_condition_is_default(view):
            return f"KIL {_fp_condition_text(view)}"
        return opcode.name
    head = f"{opcode.name}{_fp_suffix(view)} {_fp_destination(view)}"
    slots = (0,) if opcode.name == "TXL" else opcode.sources  # cgcomp's TXL reads the LOD from src0.w
    texture = f", TEX{view.texture_unit}" if opcode.texture else ""
    return ", ".join([head] + [_fp_source(view, instruction, view.sources[slot], naming) for slot in slots]) + texture


def _fp_flow(view, instruction: Instruction, naming: Naming) -> str:
    name = view.opcode.name
    condition = "" if _fp_condition_is_default(view) else f"({_fp_condition_text(view)})"
    if name == "IFE":
        return f"IFE ({_fp_condition_text(view)})"
    if name in ("LOOP", "REP"):
        return f"{name} {{{view.loop_count}, {view.loop_start}, {view.loop_increment}}}{condition}"
    if name == "CAL":
        target_words = instruction.words[2] & 0x7FFFFFFF
        return f"CAL {naming.target(target_words // 4)}{condition}"
    return f"{name} {condition}" if condition else name


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
