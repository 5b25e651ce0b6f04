"""THEIA scene files: reading, validating and writing them, and building scenes from OBJ models.

A THEIA scene is the four ``$readmemh`` text files the host loads before a render
(spec/theia.md §7): ``Params.mem`` (configuration rows: lights, camera, projection
window, resolution, texture size, one (initial, final) pixel-position pair per core,
then light records), ``Vertex.mem`` (the geometry unit's word stream: node headers
and 21-word triangles), ``Textures.mem`` (texels, 3 words R, G, B each) and
``Creg.mem`` (the control register). This module owns the :class:`Scene` value that
holds them as words, the parser with its layout detection (V1 versus the V2-era files
shipped with later upstream revisions), the writer, and :func:`scene_from_obj`, which
turns a Wavefront OBJ model plus an image into a scene the default microcode renders.

Every malformed input raises :class:`~shaderkit.core.diagnostics.InputError` with one
line naming the file (and the line where there is one).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...core.diagnostics import InputError
from ...core.fileio import read_file_bytes, write_text_atomic
from ...render.mesh import load_obj, order_one_scale
from .fixedpoint import ONE, SCALE, from_fixed, to_fixed

FRACTION_BITS = SCALE
FIXED_LIMIT = 16384.0  # |value| must stay below this to fit 32 bits with 17 fraction bits

PARAMS_FILE = "Params.mem"
VERTEX_FILE = "Vertex.mem"
TEXTURES_FILE = "Textures.mem"
CONTROL_FILE = "Creg.mem"

CONFIG_ROWS = 6  # rows 0..5 go to every core
ROW_RESOLUTION = 4
ROW_TEXTURE_SIZE = 5
NODE_HEADER_WORDS = 10
TRIANGLE_WORDS = 21
NODE_WORD_TRIANGLE_COUNT = 6
NODE_WORD_DATA_OFFSET = 7
DATA_OFFSET_UPSTREAM = 10 * ONE  # upstream writes "140000" ("10": triangles start at word 10)
CONTROL_TEXTURE_BIT = 1 << 1
CONTROL_LIMIT = 0xFFFF  # the control register is 16 bits wide (spec §7.4)
# The only value the V2-era files agree on; the default microcode never reads it.
CONFIGURATION_PACKET_COUNT = 7

LAYOUTS = ("V1", "V2")

# Scene builder limits and defaults (see scene_from_obj).
MAX_TRIANGLES = 0xFFFF  # the node header's comment reserves 16 bits for the triangle count
MAX_AUTO_TEXTURE_SIZE = 512
DEFAULT_OBJ_CORES = 4  # core bands an OBJ scene's parameter file describes unless told
MAX_TEXTURE_SIZE = 4096
FRAME_RADIUS = 4.0  # half-diagonal of the normalised mesh: the scale of the upstream examples
DEFAULT_CAMERA = (3.0, -3.6, 12.0)  # +z side, a little right and above (+Y is down the image)
WINDOW_MARGIN = 0.05  # fraction of the projected extent added on each side
NO_HIT_DISTANCE = 250.0  # LAST_t's reset value: the microcode ignores hits at or beyond it
UNTEXTURED_DIFFUSE = (0.8, 0.8, 0.8)


def _to_fixed(value: float, what: str = "value") -> int:
    """``to_fixed`` with the value's role in the one-line error a user sees."""
    try:
        return to_fixed(value)
    except ValueError:
        raise InputError(f"{what} {value!r} is outside the fixed-point range (-16384 .. 16383.99999)") from None


def _to_fixed_array(values: np.ndarray) -> np.ndarray:
    """Vectorised ``to_fixed`` (same round-half-up rule) for values already range-checked."""
    return (np.floor(values * ONE + 0.5).astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)


def _signed(words: np.ndarray) -> np.ndarray:
    return np.asarray(words, dtype=np.uint32).view(np.int32).astype(np.int64)


def _row(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.uint32)


@dataclass(eq=False)
class Scene:
    """One THEIA scene as the words the host sends (compare fields with ``np.array_equal``)."""

    config: np.ndarray  # (6, 3) uint32: rows 0..5 sent to every core
    cores: list[tuple[np.ndarray, np.ndarray]]  # per core: (initial, final) position rows
    lights: list[tuple[np.ndarray, np.ndarray]]  # (position, diffuse) rows after the cores
    vertex_memory: np.ndarray  # 1-D uint32: the whole Vertex.mem word stream
    texture: np.ndarray | None  # (H, W, 3) uint32 texel words R, G, B, or None
    control: int  # Creg.mem (bit 1 = texture enable)
    layout: str = "V1"  # "V1" or "V2": how Params.mem / Textures.mem were laid out
    notes: list[str] = field(default_factory=list)  # non-fatal remarks

    @property
    def width(self) -> int:
        return int(self.config[ROW_RESOLUTION, 0]) >> FRACTION_BITS

    @property
    def height(self) -> int:
        return int(self.config[ROW_RESOLUTION, 1]) >> FRACTION_BITS

    @property
    def texture_enabled(self) -> bool:
        return bool(self.control & CONTROL_TEXTURE_BIT)

    @property
    def triangle_count(self) -> int:
        """Triangles in the root node (the whole header word, as every shipped file uses it)."""
        return int(self.vertex_memory[NODE_WORD_TRIANGLE_COUNT])


# --------------------------------------------------------------------------- $readmemh text

_HEX_WORD = re.compile(r"[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*")


def read_mem_words(text: str, source: str) -> np.ndarray:
    """The words of ``$readmemh`` text as uint32.

    Accepted: whitespace-separated hexadecimal words (Verilog's ``_`` digit separators
    allowed), ``//`` comments anywhere on a line, blank lines, any line endings.
    Rejected with ``source:line``: non-hex tokens (including Verilog's x/z digits and
    ``0x`` prefixes), words wider than 32 bits, and ``@address`` directives: the host
    streams these files word by word from the start, so an address jump has no meaning
    for a scene (no upstream file has one) and silently ignoring it would shift data.
    """
    words: list[int] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        content = line.split("//", 1)[0]
        for token in content.split():
            if not _HEX_WORD.fullmatch(token):
                if token.startswith("@"):
                    raise InputError(
                        f"{source}:{line_number}: address directive '{token}' is not supported "
                        "(scene files are streamed from the first word)"
                    )
                raise InputError(f"{source}:{line_number}: '{token}' is not a hexadecimal word")
            value = int(token, 16)
            if value > 0xFFFFFFFF:
                raise InputError(f"{source}:{line_number}: '{token}' is wider than 32 bits")
            words.append(value)
    return np.array(words, dtype=np.uint32)


def _read_mem_file(path: Path) -> np.ndarray:
    data = read_file_bytes(path)
    return read_mem_words(data.decode("utf-8", errors="replace"), str(path))


# --------------------------------------------------------------------------- loading


def load_scene(directory: str | Path) -> Scene:
    """Read and validate the scene files in ``directory`` (spec §7).

    Layouts are told apart by word counts, never by the V2 count word's value:
    ``Params.mem`` with a multiple of 3 words is V1, with ``3k + 1`` words V2-era (the
    leading word is skipped with a note). Cores are not listed anywhere, so after the
    six configuration rows (initial, final) pairs are taken as cores while the final
    row's X equals the resolution width (every core's final position is (W, yend, 0));
    the rows after that are light records (position, diffuse). ``Textures.mem`` is
    optional when the control register's texture bit is clear.
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise InputError(f"{folder}: no such scene folder")
    notes: list[str] = []
    config, cores, lights, layout = _parse_params(_read_mem_file(folder / PARAMS_FILE), folder / PARAMS_FILE, notes)
    vertex_memory = _check_vertex_memory(_read_mem_file(folder / VERTEX_FILE), folder / VERTEX_FILE, notes)
    control = _parse_control(_read_mem_file(folder / CONTROL_FILE), folder / CONTROL_FILE)

    texture_path = folder / TEXTURES_FILE
    texture = None
    if texture_path.exists():
        texture_words = _read_mem_file(texture_path)
        texture = _parse_texture(texture_words, texture_path, config, folder / PARAMS_FILE, layout, notes)
    elif control & CONTROL_TEXTURE_BIT:
        raise InputError(
            f"{texture_path}: no such file, but {CONTROL_FILE} enables texturing (bit 1 of {control:#x})"
        )
    return Scene(config, cores, lights, vertex_memory, texture, control, layout, notes)


def _parse_params(words: np.ndarray, path: Path, notes: list[str]):
    if len(words) % 3 == 1:
        layout = "V2"
        notes.append(f"{path.name}: V2-era layout, leading word count {int(words[0]):#x} skipped")
        words = words[1:]
    elif len(words) % 3 == 0:
        layout = "V1"
    else:
        raise InputError(
            f"{path}: {len(words)} words; expected whole rows of 3 words (V1) "
            "or one count word plus whole rows (V2-era)"
        )
    rows = words.reshape(-1, 3)
    if len(rows) < CONFIG_ROWS + 2:
        raise InputError(
            f"{path}: {len(rows)} rows; need the {CONFIG_ROWS} configuration rows and at least one core "
            "(initial and final pixel position)"
        )
    config = rows[:CONFIG_ROWS].copy()
    width_word = int(config[ROW_RESOLUTION, 0])
    for lane, name in ((0, "width"), (1, "height")):
        word = int(config[ROW_RESOLUTION, lane])
        if word == 0 or word & 0x80000000 or word & (ONE - 1):
            raise InputError(
                f"{path}: resolution {name} {from_fixed(word):g} (row {ROW_RESOLUTION}, word {word:#x}) "
                "is not a positive whole number"
            )
    width, height = width_word >> FRACTION_BITS, int(config[ROW_RESOLUTION, 1]) >> FRACTION_BITS
    if width != height:
        notes.append(
            f"{path.name}: resolution {width}x{height} is not square; the V1 microcode strides "
            "pixel rows by the height, so only square images are laid out correctly"
        )

    cores = []
    index = CONFIG_ROWS
    while index + 1 < len(rows) and int(rows[index + 1, 0]) == width_word:
        cores.append((rows[index].copy(), rows[index + 1].copy()))
        index += 2
    if not cores:
        raise InputError(
            f"{path}: no core rows: row {CONFIG_ROWS + 1} (the first core's final position) "
            f"must have X = the resolution width {width} ({width_word:x})"
        )
    remaining = rows[index:]
    lights = [(remaining[k].copy(), remaining[k + 1].copy()) for k in range(0, len(remaining) - 1, 2)]
    if len(remaining) % 2:
        notes.append(f"{path.name}: last row after the light records has no partner; ignored")
    return config, cores, lights, layout


def _check_vertex_memory(words: np.ndarray, path: Path, notes: list[str]) -> np.ndarray:
    if len(words) < NODE_HEADER_WORDS:
        raise InputError(f"{path}: {len(words)} words; the root node header alone needs {NODE_HEADER_WORDS}")
    count = int(words[NODE_WORD_TRIANGLE_COUNT])
    needed = NODE_HEADER_WORDS + TRIANGLE_WORDS * count
    if len(words) < needed:
        raise InputError(
            f"{path}: truncated: the root node declares {count} triangles ({needed} words with the header) "
            f"but the file has {len(words)} words"
        )
    if int(words[NODE_WORD_DATA_OFFSET]) != DATA_OFFSET_UPSTREAM:
        notes.append(
            f"{path.name}: offset-to-data word is {int(words[NODE_WORD_DATA_OFFSET]):#x}, not 0x140000 "
            "(10.0) as in every upstream scene; triangles are still read from word 10"
        )
    return words


def _parse_control(words: np.ndarray, path: Path) -> int:
    if len(words) != 1:
        what = "no word" if len(words) == 0 else f"{len(words)} words"
        raise InputError(f"{path}: {what}; expected exactly one (the control register)")
    value = int(words[0])
    if value > CONTROL_LIMIT:
        raise InputError(f"{path}: control register {value:#x} is wider than 16 bits")
    return value


def _texture_side(config: np.ndarray, params_path: Path) -> int:
    """The texture's side length from config row 5; it must be a square power of two."""
    width_word, height_word = int(config[ROW_TEXTURE_SIZE, 0]), int(config[ROW_TEXTURE_SIZE, 1])
    width, height = from_fixed(width_word), from_fixed(height_word)
    side = width_word >> FRACTION_BITS
    if (
        width_word != height_word
        or width_word & (ONE - 1)
        or width_word & 0x80000000
        or side == 0
        or side & (side - 1)
    ):
        raise InputError(
            f"{params_path}: texture size {width:g}x{height:g} (row {ROW_TEXTURE_SIZE}) is not a square power "
            "of two; the texture unit's wrap-around addressing only works for those"
        )
    return side


def _parse_texture(
    words: np.ndarray, path: Path, config: np.ndarray, params_path: Path, layout: str, notes: list[str]
) -> np.ndarray:
    side = _texture_side(config, params_path)
    texel_words = 3 * side * side
    if len(words) == texel_words + 2:
        if int(words[0]) != side or int(words[1]) != side:
            raise InputError(
                f"{path}: header words {int(words[0]):x} {int(words[1]):x} do not match the texture size "
                f"{side}x{side} ({side:x} {side:x}) of {params_path.name}"
            )
        texels, texture_layout = words[2:], "V1"
    elif len(words) == texel_words:
        texels, texture_layout = words, "V2"
    else:
        raise InputError(
            f"{path}: {len(words)} words; a {side}x{side} texture needs {texel_words + 2} "
            f"(V1: header + texels) or {texel_words} (V2-era: texels only)"
        )
    if texture_layout != layout:
        has = "has the V1 header" if texture_layout == "V1" else "has no header (V2-era)"
        notes.append(f"{path.name}: {has} although {params_path.name} is {layout}")
    return texels.reshape(side, side, 3).copy()


# --------------------------------------------------------------------------- queries


def triangles(scene: Scene) -> np.ndarray:
    """The root node's triangles, (count, 21) uint32 in file order.

    Columns: V0 xyz, UV0 (u, v, alpha), V1, UV1, V2, UV2, diffuse rgb. They are taken
    from word 10 on, where every shipped scene has them (spec §7.2).
    """
    count = scene.triangle_count
    end = NODE_HEADER_WORDS + TRIANGLE_WORDS * count
    if len(scene.vertex_memory) < end:
        raise InputError(
            f"vertex memory holds {len(scene.vertex_memory)} words but the root node declares {count} triangles"
        )
    return scene.vertex_memory[NODE_HEADER_WORDS:end].reshape(count, TRIANGLE_WORDS).copy()


# --------------------------------------------------------------------------- writing


def write_scene(scene: Scene, directory: str | Path, layout: str = "V1") -> None:
    """Write ``scene`` as the four ``.mem`` files in ``directory`` (created if needed).

    ``layout`` "V1" writes Params.mem as plain rows and Textures.mem with its width/height
    header; "V2" writes the V2-era form (a leading count word ``3·(6 + 2·cores)`` and a
    headerless texture). Each file is written atomically. A scene without a texture gets
    no Textures.mem, and a Textures.mem left in the directory by an earlier scene is
    removed so the folder always describes exactly this scene.
    """
    if layout not in LAYOUTS:
        raise InputError(f"unknown scene layout '{layout}' (known: {', '.join(LAYOUTS)})")
    _check_scene_for_writing(scene)
    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(folder / PARAMS_FILE, _params_text(scene, layout))
        write_text_atomic(folder / VERTEX_FILE, _vertex_text(scene))
        texture_path = folder / TEXTURES_FILE
        if scene.texture is None:
            texture_path.unlink(missing_ok=True)
        else:
            write_text_atomic(texture_path, _texture_text(scene.texture, layout))
        write_text_atomic(folder / CONTROL_FILE, _control_text(scene.control))
    except OSError as error:
        raise InputError(f"{folder}: cannot write scene ({error.strerror or error})") from None


def _check_scene_for_writing(scene: Scene) -> None:
    """Refuse scenes whose files would not read back as the same scene."""
    config = np.asarray(scene.config)
    if config.shape != (CONFIG_ROWS, 3):
        raise InputError(f"scene config must have shape (6, 3), not {config.shape}")
    width_word = int(config[ROW_RESOLUTION, 0])
    for word in (width_word, int(config[ROW_RESOLUTION, 1])):
        if word == 0 or word & 0x80000000 or word & (ONE - 1):
            raise InputError(f"scene resolution word {word:#x} is not a positive whole number in fixed point")
    if not scene.cores:
        raise InputError("scene has no cores")
    for index, (initial, final) in enumerate(scene.cores):
        if np.shape(initial) != (3,) or np.shape(final) != (3,):
            raise InputError(f"core {index}: position rows must have 3 words")
        if int(final[0]) != width_word:
            raise InputError(
                f"core {index}: final position X {int(final[0]):#x} must equal the resolution width "
                f"{width_word:#x} (that is how the reader finds the core rows)"
            )
    for index, (position, diffuse) in enumerate(scene.lights):
        if np.shape(position) != (3,) or np.shape(diffuse) != (3,):
            raise InputError(f"light {index}: rows must have 3 words")
    if scene.lights and int(scene.lights[0][1][0]) == width_word:
        raise InputError(
            "light 0's diffuse X equals the resolution width, so the file would read back with one more core"
        )
    memory = np.asarray(scene.vertex_memory)
    if memory.ndim != 1 or len(memory) < NODE_HEADER_WORDS:
        raise InputError("vertex memory must be a 1-D word array with at least the 10-word node header")
    triangles(scene)  # raises when the declared triangles do not fit
    if not 0 <= scene.control <= CONTROL_LIMIT:
        raise InputError(f"control register {scene.control:#x} must fit 16 bits")
    if scene.texture is None:
        if scene.control & CONTROL_TEXTURE_BIT:
            raise InputError("scene enables texturing (control bit 1) but has no texture")
        return
    side = _texture_side(config, Path("scene config"))
    if np.shape(scene.texture) != (side, side, 3):
        raise InputError(
            f"texture shape {np.shape(scene.texture)} does not match the texture size {side}x{side} in config row 5"
        )


def _words_line(words, comment: str = "") -> str:
    text = " ".join(format(int(word), "x") for word in words)
    return f"{text}\t// {comment}" if comment else text


def _fixed_text(words) -> str:
    return ", ".join(f"{from_fixed(word):g}" for word in words)


def _params_text(scene: Scene, layout: str) -> str:
    config = scene.config
    lines = [f"// THEIA scene parameters, {layout} layout: rows of 3 words, fixed point with 17 fraction bits"]
    if layout == "V2":
        sent = 3 * (CONFIG_ROWS + 2 * len(scene.cores))
        lines.append(_words_line([sent], f"number of words to send ({sent})"))
    lines += [
        "// <Environment Light>, <Number of Lights>, <Configuration Packet Count>",
        _words_line(config[0]),
        "// <Camera X>, <Camera Y>, <Camera Z>",
        _words_line(config[1], _fixed_text(config[1])),
        "// <Projection Window Xmin>, <Projection Window Ymin>, <NULL>",
        _words_line(config[2], _fixed_text(config[2][:2])),
        "// <Projection Window Xmax>, <Projection Window Ymax>, <NULL>",
        _words_line(config[3], _fixed_text(config[3][:2])),
        "// <Width>, <Height>, <NULL>",
        _words_line(config[4], f"{scene.width} x {scene.height}"),
        "// <Texture Width>, <Texture Height>, <NULL>",
        _words_line(config[5], _fixed_text(config[5][:2])),
    ]
    for index, (initial, final) in enumerate(scene.cores):
        lines.append(f"// Core {index}: pixel 2D initial position, final position (x, y, 0)")
        lines.append(_words_line(initial, _fixed_text(initial[:2])))
        lines.append(_words_line(final, _fixed_text(final[:2])))
    for index, (position, diffuse) in enumerate(scene.lights):
        lines.append(f"// Light {index}: position, diffuse (not loaded by the V1 host)")
        lines.append(_words_line(position, _fixed_text(position)))
        lines.append(_words_line(diffuse, _fixed_text(diffuse)))
    return "\n".join(lines) + "\n"


def _vertex_text(scene: Scene) -> str:
    memory = np.asarray(scene.vertex_memory, dtype=np.uint32)
    count = scene.triangle_count
    lines = [
        "// Root node",
        "// AABBMIN, AABBMAX",
        _words_line(memory[0:3], _fixed_text(memory[0:3])),
        _words_line(memory[3:6], _fixed_text(memory[3:6])),
        "// # Childs 16 bits + #triangles 16 bits (0 means no leaf)",
        _words_line(memory[6:7], str(count)),
        "// Offset to data",
        _words_line(memory[7:8]),
        "// Address of next brother (zero means NULL)",
        _words_line(memory[8:9]),
        "// Address of parent's brother",
        _words_line(memory[9:10]),
    ]
    for index, triangle in enumerate(triangles(scene)):
        lines.append(f"// Triangle {index}: V0, UV0, V1, UV1, V2, UV2 (u v alpha), diffuse")
        lines += [_words_line(triangle[start : start + 3]) for start in range(0, TRIANGLE_WORDS, 3)]
    rest = memory[NODE_HEADER_WORDS + TRIANGLE_WORDS * count :]
    if len(rest):
        lines.append("// Further words (other nodes)")
        lines += [_words_line(rest[start : start + 3]) for start in range(0, len(rest), 3)]
    return "\n".join(lines) + "\n"


def _texture_text(texture: np.ndarray, layout: str) -> str:
    side = texture.shape[0]
    lines = ["// THEIA texture map: texels row-major, R G B (fixed point, 1.0 = 20000)"]
    if layout == "V1":
        lines += ["// Width Height", _words_line([side, side])]
    texels = np.asarray(texture, dtype=np.uint32).reshape(-1, 3).tolist()
    lines += [f"{r:x} {g:x} {b:x}" for r, g, b in texels]
    return "\n".join(lines) + "\n"


def _control_text(control: int) -> str:
    return (
        "// THEIA control register\n"
        "// b0: CR_EN_LIGHTS, b1: CR_EN_TEXTURE, b2: CR_EN_USER_CODE\n"
        f"{control:x}\n"
    )


def _is_power_of_two(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def _load_texture(path: Path, texture_size: int | None, notes: list[str]) -> np.ndarray:
    """An image as (side, side, 3) texel words, resampled to a square power of two if needed."""
    from PIL import Image

    from ...render.images import read_picture
    image = Image.fromarray(read_picture(path, "RGB", MAX_TEXTURE_SIZE))
    width, height = image.size
    if texture_size is not None:
        side = texture_size
    elif width == height and _is_power_of_two(width):
        side = width
    else:
        side = 1 << max(0, round(math.log2(max(width, height))))
        side = min(side, MAX_AUTO_TEXTURE_SIZE)
    if (width, height) != (side, side):
        image = image.resize((side, side), Image.Resampling.LANCZOS)
        reason = "" if texture_size is not None else " (not a square power of two)"
        notes.append(f"{path.name}: {width}x{height}{reason} resampled to {side}x{side}")
    channels = np.asarray(image, dtype=np.float64)
    return np.round(channels / 255.0 * ONE).astype(np.uint32)


def _project_to_window(points: np.ndarray, camera: np.ndarray) -> np.ndarray:
    """Where the rays from ``camera`` through ``points`` cross the window plane z = 0."""
    along = camera[2] / (camera[2] - points[:, 2])
    return camera[:2] + (points[:, :2] - camera[:2]) * along[:, None]


def _frame_window(points: np.ndarray, camera: np.ndarray, resolution: tuple[int, int]):
    """The smallest window (with a margin) around the projected mesh whose pixels are square."""
    projected = _project_to_window(points, camera)
    low, high = projected.min(axis=0), projected.max(axis=0)
    centre = (low + high) / 2
    span = (high - low) * (1 + 2 * WINDOW_MARGIN)
    width, height = resolution
    pixel = max(span[0] / width, span[1] / height, 1e-3)
    half = np.array([pixel * width, pixel * height]) / 2
    return (tuple(centre - half), tuple(centre + half))


def scene_from_obj(
    obj_path: str | Path,
    texture_path: str | Path | None = None,
    *,
    resolution: tuple[int, int] = (128, 128),
    camera: tuple[float, float, float] | None = None,
    window: tuple[tuple[float, float], tuple[float, float]] | None = None,
    texture_size: int | None = None,
    cores: int | None = None,
    control: int | None = None,
    diffuse: tuple[float, float, float] = UNTEXTURED_DIFFUSE,
) -> Scene:
    """Build a scene (one leaf root node) from a Wavefront OBJ model and an optional image.

    Placement: the model is mapped into THEIA world coordinates as
    ``((x - cx)·s, -(y - cy)·s, (z - cz)·s)``: centred on its bounding box and scaled so
    the box's half-diagonal is 4.0 (the scale of the upstream examples, which keeps every
    product in the microcode's exact fixed-point range), with Y negated because THEIA's
    image row is world +Y (+Y points down the picture) while OBJ models are Y-up. The
    reflection would turn every triangle's winding, so V1 and V2 are swapped to keep
    CROSS(E1, E2) pointing out of the model, as PSU's lighting expects.

    ``camera`` and ``window`` are THEIA world coordinates (the values of Params.mem rows
    1..3). By default the camera sits at (3, -3.6, 12): on the +z side like the upstream
    examples, slightly right of and above the model. The default window is the rectangle
    in the plane z = 0 that the model's projection from the camera covers, plus 5% on
    each side, widened so pixels are square. The whole model must lie in front of the
    camera and closer than 250.0 (the microcode's "no hit" distance).

    Texture: any Pillow-readable image, stored top row first; THEIA's texel rows count
    downwards like its image rows (spec §6.7, and the upstream example1 quad puts v = 0 at
    the picture's top), so OBJ's v (0 at the image bottom) is stored as ``1 - v``. An image
    that is not a square power of two is resampled to the nearest one (at most 512, or to
    ``texture_size``) with a note. Without a texture the control register is 5 (texturing
    off) and every triangle gets the ``diffuse`` colour. One light record is written at
    the camera position with diffuse (1, 1, 1) (the V1 host does not load it).

    ``cores`` splits the image into bands of ``height // cores`` rows, the last core
    taking the remainder (default :data:`DEFAULT_OBJ_CORES`, or one per row when the image
    has fewer rows). At most 65535 triangles (the node header's comment reserves
    16 bits for the count); degenerate ones (zero area after rounding) are dropped.
    """
    obj_path = Path(obj_path)
    width, height = _check_resolution(resolution)
    if cores is None:
        cores = min(DEFAULT_OBJ_CORES, height)
    if not isinstance(cores, int) or not 1 <= cores <= height:
        raise InputError(f"cores must be a whole number from 1 to the image height {height}, not {cores!r}")
    if texture_size is not None and (
        not isinstance(texture_size, int) or not _is_power_of_two(texture_size) or texture_size > MAX_TEXTURE_SIZE
    ):
        raise InputError(f"texture size {texture_size!r} must be a power of two from 1 to {MAX_TEXTURE_SIZE}")
    if texture_size is not None and texture_path is None:
        raise InputError("a texture size was given without a texture image")
    if control is None:
        control = 7 if texture_path is not None else 5
    if not isinstance(control, int) or not 0 <= control <= CONTROL_LIMIT:
        raise InputError(f"control register {control!r} must be a 16-bit value")
    if control & CONTROL_TEXTURE_BIT and texture_path is None:
        raise InputError(f"control register {control:#x} enables texturing (bit 1) but no texture image was given")

    mesh = load_obj(obj_path)
    notes = list(mesh.notes)
    if mesh.triangle_count > MAX_TRIANGLES:
        raise InputError(
            f"{obj_path}: {mesh.triangle_count} triangles; the scene builder's limit is {MAX_TRIANGLES} "
            "(the node header reserves 16 bits for the count)"
        )

    used = np.unique(mesh.position_index)
    # Placement is scale-free: at order 1 (an exact power-of-two scaling, see order_one_scale)
    # coordinates near the float maximum cannot overflow in the extent computed below.
    world = mesh.positions * np.array([1.0, -1.0, 1.0]) * order_one_scale(mesh.positions[used])
    low, high = world[used].min(axis=0), world[used].max(axis=0)
    half_diagonal = float(np.linalg.norm(high - low)) / 2
    if half_diagonal == 0:
        raise InputError(f"{obj_path}: all face vertices coincide; nothing to render")
    world = (world - (low + high) / 2) * (FRAME_RADIUS / half_diagonal)
    unused = np.ones(len(world), dtype=bool)
    unused[used] = False
    world[unused] = 0.0  # vertices no face uses may lie anywhere; keep them out of the arithmetic
    # Work with the positions the hardware will see, so bounds and checks are exact.
    world_words = _to_fixed_array(world).reshape(-1, 3)
    world = _signed(world_words) / ONE

    camera_position = np.array(DEFAULT_CAMERA if camera is None else camera, dtype=np.float64)
    if camera_position.shape != (3,) or not np.all(np.isfinite(camera_position)):
        raise InputError(f"camera must be three numbers (x, y, z), not {camera!r}")
    for coordinate in camera_position:  # before any arithmetic with it, which could overflow
        _to_fixed(float(coordinate), "camera coordinate")
    _check_camera(camera_position, world[used], obj_path)
    if window is None:
        window = _frame_window(world[used], camera_position, (width, height))
    (xmin, ymin), (xmax, ymax) = _check_window(window)

    texture = None
    if texture_path is not None:
        texture = _load_texture(Path(texture_path), texture_size, notes)

    # Swap V1 and V2: the Y reflection reverses every triangle's winding.
    corner_order = [0, 2, 1]
    position_index = mesh.position_index[:, corner_order]
    texcoord_index = mesh.texcoord_index[:, corner_order]
    corners = world[position_index]  # (F, 3 corners, xyz) as the hardware will see them
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    keep = np.any(normals != 0, axis=1)
    dropped = int((~keep).sum())
    if dropped:
        notes.append(f"{obj_path.name}: {dropped} degenerate triangle(s) dropped")
    if not keep.any():
        raise InputError(f"{obj_path}: every triangle is degenerate; nothing to render")
    position_index, texcoord_index = position_index[keep], texcoord_index[keep]

    # THEIA (u, v): OBJ's v counts up from the image bottom, THEIA's texel rows count down.
    # A corner without a texture coordinate gets (0, 0).
    obj_uv = np.vstack([mesh.texcoords, [[0.0, 1.0]]])  # index -1 picks the (0, 0) entry
    uv = obj_uv[texcoord_index] * np.array([1.0, -1.0]) + np.array([0.0, 1.0])
    if np.any(np.abs(uv) >= FIXED_LIMIT):
        raise InputError(f"{obj_path}: a texture coordinate is outside the fixed-point range")
    uv_words = _to_fixed_array(uv)
    count = len(position_index)
    colour = (1.0, 1.0, 1.0) if texture is not None else diffuse
    diffuse_words = np.array([_to_fixed(float(c), "diffuse colour") for c in colour], dtype=np.uint32)
    triangle_words = np.empty((count, 3, 6), dtype=np.uint32)
    triangle_words[:, :, 0:3] = world_words[position_index]
    triangle_words[:, :, 3:5] = uv_words
    triangle_words[:, :, 5] = ONE  # alpha
    triangle_words = np.hstack([triangle_words.reshape(count, 18), np.tile(diffuse_words, (count, 1))])

    used_words = _signed(world_words[used])
    header = [
        *(int(word) & 0xFFFFFFFF for word in used_words.min(axis=0)),
        *(int(word) & 0xFFFFFFFF for word in used_words.max(axis=0)),
        count,
        DATA_OFFSET_UPSTREAM,
        0,
        0,
    ]
    vertex_memory = np.concatenate([np.array(header, dtype=np.uint32), triangle_words.reshape(-1)])

    side = 0 if texture is None else texture.shape[0]
    camera_row = _row(*(_to_fixed(float(c), "camera coordinate") for c in camera_position))
    lights = []
    if width != 1:  # a diffuse X of 1.0 would read back as one more core when the width is 1
        lights.append((camera_row.copy(), _row(ONE, ONE, ONE)))
    config = np.array(
        [
            [0, _to_fixed(float(len(lights))), CONFIGURATION_PACKET_COUNT],
            camera_row,
            [_to_fixed(xmin, "window xmin"), _to_fixed(ymin, "window ymin"), 0],
            [_to_fixed(xmax, "window xmax"), _to_fixed(ymax, "window ymax"), 0],
            [width << FRACTION_BITS, height << FRACTION_BITS, 0],
            [side << FRACTION_BITS, side << FRACTION_BITS, 0],
        ],
        dtype=np.uint32,
    )
    band = height // cores
    core_rows = []
    for index in range(cores):
        first_row = index * band
        end_row = height if index == cores - 1 else first_row + band
        initial = _row(0, first_row << FRACTION_BITS, 0)
        final = _row(width << FRACTION_BITS, end_row << FRACTION_BITS, 0)
        core_rows.append((initial, final))
    if width != height:
        notes.append(
            f"resolution {width}x{height} is not square; the V1 microcode strides pixel rows by the height, "
            "so only square images are laid out correctly"
        )
    return Scene(config, core_rows, lights, vertex_memory, texture, control, "V1", notes)


def _check_resolution(resolution) -> tuple[int, int]:
    try:
        width, height = resolution
    except (TypeError, ValueError):
        raise InputError(f"resolution must be (width, height), not {resolution!r}") from None
    for value in (width, height):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value < FIXED_LIMIT:
            raise InputError(f"resolution {resolution!r} must be two whole numbers from 1 to 16383")
    return int(width), int(height)


def _check_camera(camera: np.ndarray, points: np.ndarray, obj_path: Path) -> None:
    if camera[2] == 0:
        raise InputError("camera z must not be 0: the projection window lies in the plane z = 0")
    ahead = (camera[2] - points[:, 2]) * np.sign(camera[2])
    if np.any(ahead <= 0):
        raise InputError(
            f"{obj_path}: part of the model is level with or behind the camera at z = {camera[2]:g} "
            "(the placed model spans z = "
            f"{points[:, 2].min():g} .. {points[:, 2].max():g}); THEIA would also draw what lies behind it"
        )
    farthest = float(np.linalg.norm(points - camera, axis=1).max())
    if farthest >= NO_HIT_DISTANCE:
        raise InputError(
            f"{obj_path}: the model reaches {farthest:g} units from the camera; the microcode ignores hits "
            f"at {NO_HIT_DISTANCE:g} or farther"
        )


def _check_window(window) -> tuple[tuple[float, float], tuple[float, float]]:
    try:
        (xmin, ymin), (xmax, ymax) = window
        xmin, ymin, xmax, ymax = (float(value) for value in (xmin, ymin, xmax, ymax))
    except (TypeError, ValueError):
        raise InputError(f"window must be ((xmin, ymin), (xmax, ymax)), not {window!r}") from None
    if not (xmin < xmax and ymin < ymax):
        raise InputError(f"window {window!r} must have xmin < xmax and ymin < ymax")
    words = _signed([_to_fixed(value, "window coordinate") for value in (xmin, ymin, xmax, ymax)])
    if not (words[0] < words[2] and words[1] < words[3]):
        raise InputError(f"window {window!r} is narrower than THEIA's fixed-point step (1/{ONE}): "
                         "xmin and xmax, or ymin and ymax, become the same number")
    return (xmin, ymin), (xmax, ymax)
