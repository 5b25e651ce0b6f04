"""The gallery (examples/gallery.py, ``make demo``): what it runs, what it shows, what it writes.

Every example is in the gallery with a still (and a GIF when animated); every command it
runs is a ``shaderkit`` command line that the CLI's own parser accepts, with paths that
exist relative to the repository root; each still, rendered here by its command (THEIA smaller, for speed),
prints no note the example does not declare (and the declared ones do occur), is not
blank, and is a frame that shows what the example does; THEIA renders are at least
320x240 and square; ``index.html`` lists every output with the command that made it, escapes what
it quotes, and is the same on every run.
"""

import shlex
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from shaderkit.cli import main as shaderkit_main
from shaderkit.isa import get
from shaderkit.isa.tpp.machine import animation_frames, rt_of_frame
from shaderkit.isa.tpp.simple import SimpleModel
from conftest import load_gallery

ROOT = Path(__file__).resolve().parents[2]


GALLERY = load_gallery()
PROGRAMS = GALLERY.example_programs()
PROGRAM_IDS = [f"{machine}/{source.stem}" for machine, source in PROGRAMS]
# A still shows its example when its dominant colour leaves room for the picture and, for
# an animation, it has most of the colours of the most colourful frame the animation shows.
MAX_DOMINANT_FRACTION = 0.9
MIN_COLOURS = 3
MIN_SHARE_OF_BEST_FRAME_COLOURS = 0.75
MIN_THEIA_SIZE = (320, 240)
SMALL_THEIA_SIZE = "128x128"


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("gallery")


@pytest.fixture(scope="module")
def examples(out):
    return {f"{example.machine}/{example.source.stem}": example for example in GALLERY.plan(out)}


def parse_command(arguments) -> click.Context:
    """Parse ``shaderkit ARGUMENTS`` with the CLI's own parser (raises click.UsageError if wrong)."""
    arguments = list(arguments)
    group_context = shaderkit_main.make_context("shaderkit", list(arguments))
    command = shaderkit_main.get_command(group_context, arguments[0])
    assert command is not None, f"no shaderkit command {arguments[0]!r}"
    return command.make_context(arguments[0], arguments[1:], parent=group_context)


def run_in_repository_root(monkeypatch, render):
    """Run one gallery command in this process, from the repository root, as the gallery does."""
    monkeypatch.chdir(ROOT)
    render.output.parent.mkdir(parents=True, exist_ok=True)
    return CliRunner().invoke(shaderkit_main, list(render.arguments), catch_exceptions=False)


def colour_counts(path: Path) -> np.ndarray:
    pixels = np.asarray(Image.open(path).convert("RGB")).reshape(-1, 3)
    return np.unique(pixels, axis=0, return_counts=True)[1]


# ---------------------------------------------------------------------------- what the gallery runs


def test_every_example_is_in_the_gallery(examples):
    assert len(examples) == len(PROGRAMS) >= 20
    for key, example in examples.items():
        header = GALLERY.demo_header(example.source)
        still, *movie = example.renders
        assert still.output.suffix == ".png"
        assert [render.output.suffix for render in movie] == ([".gif"] if header.frames > 1 else [])
        assert example.source in example.listings


@pytest.mark.parametrize("key", PROGRAM_IDS)
def test_commands_are_valid_shaderkit_invocations(examples, key):
    example = examples[key]
    for render in example.renders:
        words = shlex.split(render.command_line)
        assert words[0] == "shaderkit" and tuple(words[1:]) == render.arguments
        context = parse_command(words[1:])
        assert context.params["machine"] == example.machine
        assert Path(context.params["output"]) == render.output
        program = context.params["program"] or context.params["shader"] or context.params["fp"]
        assert program == example.source.relative_to(ROOT).as_posix()
        paths = GALLERY.map_path_values(render.arguments, lambda path: path)
        for option in GALLERY.PATH_OPTIONS:
            for value in GALLERY.option_values(paths, option):
                path = value.rpartition("=")[2]
                assert not Path(path).is_absolute(), f"{path}: a user pastes this from the repository root"
                assert (ROOT / path).is_file(), path


def test_a_wrong_command_is_caught_by_the_parser():
    with pytest.raises(click.UsageError):
        parse_command(["run", "-m", "tpp", "examples/tpp/plasma.s", "--rt", "99", "-o", "x.png"])


@pytest.mark.parametrize("key", [key for key in PROGRAM_IDS if key.startswith("theia/")])
def test_theia_renders_are_at_least_320_by_240_and_square(examples, key):
    for render in examples[key].renders:
        size = GALLERY.option_values(render.arguments, "--resolution")
        assert len(size) == 1, render.command_line
        width, height = map(int, size[0].split("x"))
        assert width >= MIN_THEIA_SIZE[0] and height >= MIN_THEIA_SIZE[1]
        assert width == height, "the V1 microcode lays out only square images"


def test_a_theia_still_is_written_at_the_gallery_size(examples, monkeypatch):
    """The THEIA example with the fewest triangles, by its exact command: the picture file
    itself is at least 320x240."""
    def triangles(example):
        obj = GALLERY.option_values(example.renders[0].arguments, "--obj")[0]
        return sum(line.startswith("f ") for line in (ROOT / obj).read_text().splitlines())
    example = min((example for example in examples.values() if example.machine == "theia"), key=triangles)
    still = example.renders[0]
    result = run_in_repository_root(monkeypatch, still)
    assert result.exit_code == 0, result.stderr
    assert GALLERY.unexpected_lines(example, still, result.stdout + result.stderr) == []
    width, height = Image.open(still.output).size
    assert width >= MIN_THEIA_SIZE[0] and height >= MIN_THEIA_SIZE[1]


# ---------------------------------------------------------------------------- what the stills show


def well_behaved_tpp_animation(example) -> bool:
    return (example.machine == "tpp" and GALLERY.demo_header(example.source).frames > 1
            and "model: well-behaved" in example.source.read_text(encoding="utf-8"))


def most_colours_in_a_frame_of_the_animation(example) -> int:
    """The colour count of the most colourful frame the GIF shows (simple model: exact for
    well-behaved programs, and 6-bit colours map one to one to RGB)."""
    header = GALLERY.demo_header(example.source)
    image = get("tpp").assemble(example.source.read_text(encoding="utf-8"), str(example.source)).image
    model = SimpleModel(image, "B")
    return max(len(np.unique(model.frame_colours(rt_of_frame(frame))))
               for frame in animation_frames(header.frames, header.fps))


@pytest.mark.parametrize("key", PROGRAM_IDS)
def test_still_runs_cleanly_and_shows_its_example(examples, monkeypatch, key):
    """The still's own command, except that THEIA renders at SMALL_THEIA_SIZE here for speed
    (the size is checked on the commands above; only a non-square size changes the notes)."""
    example = examples[key]
    still = example.renders[0]
    if example.machine == "theia":
        arguments = list(still.arguments)
        arguments[arguments.index("--resolution") + 1] = SMALL_THEIA_SIZE
        still = GALLERY.Render(tuple(arguments), still.output)
    result = run_in_repository_root(monkeypatch, still)
    printed = result.stdout + result.stderr
    assert result.exit_code == 0, printed
    assert GALLERY.unexpected_lines(example, still, printed) == []
    for note in example.expected_notes:
        assert f": note: {note}" in printed, f"{key} declares a note that run no longer prints"
    counts = colour_counts(still.output)
    assert len(counts) >= MIN_COLOURS
    assert counts.max() / counts.sum() <= MAX_DOMINANT_FRACTION
    if well_behaved_tpp_animation(example):
        # a telling frame: most of the colours of the most colourful frame of the animation
        best = most_colours_in_a_frame_of_the_animation(example)
        assert len(counts) >= MIN_SHARE_OF_BEST_FRAME_COLOURS * best, (len(counts), best)


# ---------------------------------------------------------------------------- notes


def test_only_the_declared_notes_are_silenced(examples):
    fluted = examples["tpp/fluted_glass"]
    still = fluted.renders[0]
    program = fluted.source.relative_to(ROOT).as_posix()
    declared = fluted.expected_notes[0]
    assert len(fluted.expected_notes) == 2  # the exact model, and the start after an upload
    other = examples["tpp/multiply_moire"].expected_notes[0]
    printed = "\n".join([f"{program}: note: {declared}",
                         f"wrote {still.arguments[-1]} (640×480, exact model, after the upload)",
                         f"{program}: note: {other}",
                         f"{program}: warning: something new"])
    assert GALLERY.unexpected_lines(fluted, still, printed) == [f"{program}: note: {other}",
                                                                f"{program}: warning: something new"]
    # The same note from an example that does not declare it is shown.
    plasma = examples["tpp/plasma"]
    plasma_line = f"examples/tpp/plasma.s: note: {declared}"
    assert GALLERY.unexpected_lines(plasma, plasma.renders[0], plasma_line) == [plasma_line]


def test_header_parsing(tmp_path):
    source = tmp_path / "x.s"
    source.write_text("// x.s — a test\n// demo: frames=3 fps=7.5 still: --rt 9 args: --obj 'my model.obj' --camera 1,2,3\n"
                      "// demo note: using the exact model: because\n", encoding="utf-8")
    header = GALLERY.demo_header(source)
    assert (header.frames, header.fps) == (3, 7.5)
    assert header.arguments == ("--obj", str(tmp_path / "my model.obj"), "--camera", "1,2,3")
    assert header.still_arguments == ("--rt", "9")
    assert header.notes == ("using the exact model: because",)
    assert GALLERY.title_of(source) == "a test"
    plain = tmp_path / "y.s"
    plain.write_text("// demo: frames=1 fps=20\n", encoding="utf-8")
    assert GALLERY.demo_header(plain) == GALLERY.DemoHeader(1, 20.0, (), (), ())


# ---------------------------------------------------------------------------- index.html


class PageReader(HTMLParser):
    """The pictures and their captions, and the listings, of the gallery page."""

    def __init__(self):
        super().__init__()
        self.pictures, self.captions, self.summaries, self.listings = [], [], [], []
        self._open = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in ("img", "video"):
            self.pictures.append(attributes["src"])
        if tag in ("figcaption", "summary", "pre"):
            self._open.append((tag, []))

    def handle_data(self, data):
        if self._open:
            self._open[-1][1].append(data)

    def handle_endtag(self, tag):
        if self._open and self._open[-1][0] == tag:
            _, text = self._open.pop()
            {"figcaption": self.captions, "summary": self.summaries, "pre": self.listings}[tag].append("".join(text))


def test_index_lists_every_output_with_its_command(examples, out):
    page = GALLERY.index_page(list(examples.values()), out)
    reader = PageReader()
    reader.feed(page)
    renders = [render for example in examples.values() for render in example.renders]
    assert reader.pictures == [render.output.relative_to(out).as_posix() for render in renders]
    assert reader.captions == [render.command_line for render in renders]
    for caption in reader.captions:
        words = shlex.split(caption)
        assert words[0] == "shaderkit"
        parse_command(words[1:])
    listed = [listing for example in examples.values() for listing in example.listings]
    assert reader.summaries == [listing.relative_to(ROOT).as_posix() for listing in listed]
    assert reader.listings == [listing.read_text(encoding="utf-8") for listing in listed]
    assert any(path.suffix == ".vp" for path in listed), "RSX pairs list their vertex program too"
    assert page == GALLERY.index_page(list(examples.values()), out), "deterministic"


def test_index_escapes_what_it_quotes(tmp_path):
    source = tmp_path / "odd.s"
    source.write_text("// odd.s — <b>bold</b> & \"quoted\"\nSET R0 #1 // a < b\n", encoding="utf-8")
    output = tmp_path / "out" / "tpp" / "a&b.png"
    render = GALLERY.Render(("run", "-m", "tpp", str(source), "-o", str(output)), output)
    example = GALLERY.Example("tpp", source, GALLERY.title_of(source), (source,), (), (render,))
    page = GALLERY.index_page([example], tmp_path / "out")
    assert "<b>" not in page and "&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;" in page
    assert 'src="tpp/a&amp;b.png"' in page
    assert "// a &lt; b" in page
    reader = PageReader()
    reader.feed(page)
    assert reader.pictures == ["tpp/a&b.png"] and reader.listings == [source.read_text()]


# ---------------------------------------------------------------------------- make demo's own output


def test_main_shows_commands_and_unexpected_lines_in_order_and_writes_the_index(tmp_path, monkeypatch, capsys):
    """The gallery's driver, with rendering replaced: every command is printed once, in
    order; declared notes and "wrote" lines are silenced, anything else is shown; a failed
    render makes the exit status 1; the page is written either way."""
    ran = []

    def fake_render(render):
        ran.append(render.arguments)
        program = render.arguments[3] if not render.arguments[3].startswith("--") else render.arguments[4]
        lines = [f"wrote {render.arguments[-1]} (1×1)"]
        if "fluted_glass" in program:
            lines.append(f"{program}: note: " + GALLERY.demo_header(ROOT / program).notes[0])
        if "plasma" in program:
            lines.append(f"{program}: note: surprise")
        failed = "tt_logo.gif" in render.arguments[-1]
        return subprocess.CompletedProcess(render.arguments, 1 if failed else 0, "", "\n".join(lines))

    monkeypatch.setattr(GALLERY, "run_render", fake_render)
    monkeypatch.setattr(sys, "argv", ["gallery.py", "--out", str(tmp_path / "out")])
    assert GALLERY.main() == 1
    printed = capsys.readouterr()
    renders = [render for example in GALLERY.plan(tmp_path / "out") for render in example.renders]
    assert sorted(ran) == sorted(render.arguments for render in renders)
    commands = [line for line in printed.out.splitlines() if line.startswith("shaderkit ")]
    assert commands == [render.command_line for render in renders]
    expected = []
    for render in renders:
        if "plasma" in render.arguments[3]:
            expected.append("examples/tpp/plasma.s: note: surprise")
        if render.arguments[-1].endswith("tt_logo.gif"):
            expected.append("exit status 1")
    expected.append(f"1 of {len(renders)} renders failed")
    assert [line.strip() for line in printed.err.splitlines()] == expected
    assert "fluted_glass.s: note" not in printed.err and "wrote" not in printed.err
    assert (tmp_path / "out" / "index.html").is_file()
