"""``shaderkit run -m theia``: scenes to pictures and animations, and bare program runs.

The CLI hands over its options; this module turns them into a scene, a machine and
output files. Every user error raises the project's errors (exit code 2).
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.diagnostics import InputError
from ...core.options import parse_numbers, parse_size
from .fixedpoint import LOW_31_BITS, ONE, to_fixed
from .registers import address_name

MAX_FIXED = LOW_31_BITS / ONE

DEFAULT_OBJ_RESOLUTION = (128, 128)
MAX_PIXELS = 2048 * 2048


def build_scene(options: dict):
    from .scene import load_scene, scene_from_obj
    if options["scene"] and options["obj"]:
        raise InputError("give either --scene or --obj, not both")
    if options["scene"]:
        for name in ("texture", "camera", "window", "resolution"):
            if options[name] is not None:
                raise InputError(f"--{name} only applies to --obj scenes")
        return load_scene(options["scene"])
    if options["obj"]:
        window = parse_numbers(options["window"], 4, "--window") if options["window"] else None
        return scene_from_obj(
            options["obj"], options["texture"],
            resolution=_resolution(options["resolution"]) if options["resolution"] else DEFAULT_OBJ_RESOLUTION,
            camera=parse_numbers(options["camera"], 3, "--camera") if options["camera"] else None,
            window=((window[0], window[1]), (window[2], window[3])) if window else None)
    raise InputError("give a scene: --scene DIR or --obj model.obj (or --program prog.s --registers)")


def _resolution(text: str) -> tuple[int, int]:
    """``--resolution``, at most :data:`MAX_PIXELS`: the emulator's memory and time grow with the
    pixel count (2048x2048: 0.5 GiB and 18 s; 4096x4096 would need 1.8 GiB and over a minute)."""
    width, height = parse_size(text, "--resolution")
    if width * height > MAX_PIXELS:
        raise InputError(f"--resolution {width}x{height} is more than THEIA renders ({MAX_PIXELS:,} pixels, "
                         f"such as 2048x2048): the emulator's memory grows with the pixel count")
    return width, height


def _check_animation_time(count: int, fps: float) -> None:
    """Refuse, before rendering, an animation whose last frame's time C7 cannot hold."""
    last = (count - 1) / fps
    try:
        to_fixed(last)
    except ValueError:
        raise InputError(f"--frames {count} at --fps {fps:g} lasts {last:g} s, but THEIA's time (C7, fixed "
                         f"point) only reaches {MAX_FIXED:.0f} s: use fewer frames or a higher --fps") from None


def run_command(processor, program: str | None, output: str | None, options: dict, *,
                load: Callable[[str], list[int]], echo: Callable[[str], None], warn: Callable[[str], None]) -> str | None:
    """Run as the options say; return the one-line summary of the file written (None for a bare run)."""
    if len(options["texture"]) > 1:
        raise InputError("THEIA takes one --texture")
    options = {**options, "texture": options["texture"][0] if options["texture"] else None}
    budget = {"budget": options["budget"]} if options["budget"] else {}
    if options["registers"] or options["program_file"]:
        if not (options["registers"] and options["program_file"]):
            raise InputError("a bare run needs both --program prog.s and --registers")
        if program or options["scene"] or options["obj"] or options["shader"]:
            raise InputError("--program --registers runs without a scene: drop the scene and shader options")
        if output is not None:
            raise InputError("--program --registers prints the registers and writes no file: drop -o")
        machine = processor.machine(load(options["program_file"]), **budget)
        for note in machine.notes:
            warn(f"{options['program_file']}: note: {note}")
        for address, row in machine.run_bare().items():
            echo(f"{address_name(address)} " + " ".join(f"{int(word):08x}" for word in row))
        return None
    if program and options["shader"]:
        raise InputError("give the user program either as an argument or with --shader")
    shader = options["shader"] or program
    if output is None:
        raise InputError("give the output picture with -o")
    movie = options["frames"] is not None
    from ...render import check_picture_suffix, save_animation, save_image, written_summary
    check_picture_suffix(output, movie)
    scene = build_scene(options)
    machine = processor.machine(load(shader) if shader else None, **budget)
    source = shader or options["scene"] or options["obj"]
    if movie:
        fps, count = options["fps"], options["frames"]
        _check_animation_time(count, fps)
        renders = (machine.render(scene, options["cores"], time=index / fps) for index in range(count))
        save_animation(output, (render.image for render in renders), fps=fps, count=count,
                       progress=options["progress"])
        return written_summary(output, scene.width, scene.height, frames=count, fps=fps,
                               detail=f"{scene.triangle_count} triangles")
    render = machine.render(scene, options["cores"])
    for note in render.notes:
        warn(f"{source}: note: {note}")
    if options["stats"] or options["cores"]:
        warn(render.statistics_table())
    save_image(output, render.image)
    height, width = render.image.shape[:2]
    return written_summary(output, width, height, detail=f"{scene.triangle_count} triangles")
