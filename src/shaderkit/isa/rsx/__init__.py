"""PS3 RSX (NV40-class) vertex and fragment programs: the public face of the package.

Three processor names share this package:

* ``rsx-vp`` and ``rsx-fp``: bare microcode of one kind (the bytes as they sit in RSX memory),
  or a container / assembly text of that kind;
* ``rsx``: ``.vpo`` / ``.fpo`` containers and assembly text, which say what they hold. It decodes
  no bare words (they do not say which kind they are), so its per-instruction face refuses.

A variant may also carry the texture targets of ``--texture-target UNIT=RECT``: the fragment
texture units sampled as rectangles where a program does not record it itself (bare microcode
has no parameter table; :func:`.image.rectangle_units_for`). Disassembly, decompilation and
runs honour them.

``rsx-vp`` and ``rsx-fp`` have the per-instruction face of every instruction set (``decode``,
``encode``, ``format``, ``parse``), adapted in :mod:`.face`: a word is a normalised 32-bit word
(FP halves already swapped back), an instruction 4 words, or 8 for a fragment instruction
followed by its literal slot.

Modules: :mod:`.fields` and :mod:`.opcodes` are the declarative description,
:mod:`.instruction` the instruction values and their views, :mod:`.description` (with
:mod:`.description_vertex` / :mod:`.description_fragment`) the instructions in core's model,
:mod:`.assembly` (with :mod:`.assembly_declarations`, :mod:`.assembly_macros`,
:mod:`.assembly_hints`, :mod:`.assembly_targets`) / :mod:`.printer` / :mod:`.listing` the text
forms, :mod:`.container` and :mod:`.image` the files,
:mod:`.fragment` / :mod:`.vertex` / :mod:`.semantics` / :mod:`.textures` the emulator,
:mod:`.pipeline` the small renderer, :mod:`.glsl` the decompiler and :mod:`.gl` the GL runner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from shaderkit.core.diagnostics import InputError
from shaderkit.core.fileio import read_file_bytes

from shaderkit.core.model import Description

from . import face
from . import image as images
from .container import ProgramKind
from .description_fragment import FRAGMENT
from .description_vertex import VERTEX

KINDS = {"vertex": ProgramKind.VERTEX, "fragment": ProgramKind.FRAGMENT, None: None}
DESCRIPTIONS = {ProgramKind.VERTEX: VERTEX, ProgramKind.FRAGMENT: FRAGMENT}
STYLES = ("nv", "rpcs3")
SOURCE_SUFFIXES = (".vp", ".fp", ".txt", ".s", ".asm")


@dataclass(frozen=True)
class AssembledRsx:
    image: images.RsxImage
    warnings: tuple

    @property
    def words(self) -> tuple[int, ...]:
        """The program's normalised words, literal slots and trailing slots included."""
        return self.image.words


def _refuse_empty(data: bytes, path: str) -> None:
    """An empty file is an error in every format and for every command, in the CLI's words."""
    if not data.strip(b" \t\r\n"):
        raise InputError(f"{path}: empty file: no program image in it")


class Rsx:
    """``kind`` is None for ``-m rsx`` (the file says what it holds)."""

    word_bits = 32
    byte_order = "big"
    source_suffixes = SOURCE_SUFFIXES

    def __init__(self, kind: ProgramKind | None, texture_targets: dict[int, str] | None = None):
        self.kind = kind
        self.texture_targets = dict(texture_targets or {})  # unit -> RECT or 2D, from --texture-target
        self.name = {None: "rsx", ProgramKind.VERTEX: "rsx-vp", ProgramKind.FRAGMENT: "rsx-fp"}[kind]
        # Core's model of the kind's instructions; the container-level ``rsx`` decodes no words.
        self.description: Description | None = DESCRIPTIONS.get(kind)
        # Both container kinds are readable everywhere, so a container of the other kind is
        # refused by what it holds, not by its name.
        self.containers = {images.KIND_SUFFIX[k]: self._container_format(k) for k in ProgramKind}
        self.containers["raw"] = (self._write_raw, lambda data, path: self._read_bare(images.read_raw, data, path))
        self.containers["hex"] = (images.write_hex, lambda data, path: self._read_bare(images.read_hex, data, path))

    def _container_format(self, kind: ProgramKind):
        def read(data: bytes, path: str) -> images.RsxImage:
            _refuse_empty(data, path)
            return images.read_container_image(data, path, self.kind)
        return (lambda image: images.write_container_image(image, kind), read)

    @staticmethod
    def _write_raw(image: images.RsxImage) -> bytes:
        return images.write_raw(image)

    def _read_bare(self, reader, data: bytes, path: str) -> images.RsxImage:
        _refuse_empty(data, path)
        if data.lstrip().startswith(b"!!"):  # an assembly header, so a source given where ucode belongs
            raise InputError(f"{path}: this is assembly text, not microcode; to disassemble a program, assemble "
                             f"it first (shaderkit asm -m {self.name} {path} -f raw -o prog.bin)")
        if self.kind is None:
            raise InputError(f"{path}: bare microcode does not say what it holds; "
                             "use -m rsx-vp or -m rsx-fp (or give a .vpo/.fpo container)")
        return reader(data, self.kind, path)

    # -- files -----------------------------------------------------------------------------

    def detect_format(self, data: bytes, path: str) -> str | None:
        kind = images.container_kind(data)
        if kind is not None:
            return images.KIND_SUFFIX[kind]
        suffix = Path(path).suffix.lower()
        if suffix in (".vpo", ".fpo"):
            return suffix[1:]
        return images.detect_bare_format(data, path)

    def load_file(self, path: str, kind: ProgramKind) -> images.RsxImage:
        """Any program file of the given kind: assembly text, a container, or bare ucode in any format."""
        data = read_file_bytes(path)
        _refuse_empty(data, path)
        if data.lstrip().startswith(b"!!") or path.lower().endswith(SOURCE_SUFFIXES[:2]):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{path}: not UTF-8 text") from None
            image = self.assemble(text, path, kind).image
        else:
            fmt = self.detect_format(data, path)
            if fmt in ("vpo", "fpo"):
                image = images.read_container_image(data, path, kind)
            else:
                image = images.read_bare(data, fmt, kind, path)
        if image.kind is not kind:
            raise InputError(f"{path}: holds a {image.kind.value} program, not a {kind.value} program")
        return image

    # -- single instructions ---------------------------------------------------------------

    permissions: frozenset[str] = frozenset()  # RSX text has no .allow directive

    @property
    def decodes_words(self) -> bool:
        return self.kind is not None

    @property
    def max_instruction_words(self) -> int:
        return face.max_length(self._word_kind())

    def _word_kind(self) -> ProgramKind:
        if self.kind is None:
            raise InputError("rsx does not decode bare words (they do not say whether they are a vertex or a "
                             "fragment program): use rsx-vp or rsx-fp")
        return self.kind

    def decode(self, words: Sequence[int], address: int = 0) -> face.RsxInstruction:
        """The instruction at the start of normalised ``words``; ``address`` is its slot."""
        return face.decode(self._word_kind(), words, address)

    def encode(self, instruction: face.RsxInstruction) -> tuple[int, ...]:
        self._word_kind()
        return face.encode(instruction)

    def format(self, instruction: face.RsxInstruction) -> str:
        self._word_kind()
        return face.format_instruction(instruction)

    def parse(self, text: str, *, allow: Iterable[str] = ()) -> face.RsxInstruction:
        return face.parse(self._word_kind(), text)

    # -- text ------------------------------------------------------------------------------

    def assemble(self, source: str, filename: str = "<input>", kind: ProgramKind | None = None) -> AssembledRsx:
        from .assembly import assemble
        kind = kind or self.kind
        assembled = assemble(source, filename, kind)
        parameters, header_values = images.split_metadata(source, filename, assembled.program.kind)
        program = assembled.program
        if parameters is None:
            parameters = images.parameters_from_assembly(assembled)
        parameters = images.with_rectangle_samplers(parameters, assembled, filename)
        header = images.header_for(program, header_values, parameters, source)
        constants = dict(assembled.constants) if program.kind is ProgramKind.VERTEX else {}
        if parameters:
            constants.update(images.constants_from_parameters(parameters))
        image = images.RsxImage(program, constants, parameters, header)
        return AssembledRsx(image, tuple(assembled.warnings))

    def rectangle_units(self, image: images.RsxImage) -> frozenset[int]:
        """The fragment texture units ``image`` samples as rectangles: its records' and this
        variant's ``--texture-target`` ones."""
        return images.rectangle_units_for(image, self.texture_targets)

    def _image(self, program: images.RsxImage | Sequence[int]) -> images.RsxImage:
        """An image as it is, or one made of normalised words of this object's kind."""
        if isinstance(program, images.RsxImage):
            return program
        return images.image_from_words(program, self._word_kind(), "words")

    def disassemble(self, image: images.RsxImage | Sequence[int], *, addresses: bool = True,
                    style: str = "nv") -> str:
        """Form A text of an image (or of normalised words) that assembles back to it."""
        image = self._image(image)
        rectangles = self.rectangle_units(image)
        if style == "rpcs3":
            from .listing import listing
            return listing(image.program, image.parameters)
        from .disassembler import disassemble
        text = disassemble(image.program, image.parameters, addresses=addresses, rectangle_units=rectangles)
        if image.container is None:
            return text
        # The container's table and sub-header ride along as significant comments.
        metadata = [images.parameter_line(parameter) for parameter in image.container.parameters]
        metadata.append(images.header_line(image.container.program_header))
        head, newline, rest = text.partition("\n")
        return head + newline + "\n".join(metadata) + "\n" + rest

    def disassembly_warnings(self, image: images.RsxImage) -> list[str]:
        from .instruction import program_warnings
        return program_warnings(image.program, "program")

    def decompile(self, image: images.RsxImage) -> str:
        from .glsl import decompile
        header = image.header if image.kind is ProgramKind.FRAGMENT else None
        return decompile(image.program, image.parameters, header=header, rectangle_units=self.rectangle_units(image))

    # -- running ---------------------------------------------------------------------------

    def machine(self, image: images.RsxImage | Sequence[int]):
        """The emulator prepared for a program (image or normalised words): a VertexMachine or a
        FragmentMachine, whose ``run`` takes the inputs of every vertex or pixel as lanes."""
        program = self._image(image).program
        if program.kind is ProgramKind.VERTEX:
            from .vertex import VertexMachine
            return VertexMachine(program)
        from .fragment import FragmentMachine
        return FragmentMachine(program)

    def run_command(self, program, output, options, **callbacks) -> str | None:
        from .command import run_command
        return run_command(self, program, output, options, **callbacks)

    def benchmark(self, seconds: float = 2.0):
        from .bench import run_benchmark
        return run_benchmark(seconds)

    def documentation(self):
        from .docs import documentation
        return documentation(self.kind)


def make_isa(kind: str | None = None, texture_target: Sequence[str] = (), **_ignored) -> Rsx:
    return Rsx(KINDS[kind], images.parse_texture_targets(texture_target))


__all__ = ["Rsx", "AssembledRsx", "make_isa"]
