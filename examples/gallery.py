"""Render every example program into the gallery (``make demo``) and write its index page.

Every example program (``examples/<machine>/*.s``; for RSX the fragment program
``examples/rsx/*.fp`` of each pair) states how it wants to be shown in header lines

    // demo: frames=N fps=F [still: OPTION ...] [args: OPTION ...]     (RSX: # demo: ...)
    // demo note: TEXT                                                  (optional, repeatable)

N = 1 gives a PNG; otherwise an animated GIF of N frames at F frames per second,
plus a PNG still. ``args:`` are extra ``shaderkit run`` options for both; ``still:`` are
options for the still only (TPP: ``--rt K`` picks a frame that shows what the program
does; the default is ``--rt 1``). The values of the path options ``--obj``, ``--texture``,
``--scene``, ``--vp``, ``--mesh``, ``--image-in``, ``--inputs`` (and the file of ``--texture UNIT=FILE``) are relative
to the example's folder. A ``demo note:`` is a note ``run`` prints for this example on
purpose (e.g. that a stateful TPP program needs the exact model): the gallery expects
exactly that text and does not show it; any other note or warning is shown.

Per machine:

* TPP: ``shaderkit run -m tpp X.s --rt 1 -o out/tpp/X.png`` and, for N > 1,
  ``... X.s --frames N --fps F -o out/tpp/X.gif`` (frames in real chip time).
* THEIA: ``shaderkit run -m theia --shader X.s ARGS --resolution 320x320 -o out/theia/X.png``
  (the program is a user shader over the scene its ARGS build, e.g. ``--obj
  examples/theia/models/cube.obj``; the V1 microcode lays out only square images, so the
  gallery renders them square) and, for N > 1, the same with ``--frames N --fps F``
  (frame k is rendered at time k / F, in C7).
* RSX: ``shaderkit run -m rsx --fp X.fp ARGS -o out/rsx/X.png`` where ARGS name the vertex
  program and the mesh (``--vp X.vp --mesh models/torus.obj``) and any textures.
* VP1: ``shaderkit run -m vp1 X.s --image-in pictures/P.png -o out/vp1/X.png``: the program
  runs on the picture loaded into the data store and the PNG is the data store afterwards
  (64×128, the picture above and the result below; layout in ``shaderkit.isa.vp1.pictures``).
* USSE: ``shaderkit run -m usse X.s --inputs X.json -o out/usse/X.png``: the vertex program runs
  on the inputs' vertices, drawn as a triangle strip with ``o4``–``o7`` as the colour.

Rendering goes through the ``shaderkit`` command, run from the repository root with
paths relative to it, so every command the gallery prints, and lists in ``index.html``
beside its picture, can be pasted from the repository root. Renders run in parallel, one
per processor core; what they print is shown in the gallery's order, so the output and
the page are the same on every run.
"""

import argparse
import html
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent
ROOT = EXAMPLES.parent
DEMO_LINE = re.compile(
    r"^\s*(?://|#)\s*demo:\s*frames=(?P<frames>\d+)\s+fps=(?P<fps>[\d.]+)"
    r"(?:\s+still:(?P<still>.*?))?(?:\s+args:(?P<args>.*?))?\s*$", re.MULTILINE)
NOTE_LINE = re.compile(r"^\s*(?://|#)\s*demo note:\s*(?P<note>.+?)\s*$", re.MULTILINE)
PATH_OPTIONS = ("--obj", "--texture", "--scene", "--vp", "--mesh", "--image-in", "--inputs")
# Program text besides the example itself that the page lists (RSX: the vertex program of the pair).
LISTED_OPTIONS = ("--vp",)
# Which files are the example programs, how each machine takes the program, and what the
# gallery adds: to the still picture (TPP: which frame) and to every render (THEIA: size).
PROGRAM_PATTERN = {"rsx": "*.fp"}               # default: *.s
PROGRAM_OPTION = {"theia": "--shader", "rsx": "--fp"}  # default: the program is the positional argument
STILL_OPTIONS = {"tpp": ("--rt", "1")}
RENDER_OPTIONS = {"theia": ("--resolution", "320x320")}


@dataclass(frozen=True)
class DemoHeader:
    """What an example's header asks of the gallery; paths absolute."""

    frames: int
    fps: float
    arguments: tuple[str, ...]        # run options for every render
    still_arguments: tuple[str, ...]  # run options for the still only
    notes: tuple[str, ...]            # notes run prints on purpose for this example


@dataclass(frozen=True)
class Render:
    """One ``shaderkit`` command and the file it writes."""

    arguments: tuple[str, ...]  # after ``shaderkit``; paths relative to the repository root where inside it
    output: Path

    @property
    def command_line(self) -> str:
        return shlex.join(["shaderkit", *self.arguments])


@dataclass(frozen=True)
class Example:
    machine: str
    source: Path
    title: str
    listings: tuple[Path, ...]        # the program text shown on the page
    expected_notes: tuple[str, ...]
    renders: tuple[Render, ...]       # the still first, then the animation if any


def demo_header(source: Path) -> DemoHeader:
    """The demo header of ``source``, with the path option values resolved against its folder."""
    text = source.read_text(encoding="utf-8")
    notes = tuple(match.group("note") for match in NOTE_LINE.finditer(text))
    match = DEMO_LINE.search(text)
    if not match:
        return DemoHeader(1, 20.0, (), (), notes)

    def options(group: str) -> tuple[str, ...]:
        return tuple(resolve_paths(shlex.split(match.group(group) or ""), source.parent))
    return DemoHeader(int(match.group("frames")), float(match.group("fps")), options("args"),
                      options("still"), notes)


def map_path_values(arguments: Iterable[str], change: Callable[[str], str]) -> list[str]:
    """``arguments`` with ``change`` applied to the value of every path option."""
    arguments = list(arguments)
    changed = list(arguments)
    for index, argument in enumerate(arguments[:-1]):
        if argument in PATH_OPTIONS:
            # RSX textures are UNIT=FILE: only the file part is a path.
            unit, equals, path = arguments[index + 1].rpartition("=")
            changed[index + 1] = f"{unit}{equals}{change(path)}"
    return changed


def resolve_paths(arguments: Iterable[str], folder: Path) -> list[str]:
    """The values of the path options, taken relative to the example's folder."""
    return map_path_values(arguments, lambda path: os.path.normpath(folder / path))


def from_root(path: str | Path) -> str:
    """``path`` as a user at the repository root types it: relative there, absolute elsewhere."""
    absolute = Path(os.path.normpath(Path(path).absolute()))
    return absolute.relative_to(ROOT).as_posix() if absolute.is_relative_to(ROOT) else str(absolute)


def option_values(arguments: Iterable[str], option: str) -> list[str]:
    arguments = list(arguments)
    return [arguments[index + 1] for index, argument in enumerate(arguments[:-1]) if argument == option]


def title_of(source: Path) -> str:
    """The one-line description after the file name in the header (``// x.s — what it draws``)."""
    match = re.search(rf"^\s*(?://|#)\s*{re.escape(source.name)}\s+—\s+(.+?)\s*$",
                      source.read_text(encoding="utf-8"), re.MULTILINE)
    return match.group(1) if match else source.stem


def example_programs() -> list[tuple[str, Path]]:
    """(machine, program file) of every example, in gallery order."""
    programs = []
    for machine_folder in sorted(path for path in EXAMPLES.iterdir() if path.is_dir()):
        for source in sorted(machine_folder.glob(PROGRAM_PATTERN.get(machine_folder.name, "*.s"))):
            programs.append((machine_folder.name, source))
    return programs


def plan_example(machine: str, source: Path, target: Path) -> Example:
    """The renders of one example into the folder ``target``."""
    header = demo_header(source)
    option = PROGRAM_OPTION.get(machine)
    program = [option, from_root(source)] if option else [from_root(source)]
    every = [*map_path_values(header.arguments, from_root), *RENDER_OPTIONS.get(machine, ())]
    still = map_path_values(header.still_arguments, from_root) or list(STILL_OPTIONS.get(machine, ()))
    run = ["run", "-m", machine, *program, *every]
    still_output = target / f"{source.stem}.png"
    renders = [Render((*run, *still, "-o", from_root(still_output)), still_output)]
    if header.frames > 1:
        movie_output = target / f"{source.stem}.gif"
        renders.append(Render((*run, "--frames", str(header.frames), "--fps", f"{header.fps:g}",
                               "-o", from_root(movie_output)), movie_output))
    listed = [Path(value) for name in LISTED_OPTIONS for value in option_values(header.arguments, name)]
    return Example(machine, source, title_of(source), (source, *listed), header.notes, tuple(renders))


def plan(out: Path) -> list[Example]:
    """Every example of the gallery, rendering into the folder ``out``."""
    return [plan_example(machine, source, out / machine) for machine, source in example_programs()]


def unexpected_lines(example: Example, render: Render, printed: str) -> list[str]:
    """What a render printed that the gallery should show: all but the example's expected notes
    and ``run``'s own "wrote FILE (...)" line (the gallery names each file already)."""
    silenced = {f"{from_root(example.source)}: note: {note}" for note in example.expected_notes}
    wrote = f"wrote {render.arguments[-1]} ("
    return [line for line in printed.splitlines()
            if line.strip() and line not in silenced and not line.startswith(wrote)]


def run_render(render: Render) -> subprocess.CompletedProcess:
    """Run one command from the repository root, as a user would paste it."""
    render.output.parent.mkdir(parents=True, exist_ok=True)
    return subprocess.run([sys.executable, "-m", "shaderkit.cli", *render.arguments], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")


# ---------------------------------------------------------------------------- the index page

PAGE_STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1400px; padding: 0 1em; background: #fafafa; color: #222; }
article { border-top: 1px solid #ccc; padding: 0.5em 0 1em; }
.pictures { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
figure { margin: 0; max-width: 660px; }
figure img, figure video { max-width: 100%; height: auto; image-rendering: pixelated; background: #000; }
figcaption code, pre { white-space: pre-wrap; word-break: break-all; }
figcaption { font-size: 0.85em; margin-top: 0.3em; }
pre { background: #f0f0f0; padding: 0.5em; font-size: 0.85em; }
"""


def picture_element(link: str, alt: str) -> str:
    if link.endswith(".mp4"):
        return f'<video src="{html.escape(link)}" controls loop muted></video>'
    return f'<img src="{html.escape(link)}" alt="{html.escape(alt)}">'


def index_page(examples: list[Example], out: Path) -> str:
    """One self-contained page: every picture and animation (linked relative to ``out``), the
    command that made it, and the listing of its program."""
    lines = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>shaderkit gallery</title>", f"<style>{PAGE_STYLE}</style>", "</head>", "<body>",
             "<h1>shaderkit gallery</h1>",
             "<p>Every picture was made by the <code>shaderkit</code> command under it, "
             "run from the repository root (<code>make demo</code> runs them all).</p>"]
    for machine in dict.fromkeys(example.machine for example in examples):
        lines.append(f'<section id="{html.escape(machine)}">')
        lines.append(f"<h2>{html.escape(machine.upper())}</h2>")
        for example in (example for example in examples if example.machine == machine):
            lines.append(f'<article id="{html.escape(machine)}-{html.escape(example.source.stem)}">')
            lines.append(f"<h3>{html.escape(example.source.name)} — {html.escape(example.title)}</h3>")
            lines.append('<div class="pictures">')
            for render in example.renders:
                link = Path(os.path.relpath(render.output, out)).as_posix()
                lines += ["<figure>", picture_element(link, f"{example.source.name}: {render.output.name}"),
                          f"<figcaption><code>{html.escape(render.command_line)}</code></figcaption>",
                          "</figure>"]
            lines.append("</div>")
            for listing in example.listings:
                lines += [f"<details><summary>{html.escape(from_root(listing))}</summary>",
                          f"<pre>{html.escape(listing.read_text(encoding='utf-8'))}</pre>", "</details>"]
            lines.append("</article>")
        lines.append("</section>")
    lines += ["</body>", "</html>", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="out", help="gallery folder")
    options = parser.parse_args()
    out = Path(os.path.normpath(Path(options.out).absolute()))
    examples = plan(out)
    jobs = [(example, render) for example in examples for render in example.renders]
    failed = 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = pool.map(lambda job: run_render(job[1]), jobs)
        for (example, render), result in zip(jobs, results):
            print(render.command_line, flush=True)
            shown = unexpected_lines(example, render, result.stdout + result.stderr)
            if result.returncode != 0:
                failed += 1
                shown = shown or [f"exit status {result.returncode}"]
            for line in shown:
                print(f"    {line}", file=sys.stderr, flush=True)
    out.mkdir(parents=True, exist_ok=True)
    index = out / "index.html"
    index.write_text(index_page(examples, out), encoding="utf-8")
    print(f"wrote {from_root(index)} ({len(jobs)} pictures and animations)")
    if failed:
        print(f"{failed} of {len(jobs)} renders failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
