"""The GXP container of a USSE program (spec/usse.md §7): reading it into a :class:`GxpProgram`,
writing it back byte for byte, rebuilding it around new instruction words, and a short summary
for listings.

What this module owns:

* :func:`read_gxp` — every field §7 names (version, flags and the program kind, PA/SA register
  counts, the primary and secondary instruction words, the parameter, literal and container
  tables, with the register each parameter and literal lives in). Every malformed input raises
  :class:`~shaderkit.core.diagnostics.InputError` with a one-line message naming the source.
* :func:`write_gxp` — the inverse. The program keeps the whole original image, so the bytes §7
  does not describe (the rest of the header, the unknown tables, the parameter names, padding)
  come back unchanged; the described fields are written over them.
* :meth:`GxpProgram.with_code` — the same container around other instruction words.
* :func:`describe_gxp` — one line per fact, for a disassembly listing's comments.

Offsets in :class:`GxpLayout` are absolute (from the start of the file); the file stores them
relative to the field that holds them.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field, replace

from shaderkit.core.diagnostics import InputError

__all__ = ["GxpContainer", "GxpLayout", "GxpLiteral", "GxpParameter", "GxpProgram",
           "describe_gxp", "read_gxp", "write_gxp"]

MAGIC = b"GXP\0"

# Header field positions (§7); the header must hold at least the last of them.
_VERSION_AT = 4
_SIZE_AT = 8
_FLAGS_AT = 20
_PARAMETER_COUNT_AT = 36
_PARAMETER_TABLE_AT = 40
_PA_COUNT_AT = 48
_SA_COUNT_AT = 50
_PRIMARY_COUNT_AT = 60
_PRIMARY_OFFSET_AT = 64
_SECONDARY_COUNT_AT = 68
_SECONDARY_START_AT = 72
_SECONDARY_END_AT = 76
_LITERAL_COUNT_AT = 112
_LITERAL_TABLE_AT = 116
_CONTAINER_COUNT_AT = 144
_CONTAINER_TABLE_AT = 148
HEADER_SIZE = 152

INSTRUCTION_SIZE = 8
PARAMETER_SIZE = 16
LITERAL_SIZE = 8
CONTAINER_SIZE = 8

FRAGMENT_FLAG = 0x1
CATEGORY_NAMES = {0: "attribute", 1: "uniform"}
# §7: literals live in container 16; a program without one uses container 19.
LITERAL_CONTAINERS = (16, 19)
# The only parameter type the golden files use holds IEEE-754 singles (their uniform and
# attribute values); the other type codes are not named by the spec.
TYPE_NAMES = {0: "float"}


@dataclass(frozen=True)
class GxpParameter:
    """One entry of the parameter table. ``register`` is the PA register (attributes: the
    resource index) or SA register (uniforms: container base + resource index) where the
    parameter starts; None when the category is neither, the container is missing, or the
    register lies outside the declared PA/SA count."""

    name: str
    category_code: int
    type_code: int
    component_count: int
    container_index: int
    semantic: int
    semantic_index: int
    array_size: int
    resource_index: int
    register: int | None
    name_offset: int  # as stored: relative to the entry's own position

    @property
    def category(self) -> str | int:
        return CATEGORY_NAMES.get(self.category_code, self.category_code)

    @property
    def register_bank(self) -> str | None:
        return {0: "pa", 1: "sa"}.get(self.category_code)


@dataclass(frozen=True)
class GxpLiteral:
    """One literal table entry: ``value`` (32 bits) is loaded into SA register ``register`` =
    literal container base + ``raw_offset``; None when that falls outside the declared SA
    registers (as in the golden files whose first entry was overwritten by hand-patching)."""

    raw_offset: int
    value: int
    register: int | None


@dataclass(frozen=True)
class GxpContainer:
    """One container table entry: SA registers ``base`` .. ``base + size - 1``."""

    index: int
    unnamed: int  # the second u16, which §7 does not name
    base: int
    size: int


@dataclass(frozen=True)
class GxpLayout:
    """Where the tables sit (absolute byte offsets). An empty table keeps its stored offset."""

    primary: int
    secondary: int
    parameters: int
    literals: int
    containers: int


@dataclass(frozen=True)
class GxpProgram:
    """A GXP container as read: the §7 fields, the instruction words (64-bit, ``w1 << 32 | w0``,
    in execution order) and the image they came from. ``declared_size`` is the header's size
    field; bytes past it (the golden files pad 1177 to 1180) stay in ``image``."""

    version: tuple[int, int]
    declared_size: int
    flags: int
    pa_count: int
    sa_count: int
    primary: tuple[int, ...]
    secondary: tuple[int, ...]
    parameters: tuple[GxpParameter, ...]
    literals: tuple[GxpLiteral, ...]
    containers: tuple[GxpContainer, ...]
    layout: GxpLayout
    image: bytes = field(repr=False)  # the whole file as read; supplies the undescribed bytes

    @property
    def kind(self) -> str:
        return "fragment" if self.flags & FRAGMENT_FLAG else "vertex"

    def container(self, index: int) -> GxpContainer | None:
        return next((c for c in self.containers if c.index == index), None)

    def with_code(self, primary=None, secondary=None) -> GxpProgram:
        """The same container holding other instruction words (None keeps the current ones).

        Words that fit in the old place are written there (the rest of the old place is zeroed);
        more words than before go to the end of the file, 8-byte aligned, and the declared size
        grows to cover them. Nothing else moves, so every other offset stays valid — including
        those of the header's undescribed tables, which this module cannot relocate."""
        image = bytearray(write_gxp(self))
        declared_size = self.declared_size
        placed = {}
        for name, old_words, old_offset, new_words in (
                ("primary", self.primary, self.layout.primary, primary),
                ("secondary", self.secondary, self.layout.secondary, secondary)):
            words = old_words if new_words is None else tuple(new_words)
            for word in words:
                if not isinstance(word, int) or not 0 <= word < 1 << 64:
                    raise ValueError(f"{name} instruction {word!r} is not a 64-bit unsigned integer")
            offset = old_offset
            if old_words:
                image[old_offset:old_offset + len(old_words) * INSTRUCTION_SIZE] = \
                    bytes(len(old_words) * INSTRUCTION_SIZE)
            if len(words) > len(old_words):
                offset = -(-len(image) // INSTRUCTION_SIZE) * INSTRUCTION_SIZE
                image.extend(bytes(offset + len(words) * INSTRUCTION_SIZE - len(image)))
                declared_size = len(image)
            placed[name] = (words, offset)
        rebuilt = replace(self, primary=placed["primary"][0], secondary=placed["secondary"][0],
                          layout=replace(self.layout, primary=placed["primary"][1],
                                         secondary=placed["secondary"][1]),
                          declared_size=declared_size, image=bytes(image))
        return read_gxp(write_gxp(rebuilt), "<rebuilt gxp>")


class _Reader:
    """Bounds-checked little-endian reads; every failure is an InputError naming the source."""

    def __init__(self, data: bytes, source: str):
        self.data = data
        self.source = source
        self.end = len(data)

    def fail(self, what: str) -> InputError:
        return InputError(f"{self.source}: {what}")

    def unpack(self, fmt: str, offset: int, what: str):
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > self.end:
            raise self.fail(f"truncated GXP container: {what} at offset {offset:#x} runs past the end "
                            f"({self.end} bytes)")
        return struct.unpack_from(fmt, self.data, offset)

    def u32(self, offset: int, what: str) -> int:
        return self.unpack("<I", offset, what)[0]

    def table(self, count_at: int, offset_at: int, entry_size: int, what: str) -> tuple[int, int]:
        """(count, absolute offset) of a table whose offset is stored relative to its field;
        the table must lie after the header and inside the declared size."""
        count = self.u32(count_at, f"the {what} count")
        offset = offset_at + self.u32(offset_at, f"the {what} offset")
        if count:
            self.region(offset, count * entry_size, f"the {what} ({count} entries of {entry_size} bytes)")
        return count, offset

    def region(self, offset: int, length: int, what: str) -> None:
        if offset < HEADER_SIZE:
            raise self.fail(f"bad GXP container: {what} at offset {offset:#x} overlaps the header")
        if offset + length > self.end:
            raise self.fail(f"truncated GXP container: {what} at offset {offset:#x} runs past the end "
                            f"({self.end} bytes)")


def read_gxp(data: bytes, source: str = "<gxp>") -> GxpProgram:
    """Parse a GXP container (§7). Raises InputError on anything malformed."""
    data = bytes(data)
    reader = _Reader(data, source)
    if data[:len(MAGIC)] != MAGIC[:len(data)]:
        raise reader.fail(f"not a GXP container: it starts with {data[:4]!r}, not {MAGIC!r}")
    if len(data) < HEADER_SIZE:
        raise reader.fail(f"truncated GXP container: the header needs {HEADER_SIZE} bytes, "
                          f"only {len(data)} present")
    major, minor = reader.unpack("<BB", _VERSION_AT, "the version")
    declared_size = reader.u32(_SIZE_AT, "the size")
    if declared_size < HEADER_SIZE:
        raise reader.fail(f"bad GXP container: declared size {declared_size} is smaller than the "
                          f"{HEADER_SIZE}-byte header")
    if declared_size > len(data):
        raise reader.fail(f"truncated GXP container: declared size {declared_size}, "
                          f"only {len(data)} bytes present")
    reader.end = declared_size  # bytes past the declared size are padding, kept but never parsed
    flags = reader.u32(_FLAGS_AT, "the program flags")
    pa_count, sa_count = reader.unpack("<HH", _PA_COUNT_AT, "the register counts")

    regions: list[tuple[int, int, str]] = []
    primary_count, primary_at = reader.table(_PRIMARY_COUNT_AT, _PRIMARY_OFFSET_AT,
                                             INSTRUCTION_SIZE, "primary program")
    regions.append((primary_at, primary_count * INSTRUCTION_SIZE, "the primary program"))
    secondary_count = reader.u32(_SECONDARY_COUNT_AT, "the secondary program count")
    secondary_at = _SECONDARY_START_AT + reader.u32(_SECONDARY_START_AT, "the secondary program start")
    secondary_end = _SECONDARY_END_AT + reader.u32(_SECONDARY_END_AT, "the secondary program end")
    secondary_bytes = secondary_end - secondary_at
    if secondary_bytes < 0:
        raise reader.fail(f"bad GXP container: the secondary program ends at {secondary_end:#x}, "
                          f"before it starts at {secondary_at:#x}")
    if secondary_bytes != secondary_count * INSTRUCTION_SIZE:
        raise reader.fail(f"bad GXP container: the secondary program runs from {secondary_at:#x} to "
                          f"{secondary_end:#x} ({secondary_bytes} bytes) but declares "
                          f"{secondary_count} instructions")
    if secondary_count:
        reader.region(secondary_at, secondary_bytes, f"the secondary program ({secondary_count} instructions)")
    regions.append((secondary_at, secondary_bytes, "the secondary program"))
    parameter_count, parameters_at = reader.table(_PARAMETER_COUNT_AT, _PARAMETER_TABLE_AT,
                                                  PARAMETER_SIZE, "parameter table")
    regions.append((parameters_at, parameter_count * PARAMETER_SIZE, "the parameter table"))
    literal_count, literals_at = reader.table(_LITERAL_COUNT_AT, _LITERAL_TABLE_AT,
                                              LITERAL_SIZE, "literal table")
    regions.append((literals_at, literal_count * LITERAL_SIZE, "the literal table"))
    container_count, containers_at = reader.table(_CONTAINER_COUNT_AT, _CONTAINER_TABLE_AT,
                                                  CONTAINER_SIZE, "container table")
    regions.append((containers_at, container_count * CONTAINER_SIZE, "the container table"))
    _check_disjoint(reader, regions)

    def words(offset: int, count: int, what: str) -> tuple[int, ...]:
        return tuple(reader.unpack("<Q", offset + i * INSTRUCTION_SIZE, what)[0] for i in range(count))

    containers = tuple(GxpContainer(*reader.unpack("<HHHH", containers_at + i * CONTAINER_SIZE,
                                                   "a container entry"))
                       for i in range(container_count))
    bases = {}
    for container in containers:
        bases.setdefault(container.index, container.base)

    def sa_register(base: int | None, offset: int) -> int | None:
        return base + offset if base is not None and base + offset < sa_count else None

    literal_base = next((bases[i] for i in LITERAL_CONTAINERS if i in bases), None)
    literals = []
    for i in range(literal_count):
        raw_offset, value = reader.unpack("<II", literals_at + i * LITERAL_SIZE, "a literal entry")
        literals.append(GxpLiteral(raw_offset, value, sa_register(literal_base, raw_offset)))

    parameters = []
    for i in range(parameter_count):
        entry_at = parameters_at + i * PARAMETER_SIZE
        name_offset, packed, semantic, semantic_index, array_size, resource_index = \
            reader.unpack("<iHBBII", entry_at, "a parameter entry")
        category, type_code = packed & 0xF, packed >> 4 & 0xF
        components, container_index = packed >> 8 & 0xF, packed >> 12
        if category == 0:
            register = resource_index if resource_index < pa_count else None
        elif category == 1:
            register = sa_register(bases.get(container_index), resource_index)
        else:
            register = None
        parameters.append(GxpParameter(
            _read_name(reader, entry_at + name_offset, i), category, type_code, components,
            container_index, semantic, semantic_index, array_size, resource_index, register, name_offset))

    return GxpProgram(
        version=(major, minor), declared_size=declared_size, flags=flags,
        pa_count=pa_count, sa_count=sa_count,
        primary=words(primary_at, primary_count, "a primary instruction"),
        secondary=words(secondary_at, secondary_count, "a secondary instruction"),
        parameters=tuple(parameters), literals=tuple(literals), containers=containers,
        layout=GxpLayout(primary_at, secondary_at, parameters_at, literals_at, containers_at),
        image=data)


def _check_disjoint(reader: _Reader, regions: list[tuple[int, int, str]]) -> None:
    filled = sorted((start, length, what) for start, length, what in regions if length)
    for (start, length, what), (next_start, _, next_what) in zip(filled, filled[1:]):
        if start + length > next_start:
            raise reader.fail(f"bad GXP container: {what} at offset {start:#x} overlaps "
                              f"{next_what} at offset {next_start:#x}")


def _read_name(reader: _Reader, offset: int, index: int) -> str:
    if not 0 <= offset < reader.end:
        raise reader.fail(f"bad GXP container: the name of parameter {index} at offset {offset:#x} "
                          f"lies outside the data ({reader.end} bytes)")
    nul = reader.data.find(b"\0", offset, reader.end)
    if nul < 0:
        raise reader.fail(f"truncated GXP container: the name of parameter {index} at offset "
                          f"{offset:#x} has no terminating NUL")
    try:
        return reader.data[offset:nul].decode("utf-8")
    except UnicodeDecodeError:
        raise reader.fail(f"bad GXP container: the name of parameter {index} at offset {offset:#x} "
                          f"is not UTF-8") from None


def write_gxp(program: GxpProgram) -> bytes:
    """The container's bytes: the kept image with every described field written over it.
    Raises ValueError when the program's fields do not fit its image (a program built by hand
    with more words than its layout has room for: use :meth:`GxpProgram.with_code`)."""
    image = bytearray(program.image)
    layout = program.layout

    def put(fmt: str, offset: int, *values) -> None:
        if offset < 0 or offset + struct.calcsize(fmt) > len(image):
            raise ValueError(f"GXP field at offset {offset:#x} lies outside the {len(image)}-byte image")
        struct.pack_into(fmt, image, offset, *values)

    def relative(offset_at: int, absolute: int) -> int:
        return (absolute - offset_at) & 0xFFFFFFFF

    put("<BB", _VERSION_AT, *program.version)
    put("<I", _SIZE_AT, program.declared_size)
    put("<I", _FLAGS_AT, program.flags)
    put("<HH", _PA_COUNT_AT, program.pa_count, program.sa_count)
    put("<II", _PARAMETER_COUNT_AT, len(program.parameters), relative(_PARAMETER_TABLE_AT, layout.parameters))
    put("<II", _PRIMARY_COUNT_AT, len(program.primary), relative(_PRIMARY_OFFSET_AT, layout.primary))
    secondary_end = layout.secondary + len(program.secondary) * INSTRUCTION_SIZE
    put("<III", _SECONDARY_COUNT_AT, len(program.secondary), relative(_SECONDARY_START_AT, layout.secondary),
        relative(_SECONDARY_END_AT, secondary_end))
    put("<II", _LITERAL_COUNT_AT, len(program.literals), relative(_LITERAL_TABLE_AT, layout.literals))
    put("<II", _CONTAINER_COUNT_AT, len(program.containers), relative(_CONTAINER_TABLE_AT, layout.containers))
    for i, word in enumerate(program.primary):
        put("<Q", layout.primary + i * INSTRUCTION_SIZE, word)
    for i, word in enumerate(program.secondary):
        put("<Q", layout.secondary + i * INSTRUCTION_SIZE, word)
    for i, literal in enumerate(program.literals):
        put("<II", layout.literals + i * LITERAL_SIZE, literal.raw_offset, literal.value)
    for i, container in enumerate(program.containers):
        put("<HHHH", layout.containers + i * CONTAINER_SIZE, container.index, container.unnamed,
            container.base, container.size)
    for i, parameter in enumerate(program.parameters):
        entry_at = layout.parameters + i * PARAMETER_SIZE
        packed = (parameter.category_code | parameter.type_code << 4 | parameter.component_count << 8
                  | parameter.container_index << 12)
        put("<iHBBII", entry_at, parameter.name_offset, packed, parameter.semantic, parameter.semantic_index,
            parameter.array_size, parameter.resource_index)
        _write_name(image, entry_at + parameter.name_offset, parameter.name)
    return bytes(image)


def _write_name(image: bytearray, offset: int, name: str) -> None:
    # A name can only be replaced in its own slot: other names follow it directly.
    end = image.find(b"\0", offset) if 0 <= offset < len(image) else -1
    encoded = name.encode("utf-8")
    if end < 0 or end - offset != len(encoded):
        raise ValueError(f"parameter name {name!r} does not fit the name stored at offset {offset:#x}")
    image[offset:end] = encoded


def _float_text(bits: int) -> str:
    """The shortest decimal that reads back as the same IEEE-754 single."""
    value = struct.unpack("<f", struct.pack("<I", bits))[0]
    if not math.isfinite(value):
        return str(value)
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        try:
            same = struct.pack("<f", float(text)) == struct.pack("<f", value)
        except OverflowError:  # rounded past the largest single
            continue
        if same:
            return repr(float(text))
    return repr(value)


def _span(bank: str, first: int, count: int) -> str:
    return f"{bank}{first}" if count <= 1 else f"{bank}{first}..{bank}{first + count - 1}"


def describe_gxp(program: GxpProgram) -> list[str]:
    """One line per fact of the container, for a listing's comments."""
    major, minor = program.version
    lines = [f"{program.kind} program, GXP {major}.{minor}, {len(program.primary)} primary + "
             f"{len(program.secondary)} secondary instructions",
             f"registers: {program.pa_count} PA, {program.sa_count} SA"]
    for parameter in program.parameters:
        if parameter.type_code in TYPE_NAMES:
            type_text = f"{TYPE_NAMES[parameter.type_code]}{parameter.component_count}"
            if parameter.array_size != 1:
                type_text += f"[{parameter.array_size}]"
        else:
            type_text = f"type {parameter.type_code}, {parameter.component_count} components"
            if parameter.array_size != 1:
                type_text += f", array of {parameter.array_size}"
        if parameter.register is None:
            place = f"no register (resource index {parameter.resource_index})"
        else:
            # Only float registers are known to hold one component each.
            count = parameter.component_count * parameter.array_size if parameter.type_code in TYPE_NAMES else 1
            place = _span(parameter.register_bank, parameter.register, count)
        category = parameter.category
        label = category if isinstance(category, str) else f"parameter (category {category})"
        lines.append(f"{label} {parameter.name}: {place} ({type_text})")
    for container in program.containers:
        lines.append(f"container {container.index}: {_span('sa', container.base, container.size)}")
    for literal in program.literals:
        target = (f"sa{literal.register}" if literal.register is not None
                  else f"(offset {literal.raw_offset:#x}, no register)")
        lines.append(f"literal {target} = {literal.value:#010x} ({_float_text(literal.value)})")
    return lines
