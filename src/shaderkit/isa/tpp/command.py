"""``shaderkit run -m tpp``: a program to one frame, a frame after reset, or an animation.

The CLI hands over its options; this module picks the frames, lets :class:`.machine.RunSession`
choose the model, and writes the picture. It returns the one-line summary the CLI prints.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.diagnostics import InputError
from .simple import COLUMNS, ROWS


def run_command(processor, program: str | None, output: str | None, options: dict, *,
                load: Callable[[str], list[int]], echo: Callable[[str], None],
                warn: Callable[[str], None]) -> str:
    from ...render import check_picture_suffix, save_animation, save_image, written_summary
    if program is None:
        raise InputError("give the program to run")
    if output is None:
        raise InputError("give the output file with -o")
    rt, frame, frames, fps = options["rt"], options["frame"], options["frames"], options["fps"]
    if sum(option is not None for option in (rt, frame, frames)) > 1:
        raise InputError("give only one of --rt, --frame and --frames")
    movie = frames is not None
    check_picture_suffix(output, movie)
    session = processor.run_session(load(program), model=options["model"], divisor=options["divisor"],
                                    start=options["start"])
    for reason in session.notes:
        warn(f"{program}: note: {reason}")
    scale = options["scale"]
    width, height = COLUMNS * scale, ROWS * scale
    if movie:
        save_animation(output, session.animation(frames, fps, scale), fps=fps, count=frames,
                       progress=options["progress"])
        models = {session.model_for_frame(chip_frame) for chip_frame in session.animation_frames(frames, fps)}
        detail = " and ".join(f"{model} model" for model in sorted(models)) + _after_upload(session)
        return written_summary(output, width, height, frames=frames, fps=fps, detail=detail)
    if frame is not None:
        save_image(output, session.frame(frame, scale))
    else:
        save_image(output, session.frame_with_rt(1 if rt is None else rt, scale))
    return written_summary(output, width, height,
                           detail=f"{session.model_for_frame(frame)} model{_after_upload(session)}")


def _after_upload(session) -> str:
    return ", after the upload" if session.uploads else ""
