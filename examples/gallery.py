"""Render every example program into the gallery (``make demo``).

Every example program (``examples/<machine>/*.s``; for RSX the fragment program
``examples/rsx/*.fp`` of each pair) states how it wants to be shown in a header line

    // demo: frames=N fps=F [args: OPTION ...]      (RSX: # demo: ...)

N = 1 gives a PNG; otherwise an animated GIF of N frames at F frames per second,
plus a PNG still. ``args:`` (optional, the rest of the line) are extra
``shaderkit run`` options; the values of the path options ``--obj``, ``--texture``
``--scene``, ``--vp``, ``--mesh`` (and the file of ``--texture UNIT=FILE``) are relative to
the example's folder. Per machine:

* TPP: ``shaderkit run -m tpp X.s --rt 1 -o out/tpp/X.png`` (the still is the first
  frame with RT = 1) and, for N > 1, ``... X.s --frames N --fps F -o X.gif``.
* THEIA: ``shaderkit run -m theia --shader X.s ARGS -o out/theia/X.png`` (the
  program is a user shader over the scene its ARGS build, e.g. ``--obj
  models/cube.obj --texture textures/bricks.png``) and, for N > 1, the same with
  ``--frames N --fps F -o X.gif`` (frame k is rendered at time k / F, in C7).
* RSX: ``shaderkit run -m rsx --fp X.fp ARGS -o out/rsx/X.png`` where ARGS name the vertex
  program and the mesh (``--vp X.vp --mesh models/torus.obj``) and any textures.

Rendering goes through the ``shaderkit`` command, exactly as a user would run it.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent
DEMO_LINE = re.compile(r"(?://|#)\s*demo:\s*frames=(\d+)\s+fps=([\d.]+)(?:\s+args:(.*))?")
PATH_OPTIONS = ("--obj", "--texture", "--scene", "--vp", "--mesh")
# Which files are the example programs, how each machine takes the program, and what it adds
# for the still picture.
PROGRAM_PATTERN = {"rsx": "*.fp"}               # default: *.s
PROGRAM_OPTION = {"theia": "--shader", "rsx": "--fp"}  # default: the program is the positional argument
STILL_OPTIONS = {"tpp": ("--rt", "1")}


def demo_settings(source: Path) -> tuple[int, float, list[str]]:
    """(frames, fps, extra run options with their paths resolved) from the demo header line."""
    match = DEMO_LINE.search(source.read_text(encoding="utf-8"))
    if not match:
        return 1, 20.0, []
    return int(match.group(1)), float(match.group(2)), resolve_paths(shlex.split(match.group(3) or ""), source.parent)


def resolve_paths(arguments: list[str], folder: Path) -> list[str]:
    """The values of the path options, taken relative to the example's folder."""
    resolved = list(arguments)
    for index, argument in enumerate(arguments[:-1]):
        if argument in PATH_OPTIONS:
            value = arguments[index + 1]
            # RSX textures are UNIT=FILE: only the file part is a path.
            unit, equals, path = value.rpartition("=")
            resolved[index + 1] = f"{unit}{equals}{folder / path}"
    return resolved


def shaderkit(*arguments: str) -> None:
    command = [sys.executable, "-m", "shaderkit.cli", *arguments]
    print(" ".join(["shaderkit", *arguments]), flush=True)
    subprocess.run(command, check=True)


def render_example(machine: str, source: Path, target: Path) -> None:
    frames, fps, extra = demo_settings(source)
    option = PROGRAM_OPTION.get(machine)
    program = [option, str(source)] if option else [str(source)]
    run = ["run", "-m", machine, *program, *extra]
    shaderkit(*run, *STILL_OPTIONS.get(machine, ()), "-o", str(target / f"{source.stem}.png"))
    if frames > 1:
        shaderkit(*run, "--frames", str(frames), "--fps", str(fps), "--no-progress",
                  "-o", str(target / f"{source.stem}.gif"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="out", help="gallery folder")
    options = parser.parse_args()
    for machine_folder in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        sources = sorted(machine_folder.glob(PROGRAM_PATTERN.get(machine_folder.name, "*.s")))
        if not sources:
            continue
        target = Path(options.out) / machine_folder.name
        target.mkdir(parents=True, exist_ok=True)
        for source in sources:
            render_example(machine_folder.name, source, target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
