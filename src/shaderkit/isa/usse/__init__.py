"""PowerVR SGX USSE shader programs (SGX543/SGX544, the VEC34 family of the PS Vita): the public
face.

:class:`Usse` is the ``ISA`` object the CLI uses. Everything textual is derived from the
description in core's model (:mod:`.description`, the forms of :mod:`.encoding` with the syntax
of the ``forms_*`` modules):

* ``decode([w0, w1])`` gives an instruction whose ``.form`` is the spec's form name and whose
  ``.fields`` are its raw fields under the spec's §10 names; ``encode``/``format``/``parse`` go
  back and forth exactly (a word whose text would not read back is a ``.word`` data item);
* ``assemble``/``disassemble`` read and write bare programs and GXP containers
  (:mod:`.program`, :mod:`.gxp`): ``disasm prog.gxp`` shows the parameters, literals and both
  programs; ``asm -f gxp`` rebuilds the container;
* ``--core sgx540`` (``make_isa(core="sgx540")``) reads and writes the older family's words by its
  opcode map (:mod:`.sgx540`); everything else is the SGX543/544's;
* ``machine`` is the emulator (:mod:`.machine`), ``run_command`` runs a vertex program on JSON
  inputs (:mod:`.command`), ``decompile`` gives GLSL 4.30 (:mod:`.glsl`), ``benchmark`` and
  ``documentation`` the bench and the reference manual.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.asm import Assembler
from ...core.diagnostics import InputError
from ...core.face import Assembled, DescribedIsa
from . import program as programs
from .description import listing

__all__ = ["CORES", "Usse", "make_isa"]

# sgx543 (the VEC34 family, also SGX544) is what everything models; sgx540 is the older family's
# opcode map only (:mod:`.sgx540`): names and the few fields the public map gives.
CORES = ("sgx543", "sgx540")
DEFAULT_CORE = "sgx543"


class Usse(DescribedIsa):
    name = "usse"
    word_bits = 32
    byte_order = "little"

    def __init__(self, core: str = DEFAULT_CORE):
        core = str(core).lower()
        if core not in CORES:
            raise InputError(f"unknown USSE core '{core}' (use one of {', '.join(CORES)})")
        self.core = core
        if core == "sgx540":
            from . import sgx540
            self.description = sgx540.listing()
        else:
            self.description = listing()
        self.assembler = Assembler(self.description, comment_prefixes=("//", ";"), directives=programs.DIRECTIVES)
        self.containers = {"gxp": (programs.write_container, programs.read_container)}

    def detect_format(self, data: bytes, path: str) -> str | None:
        return programs.detect_format(data, path)

    def assemble(self, source: str, filename: str = "<input>") -> Assembled:
        program = self.assembler.assemble(source, filename)
        if not program.words:
            raise InputError(f"{filename}: nothing to assemble: no instruction or data in it")
        return Assembled(program, programs.image_of(program.words, program.state.data, filename))

    def image(self, image) -> programs.UsseImage:
        """Any program image (an assembled or read :class:`~.program.UsseImage`, or 32-bit words of a
        bare primary program) as a UsseImage."""
        if isinstance(image, programs.UsseImage):
            return image
        return programs.UsseImage(programs.instructions_of(list(getattr(image, "words", image))))

    def disassemble(self, words, *, addresses: bool = True) -> str:
        image = self.image(words)
        if not image.primary and not image.secondary:
            raise InputError("empty image: no instructions to disassemble")
        return programs.image_listing(self.description, image, addresses)

    def disassembly_warnings(self, words: Sequence[int]) -> list[str]:
        return []

    # -- running --------------------------------------------------------------------------

    def machine(self, image=None, *, lanes: int = 1, **options):
        """The emulator (:class:`~.machine.UsseMachine`) with the image's programs."""
        from .machine import UsseMachine
        self._vec34_only("emulator")
        image = self.image(image if image is not None else [])
        if not image.primary and not image.secondary:
            raise InputError("empty image: no instructions to run")
        return UsseMachine(image.primary, image.secondary, lanes=lanes, **options)

    def run_command(self, program, output, options, **callbacks) -> str:
        from .command import run_command
        return run_command(self, program, output, options, **callbacks)

    def decompile(self, image) -> str:
        from .glsl import decompile
        self._vec34_only("GLSL decompiler")
        image = self.image(image)
        container = image.container
        counts = {"pa_count": container.pa_count, "sa_count": container.sa_count} if container else {}
        return decompile(image.primary, image.secondary, **counts)

    def _vec34_only(self, what: str) -> None:
        if self.core != DEFAULT_CORE:
            raise InputError(f"--core {self.core} has no {what}: the public knowledge gives that family's opcode map "
                             "only, no operand layouts or semantics (use --core sgx543)")

    def benchmark(self, seconds: float = 2.0):
        from .bench import run_benchmark
        return run_benchmark(seconds)

    def documentation(self):
        from .docs import documentation
        return documentation()


def make_isa(core: str = DEFAULT_CORE) -> Usse:
    return Usse(core)
