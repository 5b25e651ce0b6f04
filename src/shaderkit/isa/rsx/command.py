"""``shaderkit run -m rsx | rsx-fp | rsx-vp``: programs to pictures and arrays.

* ``-m rsx --vp a.vpo --fp b.fpo --mesh model.obj -o out.png``: the small pipeline of
  :mod:`.pipeline` (vertex program, clipping, rasterisation, fragment program, depth test);
* ``-m rsx-fp prog.bin --fullscreen 64x64 -o out.npy``: a fragment program alone over a
  full-screen quad with the input definition of the emulation goldens; ``.npy`` holds float32
  RGBA ``[y][x]`` with row 0 at the bottom and killed pixels set to the sentinel, ``.png`` is a
  picture (top row first, killed pixels black);
* ``-m rsx-vp prog.bin --mesh model.obj -o out.npy``: a vertex program alone over a mesh's
  vertices; the ``.npy`` holds its outputs as float32 ``[vertex][o index][lane]``.

Options shared by all: ``--texture UNIT=file.png`` (repeatable), ``--filter``, ``--wrap``,
``--const c[N]=x,y,z,w`` or ``--const NAME=…`` (a uniform named by the program's ``#var`` lines
or container; 16 numbers fill a matrix's four rows), ``--input NAME=x,y,z,w`` (fragment inputs).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.core.fileio import write_bytes_atomic
from shaderkit.core.options import parse_numbers, parse_size

from .container import ProgramKind
from .image import VP_CONSTANT_RESOURCE, RsxImage

DEFAULT_FULLSCREEN = (64, 64)
DEFAULT_PIPELINE_SIZE = (256, 256)
_CONSTANT_INDEX = re.compile(r"^\s*c\s*\[\s*(\d+)\s*\]\s*$")


def _numbers(text: str, option: str) -> tuple[float, ...]:
    count = len([part for part in text.replace(",", " ").split() if part])
    if count not in (1, 2, 3, 4, 16):
        raise InputError(f"{option} needs 4 numbers (or 16 for a matrix), not '{text}'")
    values = parse_numbers(text, count, option)
    return values + (0.0, 0.0, 0.0, 1.0)[count:] if count < 4 else values


def apply_constants(memory: np.ndarray, settings: tuple[str, ...], image: RsxImage | None) -> None:
    """``--const c[N]=…`` / ``--const NAME=…`` into a (468, 4) constant memory."""
    names = {}
    if image is not None and image.parameters:
        for parameter in image.parameters:
            if parameter.resource == VP_CONSTANT_RESOURCE and parameter.resource_index >= 0:
                names.setdefault(parameter.name, parameter.resource_index)
    for setting in settings:
        target, equals, values_text = setting.partition("=")
        if not equals:
            raise InputError(f"--const needs c[N]=x,y,z,w or NAME=x,y,z,w, not '{setting}'")
        match = _CONSTANT_INDEX.match(target)
        if match:
            index = int(match.group(1))
        elif target.strip() in names:
            index = names[target.strip()]
        else:
            known = ", ".join(sorted(names)) or "none: use c[N]"
            raise InputError(f"--const: unknown constant '{target}' (named constants: {known})")
        values = np.array(_numbers(values_text, "--const"), dtype=np.float32).reshape(-1, 4)
        if not 0 <= index <= memory.shape[0] - len(values):
            raise InputError(f"--const: c[{index}] is outside the constant memory c[0..{memory.shape[0] - 1}]")
        memory[index: index + len(values)] = values


def parse_textures(settings: tuple[str, ...], filter_mode: str, wrap: str, base: Path | None = None) -> dict:
    from .textures import load_texture
    textures = {}
    for setting in settings:
        unit_text, equals, path = setting.partition("=")
        if not equals or not unit_text.strip().isdigit() or not 0 <= int(unit_text) <= 15:
            raise InputError(f"--texture needs UNIT=file.png with a unit 0-15, not '{setting}'")
        unit = int(unit_text)
        if unit in textures:
            raise InputError(f"--texture: unit {unit} is given twice")
        file = Path(path) if base is None else base / path
        textures[unit] = load_texture(file, filter=filter_mode, wrap=wrap)
    return textures


def parse_inputs(settings: tuple[str, ...]) -> dict[str, tuple[float, float, float, float]]:
    from .fragment import FP_INPUTS
    overrides = {}
    for setting in settings:
        name, equals, values = setting.partition("=")
        name = name.strip().upper()
        if not equals or name not in FP_INPUTS:
            raise InputError(f"--input needs NAME=x,y,z,w with NAME one of {', '.join(FP_INPUTS)}, "
                             f"not '{setting}'")
        overrides[name] = parse_numbers(values, 4, f"--input {name}")
    return overrides


def save_array(output: str, array: np.ndarray) -> None:
    import io
    buffer = io.BytesIO()
    np.save(buffer, np.ascontiguousarray(array, dtype=np.float32))
    try:
        write_bytes_atomic(output, buffer.getvalue())
    except OSError as error:
        raise InputError(f"cannot write '{output}': {error.strerror or error}") from None


def save_float_picture(output: str, rgba: np.ndarray, killed: np.ndarray | None = None) -> None:
    """A float RGBA image with row 0 at the bottom, as an 8-bit RGB picture (top row first);
    killed pixels are black."""
    from shaderkit.render import save_image
    picture = np.clip(np.nan_to_num(rgba[..., :3], nan=0.0), 0.0, 1.0)
    picture = np.rint(picture * 255.0).astype(np.uint8)[::-1]
    if killed is not None:
        picture = picture.copy()
        picture[killed[::-1]] = 0
    save_image(output, picture)


def _check_output(output: str | None, suffixes: tuple[str, ...]) -> str:
    if output is None:
        raise InputError("give the output file with -o")
    if Path(output).suffix.lower() not in suffixes:
        raise InputError(f"{output}: the output must end in {' or '.join(suffixes)}")
    return output


def _refuse(options: dict, names: tuple[str, ...], why: str) -> None:
    for name in names:
        value = options.get(name)
        if value not in (None, (), False):
            raise InputError(f"--{name.replace('_', '-')} {why}")


def run_command(processor, program: str | None, output: str | None, options: dict, *,
                load: Callable[[str], RsxImage], echo: Callable[[str], None],
                warn: Callable[[str], None]) -> None:
    if processor.kind is ProgramKind.FRAGMENT:
        _refuse(options, ("vp", "fp", "mesh", "size"), "is not an option for rsx-fp (it runs one program)")
        return _run_fragment(processor, program, output, options, load)
    if processor.kind is ProgramKind.VERTEX:
        _refuse(options, ("vp", "fp", "fullscreen", "input", "size"), "is not an option for rsx-vp")
        return _run_vertex(processor, program, output, options, load)
    _refuse(options, ("fullscreen", "input"), "belongs to -m rsx-fp (a fragment program alone)")
    if program is not None:
        raise InputError("-m rsx runs a pair: give --vp and --fp instead of a program argument "
                         "(or use -m rsx-fp / -m rsx-vp for one program)")
    return _run_pipeline(processor, output, options)


def _run_fragment(processor, program, output, options, load) -> None:
    from .fragment import fragment_image, fullscreen_inputs, run_fragment_program
    if program is None:
        raise InputError("give the fragment program to run")
    output = _check_output(output, (".npy", ".png"))
    width, height = parse_size(options["fullscreen"], "--fullscreen") if options["fullscreen"] else DEFAULT_FULLSCREEN
    image = load(program)
    textures = parse_textures(options["texture"], options["filter"], options["wrap"])
    inputs = fullscreen_inputs(width, height, parse_inputs(options["input"]))
    header = image.header
    result = run_fragment_program(image.program, inputs, grid=(height, width), textures=textures,
                                  output_from_h0=bool(header is not None and header.output_from_h0))
    rgba = fragment_image(result, width, height)
    if output.lower().endswith(".npy"):
        save_array(output, rgba)
    else:
        save_float_picture(output, rgba, result.killed.reshape(height, width))


def _run_vertex(processor, program, output, options, load) -> None:
    from shaderkit.render.mesh import load_obj
    from .pipeline import vertex_attributes
    from .vertex import run_vertex_program
    if program is None:
        raise InputError("give the vertex program to run")
    if not options["mesh"]:
        raise InputError("give the vertices with --mesh model.obj")
    output = _check_output(output, (".npy",))
    image = load(program)
    memory = image.constant_memory()
    apply_constants(memory, options["const"], image)
    mesh = load_obj(options["mesh"])
    outputs = run_vertex_program(image.program, vertex_attributes(mesh.vertices()), memory,
                                 textures=parse_textures(options["texture"], options["filter"], options["wrap"]))
    save_array(output, np.transpose(outputs, (1, 0, 2)))


def _run_pipeline(processor, output, options) -> None:
    from shaderkit.render.mesh import load_obj
    from .pipeline import draw, to_picture
    if not (options["vp"] and options["fp"] and options["mesh"]):
        raise InputError("-m rsx needs --vp PROGRAM, --fp PROGRAM and --mesh model.obj")
    output = _check_output(output, (".png", ".npy"))
    vertex = processor.load_file(options["vp"], ProgramKind.VERTEX)
    fragment = processor.load_file(options["fp"], ProgramKind.FRAGMENT)
    width, height = parse_size(options["size"], "--size") if options["size"] else DEFAULT_PIPELINE_SIZE
    memory = vertex.constant_memory()
    apply_constants(memory, options["const"], vertex)
    textures = parse_textures(options["texture"], options["filter"], options["wrap"])
    header = fragment.header
    frame = draw(vertex.program, fragment.program, load_obj(options["mesh"]), width=width, height=height,
                 constants=memory, textures=textures,
                 output_from_h0=bool(header is not None and header.output_from_h0),
                 depth_replace=bool(header is not None and header.depth_replace))
    if output.lower().endswith(".npy"):
        save_array(output, frame.color)
    else:
        from shaderkit.render import save_image
        save_image(output, to_picture(frame))
