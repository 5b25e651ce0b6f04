"""RSX program images: what the CLI reads, writes and runs, in every file format.

An :class:`RsxImage` is a decoded program plus what the ucode alone cannot say: the values of
vertex constants (``#const`` lines, container default values), and the container's parameter
table and sub-header when there is one. The table is also where a fragment program keeps the
texture target of a unit it samples as RECT (a ``samplerRECT`` record, :func:`rectangle_units`):
the microcode has no bit for it (spec 3.7). Assembly text that samples a unit as RECT gets that
record (:func:`with_rectangle_samplers`); bare microcode, which has no table, takes the targets
from ``--texture-target UNIT=RECT`` (:func:`parse_texture_targets`, :func:`rectangle_units_for`).

Bare microcode travels in core.binfmt's containers. A **word** there is one 32-bit ucode word
as spec/rsx.md decodes it (the ``*.words.txt`` words; four per 16-byte slot, FP literal slots
included), and the byte order is the one the ucode has in RSX memory: big-endian for a VP,
big-endian with the 16-bit halves of each word swapped for an FP (``UCODE_BYTE_ORDER``). So:

* ``raw``: the ucode exactly as it sits in RSX memory and in cgcomp's output (the ``asm/*.bin``
  files of the corpus), and the ucode inside a ``.vpo``/``.fpo``;
* ``ihex``: those same bytes in Intel HEX records;
* ``readmemh`` and ``c``: the words (a C array of ``uint32_t``);
* ``hex``: ours, not binfmt's: the words, one 16-byte slot per line (``NNN: w0 w1 w2 w3``, the
  ``*.words.txt`` layout); reading also accepts binfmt's one word per line;
* ``vpo`` / ``fpo``: Sony CgBinaryProgram containers (:mod:`.container`).

An explicit byte order (``--byte-order big|little``) stores the words in that order instead, for
either kind. Bare formats do not say which kind of program they hold; the caller does.

Containers and text: a container's parameter table and sub-header are printed into the
disassembly as significant comment lines (``#param`` and ``#header``), so a disassembled
container assembles back to a container with the same ucode, the same parameters and the same
sub-header. The bytes of the table area can differ from sce-cgc's (which places strings in an
order we do not reproduce); the ucode bytes are always identical.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace

import numpy as np

from shaderkit.core import binfmt
from shaderkit.core.diagnostics import InputError

from . import syntax
from .container import (
    BINARY_FORMAT_REVISION,
    CgParameter,
    CgProfile,
    CgProgram,
    CgDirection,
    CgType,
    CgVariability,
    FragmentProgramHeader,
    ProgramKind,
    VertexProgramHeader,
    UCODE_BYTE_ORDER,
    UCODE_WORD_BITS,
    read_container,
    write_container,
)
from .instruction import Program, decode_program
from .limits import VP_CONSTANTS

CONTAINER_MAGIC = {CgProfile.SCE_VP_RSX: ProgramKind.VERTEX, CgProfile.SCE_FP_RSX: ProgramKind.FRAGMENT}
TEXCOORD_RESOURCE = 3220  # res code of TEXCOORD0 (spec 4.1); TEXCOORDn = 3220 + n
TEXTURE_UNIT_RESOURCE = 2048  # res code of TEXUNIT0, a sampler's unit; TEXUNITn = 2048 + n (spec 4.1)
VP_CONSTANT_RESOURCE = 2178
KIND_SUFFIX = {ProgramKind.VERTEX: "vpo", ProgramKind.FRAGMENT: "fpo"}
# VP output register -> attributeOutputMask bit for a write of its x lane (spec section 2.10),
# one bit per output written: sce-cgc's rule, and the container written here is sce-cgc's
# CgBinaryProgram. Its gs_gcm_cube_0x208dc.vpo (golden/rsx/real) writes POSITION, COLOR0 and
# TEXCOORD0 and records 0x4001: a COL0 write sets bit 0 and not the back colour's bit 2.
# PSL1GHT's cgcomp writes another container ('VP', spec 4.2), which shaderkit does not write,
# and its rule changed: tools/cgcomp/source/compiler.cpp of ps3dev/PSL1GHT sets one bit per
# output like sce-cgc (COL0 -> bit 0, BFC0 -> bit 2), the later compilervp.cpp (seen in the
# sahlberg/PSL1GHT fork) sets both bits of a pair for a COL0/COL1 or BFC0/BFC1 write, so the
# same program gets 0x4005 there.
_OUTPUT_MASK_BITS = {1: 0, 2: 1, 3: 2, 4: 3, **{7 + n: 14 + n for n in range(8)}, 15: 12}
# VP o[5]/o[6]: x = fog / point size; y, z, w = user clip planes 0-2 / 3-5.
_SPECIAL_OUTPUT_LANES = {5: (4, 6, 7, 8), 6: (5, 9, 10, 11)}
# FP input -> attributeInputMask bits (the VP output column of section 2.10).
_FP_INPUT_MASK_BITS = {1: (0, 2), 2: (1, 3), 3: (4,), **{4 + n: (14 + n,) for n in range(8)}, 12: (12,),
                       13: (13,)}


@dataclass(frozen=True)
class RsxImage:
    """A program and its side data. ``constants`` maps VP constant indices to values."""

    program: Program
    constants: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)
    parameters: tuple[CgParameter, ...] | None = None
    header: VertexProgramHeader | FragmentProgramHeader | None = None
    container: CgProgram | None = None

    @property
    def kind(self) -> ProgramKind:
        return self.program.kind

    @property
    def words(self) -> tuple[int, ...]:
        return self.program.words()

    @property
    def colour_from_h0(self) -> bool:
        """Whether the fragment colour is read from H0 (fp16): what the sub-header says, or for
        bare ucode, which has none, what the program writes (:func:`colour_in_h0`)."""
        if self.header is not None:
            return bool(getattr(self.header, "output_from_h0", 0))
        return self.kind is ProgramKind.FRAGMENT and colour_in_h0(self.program)

    @property
    def byte_order(self) -> str:
        """How the words are stored in RSX memory (a core.binfmt byte order)."""
        return UCODE_BYTE_ORDER[self.kind]

    def constant_memory(self) -> np.ndarray:
        """The (468, 4) float32 VP constant memory this image defines (zeros elsewhere)."""
        memory = np.zeros((VP_CONSTANTS, 4), dtype=np.float32)
        for index, value in self.constants.items():
            if 0 <= index < VP_CONSTANTS:
                memory[index] = value
        return memory


# --- sub-headers computed from the ucode --------------------------------------------------------


def _written_outputs(program: Program) -> dict[int, set[int]]:
    """VP output register -> lanes written by any instruction."""
    written: dict[int, set[int]] = {}
    for instruction in program.instructions:
        view = instruction.view
        if view.output is None:
            continue
        if view.vector_to_output and view.vector is not None and view.vector.name != "NOP":
            lanes = {lane for lane in range(4) if view.vector_mask[lane]}
            written.setdefault(view.output, set()).update(lanes)
        scalar_writes_output = (view.scalar_temp is None and not view.vector_to_output
                                and view.scalar is not None and view.scalar.sources)
        if scalar_writes_output:
            lanes = {lane for lane in range(4) if view.scalar_mask[lane]}
            written.setdefault(view.output, set()).update(lanes)
    return written


def vertex_header(program: Program) -> VertexProgramHeader:
    inputs = 0
    temps = 0
    for instruction in program.instructions:
        view = instruction.view
        used = set((view.vector.sources if view.vector else ()) + (view.scalar.sources if view.scalar else ()))
        for slot in used:
            source = view.sources[slot]
            if source.file == "v":
                inputs |= 1 << source.index
            if source.file == "R":
                temps = max(temps, source.index + 1)
        for temp in (view.vector_temp, view.scalar_temp):
            if temp is not None:
                temps = max(temps, temp + 1)
    outputs = 0
    clip = 0
    for register, lanes in _written_outputs(program).items():
        if register in _SPECIAL_OUTPUT_LANES:
            for lane in lanes:
                outputs |= 1 << _SPECIAL_OUTPUT_LANES[register][lane]
                if lane:
                    clip |= 1 << ((lane - 1) + (3 if register == 6 else 0))
        elif register in _OUTPUT_MASK_BITS:
            outputs |= 1 << _OUTPUT_MASK_BITS[register]
    return VertexProgramHeader(program.slot_count, 0, max(1, temps), inputs, outputs, clip)


def _texcoords_2d(parameters: tuple[CgParameter, ...] | None) -> int:
    """sce-cgc clears bit n when TEXCOORDn is declared with more than two components (4.1)."""
    mask = 0xFFFF
    for parameter in parameters or ():
        unit = parameter.resource - TEXCOORD_RESOURCE
        wide = parameter.type in (CgType.FLOAT3, CgType.FLOAT4)
        if 0 <= unit < 10 and parameter.direction == CgDirection.IN and wide:
            mask &= ~(1 << unit)
    return mask


def fragment_header(program: Program, parameters: tuple[CgParameter, ...] | None = None) -> FragmentProgramHeader:
    """The FP sub-header the ucode implies. Depth replacement cannot be seen in the ucode (R1 is
    also an ordinary temporary), so it is off here; assembly text that writes ``result.depth``
    turns it on (:func:`header_for`)."""
    inputs = 0
    texcoords = 0
    registers = 0
    kills = False
    for instruction in program.instructions:
        view = instruction.view
        opcode = view.opcode
        if opcode is None or opcode.flow:
            continue
        kills |= opcode.name == "KIL"
        for slot in opcode.sources:
            source = view.sources[slot]
            if source.file == "f":
                for bit in _FP_INPUT_MASK_BITS.get(view.input, ()):
                    inputs |= 1 << bit
                if 4 <= view.input <= 13:
                    texcoords |= 1 << (view.input - 4)
            if source.file in "RH":
                registers = max(registers, (source.index // 2 if source.file == "H" else source.index) + 1)
        if not view.no_destination and opcode.name not in ("KIL", "NOP", "FENCT", "FENCB"):
            index = view.destination // 2 if view.destination_half else view.destination
            registers = max(registers, index + 1)
    return FragmentProgramHeader(
        instruction_count=program.slot_count, attribute_input_mask=inputs, partial_tex_type=0,
        tex_coords_input_mask=texcoords, tex_coords_2d=_texcoords_2d(parameters), tex_coords_centroid=0,
        register_count=max(2, registers), output_from_h0=int(colour_in_h0(program)), depth_replace=0,
        pixel_kill=int(kills))


def colour_in_h0(program: Program) -> bool:
    """Whether a fragment program writes its colour as fp16, to H0 (``o[COLH]``), and never as
    fp32 to R0: the FP control register's output select, which a container records as
    ``output_from_h0`` and bare ucode leaves to be read off the program."""
    writes_h0 = writes_r0 = False
    for instruction in program.instructions:
        view = instruction.view
        if view.opcode is None or view.opcode.flow or view.no_destination or view.destination != 0:
            continue
        writes_h0 |= bool(view.destination_half)
        writes_r0 |= not view.destination_half
    return writes_h0 and not writes_r0


def computed_header(program: Program, parameters: tuple[CgParameter, ...] | None = None
                    ) -> VertexProgramHeader | FragmentProgramHeader:
    if program.kind is ProgramKind.VERTEX:
        return vertex_header(program)
    return fragment_header(program, parameters)


# --- significant comment lines: #param and #header ---------------------------------------------

_PARAM_KEYS = ("type", "resource", "variability", "resource_index", "direction", "parameter_number",
               "is_referenced", "is_shared")
_HEADER_KEYS = {
    ProgramKind.VERTEX: ("instruction_slot", "register_count", "attribute_input_mask",
                         "attribute_output_mask", "user_clip_mask"),
    ProgramKind.FRAGMENT: ("attribute_input_mask", "partial_tex_type", "tex_coords_input_mask", "tex_coords_2d",
                           "tex_coords_centroid", "register_count", "output_from_h0", "depth_replace",
                           "pixel_kill"),
}


def parameter_line(parameter: CgParameter) -> str:
    parts = ["#param", shlex.quote(parameter.name)]
    parts += [f"{key}={getattr(parameter, key)}" for key in _PARAM_KEYS]
    if parameter.semantic is not None:
        parts.append(f"semantic={shlex.quote(parameter.semantic)}")
    if parameter.default_value_bits is not None:
        parts.append("default=" + ",".join(f"0x{bits:08x}" for bits in parameter.default_value_bits))
    if parameter.embedded_constant_offsets is not None:
        parts.append("embedded=" + ",".join(str(offset) for offset in parameter.embedded_constant_offsets))
    return " ".join(parts)


def header_line(header: VertexProgramHeader | FragmentProgramHeader) -> str:
    kind = ProgramKind.VERTEX if isinstance(header, VertexProgramHeader) else ProgramKind.FRAGMENT
    return "#header " + " ".join(f"{key}={getattr(header, key)}" for key in _HEADER_KEYS[kind])


_META_LINE = re.compile(r"^\s*#(param|header)\b(.*)$")


def _key_values(tokens: list[str], where: str) -> dict[str, str]:
    values = {}
    for token in tokens:
        key, equals, value = token.partition("=")
        if not equals:
            raise InputError(f"{where}: '{token}' is not key=value")
        values[key] = value
    return values


def _integer(values: dict[str, str], key: str, where: str) -> int:
    try:
        return int(values.pop(key), 0)
    except KeyError:
        raise InputError(f"{where}: missing {key}=") from None
    except ValueError:
        raise InputError(f"{where}: {key} must be an integer") from None


def _integer_list(text: str, where: str, key: str) -> tuple[int, ...]:
    try:
        return tuple(int(item, 0) for item in text.split(",")) if text else ()
    except ValueError:
        raise InputError(f"{where}: {key} must be a comma-separated list of integers") from None


def _parse_parameter(tokens: list[str], where: str) -> CgParameter:
    if not tokens:
        raise InputError(f"{where}: #param needs a name")
    name, values = tokens[0], _key_values(tokens[1:], where)
    numbers = {key: _integer(values, key, where) for key in _PARAM_KEYS}
    semantic = values.pop("semantic", None)
    default = values.pop("default", None)
    embedded = values.pop("embedded", None)
    if values:
        raise InputError(f"{where}: unknown #param key {sorted(values)[0]}")
    default_bits = None
    if default is not None:
        default_bits = _integer_list(default, where, "default")
        if len(default_bits) != 4:
            raise InputError(f"{where}: default needs four values")
    return CgParameter(name=name, default_value_bits=default_bits,
                       embedded_constant_offsets=None if embedded is None else _integer_list(embedded, where,
                                                                                            "embedded"),
                       semantic=semantic, **numbers)


def split_metadata(source: str, filename: str, kind: ProgramKind
                   ) -> tuple[tuple[CgParameter, ...] | None, dict[str, int] | None]:
    """The ``#param`` records and ``#header`` values written in assembly text (if any)."""
    parameters: list[CgParameter] = []
    header: dict[str, int] | None = None
    for number, line in enumerate(source.splitlines(), start=1):
        match = _META_LINE.match(line)
        if not match:
            continue
        where = f"{filename}:{number}"
        try:
            tokens = shlex.split(match.group(2))
        except ValueError as error:
            raise InputError(f"{where}: {error}") from None
        if match.group(1) == "param":
            parameters.append(_parse_parameter(tokens, where))
        else:
            values = _key_values(tokens, where)
            header = {key: _integer(values, key, where) for key in _HEADER_KEYS[kind]}
            if values:
                raise InputError(f"{where}: unknown #header key {sorted(values)[0]}")
    return (tuple(parameters) if parameters else None), header


_WRITES_DEPTH = re.compile(r"^[^#\n]*\bresult\.depth\b", re.MULTILINE)


def header_for(program: Program, overrides: dict[str, int] | None,
               parameters: tuple[CgParameter, ...] | None = None, source: str = ""):
    """The sub-header of an assembled program: computed, then what the text says."""
    header = computed_header(program, parameters)
    if program.kind is ProgramKind.FRAGMENT and _WRITES_DEPTH.search(source):
        header = replace(header, depth_replace=1)
    return replace(header, **overrides) if overrides else header


def constants_from_parameters(parameters: tuple[CgParameter, ...]) -> dict[int, tuple[float, ...]]:
    """VP constant values a container gives: internal constants and uniform defaults."""
    constants = {}
    for parameter in parameters:
        if parameter.resource == VP_CONSTANT_RESOURCE and parameter.resource_index >= 0 and parameter.default_value is not None:
            constants[parameter.resource_index] = parameter.default_value
    return constants


# --- reading and writing ------------------------------------------------------------------------


def container_kind(data: bytes) -> ProgramKind | None:
    """The kind a container says it holds, or None when the bytes are not a container."""
    if len(data) < 8:
        return None
    profile = int.from_bytes(data[0:4], "big")
    revision = int.from_bytes(data[4:8], "big")
    if revision != BINARY_FORMAT_REVISION:
        return None
    return {7003: ProgramKind.VERTEX, 7004: ProgramKind.FRAGMENT}.get(profile)


def image_from_words(words, kind: ProgramKind, source: str) -> RsxImage:
    return RsxImage(decode_program(tuple(words), kind, source))


def read_raw(data: bytes, kind: ProgramKind, source: str) -> RsxImage:
    if len(data) % 16:
        raise InputError(f"{source}: {len(data)} bytes is not a whole number of 16-byte slots "
                         "(truncated ucode?)")
    words = binfmt.read_words(data, "raw", word_bits=UCODE_WORD_BITS, byte_order=UCODE_BYTE_ORDER[kind],
                              source=source)
    return image_from_words(words, kind, source)


def write_raw(image: RsxImage) -> bytes:
    return binfmt.write_words(image.words, "raw", word_bits=UCODE_WORD_BITS, byte_order=image.byte_order)


def read_bare(data: bytes, fmt: str, kind: ProgramKind, source: str) -> RsxImage:
    """Bare ucode of ``kind`` in any of core.binfmt's formats (``hex`` in our layout)."""
    if fmt == "hex":
        return read_hex(data, kind, source)
    if fmt == "raw":
        return read_raw(data, kind, source)
    words = binfmt.read_words(data, fmt, word_bits=UCODE_WORD_BITS, byte_order=UCODE_BYTE_ORDER[kind],
                              source=source)
    return image_from_words(words, kind, source)


def detect_bare_format(data: bytes, path: str) -> str:
    """core.binfmt's guess, except that text in our hex layout (which binfmt does not know, one
    slot per line) is ``hex`` whatever the file is called."""
    fmt = binfmt.detect_format(data, path)
    if fmt == "raw":
        try:
            return "hex" if _hex_words(data, path) else fmt
        except InputError:
            pass
    return fmt


# A line is an optional "NNN:" and words separated by white space. The words are split off with
# str.split() and each matched alone: one pattern for the whole line would let adjacent digit
# runs be divided among the words in exponentially many ways before it fails.
_SLOT_NUMBER = re.compile(r"\s*[0-9]+\s*:")
_HEX_WORD = re.compile(r"(?:0[xX])?[0-9a-fA-F]{1,8}")


def _line_words(line: str) -> list[int] | None:
    """The words of one line of a hex file, or None when it is not words."""
    slot_number = _SLOT_NUMBER.match(line)
    items = line[slot_number.end() if slot_number else 0:].split()
    if not items or not all(_HEX_WORD.fullmatch(item) for item in items):
        return None
    return [int(item, 16) for item in items]


def read_hex(data: bytes, kind: ProgramKind, source: str) -> RsxImage:
    return image_from_words(_hex_words(data, source), kind, source)


def _hex_words(data: bytes, source: str) -> list[int]:
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise InputError(f"{source}: hex words must be ASCII text") from None
    words = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].split("//", 1)[0]
        if not line.strip():
            continue
        line_words = _line_words(line)
        if line_words is None:
            raise InputError(f"{source}:{number}: expected hex words of at most 8 digits, optionally after 'NNN:'")
        words += line_words
    return words


def write_hex(image: RsxImage) -> bytes:
    words = image.words
    lines = [f"{slot:03d}: " + " ".join(f"{word:08x}" for word in words[slot * 4: slot * 4 + 4])
             for slot in range(len(words) // 4)]
    return ("\n".join(lines) + "\n").encode("ascii")


def read_container_image(data: bytes, source: str, expected: ProgramKind | None = None) -> RsxImage:
    container = read_container(data, source)
    if expected is not None and container.kind is not expected:
        raise InputError(f"{source}: the container holds a {container.kind.value} program, "
                         f"not a {expected.value} program")
    program = decode_program(container.words, container.kind, source)
    return RsxImage(program, constants_from_parameters(container.parameters), container.parameters,
                    container.program_header, container)


def build_container(image: RsxImage) -> CgProgram:
    """The container of an image: the one it was read from if its ucode is unchanged."""
    ucode = write_raw(image)
    if image.container is not None and image.container.ucode == ucode:
        return image.container
    profile = CgProfile.SCE_VP_RSX if image.kind is ProgramKind.VERTEX else CgProfile.SCE_FP_RSX
    parameters = image.parameters or ()
    header = image.header or computed_header(image.program, parameters)
    header = replace(header, instruction_count=image.program.slot_count)
    return CgProgram(profile, BINARY_FORMAT_REVISION, parameters, header, ucode)


FP_UNIFORM_RESOURCE = 3256  # sce-cgc's "no hardware register" code; FP uniforms live in literal slots
_TYPE_CODES = {"float": CgType.FLOAT, "float1": CgType.FLOAT1, "float2": CgType.FLOAT2, "float3": CgType.FLOAT3,
               "float4": CgType.FLOAT4, "float4x4": CgType.FLOAT4X4, "sampler2D": CgType.SAMPLER2D,
               "samplerRECT": CgType.SAMPLERRECT, "samplerCUBE": CgType.SAMPLERCUBE}
TYPE_NAMES = {code: name for name, code in _TYPE_CODES.items()}  # type code -> how Cg spells it


def _float_bits(value) -> tuple[int, int, int, int]:
    return tuple(int(b) for b in np.array(value, dtype=">f4").view(">u4"))


def _record(name: str, type_code: int, resource: int, variability: CgVariability, index: int,
            parameter_number: int, referenced: int = 1, default=None, embedded=None) -> CgParameter:
    return CgParameter(
        type=int(type_code), resource=resource, variability=int(variability), resource_index=index, name=name,
        default_value_bits=None if default is None else _float_bits(default), embedded_constant_offsets=embedded,
        semantic=None, direction=int(CgDirection.IN), parameter_number=parameter_number,
        is_referenced=referenced, is_shared=0)


def parameters_from_assembly(assembled) -> tuple[CgParameter, ...]:
    """Parameter records for what assembly text declares, in sce-cgc's conventions: ``#var``
    uniforms (a VP matrix as its record plus one record per row; an FP uniform with the ucode
    offsets of the literal slots that hold it), then each VP ``#const`` value not covered by a
    uniform as ``internal-constant-N``."""
    records = []
    covered = set()
    fragment = assembled.program.kind is ProgramKind.FRAGMENT
    for number, uniform in enumerate(assembled.uniforms):
        type_code = _TYPE_CODES.get(uniform.type, CgType.FLOAT4)
        paramno = number if uniform.parameter_number is None else uniform.parameter_number
        referenced = 1 if uniform.referenced is None else uniform.referenced
        rows = range(uniform.index, uniform.index + uniform.count)
        covered.update(rows)
        defaults = uniform.default or ()
        if fragment:
            offsets = tuple(sorted(slot * 16 for slot, index in assembled.literal_constants.items()
                                   if index in rows))
            records.append(_record(uniform.name, type_code, FP_UNIFORM_RESOURCE, CgVariability.UNIFORM, -1,
                                   paramno, referenced, defaults[0] if defaults else None, offsets))
            continue
        records.append(_record(uniform.name, type_code, VP_CONSTANT_RESOURCE, CgVariability.UNIFORM,
                               uniform.index, paramno, referenced,
                               defaults[0] if defaults and uniform.count == 1 else None))
        if uniform.count > 1:
            for row, index in enumerate(rows):
                records.append(_record(f"{uniform.name}[{row}]", CgType.FLOAT4, VP_CONSTANT_RESOURCE,
                                       CgVariability.UNIFORM, index, paramno, referenced,
                                       defaults[row] if row < len(defaults) else None))
    if not fragment:
        constants = [(index, value) for index, value in sorted(assembled.constants.items()) if index not in covered]
        for number, (index, value) in enumerate(constants):
            records.append(_record(f"internal-constant-{number}", CgType.FLOAT4, VP_CONSTANT_RESOURCE,
                                   CgVariability.CONSTANT, index, -2, default=value))
    return tuple(records)


def write_container_image(image: RsxImage, kind: ProgramKind) -> bytes:
    if image.kind is not kind:
        raise InputError(f"a {image.kind.value} program cannot be written as .{KIND_SUFFIX[kind]} "
                         f"(use -f {KIND_SUFFIX[image.kind]})")
    return write_container(build_container(image))


# --- texture targets: RECT units ----------------------------------------------------------------


def sampler_records(parameters: tuple[CgParameter, ...] | None) -> dict[int, CgParameter]:
    """Texture unit -> the sampler record bound to it (resource ``TEXUNITn``)."""
    return {parameter.resource - TEXTURE_UNIT_RESOURCE: parameter for parameter in parameters or ()
            if TEXTURE_UNIT_RESOURCE <= parameter.resource < TEXTURE_UNIT_RESOURCE + syntax.TEXTURE_UNITS}


def sampler_types(parameters: tuple[CgParameter, ...] | None) -> dict[int, int]:
    """Texture unit -> the type code of the sampler record bound to it."""
    return {unit: parameter.type for unit, parameter in sampler_records(parameters).items()}


def rectangle_units(parameters: tuple[CgParameter, ...] | None) -> frozenset[int]:
    """The texture units a parameter table records as samplerRECT: sampled at texel coordinates."""
    return frozenset(unit for unit, type_code in sampler_types(parameters).items() if type_code == CgType.SAMPLERRECT)


def with_rectangle_samplers(parameters: tuple[CgParameter, ...], assembled, source: str) -> tuple[CgParameter, ...]:
    """The parameter records of assembled text, with a samplerRECT record for each unit its
    texture instructions sample as RECT and the records (``#param`` lines, for a listing of a
    container) do not list: named by the text's ``#var … : texunit N`` line if it has one (as
    sce-cgc names the record after the Cg parameter), else ``textureN``. A record of another
    sampler type on a unit sampled as RECT, or a samplerRECT record on a unit sampled otherwise,
    is an error: the text and the table disagree about how the unit is sampled."""
    targets = assembled.texture_targets
    recorded = sampler_types(parameters)
    declared = {sampler.unit: sampler for sampler in assembled.samplers}
    added = []
    for unit in sorted(targets.units):
        rectangle = unit in targets.rectangle_units
        type_code = recorded.get(unit)
        if type_code is None:
            if rectangle:
                sampler = declared.get(unit)
                name = sampler.name if sampler is not None else f"texture{unit}"
                paramno = -1 if sampler is None or sampler.parameter_number is None else sampler.parameter_number
                referenced = 1 if sampler is None or sampler.referenced is None else sampler.referenced
                added.append(_record(name, CgType.SAMPLERRECT, TEXTURE_UNIT_RESOURCE + unit, CgVariability.UNIFORM,
                                     -1, paramno, referenced))
        elif (type_code == CgType.SAMPLERRECT) != rectangle:
            written = syntax.RECTANGLE_TARGET if rectangle else "2D"
            raise InputError(f"{source}: texture unit {unit} is sampled as {written}, but its #param record is "
                             f"{type_name(type_code)}")
    return tuple(parameters) + tuple(added)


def parse_texture_targets(settings) -> dict[int, str]:
    """``--texture-target UNIT=TARGET`` settings (a unit 0-15, RECT or 2D) by unit."""
    targets: dict[int, str] = {}
    choices = (syntax.RECTANGLE_TARGET, "2D")
    for setting in settings:
        unit_text, equals, target = (part.strip() for part in setting.partition("="))
        # Only ASCII digits make a unit (str.isdigit() also takes '²').
        if not equals or not re.fullmatch(r"[0-9]{1,2}", unit_text) or int(unit_text) >= syntax.TEXTURE_UNITS \
                or target.upper() not in choices:
            raise InputError(f"--texture-target needs UNIT=RECT or UNIT=2D with a unit 0-{syntax.TEXTURE_UNITS - 1}, "
                             f"not '{setting}'")
        unit = int(unit_text)
        if unit in targets:
            raise InputError(f"--texture-target: unit {unit} is given twice")
        targets[unit] = target.upper()
    return targets


def rectangle_units_for(image: RsxImage, requested: dict[int, str]) -> frozenset[int]:
    """The units ``image`` samples as RECT: those its parameter table records as samplerRECT,
    and those ``requested`` (``--texture-target``) names RECT where the table records no sampler.
    A request the table contradicts, or one for a vertex program, is an error."""
    if requested and image.kind is not ProgramKind.FRAGMENT:
        raise InputError("--texture-target gives a fragment program's texture targets; this is a vertex program")
    recorded = sampler_types(image.parameters)
    units = set(rectangle_units(image.parameters))
    for unit, target in sorted(requested.items()):
        rectangle = target == syntax.RECTANGLE_TARGET
        type_code = recorded.get(unit)
        if type_code is not None and (type_code == CgType.SAMPLERRECT) != rectangle:
            raise InputError(f"--texture-target {unit}={target}: the program's parameter table records unit {unit} "
                             f"as {type_name(type_code)}")
        if rectangle:
            units.add(unit)
    return frozenset(units)


def type_name(type_code: int) -> str:
    """A parameter type as Cg spells it (``float4``, ``samplerRECT``), or its bare code."""
    return TYPE_NAMES.get(type_code, str(type_code))
