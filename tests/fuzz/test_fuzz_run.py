"""Fuzz campaign: ``run`` for every processor. TPP on mutated programs with random models,
frames, rates and scales; THEIA on mutated scene folders, OBJ meshes, PNG textures, shaders and
bare programs with random cameras, windows, resolutions, cores and budgets; RSX on mutated
vertex and fragment programs, meshes and textures with random sizes, constants and inputs.

Requested work is kept small (a few frames, small pictures) so that a case past the harness's
time limit is a hang, not a long render someone asked for; odd values (zero, negative, huge,
tiny, NaN, non-ASCII digits, empty) come in at every option.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from .fuzz_corpus import (begin_case, faults_allowed, misuse, mostly, MESHES, campaign, OUTPUT_CHOICES, SCENE_FILES, SCENES, mutated, numbers, odd_input,
                         ODD_INPUTS, output_path, program_input, rarely, sizes, textures, vectors, write_input)
from .fuzz_harness import Case, check

PICTURE_SUFFIXES = (".png",) * 12 + (".gif", ".npy", ".txt", "")
MOVIE_SUFFIXES = (".gif",) * 8 + (".mp4", ".png")
PRISTINE_PICTURE_SUFFIXES, PRISTINE_MOVIE_SUFFIXES = (".png",), (".gif", ".gif", ".mp4")
RUN_OUTPUTS = ("new",) * 12 + OUTPUT_CHOICES
# A few options of each processor, given to the others now and then: each must be refused in one line.
FOREIGN_OPTIONS = {"tpp": ["--scale", "1"], "theia": ["--cores", "2"], "rsx": ["--size", "8x8"],
                   "rsx-fp": ["--fullscreen", "8x8"], "rsx-vp": ["--mesh", "x.obj"]}


def _foreign(draw, processor: str) -> list[str]:
    if not misuse(draw, 12):
        return []
    other = draw(st.sampled_from(sorted(set(FOREIGN_OPTIONS) - {processor})))
    return FOREIGN_OPTIONS[other]


def _animation(draw) -> tuple[list[str], bool]:
    """``--frames``/``--fps`` (small animations only), and whether one was asked for."""
    if not rarely(draw, 4):
        return [], False
    options = ["--frames", draw(mostly(st.integers(1, 3).map(str), st.sampled_from(("0", "-1", "", "²", "1.5")), 3))]
    if draw(st.booleans()):
        odd = ("0", "-5", "61", "nan", "inf", "", "٣", "1e308", "0.0001", "1e-300", "0.001")
        options += ["--fps", draw(mostly(st.floats(5, 60).map(lambda value: f"{value:g}"), st.sampled_from(odd), 3))]
    return options, True


def _output(draw, workspace: Path, movie: bool, guarded: list[Path]) -> list[str]:
    if faults_allowed():
        suffix = draw(st.sampled_from(MOVIE_SUFFIXES if movie else PICTURE_SUFFIXES))
    else:
        suffix = draw(st.sampled_from(PRISTINE_MOVIE_SUFFIXES if movie else PRISTINE_PICTURE_SUFFIXES))
    # A picture needs a file: a pristine case writes one (new, existing, through a symlink …).
    choice = draw(st.sampled_from(RUN_OUTPUTS if faults_allowed() else
                                  ("new", "new", "existing", "symlink", "read-only --force")))
    return output_path(workspace, choice, suffix, guarded)


def _run(processor: str, kind: str, args: list[str], guarded: list[Path], workspace: Path):
    return check(Case(processor, "run", kind, ["run", "-m", processor, *args], guarded, workspace))



# --- TPP ---------------------------------------------------------------------------------------

@campaign(max_examples=40)
@given(data=st.data())
def test_run_tpp(data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(draw, workspace, "tpp")
        options = ["--scale", draw(st.one_of(st.sampled_from(("1", "1", "2")), numbers(1, 12)))]
        if draw(st.booleans()):
            options += ["--model", draw(mostly(st.sampled_from(("auto", "simple", "exact")), st.just("fast"), 6))]
        when = draw(st.sampled_from(("none", "rt", "frame", "movie")))
        movie_options, movie = _animation(draw) if when == "none" or faults_allowed() else ([], False)
        if when == "rt":
            options += ["--rt", draw(numbers(0, 8))]
        elif when == "frame":
            options += ["--frame", draw(numbers(0, 20))]
        elif when == "movie":
            movie_options, movie = ["--frames", draw(st.sampled_from(("2", "1", "3")))], True
        if draw(st.booleans()):
            options += ["--divisor", draw(numbers(0, 8))]
        if rarely(draw, 6):
            options += ["--rev", draw(st.sampled_from(("A", "B")))]
        guarded: list[Path] = []
        outputs = _output(draw, workspace, movie, guarded)
        _run("tpp", kind, [path, *format_options, *options, *movie_options, *_foreign(draw, "tpp"), *outputs],
             guarded, workspace)


# --- THEIA -------------------------------------------------------------------------------------

def _theia_obj_options(draw, workspace: Path) -> tuple[str, list[str]]:
    """A mesh (mutated now and then), an optional texture, camera, window and resolution."""
    kind = draw(st.sampled_from(("mesh", "texture", "camera and window", "odd path")))
    mesh = draw(st.sampled_from([path for path in MESHES if path.stat().st_size < 20000]))
    data = mesh.read_bytes()
    if kind == "mesh":
        data = draw(mutated(data))
    options = ["--obj", str(write_input(workspace, mesh.name, data))]
    if kind == "odd path" and faults_allowed():
        options[1] = odd_input(workspace, draw(st.sampled_from(ODD_INPUTS)))
    if kind == "texture" or rarely(draw, 4):
        options += ["--texture", str(write_input(workspace, "texture.png", draw(textures())))]
    if kind == "camera and window" or rarely(draw, 3):
        options += ["--camera", draw(vectors(3))]
    if kind == "camera and window" or rarely(draw, 3):
        options += ["--window", draw(vectors(4, -2, 2))]
    options += ["--resolution", draw(sizes(1, 40))]
    return kind, options


def _theia_program(draw, workspace: Path, flag: str) -> tuple[str, list[str]]:
    program_kind, path, _ = program_input(draw, workspace, "theia", images=False)
    return f"{flag[2:]} {program_kind}", [flag, path]


@campaign(max_examples=40)
@given(data=st.data())
def test_run_theia(data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        what = draw(st.sampled_from(("obj", "obj", "obj", "shader", "program", "scene")))
        if what == "obj":
            kind, options = _theia_obj_options(draw, workspace)
        elif what == "shader":
            kind, options = _theia_program(draw, workspace, "--shader")
            options += ["--obj", str(MESHES[0]), "--resolution", draw(sizes(1, 24))]
        elif what == "program":
            kind, options = _theia_program(draw, workspace, "--program")
            options += draw(st.sampled_from((["--registers"], ["--registers"], [])))
        else:
            kind = "scene"
            scene = workspace / "scene"
            shutil.copytree(draw(st.sampled_from(SCENES)).parent, scene)
            victim = scene / draw(st.sampled_from(SCENE_FILES))
            if misuse(draw, 8):
                victim.unlink()
            else:
                victim.write_bytes(draw(mutated(victim.read_bytes(), max_edits=3)))
            options = ["--scene", str(scene), "--budget", draw(st.sampled_from(("200000", "50000", "1000")))]
        if draw(st.booleans()):
            options += ["--cores", draw(numbers(1, 8))]
        if rarely(draw, 4):
            options += ["--budget", draw(numbers(1, 100000))]
        if rarely(draw, 5):
            options += ["--complete-isa"]
        if rarely(draw, 5):
            options += ["--stats"]
        movie_options, movie = _animation(draw) if what != "scene" else ([], False)
        guarded: list[Path] = []
        outputs = _output(draw, workspace, movie, guarded)
        _run("theia", kind, [*options, *movie_options, *_foreign(draw, "theia"), *outputs], guarded, workspace)


# --- RSX ---------------------------------------------------------------------------------------

def _rsx_textures(draw, workspace: Path) -> list[str]:
    options = []
    for index in range(draw(st.sampled_from((0, 0, 1, 2)))):
        path = write_input(workspace, f"texture{index}.png", draw(textures()))
        unit = draw(mostly(st.integers(0, 15).map(str), st.sampled_from(("16", "-1", "²", "", "x", "0x1")), 4))
        options += ["--texture", draw(mostly(st.just(f"{unit}={path}"), st.sampled_from((str(path), f"{unit}=")), 4))]
    if options and draw(st.booleans()):
        options += ["--filter", draw(st.sampled_from(("linear", "nearest")))]
        options += ["--wrap", draw(st.sampled_from(("repeat", "clamp", "mirror")))]
    return options


def _constants(draw) -> list[str]:
    options = []
    for _ in range(draw(st.sampled_from((0, 0, 1, 2)))):
        name = draw(mostly(st.integers(0, 463).map(lambda index: f"c[{index}]"),
                           st.sampled_from(("c[468]", "c[-1]", "c[99999]", "c[²]", "modelViewProj", "NAME", "")), 4))
        options += ["--const", f"{name}={draw(st.one_of(vectors(4), vectors(16)))}"]
    return options


def _mesh(draw, workspace: Path) -> tuple[str, str]:
    mesh = draw(st.sampled_from(MESHES))
    if rarely(draw, 3):
        return "mesh", str(write_input(workspace, mesh.name, draw(mutated(mesh.read_bytes()))))
    if misuse(draw, 12):
        return "mesh odd path", odd_input(workspace, draw(st.sampled_from(ODD_INPUTS)))
    return "", str(mesh)


def _budget(draw) -> list[str]:
    return ["--budget", draw(numbers(1, 10**7))] if rarely(draw, 4) else []


@campaign(max_examples=30)
@given(data=st.data())
def test_run_rsx(data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, fragment, _ = program_input(draw, workspace, "rsx", variant="fragment")
        options = ["--fp", fragment]
        if draw(st.booleans()):
            (workspace / "vp").mkdir()
            vertex_kind, vertex, _ = program_input(draw, workspace / "vp", "rsx", variant="vertex")
            options += ["--vp", vertex]
            kind = f"fp {kind}, vp {vertex_kind}"
        else:
            kind = f"fp {kind}"
        mesh_kind, mesh = _mesh(draw, workspace)
        kind = f"{kind}, {mesh_kind}" if mesh_kind else kind
        options += ["--mesh", mesh, "--size", draw(sizes(1, 40))]
        if "--vp" not in options and rarely(draw, 3):  # the built-in vertex program's eye
            options += ["--camera", draw(vectors(3))]
        options += _rsx_textures(draw, workspace) + _constants(draw) + _budget(draw)
        movie_options, movie = _animation(draw)
        guarded: list[Path] = []
        outputs = _output(draw, workspace, movie, guarded)
        _run("rsx", kind, [*options, *movie_options, *_foreign(draw, "rsx"), *outputs], guarded, workspace)


@campaign(max_examples=30)
@given(data=st.data())
def test_run_rsx_fp(data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(draw, workspace, "rsx-fp", variant="fragment")
        options = ["--fullscreen", draw(sizes(1, 32))] if draw(st.booleans()) else []
        for _ in range(draw(st.sampled_from((0, 0, 1, 2)))):
            name = draw(mostly(st.sampled_from(("COL0", "COL1", "TEX0", "TEX7", "WPOS", "FOGC")),
                               st.sampled_from(("tex0", "BOGUS", "", "TEX²", "TEX8")), 4))
            options += ["--input", f"{name}={draw(vectors(4))}"]
        options += _rsx_textures(draw, workspace) + _budget(draw)
        guarded: list[Path] = []
        suffix = draw(st.sampled_from((".npy",) * 6 + (".png",) * 4 + ((".gif", "") if faults_allowed() else ())))
        outputs = output_path(workspace, draw(st.sampled_from(RUN_OUTPUTS if faults_allowed() else ("new",))),
                              suffix, guarded)
        _run("rsx-fp", kind, [path, *format_options, *options, *_foreign(draw, "rsx-fp"), *outputs],
             guarded, workspace)


@campaign(max_examples=25)
@given(data=st.data())
def test_run_rsx_vp(data):
    draw = data.draw
    begin_case(draw)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        kind, path, format_options = program_input(draw, workspace, "rsx-vp", variant="vertex")
        mesh_kind, mesh = _mesh(draw, workspace)
        kind = f"{kind}, {mesh_kind}" if mesh_kind else kind
        options = ["--mesh", mesh] if not misuse(draw, 20) else []
        options += _constants(draw) + _budget(draw)
        guarded: list[Path] = []
        suffix = draw(st.sampled_from((".npy",) * 8 + ((".png", "") if faults_allowed() else ())))
        outputs = output_path(workspace, draw(st.sampled_from(RUN_OUTPUTS if faults_allowed() else ("new",))),
                              suffix, guarded)
        _run("rsx-vp", kind, [path, *format_options, *options, *_foreign(draw, "rsx-vp"), *outputs],
             guarded, workspace)
