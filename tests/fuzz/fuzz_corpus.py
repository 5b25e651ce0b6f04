"""Seeds and strategies of the fuzz campaign: real inputs from the repository (examples, golden
programs, scenes, meshes, textures), the images the CLI itself assembles from them in every
container format, and hypothesis strategies that mutate them, pick option values and set up
input and output paths in a case's workspace.

Nothing here is stored: the images are assembled at first use, the workspace of a case is a
temporary folder.
"""

from __future__ import annotations

import functools
import io
import os
import random
import re
import struct
import zlib
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from PIL import Image

from shaderkit import isa as isas
from shaderkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"

PROCESSORS = tuple(isas.names())  # tpp, theia, rsx, rsx-vp, rsx-fp, vp1, usse
COMMANDS = ("asm", "disasm", "run", "decompile", "flash", "doc")  # bench is slow: left out


def campaign(max_examples: int):
    """Hypothesis settings of one campaign test: a fixed seed (unless SHADERKIT_FUZZ_RANDOM is
    set), no deadline (the harness enforces a wall-time limit per case), no example database,
    no shrinking (a failure reports its command line; shrinking would re-run slow cases), and
    SHADERKIT_FUZZ_SCALE times the examples for a longer campaign."""
    scale = float(os.environ.get("SHADERKIT_FUZZ_SCALE", "1"))
    return settings(max_examples=max(1, round(max_examples * scale)),
                    derandomize=not os.environ.get("SHADERKIT_FUZZ_RANDOM"),
                    deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
                    suppress_health_check=list(HealthCheck), print_blob=False)


# --- seeds -------------------------------------------------------------------------------------

def _files(folder: Path, *patterns: str) -> list[Path]:
    return sorted(path for pattern in patterns for path in folder.glob(pattern))


SOURCES = {
    "tpp": _files(EXAMPLES / "tpp", "*.s") + _files(GOLDEN / "tpp", "*.s"),
    "theia": _files(EXAMPLES / "theia", "*.s", "unit/*.s"),
    "rsx-vp": _files(EXAMPLES / "rsx", "*.vp") + _files(GOLDEN / "rsx" / "asm", "*.vp.txt"),
    "rsx-fp": _files(EXAMPLES / "rsx", "*.fp") + _files(GOLDEN / "rsx" / "asm", "*.fp.txt"),
    "vp1": _files(EXAMPLES / "vp1", "*.s") + _files(GOLDEN / "vp1", "*.s"),
    "usse": _files(EXAMPLES / "usse", "*.s"),
}
SOURCES["rsx"] = SOURCES["rsx-vp"] + SOURCES["rsx-fp"]
SCENES = _files(GOLDEN / "theia" / "scenes", "*/Params.mem")
SCENE_FILES = ("Params.mem", "Vertex.mem", "Textures.mem", "Creg.mem")
MESHES = _files(EXAMPLES / "theia" / "models", "*.obj") + _files(EXAMPLES / "rsx" / "models", "*.obj")
TEXTURES = _files(EXAMPLES / "theia" / "textures", "*.png")
RSX_CONTAINERS = _files(GOLDEN / "rsx" / "real", "*.vpo", "*.fpo")
RSX_UCODE = _files(GOLDEN / "rsx" / "asm", "*.vpo.bin", "*.fpo.bin")
USSE_CONTAINERS = _files(GOLDEN / "usse" / "vectors", "*.gxp")


def formats(processor: str) -> tuple[str, ...]:
    """The output containers ``asm -m processor`` offers: core's, and the processor's own."""
    return ("raw", "hex", "readmemh", "ihex", "c") + tuple(isas.registration(processor).containers)


ALL_FORMATS = ("raw", "hex", "readmemh", "ihex", "c", "imem", "vpo", "fpo", "gxp")


def source_kind(path: Path) -> str:
    """Which RSX program a source holds (for picking the matching variant)."""
    name = path.name
    return "vertex" if name.endswith((".vp", ".vp.txt")) else "fragment"


@functools.cache
def assembled(processor: str, source: Path, fmt: str) -> bytes | None:
    """The image the CLI assembles from ``source`` in ``fmt`` (None: the CLI refuses)."""
    result = CliRunner().invoke(main, ["asm", "-m", processor, str(source), "-f", fmt])
    return result.stdout_bytes if result.exit_code == 0 and result.stdout_bytes else None


def images(processor: str) -> list[tuple[str, str, bytes]]:
    """``(seed name, format, bytes)`` of every seed program in every container it has."""
    found = []
    for source in SOURCES[processor]:
        for fmt in formats(processor):
            data = assembled(processor, source, fmt)
            if data is not None:
                found.append((source.name, fmt, data))
    if processor.startswith("rsx"):
        found += [(path.name, path.suffix[1:], path.read_bytes()) for path in RSX_CONTAINERS]
        found += [(path.name, "raw", path.read_bytes()) for path in RSX_UCODE]
    if processor == "usse":
        found += [(path.name, "gxp", path.read_bytes()) for path in USSE_CONTAINERS]
    return found


IMAGE_SUFFIX = {"raw": ".bin", "hex": ".hex", "readmemh": ".mem", "ihex": ".ihex", "c": ".c",
                "imem": ".mem", "vpo": ".vpo", "fpo": ".fpo", "gxp": ".gxp"}


# --- mutations ---------------------------------------------------------------------------------

# Tokens that broke something in the original campaign, or might: huge and tiny numbers,
# non-ASCII digits, NUL, directives reaching for unreadable files, runaway expressions.
TOKENS = [
    b"0", b"-1", b"65535", b"4294967296", b"9" * 40, b"9" * 5000, b"0x" + b"f" * 40, b"1e308", b"-1e308",
    b"1e-300", b"nan", b"inf", b"-0.0", b"\xc2\xb2", b"\xd9\xa3", b"\xef\xbc\x91", b"\x00", b"\xff\xfe",
    b"\r", b"\t", b"\n\n\n", b" " * 300, b"#", b"//", b";", b":", b",", b"{", b"}", b"[", b"]", b"(", b")",
    b"R0", b"RX", b"c[999999999]", b"R99999", b"o[HPOS]", b"f[TEX9]", b"A0.x", b"label:", b"JMP label",
    b".word 0xffff", b".equ A 1 << 4000", b"A1 = A0*A0\nA2 = A1*A1\nA3 = A2*A2\n",
    b'.include "missing.s"', b'.include "."', b'.include "a\x00b.s"', b'.include "fifo"', b'.include "seed.s"',
    b"#const c[0] = 1 2 3 4", b"#const c[" + b"9" * 5000 + b"] = 1 2 3 4", b"LOOP c[0];", b"ENDLOOP;",
    b"BRA L;", b"L:", b"END", b"!!ARBfp1.0", b"!!ARBvp1.0", b"ENTRYPOINT_ADRR_PSU = 0x20",
    b"SETX R1 1.5", b"32'hFFFFFFFF", b"SWIZZLE_XYZ", b"v 1e308 0 0", b"f 1 2 99999", b"vt nan nan",
    b"f 1/1/1 2/2/2 3/3/3", b"f -1 -2 -3", b"v 0 0 0", b"ffffffff", b"0" * 28 + b"g", b"\xc3\xa9",
]
PRINTABLE = "".join(chr(code) for code in range(32, 127)) + "\t\n"
_BYTES_PER_PIXEL = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4, "P": 1, "I;16": 2}
_NUMBER = re.compile(rb"-?(?:0x)?[0-9A-Fa-f]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?")
_EDGE_NUMBERS = [b"0", b"1", b"-1", b"2", b"7FFFFFFF", b"FFFFFFFF", b"80000000", b"0x7fffffff", b"0xffffffff",
                 b"65535", b"65536", b"4096", b"4097", b"2147483648", b"1e38", b"1e39", b"-1e39", b"3.4e38", b"nan",
                 b"1e-45", b"0.5", b"99999999999999999999", b"-0"]
_INTERESTING_BYTES = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0A, 0x20, 0x2C, 0x2E, 0x30, 0x39, 0x3A, 0x78, 0x67]


@st.composite
def mutated(draw, data: bytes, *, max_edits: int = 4) -> bytes:
    """``data`` after a few byte- and line-level edits (flip, overwrite, insert, delete,
    duplicate, truncate, swap lines, splice an interesting token)."""
    if not _Faults.allowed:
        return data
    edits = draw(st.integers(1, max_edits))
    buffer = bytearray(data)
    for _ in range(edits):
        operation = draw(st.sampled_from(("flip", "byte", "insert", "delete", "duplicate", "truncate",
                                          "token", "token", "number", "number", "line-swap", "line-drop", "line-dup")))
        size = len(buffer)
        position = draw(st.integers(0, max(0, size)))
        if operation == "flip" and size:
            index = min(position, size - 1)
            buffer[index] ^= 1 << draw(st.integers(0, 7))
        elif operation == "byte" and size:
            buffer[min(position, size - 1)] = draw(st.sampled_from(_INTERESTING_BYTES))
        elif operation == "insert":
            buffer[position:position] = draw(st.one_of(st.binary(min_size=1, max_size=8),
                                                       st.text(PRINTABLE, min_size=1, max_size=8).map(str.encode)))
        elif operation == "delete" and size:
            length = draw(st.integers(1, max(1, size // 8)))
            del buffer[position:position + length]
        elif operation == "duplicate" and size:
            length = draw(st.integers(1, max(1, min(size, 256))))
            buffer[position:position] = buffer[position:position + length]
        elif operation == "truncate":
            del buffer[position:]
        elif operation == "token":
            token = draw(st.sampled_from(TOKENS))
            separator = draw(st.sampled_from((b"", b" ", b"\n")))
            buffer[position:position] = separator + token + separator
        elif operation == "number":
            # Another value in a number's place: the field keeps its form, the value goes to an edge.
            numbers_found = list(_NUMBER.finditer(bytes(buffer)))
            if numbers_found:
                found = numbers_found[draw(st.integers(0, len(numbers_found) - 1))]
                buffer[found.start():found.end()] = draw(st.sampled_from(_EDGE_NUMBERS))
        elif operation.startswith("line") and size:
            lines = bytes(buffer).split(b"\n")
            first = draw(st.integers(0, len(lines) - 1))
            second = draw(st.integers(0, len(lines) - 1))
            if operation == "line-swap":
                lines[first], lines[second] = lines[second], lines[first]
            elif operation == "line-drop":
                del lines[first]
            else:
                lines.insert(second, lines[first])
            buffer = bytearray(b"\n".join(lines))
    return bytes(buffer)


def random_text() -> st.SearchStrategy[bytes]:
    """Lines of tokens from the assembly languages, in random order."""
    return st.lists(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=6).map(b" ".join),
                    min_size=0, max_size=12).map(b"\n".join)


def random_bytes() -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=512), st.sampled_from(TOKENS))


# --- PNG textures ------------------------------------------------------------------------------

def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header claims ``width`` × ``height`` (CRCs correct, data short)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\x00" + b"\x80" * 3 * min(width, 64))
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", data) + _png_chunk(b"IEND", b"")


@st.composite
def textures(draw) -> bytes:
    """A PNG: a seed texture mutated, one generated in some mode and size, or one whose
    header claims a huge picture."""
    choice = draw(st.sampled_from(("seed", "mutated", "generated", "generated", "claims")
                                  if _Faults.allowed else ("seed", "generated")))
    if choice in ("seed", "mutated"):
        data = draw(st.sampled_from(TEXTURES)).read_bytes()
        return draw(mutated(data, max_edits=2)) if choice == "mutated" else data
    if choice == "claims":
        return png_claiming(draw(st.sampled_from((0, 1, 20000, 65535, 2**31 - 1))),
                            draw(st.sampled_from((0, 1, 20000, 65535, 2**31 - 1))))
    mode = draw(st.sampled_from(("L", "LA", "RGB", "RGBA", "P", "1", "I;16")))
    width, height = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    row_bytes = (width + 7) // 8 if mode == "1" else width * _BYTES_PER_PIXEL[mode]
    noise = random.Random(draw(st.integers(0, 2**32 - 1))).randbytes(row_bytes * height)
    image = Image.frombytes(mode, (width, height), noise)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class _Faults:
    """Whether the case being drawn may hold faults (mutations, odd values, bad outputs).

    About one case in three is *pristine*: real seeds, ordinary values, outputs a command may
    write; it reaches deep into the commands, where the faulty cases mostly stop at a check."""

    allowed = True


def begin_case(draw) -> bool:
    """Draw whether this case may hold faults; every campaign test calls this first."""
    _Faults.allowed = draw(st.sampled_from((True, True, False)))
    return _Faults.allowed


def faults_allowed() -> bool:
    return _Faults.allowed


def misuse(draw, one_in: int) -> bool:
    """Like :func:`rarely`, for a deliberate fault (an option the processor does not take …)."""
    return _Faults.allowed and rarely(draw, one_in)


def rarely(draw, one_in: int) -> bool:
    """True about once in ``one_in`` draws (hypothesis favours the ends of a range, not its middle)."""
    return draw(st.sampled_from(range(one_in))) == one_in // 2


# --- option values -----------------------------------------------------------------------------

ODD_NUMBERS = ["0", "-1", "1e308", "-1e308", "1e30", "1e-300", "0.0001", "nan", "inf", "-inf", "", " ", "²", "٣", "１",
               "0x10", "1_0", "9" * 5000, "1,2", "--", "-0", "3.5", "1e3", "１２"]


def numbers(low: float, high: float, *, integer: bool = True) -> st.SearchStrategy[str]:
    """Mostly ordinary values in [low, high], sometimes odd ones."""
    ordinary = (st.integers(int(low), int(high)).map(str) if integer else
                st.floats(low, high, allow_nan=False).map(lambda value: f"{value:g}"))
    return mostly(ordinary, st.sampled_from(ODD_NUMBERS), 8)


def mostly(ordinary: st.SearchStrategy, odd: st.SearchStrategy, one_in: int) -> st.SearchStrategy:
    """``ordinary`` values, and ``odd`` ones about once in ``one_in`` draws."""
    return st.sampled_from(range(one_in)).flatmap(
        lambda pick: odd if pick == one_in // 2 and _Faults.allowed else ordinary)


def vectors(count: int, low: float = -20, high: float = 20) -> st.SearchStrategy[str]:
    """``x,y,z``-style lists, mostly well-formed."""
    ordinary = st.lists(st.floats(low, high, allow_nan=False).map(lambda value: f"{value:g}"),
                        min_size=count, max_size=count).map(",".join)
    odd = st.lists(st.sampled_from(ODD_NUMBERS + ["1", "2"]), min_size=0, max_size=count + 2).map(",".join)
    return mostly(ordinary, odd, 6)


def sizes(low: int = 1, high: int = 48) -> st.SearchStrategy[str]:
    """``WxH`` values, mostly small (keeps renders fast), sometimes odd or large."""
    ordinary = st.tuples(st.integers(low, high), st.integers(low, high)).map(lambda size: f"{size[0]}x{size[1]}")
    odd = st.sampled_from(["0x0", "-1x4", "4x", "x4", "4", "4x4x4", "²x2", "2X2", "2×2", "", "1e3x1", "4 x 4",
                           "99999999x99999999", "65536x65536", "4097x1", "1x1", "4.5x4", "nanxnan"])
    return mostly(ordinary, odd, 6)


# --- input and output paths in a case's workspace -------------------------------------------------

ODD_INPUTS = ("missing", "directory", "empty", "fifo", "nul", "empty-name", "long-name", "unicode")


def odd_input(workspace: Path, choice: str) -> str:
    """A path to something that is not a readable input file."""
    if choice == "missing":
        return str(workspace / "does-not-exist.s")
    if choice == "directory":
        return str(workspace)
    if choice == "empty":
        (workspace / "empty.bin").write_bytes(b"")
        return str(workspace / "empty.bin")
    if choice == "fifo":
        os.mkfifo(workspace / "fifo.s")
        return str(workspace / "fifo.s")
    if choice == "nul":
        return str(workspace / "a\0b.s")
    if choice == "empty-name":
        return ""
    if choice == "long-name":
        return str(workspace / ("n" * 300 + ".s"))
    path = workspace / "prögrâm ☃.s"
    path.write_bytes(b"\xff\xfe not text")
    return str(path)


# Mostly outputs a command should write; each way to refuse one now and then.
OUTPUT_CHOICES = ("none",) * 4 + ("new",) * 4 + ("existing",) * 4 + (
    "stdout", "symlink", "read-only", "read-only --force", "directory", "missing-folder", "empty-name",
    "unicode-name", "under-a-file", "dangling-symlink")
KNOWN_CONTENT = b"known content: a failing run must leave this file as it is\n"


VALID_OUTPUTS = ("none", "new", "existing", "stdout", "symlink", "read-only --force", "unicode-name",
                 "dangling-symlink")


def output_path(workspace: Path, choice: str, suffix: str, guarded: list[Path]) -> list[str]:
    """The ``-o`` arguments for ``choice``; paths that must survive a failure go to ``guarded``.
    In a pristine case, a choice a command must refuse becomes "new"."""
    if not _Faults.allowed and choice not in VALID_OUTPUTS:
        choice = "new"
    target = workspace / f"out{suffix}"
    if choice == "none":
        return []
    if choice == "stdout":
        return ["-o", "-"]
    if choice == "empty-name":
        return ["-o", ""]
    if choice == "directory":
        (workspace / "folder").mkdir()
        return ["-o", str(workspace / "folder")]
    if choice == "missing-folder":
        target = workspace / "no-such-folder" / f"out{suffix}"
    elif choice == "under-a-file":
        (workspace / "plain-file").write_bytes(KNOWN_CONTENT)
        guarded.append(workspace / "plain-file")
        target = workspace / "plain-file" / f"out{suffix}"
    elif choice == "unicode-name":
        target = workspace / f"sortie é ☃ {'ü' * 40}{suffix}"
    elif choice == "dangling-symlink":
        target.symlink_to(f"made-through-the-link{suffix}")
        guarded.append(workspace / f"made-through-the-link{suffix}")
    elif choice == "existing":
        target.write_bytes(KNOWN_CONTENT)
    elif choice.startswith("read-only"):
        target.write_bytes(KNOWN_CONTENT)
        target.chmod(0o444)
    elif choice == "symlink":
        real = workspace / f"real{suffix}"
        real.write_bytes(KNOWN_CONTENT)
        target.symlink_to(real.name)
        guarded.append(real)
    guarded.append(target)
    return ["-o", str(target)] + (["--force"] if choice.endswith("--force") else [])


STDIN_FILE = "standard-input.bin"


def write_input(workspace: Path, name: str, data: bytes) -> Path:
    path = workspace / name
    path.write_bytes(data)
    return path


# --- a program to feed a command ---------------------------------------------------------------

def seed_images(processor: str) -> list[tuple[Path, str]]:
    """``(source, format)`` pairs to assemble lazily, plus the stored RSX binaries."""
    return [(source, fmt) for source in SOURCES[processor] for fmt in formats(processor)]


def program_input(draw, workspace: Path, processor: str, *, sources: bool = True,
                  images: bool = True, variant: str | None = None) -> tuple[str, str, list[str]]:
    """Draw a program for ``processor``: ``(input kind, path, extra arguments)``.

    Kinds: ``source`` (a seed source, mutated), ``image`` (a seed assembled by the CLI in one of
    the processor's containers, mutated), ``random`` (random bytes or token soup), ``odd path``
    (missing, a directory, a FIFO, a NUL in the name …). ``variant`` limits RSX seeds to
    vertex or fragment programs.
    """
    (workspace / "seed.s").write_bytes(b"")
    os.mkfifo(workspace / "fifo")
    kinds = (["source"] * 3 if sources else []) + (["image"] * 3 if images else []) + ["random", "odd path", "stdin"]
    if not _Faults.allowed:
        kinds = (["source"] if sources else []) + (["image"] if images else [])
    kind = draw(st.sampled_from(kinds))
    pool = [path for path in SOURCES[processor] if variant is None or source_kind(path) == variant]
    if kind == "source":
        seed = draw(st.sampled_from(pool))
        (workspace / "seed.s").write_bytes(seed.read_bytes())
        text = seed.read_bytes()
        path = write_input(workspace, seed.name, draw(st.one_of(mutated(text), mutated(text, max_edits=1),
                                                                st.just(text))))
        return kind if _Faults.allowed else "seed", str(path), draw(st.sampled_from(([], [], ["-f", "source"])))
    if kind == "image":
        choices = [(seed, fmt) for seed in pool for fmt in formats(processor)]
        if processor.startswith("rsx"):
            stored = [path for path in RSX_CONTAINERS + RSX_UCODE
                      if variant is None or (path.name.startswith("vp") or ".vpo" in path.name) == (variant == "vertex")]
            choices += [(path, None) for path in stored]
        seed, fmt = draw(st.sampled_from(choices))
        if fmt is None:
            data, fmt = seed.read_bytes(), ("raw" if seed.suffix == ".bin" else seed.suffix[1:])
        else:
            data = assembled(processor, seed, fmt) or b""
        data = draw(st.one_of(st.just(data), mutated(data)))
        path = write_input(workspace, "program" + IMAGE_SUFFIX[fmt], data)
        if not _Faults.allowed:
            return "seed image", str(path), draw(st.sampled_from(([], ["-f", fmt])))
        return kind, str(path), draw(st.sampled_from(([], ["-f", fmt], ["-f", draw(st.sampled_from(ALL_FORMATS))])))
    if kind == "random":
        data = draw(st.one_of(random_bytes(), random_text()))
        name = draw(st.sampled_from(("program.s", "program.bin", "program.hex", "program.fpo", "program.vpo",
                                     "program.mem", "program.fp", "program.vp", "program")))
        return kind, str(write_input(workspace, name, data)), []
    if kind == "stdin":
        # The harness feeds STDIN_FILE to the command; '-' reads it.
        seed = draw(st.sampled_from(pool))
        as_image = images and (not sources or draw(st.booleans()))
        data = assembled(processor, seed, draw(st.sampled_from(formats(processor)))) if as_image else None
        write_input(workspace, STDIN_FILE, draw(st.one_of(st.just(data or seed.read_bytes()), random_bytes())))
        return kind, "-", ([] if data is not None else ["-f", "source"])
    return kind, odd_input(workspace, draw(st.sampled_from(ODD_INPUTS))), []
