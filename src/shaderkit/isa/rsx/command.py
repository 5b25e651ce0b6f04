"""``shaderkit run -m rsx | rsx-fp | rsx-vp``: programs to pictures, animations and arrays.

* ``-m rsx --vp a.vpo --fp b.fpo --mesh model.obj -o out.png``: the small pipeline of
  :mod:`.pipeline` (vertex program, clipping, rasterisation, fragment program, depth test);
  without ``--vp`` the built-in vertex program (``builtin/preview.vp``, :mod:`.preview`) frames
  the model: centred and scaled into view, seen from the +z side, above and to the right, or
  from ``--camera x,y,z`` (normalised world: the model fills the unit sphere around the
  origin). It hands the fragment program COL0 = the vertex colour lit by a Lambert term (back
  faces lit from behind), TEX0 = the mesh's (u, v, 0, 1), TEX1 = the unit eye-space normal,
  TEX2 = the eye-space position (the eye at the origin) and TEX3 = the normalised model
  position. ``--frames N --fps F`` writes a ``.gif``/``.mp4`` instead (the built-in program
  turns the model once about y over the animation). Time: every frame gives the programs
  ``(t, sin t, cos t, frame)``, t = frame / F seconds, in the vertex constant c[467] and in any
  uniform named ``time`` of either program (a fragment program declares
  ``#var float4 time :  : c[N] : -1 : 1`` and reads c[N]); :mod:`.uniforms` has the details;
* ``-m rsx-fp prog.bin --fullscreen 64x64 -o out.npy``: a fragment program alone over a
  full-screen quad with the input definition of the emulation goldens; ``.npy`` holds float32
  RGBA ``[y][x]`` with row 0 at the bottom and killed pixels set to the sentinel, ``.png`` is a
  picture (top row first, killed pixels black);
* ``-m rsx-vp prog.bin --mesh model.obj -o out.npy``: a vertex program alone over a mesh's
  vertices; the ``.npy`` holds its outputs as float32 ``[vertex][o index][lane]``.

Options shared by all: ``--texture UNIT=file.png`` (repeatable), ``--filter``, ``--wrap`` (a
unit the fragment program samples as RECT, by its container's samplerRECT record or
``--texture-target UNIT=RECT``, gets a rectangle texture, read at texel coordinates and
clamped to its edge),
``--const c[N]=x,y,z,w`` (any vertex constant register, declared or not) or ``--const NAME=…``
(a uniform named by either program's ``#var`` lines or container; 16 numbers fill a vertex
matrix's four rows; a fragment uniform takes 4), ``--input NAME=x,y,z,w`` (fragment inputs).
A referenced uniform that nothing gives a value reads 0 and is reported through ``warn``.
:func:`run_command` returns the one line the CLI prints on success (what it wrote).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.core.fileio import atomic_path
from shaderkit.core.options import parse_numbers, parse_size

from .container import ProgramKind
from .image import RsxImage
from .textures import as_rectangles
from .uniforms import (TIME_REGISTER, TIME_UNIFORM, check_settings, fill_vertex_constants, fragment_with_values,
                       parse_constant_settings, reads_time, unset_uniforms)

DEFAULT_FULLSCREEN = (64, 64)
DEFAULT_PIPELINE_SIZE = (256, 256)


def parse_textures(settings: tuple[str, ...], filter_mode: str, wrap: str, base: Path | None = None) -> dict:
    from .textures import load_texture
    textures = {}
    for setting in settings:
        unit_text, equals, path = setting.partition("=")
        unit_text = unit_text.strip()
        # str.isdigit() also accepts '²' and other digits int() refuses: only ASCII 0-9 is a unit.
        if not equals or not re.fullmatch(r"[0-9]{1,2}", unit_text) or not 0 <= int(unit_text) <= 15:
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
        overrides[name] = parse_numbers(values, 4, f"--input {name}", float32=True)
    return overrides


def save_array(output: str, array: np.ndarray) -> None:
    """``array`` as a float32 ``.npy`` file, written atomically without a copy in memory."""
    try:
        with atomic_path(output) as temporary, open(temporary, "wb") as file:
            np.save(file, np.asarray(array, dtype=np.float32))
    except OSError as error:
        raise InputError(f"cannot write '{output}': {error.strerror or error}") from None


def save_float_picture(output: str, rgba: np.ndarray, killed: np.ndarray | None = None) -> None:
    """A float RGBA image with row 0 at the bottom, saved as an 8-bit RGB picture (top row
    first); killed pixels are black."""
    from shaderkit.render import save_image
    from .pipeline import float_picture
    save_image(output, float_picture(rgba, killed))


def _check_output(output: str | None, suffixes: tuple[str, ...]) -> str:
    if output is None:
        raise InputError("give the output file with -o")
    if Path(output).suffix.lower() not in suffixes:
        raise InputError(f"{output}: the output must end in {' or '.join(suffixes)}")
    return output


def _budget(options: dict, names: dict, frame_number: int | None = None):
    """A fresh budget for one picture (each frame of an animation has its own): ``--budget N``
    lane-instructions, or the default limits of :mod:`.budget`."""
    from .budget import RunBudget
    return RunBudget.for_command(options.get("budget"), names, None if frame_number is None else f"frame {frame_number}")


def _refuse(options: dict, names: tuple[str, ...], why: str) -> None:
    for name in names:
        value = options.get(name)
        if value not in (None, (), False):
            raise InputError(f"--{name.replace('_', '-')} {why}")


def run_command(processor, program: str | None, output: str | None, options: dict, *,
                load: Callable[[str], RsxImage], echo: Callable[[str], None],
                warn: Callable[[str], None]) -> str:
    """Run as the options say, write the output, and return one line saying what was written."""
    if processor.kind is ProgramKind.FRAGMENT:
        _refuse(options, ("vp", "fp", "mesh", "size", "frames"),
                "is not an option for rsx-fp (it runs one program)")
        return _run_fragment(processor, program, output, options, load)
    if processor.kind is ProgramKind.VERTEX:
        _refuse(options, ("vp", "fp", "fullscreen", "input", "size", "frames"),
                "is not an option for rsx-vp")
        return _run_vertex(processor, program, output, options, load)
    _refuse(options, ("fullscreen", "input"), "belongs to -m rsx-fp (a fragment program alone)")
    if program is not None:
        raise InputError("-m rsx runs a pair: give --fp (and --vp, or none for the built-in one) instead of "
                         "a program argument (or use -m rsx-fp / -m rsx-vp for one program)")
    return _run_pipeline(processor, output, options, warn)


def _run_fragment(processor, program, output, options, load) -> str:
    from .fragment import run_fullscreen
    if program is None:
        raise InputError("give the fragment program to run")
    output = _check_output(output, (".npy", ".png"))
    width, height = parse_size(options["fullscreen"], "--fullscreen") if options["fullscreen"] else DEFAULT_FULLSCREEN
    image = load(program)
    textures = as_rectangles(parse_textures(options["texture"], options["filter"], options["wrap"]),
                             processor.rectangle_units(image))
    rgba, killed = run_fullscreen(image.program, width, height, parse_inputs(options["input"]), textures=textures,
                                  output_from_h0=image.colour_from_h0,
                                  budget=_budget(options, {ProgramKind.FRAGMENT: program}))
    if output.lower().endswith(".npy"):
        save_array(output, rgba)
        return f"wrote {output} ({width}×{height} float32 RGBA)"
    save_float_picture(output, rgba, killed)
    return f"wrote {output} ({width}×{height})"


def _run_vertex(processor, program, output, options, load) -> str:
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
    settings = parse_constant_settings(options["const"])
    check_settings(settings, image, None, memory.shape[0])
    fill_vertex_constants(memory, image, settings)
    vertices = load_obj(options["mesh"], float32=True).vertices()
    outputs = run_vertex_program(image.program, vertex_attributes(vertices), memory,
                                 textures=parse_textures(options["texture"], options["filter"], options["wrap"]),
                                 budget=_budget(options, {ProgramKind.VERTEX: program}))
    save_array(output, np.transpose(outputs, (1, 0, 2)))
    return f"wrote {output} ({len(vertices.positions)} vertices × {len(outputs)} outputs)"


def _run_pipeline(processor, output, options, warn) -> str:
    """The pair over the mesh: a still (.png/.npy) or, with --frames, an animation (.gif/.mp4)."""
    from shaderkit.render import check_picture_suffix, save_animation, save_image
    from shaderkit.render.mesh import load_obj
    from .pipeline import draw, to_picture
    from .preview import builtin_vertex_image, frame_mesh, time_value
    if not (options["fp"] and options["mesh"]):
        raise InputError("-m rsx needs --fp PROGRAM and --mesh model.obj (and --vp PROGRAM, or none for "
                         "the built-in vertex program that frames the model)")
    if options["vp"] and options["camera"]:
        raise InputError("--camera places the built-in vertex program's eye; with --vp, your program's "
                         "constants place the camera")
    movie = options["frames"] is not None
    if output is None:
        raise InputError("give the output file with -o")
    if movie:
        check_picture_suffix(output, movie)
    else:
        output = _check_output(output, (".png", ".npy"))
    width, height = parse_size(options["size"], "--size") if options["size"] else DEFAULT_PIPELINE_SIZE
    camera = parse_numbers(options["camera"], 3, "--camera") if options["camera"] else None
    fragment = processor.load_file(options["fp"], ProgramKind.FRAGMENT)
    vertex_source = options["vp"] or "the built-in vertex program"
    vertex = (processor.load_file(options["vp"], ProgramKind.VERTEX) if options["vp"]
              else builtin_vertex_image(processor.assemble))
    textures = as_rectangles(parse_textures(options["texture"], options["filter"], options["wrap"]),
                             processor.rectangle_units(fragment))
    mesh = load_obj(options["mesh"], float32=True)
    for note in mesh.notes:
        warn(f"{options['mesh']}: note: {note}")
    base_memory = vertex.constant_memory()
    settings = parse_constant_settings(options["const"])
    check_settings(settings, vertex, fragment, base_memory.shape[0])
    for source, image in ((vertex_source, vertex), (options["fp"], fragment)):
        for name in unset_uniforms(image, settings, time_available=True):
            warn(f"{source}: warning: uniform '{name}' is never given a value, so it reads 0 "
                 f"(set it with --const {name}=x,y,z,w, or give it a #default line)")
    count = options["frames"] or 1
    if movie and count > 1 and not reads_time(vertex, fragment):
        warn(f"note: neither program reads the time (c[{TIME_REGISTER}] or a '{TIME_UNIFORM}' uniform), "
             f"so all {count} frames are the same")
    fps = options["fps"]
    turn_rate = 2 * np.pi * fps / count if movie else 0.0
    framing = None if options["vp"] else frame_mesh(mesh.vertices().positions, (width, height), camera)
    header = fragment.header

    def render(frame_number: int):
        time = time_value(frame_number, fps)
        memory = base_memory.copy()
        if framing is not None:
            for index, row in framing.constants(turn_rate).items():
                memory[index] = row
        fill_vertex_constants(memory, vertex, settings, time)
        return draw(vertex.program, fragment_with_values(fragment, settings, time), mesh,
                    width=width, height=height, constants=memory, textures=textures,
                    output_from_h0=fragment.colour_from_h0,
                    depth_replace=bool(header is not None and header.depth_replace),
                    budget=_budget(options, {ProgramKind.VERTEX: vertex_source, ProgramKind.FRAGMENT: options["fp"]},
                                   frame_number if movie else None))

    triangles = f"{mesh.triangle_count} triangle{'s' if mesh.triangle_count != 1 else ''}"
    if movie:
        save_animation(output, (to_picture(render(number)) for number in range(count)), fps=fps, count=count,
                       progress=options["progress"])
        return f"wrote {output} ({count} frames, {width}×{height}, {triangles})"
    frame = render(0)
    if output.lower().endswith(".npy"):
        save_array(output, frame.color)
    else:
        save_image(output, to_picture(frame))
    return f"wrote {output} ({width}×{height}, {triangles})"
