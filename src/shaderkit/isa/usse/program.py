"""USSE program images, their text and their files: what ``asm``, ``disasm`` and ``run`` pass
around.

A :class:`UsseImage` is a primary program, a secondary program (the uniform-setup program the
driver runs first, spec §8) and, when it came from one, the GXP container around them
(:mod:`.gxp`). Its ``words`` are the primary program's 32-bit words in memory order (``w0``,
``w1`` per instruction), what raw and hex files hold.

Text (spec §6.2 and :mod:`.description`): a bare listing is the primary program. A container's
listing starts with its summary as comments, then ``.gxp`` lines holding the container's bytes
(64 per line, in hex), then ``.secondary`` and ``.primary`` sections; ``asm -f gxp`` puts the
assembled sections back into that container (:meth:`~.gxp.GxpProgram.with_code`). Without
section directives every instruction is primary. ``.word`` takes 32-bit words: an instruction
no form decodes is written as its two words, ``w0`` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.asm_hooks import DirectiveCall
from ...core.diagnostics import InputError, SourceError
from ...core.disasm import disassemble, listing
from .gxp import GxpProgram, describe_gxp, read_gxp, write_gxp

MAGIC = b"GXP\0"
GXP_BYTES_PER_LINE = 64
SECTIONS = (".secondary", ".primary")


@dataclass(frozen=True)
class UsseImage:
    primary: tuple[int, ...]  # 64-bit instructions
    secondary: tuple[int, ...] = ()
    container: GxpProgram | None = None

    @property
    def words(self) -> list[int]:
        return halves(self.primary)


def instructions_of(words: Sequence[int], source: str = "program") -> tuple[int, ...]:
    """64-bit instructions from 32-bit words in memory order."""
    if len(words) % 2:
        raise InputError(f"{source}: {len(words)} words: USSE instructions take two 32-bit words each, "
                         "the last one is cut short")
    return tuple(words[index] | words[index + 1] << 32 for index in range(0, len(words), 2))


def halves(instructions: Sequence[int]) -> list[int]:
    return [half for word in instructions for half in (word & 0xFFFFFFFF, word >> 32)]


def read_container(data: bytes, path: str) -> UsseImage:
    program = read_gxp(data, path)
    return UsseImage(tuple(program.primary), tuple(program.secondary), program)


def write_container(image) -> bytes:
    container = getattr(image, "container", None)
    if container is None:
        raise InputError("a GXP container needs the container to put the program in: assemble a listing of a "
                         ".gxp file (its .gxp lines hold the container), or write raw or hex words instead")
    return write_gxp(container.with_code(primary=image.primary, secondary=image.secondary))


def detect_format(data: bytes, path: str) -> str | None:
    return "gxp" if data[:4] == MAGIC or path.lower().endswith(".gxp") else None


# -- assembly directives ------------------------------------------------------------------------

def gxp_directive(call: DirectiveCall) -> None:
    """``.gxp HEX``: the next bytes of the container the program goes into."""
    text = call.argument.strip()
    try:
        chunk = bytes.fromhex(text)
    except ValueError:
        raise SourceError("'.gxp' takes the container's bytes in hex", 1, max(1, len(call.argument))) from None
    if not chunk:
        raise SourceError("'.gxp' needs the container's bytes in hex", 1)
    call.data.setdefault("gxp", bytearray()).extend(chunk)


def section_directive(call: DirectiveCall) -> None:
    """``.secondary`` / ``.primary``: the instructions after it belong to that program."""
    if call.argument.strip():
        raise SourceError(f"'{call.name}' takes no operand", 1, len(call.argument))
    sections = call.data.setdefault("sections", [])
    name = call.name.lower()
    if any(existing == name for existing, _ in sections):
        raise SourceError(f"a second '{name}' section: each program is one section", 1)
    sections.append((name, call.address))


DIRECTIVES = {".gxp": gxp_directive, ".secondary": section_directive, ".primary": section_directive}


def image_of(words: Sequence[int], data: dict, source: str) -> UsseImage:
    """The image an assembled source describes: its sections, and its container if it has one."""
    sections = sorted(data.get("sections", []), key=lambda section: section[1])
    programs = {".primary": [], ".secondary": []}
    if not sections:
        programs[".primary"] = list(words)
    else:
        if sections[0][1] != 0:
            raise InputError(f"{source}: instructions before the first section directive (.secondary or .primary)")
        bounds = [address for _, address in sections] + [len(words)]
        for (name, start), end in zip(sections, bounds[1:]):
            programs[name] = list(words[start:end])
    container = None
    if "gxp" in data:
        container = read_gxp(bytes(data["gxp"]), f"{source}: the .gxp container")
    return UsseImage(instructions_of(programs[".primary"], f"{source}: primary program"),
                     instructions_of(programs[".secondary"], f"{source}: secondary program"), container)


# -- listings -------------------------------------------------------------------------------------

def program_listing(description, instructions: Sequence[int], addresses: bool) -> str:
    if not instructions:
        return ""
    decoded = disassemble(description, halves(instructions))
    return listing(description, decoded, addresses=addresses)


def image_listing(description, image: UsseImage, addresses: bool) -> str:
    if image.container is None:
        return program_listing(description, image.primary, addresses)
    lines = [f"// {line}" for line in describe_gxp(image.container)]
    data = write_gxp(image.container)
    lines += [f".gxp {data[start:start + GXP_BYTES_PER_LINE].hex()}" for start in range(0, len(data), GXP_BYTES_PER_LINE)]
    for name, program in ((".secondary", image.secondary), (".primary", image.primary)):
        lines += ["", name]
        text = program_listing(description, program, addresses)
        if text:
            lines.append(text.rstrip("\n"))
    return "\n".join(lines) + "\n"
