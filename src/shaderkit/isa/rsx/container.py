"""Sony CgBinaryProgram containers (``.vpo`` / ``.fpo``): reading, writing, ucode words.

This module owns the container format of spec/rsx.md section 4.1 and names the byte order of the
microcode inside it (section 1, :data:`UCODE_BYTE_ORDER`). It does not decode instructions.

Layout of a container (everything big-endian)::

    header (8 x u32) | parameter records (12 x u32 each) | strings, default values and
    embedded-constant lists (placed freely, addressed by offsets) | program sub-header |
    padding | ucode

Byte-exact re-serialisation: sce-cgc places strings, default values and padding in an order
that cannot be derived from the parameters alone (``internal-constant-N`` names follow their
default values, strings are padded to 16 bytes in some files and not in others). So
:func:`read_container` records where it found every part in a :class:`ContainerLayout`, plus
every byte no decoded part covers, and :func:`write_container` puts the parts back at the same
places. If the program was changed so that it no longer fits that layout (a longer name, a new
parameter, a different ucode size), the writer lays the container out afresh instead; the result
then reads back as the same program but is not byte-identical to the original file.

Decisions about unknown values: the profile decides the kind of program and the shape of the
sub-header, so an unknown profile is an error, as is a binaryFormatRevision other than 6 (the
only one seen; another revision may change the layout). Parameter type, resource, variability
and direction codes are kept as raw integers, because the spec lists only the codes seen so far
and Cg defines many more; :class:`CgType`, :class:`CgVariability` and :class:`CgDirection` name
the known ones.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass, field
from typing import Union

from shaderkit.core import binfmt
from shaderkit.core.diagnostics import InputError

BINARY_FORMAT_REVISION = 6
SLOT_BYTES = 16

_HEADER = struct.Struct(">8I")
_PARAMETER = struct.Struct(">3I i 5I i 2I")  # resIndex and paramno are signed (-1, -2)
_VERTEX_SUB_HEADER = struct.Struct(">6I")
_FRAGMENT_SUB_HEADER = struct.Struct(">3I 3H 4B")
_DEFAULT_VALUE = struct.Struct(">4I")
_U32 = struct.Struct(">I")


class ProgramKind(enum.Enum):
    VERTEX = "vertex"
    FRAGMENT = "fragment"


class CgProfile(enum.IntEnum):
    SCE_VP_RSX = 7003
    SCE_FP_RSX = 7004

    @property
    def kind(self) -> ProgramKind:
        return ProgramKind.VERTEX if self is CgProfile.SCE_VP_RSX else ProgramKind.FRAGMENT


class CgType(enum.IntEnum):
    """Parameter type codes, the numbers of Cg's ``CGtype`` enum that sce-cgc writes (others are
    kept as raw integers). All but SAMPLERRECT were seen in sce-cgc output; 1068 is
    ``CG_SAMPLERRECT`` of Cg's public headers (between CG_SAMPLER3D 1067 and CG_SAMPLERCUBE 1069,
    the 1066 and 1069 of spec 4.1), the record that keeps a unit's RECT target (the microcode
    has no bit for it, spec 3.7)."""

    FLOAT = 1045
    FLOAT2 = 1046
    FLOAT3 = 1047
    FLOAT4 = 1048
    FLOAT4X4 = 1064
    SAMPLER2D = 1066
    SAMPLERRECT = 1068
    SAMPLERCUBE = 1069
    FLOAT1 = 1091


class CgVariability(enum.IntEnum):
    VARYING = 4101
    UNIFORM = 4102
    CONSTANT = 4103


class CgDirection(enum.IntEnum):
    IN = 4097
    OUT = 4098


def _known_name(enum_type: type[enum.IntEnum], value: int) -> str:
    """The enum member name for a code, or the bare number for a code we have no name for."""
    try:
        return enum_type(value).name
    except ValueError:
        return str(value)


@dataclass(frozen=True)
class CgParameter:
    """One record of the parameter table, with the strings and lists it points at resolved.

    ``default_value_bits`` keeps the four floats as their IEEE bit patterns so that every value
    (NaN payloads included) is written back unchanged; :attr:`default_value` gives the floats.
    ``embedded_constant_offsets`` are byte offsets into the ucode of the FP literal slots that
    hold this uniform (offset // 16 is the slot index).
    """

    type: int
    resource: int
    variability: int
    resource_index: int
    name: str
    default_value_bits: tuple[int, int, int, int] | None
    embedded_constant_offsets: tuple[int, ...] | None
    semantic: str | None
    direction: int
    parameter_number: int
    is_referenced: int
    is_shared: int

    @property
    def default_value(self) -> tuple[float, float, float, float] | None:
        if self.default_value_bits is None:
            return None
        return struct.unpack(">4f", _DEFAULT_VALUE.pack(*self.default_value_bits))

    @property
    def type_name(self) -> str:
        return _known_name(CgType, self.type)

    @property
    def variability_name(self) -> str:
        return _known_name(CgVariability, self.variability)

    @property
    def direction_name(self) -> str:
        return _known_name(CgDirection, self.direction)


@dataclass(frozen=True)
class VertexProgramHeader:
    """The VP sub-header (6 x u32)."""

    instruction_count: int
    instruction_slot: int
    register_count: int
    attribute_input_mask: int
    attribute_output_mask: int
    user_clip_mask: int


@dataclass(frozen=True)
class FragmentProgramHeader:
    """The FP sub-header (22 bytes). ``instruction_count`` counts 16-byte slots incl. literals."""

    instruction_count: int
    attribute_input_mask: int
    partial_tex_type: int
    tex_coords_input_mask: int
    tex_coords_2d: int
    tex_coords_centroid: int
    register_count: int
    output_from_h0: int
    depth_replace: int
    pixel_kill: int

    @property
    def shader_control(self) -> int:
        """The host's SHADER_CONTROL value implied by the flags (spec/rsx.md 4.1, approximate)."""
        return (
            (0 if self.output_from_h0 else 0x40)
            | (0x0E if self.depth_replace else 0)
            | (0x80 if self.pixel_kill else 0)
            | (self.register_count & 0xFF) << 24
        )


ProgramHeader = Union[VertexProgramHeader, FragmentProgramHeader]


@dataclass(frozen=True)
class ParameterPlacement:
    """Where one parameter's strings and lists were found (0 = absent, as in the file)."""

    name_offset: int
    default_value_offset: int
    embedded_constant_offset: int
    semantic_offset: int


@dataclass(frozen=True)
class ContainerLayout:
    """Where :func:`read_container` found each part, so the same bytes can be written back.

    ``filler`` holds every run of bytes that no decoded part covers (padding, normally zero)
    as ``(offset, bytes)`` pairs.
    """

    total_size: int
    parameter_array_offset: int
    program_header_offset: int
    ucode_offset: int
    parameter_placements: tuple[ParameterPlacement, ...]
    filler: tuple[tuple[int, bytes], ...]


@dataclass(frozen=True)
class CgProgram:
    """A parsed container. ``ucode`` is the instruction area exactly as stored (section 1).

    ``layout`` is excluded from equality: two programs are equal when they mean the same,
    wherever their parts sit in the file.
    """

    profile: CgProfile
    binary_format_revision: int
    parameters: tuple[CgParameter, ...]
    program_header: ProgramHeader
    ucode: bytes
    layout: ContainerLayout | None = field(default=None, compare=False, repr=False)

    @property
    def kind(self) -> ProgramKind:
        return self.profile.kind

    @property
    def words(self) -> tuple[int, ...]:
        """The ucode as normalised 32-bit words (the form the ``*.words.txt`` files show)."""
        return tuple(binfmt.read_words(self.ucode, "raw", word_bits=UCODE_WORD_BITS,
                                       byte_order=UCODE_BYTE_ORDER[self.kind], source="ucode"))

    def parameter(self, name: str) -> CgParameter:
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        raise KeyError(name)


# --- ucode byte order --------------------------------------------------------------------------

# A word of RSX microcode is the 32-bit value spec/rsx.md decodes (its bit 0 is bit 0 of the
# spec's tables): four make an instruction slot. Stored, a VP word is big-endian and an FP word
# (code or literal) big-endian with its two 16-bit halves swapped (section 1). These are the
# names core.binfmt gives those layouts; every conversion between ucode bytes and words goes
# through binfmt with them.
UCODE_WORD_BITS = 32
UCODE_BYTE_ORDER = {ProgramKind.VERTEX: "big", ProgramKind.FRAGMENT: "big-halfswap"}


# --- reading -----------------------------------------------------------------------------------


class _Reader:
    """Bounds-checked big-endian access that also remembers which bytes were decoded."""

    def __init__(self, data: bytes, source: str):
        self.data = data
        self.source = source
        self.covered = bytearray(len(data))

    def fail(self, message: str) -> InputError:
        return InputError(f"{self.source}: {message}")

    def take(self, offset: int, size: int, what: str) -> bytes:
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise self.fail(
                f"{what} at offset 0x{offset:x} ({size} bytes) lies outside the "
                f"{len(self.data)}-byte container"
            )
        self.covered[offset : offset + size] = b"\x01" * size
        return self.data[offset : offset + size]

    def unpack(self, layout: struct.Struct, offset: int, what: str) -> tuple:
        return layout.unpack(self.take(offset, layout.size, what))

    def string(self, offset: int, what: str) -> str:
        if not 0 <= offset < len(self.data):
            raise self.fail(f"{what} offset 0x{offset:x} lies outside the {len(self.data)}-byte container")
        end = self.data.find(b"\0", offset)
        if end < 0:
            raise self.fail(f"{what} at offset 0x{offset:x} is not NUL-terminated")
        raw = self.take(offset, end + 1 - offset, what)[:-1]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(f"{what} at offset 0x{offset:x} is not valid UTF-8") from None

    def uncovered_runs(self) -> tuple[tuple[int, bytes], ...]:
        runs = []
        start = None
        for offset, is_covered in enumerate(self.covered):
            if not is_covered and start is None:
                start = offset
            elif is_covered and start is not None:
                runs.append((start, self.data[start:offset]))
                start = None
        if start is not None:
            runs.append((start, self.data[start:]))
        return tuple(runs)


def read_container(data: bytes, source: str) -> CgProgram:
    """Parse a ``.vpo`` / ``.fpo`` container; any malformation raises :class:`InputError`."""
    data = bytes(data)
    reader = _Reader(data, source)
    if len(data) < _HEADER.size:
        raise reader.fail(f"truncated header: {len(data)} bytes, a container header needs {_HEADER.size}")
    (
        profile_code,
        revision,
        total_size,
        parameter_count,
        parameter_array_offset,
        program_header_offset,
        ucode_size,
        ucode_offset,
    ) = reader.unpack(_HEADER, 0, "header")
    try:
        profile = CgProfile(profile_code)
    except ValueError:
        raise reader.fail(
            f"unknown profile {profile_code} (expected 7003 sce_vp_rsx or 7004 sce_fp_rsx)"
        ) from None
    if revision != BINARY_FORMAT_REVISION:
        raise reader.fail(f"unsupported binaryFormatRevision {revision} (only {BINARY_FORMAT_REVISION} is known)")
    if total_size != len(data):
        raise reader.fail(f"header totalSize {total_size} does not match the file length {len(data)}")
    if parameter_count * _PARAMETER.size > len(data):
        raise reader.fail(f"parameterCount {parameter_count} does not fit in the {len(data)}-byte container")

    parameters = []
    placements = []
    for index in range(parameter_count):
        parameter, placement = _read_parameter(
            reader, parameter_array_offset + index * _PARAMETER.size, index
        )
        parameters.append(parameter)
        placements.append(placement)

    program_header = _read_program_header(reader, profile.kind, program_header_offset)

    if ucode_size % SLOT_BYTES:
        raise reader.fail(f"ucodeSize {ucode_size} is not a multiple of the {SLOT_BYTES}-byte slot")
    if program_header.instruction_count * SLOT_BYTES != ucode_size:
        raise reader.fail(
            f"instructionCount {program_header.instruction_count} disagrees with ucodeSize "
            f"{ucode_size} ({ucode_size // SLOT_BYTES} slots of {SLOT_BYTES} bytes)"
        )
    ucode = reader.take(ucode_offset, ucode_size, "ucode")

    layout = ContainerLayout(
        total_size=total_size,
        parameter_array_offset=parameter_array_offset,
        program_header_offset=program_header_offset,
        ucode_offset=ucode_offset,
        parameter_placements=tuple(placements),
        filler=reader.uncovered_runs(),
    )
    return CgProgram(profile, revision, tuple(parameters), program_header, ucode, layout)


def _read_parameter(
    reader: _Reader, offset: int, index: int
) -> tuple[CgParameter, ParameterPlacement]:
    what = f"parameter {index}"
    (
        type_code,
        resource,
        variability,
        resource_index,
        name_offset,
        default_value_offset,
        embedded_constant_offset,
        semantic_offset,
        direction,
        parameter_number,
        is_referenced,
        is_shared,
    ) = reader.unpack(_PARAMETER, offset, f"{what} record")
    if name_offset == 0:
        raise reader.fail(f"{what} has no name (name offset 0)")
    name = reader.string(name_offset, f"{what} name")
    semantic = reader.string(semantic_offset, f"{what} ({name}) semantic") if semantic_offset else None
    default_value_bits = None
    if default_value_offset:
        default_value_bits = reader.unpack(_DEFAULT_VALUE, default_value_offset, f"{what} ({name}) default value")
    embedded_constant_offsets = None
    if embedded_constant_offset:
        (count,) = reader.unpack(_U32, embedded_constant_offset, f"{what} ({name}) embedded-constant count")
        if count * 4 > len(reader.data):
            raise reader.fail(f"{what} ({name}) embedded-constant count {count} does not fit in the container")
        embedded_constant_offsets = struct.unpack(
            f">{count}I",
            reader.take(embedded_constant_offset + 4, count * 4, f"{what} ({name}) embedded-constant list"),
        )
    parameter = CgParameter(
        type=type_code,
        resource=resource,
        variability=variability,
        resource_index=resource_index,
        name=name,
        default_value_bits=default_value_bits,
        embedded_constant_offsets=embedded_constant_offsets,
        semantic=semantic,
        direction=direction,
        parameter_number=parameter_number,
        is_referenced=is_referenced,
        is_shared=is_shared,
    )
    placement = ParameterPlacement(name_offset, default_value_offset, embedded_constant_offset, semantic_offset)
    return parameter, placement


def _read_program_header(reader: _Reader, kind: ProgramKind, offset: int) -> ProgramHeader:
    if kind is ProgramKind.VERTEX:
        return VertexProgramHeader(*reader.unpack(_VERTEX_SUB_HEADER, offset, "vertex program sub-header"))
    return FragmentProgramHeader(*reader.unpack(_FRAGMENT_SUB_HEADER, offset, "fragment program sub-header"))


# --- writing -----------------------------------------------------------------------------------


class _LayoutDoesNotFit(Exception):
    """The program no longer fits the layout it was read with; lay it out afresh."""


class _Image:
    """A container being assembled; refuses to overwrite a byte with a different value."""

    def __init__(self, size: int):
        self.data = bytearray(size)
        self.written = bytearray(size)

    def put(self, offset: int, chunk: bytes) -> None:
        end = offset + len(chunk)
        if offset < 0 or end > len(self.data):
            raise _LayoutDoesNotFit
        for position, byte in enumerate(chunk, offset):
            if self.written[position] and self.data[position] != byte:
                raise _LayoutDoesNotFit
        self.data[offset:end] = chunk
        self.written[offset:end] = b"\x01" * len(chunk)


def _encode_parameter_parts(
    parameter: CgParameter,
) -> tuple[bytes, bytes | None, bytes | None, bytes | None]:
    """name, default value, embedded-constant list and semantic as they are stored."""
    name = parameter.name.encode("utf-8") + b"\0"
    default = None if parameter.default_value_bits is None else _DEFAULT_VALUE.pack(*parameter.default_value_bits)
    embedded = None
    if parameter.embedded_constant_offsets is not None:
        offsets = parameter.embedded_constant_offsets
        embedded = struct.pack(f">{len(offsets) + 1}I", len(offsets), *offsets)
    semantic = None if parameter.semantic is None else parameter.semantic.encode("utf-8") + b"\0"
    return name, default, embedded, semantic


def _encode_program_header(program: CgProgram) -> bytes:
    header = program.program_header
    if program.kind is ProgramKind.VERTEX:
        if not isinstance(header, VertexProgramHeader):
            raise ValueError("a vertex profile needs a VertexProgramHeader")
        return _VERTEX_SUB_HEADER.pack(
            header.instruction_count,
            header.instruction_slot,
            header.register_count,
            header.attribute_input_mask,
            header.attribute_output_mask,
            header.user_clip_mask,
        )
    if not isinstance(header, FragmentProgramHeader):
        raise ValueError("a fragment profile needs a FragmentProgramHeader")
    return _FRAGMENT_SUB_HEADER.pack(
        header.instruction_count,
        header.attribute_input_mask,
        header.partial_tex_type,
        header.tex_coords_input_mask,
        header.tex_coords_2d,
        header.tex_coords_centroid,
        header.register_count,
        header.output_from_h0,
        header.depth_replace,
        header.pixel_kill,
    )


def _encode_record(parameter: CgParameter, placement: ParameterPlacement) -> bytes:
    return _PARAMETER.pack(
        parameter.type,
        parameter.resource,
        parameter.variability,
        parameter.resource_index,
        placement.name_offset,
        placement.default_value_offset,
        placement.embedded_constant_offset,
        placement.semantic_offset,
        parameter.direction,
        parameter.parameter_number,
        parameter.is_referenced,
        parameter.is_shared,
    )


def _encode_header(
    program: CgProgram, total_size: int, array_offset: int, sub_header_offset: int, ucode_offset: int
) -> bytes:
    return _HEADER.pack(
        int(program.profile),
        program.binary_format_revision,
        total_size,
        len(program.parameters),
        array_offset,
        sub_header_offset,
        len(program.ucode),
        ucode_offset,
    )


def _write_with_layout(program: CgProgram, layout: ContainerLayout) -> bytes:
    if len(layout.parameter_placements) != len(program.parameters):
        raise _LayoutDoesNotFit
    image = _Image(layout.total_size)
    image.put(0, _encode_header(program, layout.total_size, layout.parameter_array_offset,
                                layout.program_header_offset, layout.ucode_offset))
    for index, (parameter, placement) in enumerate(zip(program.parameters, layout.parameter_placements)):
        parts = _encode_parameter_parts(parameter)
        offsets = (
            placement.name_offset,
            placement.default_value_offset,
            placement.embedded_constant_offset,
            placement.semantic_offset,
        )
        for part, offset in zip(parts, offsets):
            # An absent part must have offset 0 and a present one a non-zero offset.
            if (part is None) != (offset == 0):
                raise _LayoutDoesNotFit
            if part is not None:
                image.put(offset, part)
        image.put(layout.parameter_array_offset + index * _PARAMETER.size, _encode_record(parameter, placement))
    image.put(layout.program_header_offset, _encode_program_header(program))
    image.put(layout.ucode_offset, program.ucode)
    # Bytes left unwritten (a name that got shorter) stay zero, which reads back the same.
    for offset, chunk in layout.filler:
        image.put(offset, chunk)
    return bytes(image.data)


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def _write_fresh(program: CgProgram) -> bytes:
    """Header, records, then each parameter's name, semantic, default value and list, then the
    sub-header and the ucode at the next 16-byte boundary (as sce-cgc does)."""
    array_offset = _HEADER.size
    cursor = array_offset + len(program.parameters) * _PARAMETER.size
    placements = []
    blobs = []
    for parameter in program.parameters:
        name, default, embedded, semantic = _encode_parameter_parts(parameter)
        offsets = {}
        for key, part in (("name", name), ("semantic", semantic), ("default", default), ("embedded", embedded)):
            if part is None:
                offsets[key] = 0
                continue
            if key in ("default", "embedded"):
                cursor = _align(cursor, 4)
            offsets[key] = cursor
            blobs.append((cursor, part))
            cursor += len(part)
        placements.append(
            ParameterPlacement(offsets["name"], offsets["default"], offsets["embedded"], offsets["semantic"])
        )
    sub_header_offset = _align(cursor, 4)
    sub_header = _encode_program_header(program)
    ucode_offset = _align(sub_header_offset + len(sub_header), SLOT_BYTES)
    total_size = ucode_offset + len(program.ucode)

    image = bytearray(total_size)
    image[0 : _HEADER.size] = _encode_header(program, total_size, array_offset, sub_header_offset, ucode_offset)
    for index, (parameter, placement) in enumerate(zip(program.parameters, placements)):
        record_offset = array_offset + index * _PARAMETER.size
        image[record_offset : record_offset + _PARAMETER.size] = _encode_record(parameter, placement)
    for offset, part in blobs:
        image[offset : offset + len(part)] = part
    image[sub_header_offset : sub_header_offset + len(sub_header)] = sub_header
    image[ucode_offset:total_size] = program.ucode
    return bytes(image)


def write_container(program: CgProgram) -> bytes:
    """Serialise a program; byte-identical to the original file when it still fits its layout.

    Raises ValueError for a program that cannot be a valid container (a programming error, not
    bad input): a sub-header of the wrong kind or an instruction count that disagrees with the
    ucode size.
    """
    if len(program.ucode) % SLOT_BYTES:
        raise ValueError(f"ucode length {len(program.ucode)} is not a multiple of {SLOT_BYTES}")
    if program.program_header.instruction_count * SLOT_BYTES != len(program.ucode):
        raise ValueError(
            f"instruction_count {program.program_header.instruction_count} disagrees with "
            f"{len(program.ucode) // SLOT_BYTES} ucode slots"
        )
    if program.layout is not None:
        try:
            return _write_with_layout(program, program.layout)
        except _LayoutDoesNotFit:
            pass
    return _write_fresh(program)
