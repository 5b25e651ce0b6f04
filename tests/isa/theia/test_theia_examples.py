"""Tests for the THEIA example shaders in examples/theia (tests/examples/test_gallery.py covers the gallery).

Every example assembles without warnings, its ``// demo:`` header parses with the
gallery's own parser and names files that exist, and each shader, rendered over its
own scene at 64x64 through the Python API, has the property it claims: the checker
paints exactly two colours, the headlight shading follows the Lambert cosine and
darkens faces turned away, the depth map's grey falls monotonically with CREG_LAST_t,
the toon shader snaps to four levels chosen by the cosine, and the animated scanner
changes with time, loops seamlessly and matches its formula. Reference quantities
(hit distance, normal, ray direction, unshaded texture colour) come from renders of the
same scene with small probe shaders that copy one register to the output, read back
as exact 32-bit words from ``Render.memory``.
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import numpy as np
import pytest

import shaderkit.isa
from shaderkit.isa.theia.command import build_scene
from shaderkit.isa.theia.fixedpoint import to_fixed
from shaderkit.isa.theia.registers import ADDRESSES
from conftest import load_gallery

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "theia"
SHADERS = sorted(EXAMPLES.glob("*.s"))
SIDE = 64
ONE = 1 << 17
THEIA = shaderkit.isa.get("theia")


GALLERY = load_gallery()


def _scene_options(arguments: list[str]) -> dict:
    """The ``shaderkit run`` scene options of a demo header (argparse rejects any other option)."""
    parser = argparse.ArgumentParser(exit_on_error=False, add_help=False)
    for name in ("--obj", "--texture", "--camera", "--window", "--resolution", "--scene"):
        parser.add_argument(name)
    return vars(parser.parse_args(arguments))


@functools.cache
def demo(stem: str) -> tuple[int, float, dict]:
    header = GALLERY.demo_header(EXAMPLES / f"{stem}.s")
    return header.frames, header.fps, _scene_options(list(header.arguments))


@functools.cache
def scene(stem: str):
    """The example's scene, built by the CLI's own builder, at SIDE x SIDE for speed."""
    options = dict(demo(stem)[2], resolution=f"{SIDE}x{SIDE}")
    return build_scene(options)


@functools.cache
def assembled(stem: str):
    path = EXAMPLES / f"{stem}.s"
    return THEIA.assemble(path.read_text(encoding="utf-8"), str(path))


def probe_source(statement: str) -> str:
    return f"ENTRYPOINT_ADRR_PIXELSHADER:\n    {statement}\n    RETURN RT_TRUE\n"


PROBES = {
    "t": "COPY OREG_PIXEL_COLOR CREG_LAST_t",
    "normal": "CROSS OREG_PIXEL_COLOR CREG_E1_LAST CREG_E2_LAST",
    "ray": "COPY OREG_PIXEL_COLOR CREG_RAY_DIRECTION",
}


def program_image(shader: str | None):
    """Example ``shader``'s RAM image, a probe's ("probe:t"), or None for the default microcode."""
    if shader is None:
        return None
    if shader.startswith("probe:"):
        return THEIA.assemble(probe_source(PROBES[shader[6:]]), "<probe>").image
    return assembled(shader).image


@functools.cache
def render(scene_of: str, shader: str | None = None, time: float | None = None):
    """Render example ``scene_of``'s scene with ``shader`` (see program_image)."""
    return THEIA.machine(program_image(shader)).render(scene(scene_of), time=time)


def user_constants(stem: str) -> dict[str, np.ndarray]:
    """The rows example ``stem``'s USERCONSTANTS routine writes, by register name (signed words)."""
    program = assembled(stem)
    rows = THEIA.machine(program.image).run_bare(program.entries["USERCONSTANTS"])
    names = {address: name for name, address in ADDRESSES.items()}
    return {names[address]: row.view(np.int32).astype(np.int64) for address, row in rows.items()}


def words(result) -> np.ndarray:
    """Output memory as signed words, (H, W, 3)."""
    return result.memory.view(np.int32).astype(np.int64).reshape(SIDE, SIDE, 3)


def hit_mask(stem: str) -> np.ndarray:
    """Pixels whose ray hits the model: the hit distance is positive there, 0 (never written) elsewhere."""
    return words(render(stem, "probe:t"))[..., 0] > 0


def headlight_cosine(stem: str) -> np.ndarray:
    """d = N . (-RAY_DIRECTION) per pixel, in floating point from the probed rows."""
    normal = words(render(stem, "probe:normal")) / ONE
    ray = words(render(stem, "probe:ray")) / ONE
    length = np.linalg.norm(normal, axis=-1, keepdims=True)
    unit = np.divide(normal, length, out=np.zeros_like(normal), where=length > 0)
    return -(unit * ray).sum(axis=-1)


# ---------------------------------------------------------------------------- every example


def test_the_examples_are_there():
    stems = {path.stem for path in SHADERS}
    assert {"checker", "headlight", "depth", "scanner", "toon"} <= stems
    models = {demo(stem)[2]["obj"] for stem in stems}
    assert len(models) >= 3, models
    assert any(demo(stem)[0] > 1 for stem in stems), "at least one animated example"


@pytest.mark.parametrize("source", SHADERS, ids=lambda path: path.stem)
def test_example_assembles_cleanly(source):
    program = assembled(source.stem)
    assert program.program.warnings == []
    assert THEIA.machine(program.image).notes == []   # no undefined reads of output registers
    assert program.entries["PIXELSHADER"] & 0x8000, "the example replaces the pixel shader"
    text = source.read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert "RETURN RT_TRUE" in text


@pytest.mark.parametrize("source", SHADERS, ids=lambda path: path.stem)
def test_demo_header_parses_and_names_existing_files(source):
    text = source.read_text(encoding="utf-8")
    match = GALLERY.DEMO_LINE.search(text)
    assert match is not None and match.group("args"), "needs '// demo: frames=N fps=F args: ...'"
    frames, fps, options = demo(source.stem)
    assert frames >= 1 and 0 < fps <= 60
    assert options["obj"] and options["scene"] is None
    for name in ("obj", "texture"):
        if options[name] is not None:
            path = Path(options[name])
            assert path.is_file(), path
            assert path.resolve().is_relative_to(EXAMPLES), "demo files live under examples/theia"
    for name in (options["camera"], options["window"], options["resolution"]):
        assert name is None or name.strip()
    built = scene(source.stem)
    assert (built.width, built.height) == (SIDE, SIDE)
    assert 0 < built.triangle_count <= 200, "keep the demo fast"


@pytest.mark.parametrize("source", SHADERS, ids=lambda path: path.stem)
def test_background_stays_black_and_hits_are_shaded(source):
    result = render(source.stem, source.stem)
    hit = hit_mask(source.stem)
    assert 0.1 < hit.mean() < 0.95
    assert not result.image[~hit].any()
    assert result.image[hit].any()
    assert not (result.image[hit] == 255).all(axis=-1).all(), "not all white (negative words show as white)"


@pytest.mark.parametrize("source", [path for path in SHADERS if path.stem != "scanner"], ids=lambda path: path.stem)
def test_still_examples_ignore_the_time(source):
    assert demo(source.stem)[0] == 1
    assert np.array_equal(render(source.stem, source.stem, time=1.25).memory, render(source.stem, source.stem).memory)


# ---------------------------------------------------------------------------- checker.s


def test_checker_paints_exactly_two_colours_in_many_checks():
    image = render("checker", "checker").image
    hit = hit_mask("checker")
    colours, counts = np.unique(image[hit], axis=0, return_counts=True)
    assert len(colours) == 2, colours
    assert counts.min() > 0.25 * hit.sum()
    first = (image == colours[0]).all(axis=-1)
    changes = (first[:, 1:] != first[:, :-1]) & hit[:, 1:] & hit[:, :-1]
    assert changes.sum() >= 40, "many small checks, not two large regions"
    assert (image[hit] == [0, 0, 0]).all(axis=-1).sum() == 0


def test_checker_needs_no_texture():
    assert demo("checker")[2]["texture"] is None
    assert not scene("checker").texture_enabled


# ---------------------------------------------------------------------------- headlight.s


def test_headlight_is_never_brighter_than_the_texture():
    lit = render("headlight", "headlight").image.astype(int)
    unlit = render("headlight").image.astype(int)
    hit = hit_mask("headlight")
    assert (lit <= unlit).all()
    assert (lit[hit] < unlit[hit]).any()
    assert (lit[hit].sum(axis=-1) > 0).all(), "the ambient term keeps every textured pixel visible"


def test_headlight_follows_the_lambert_cosine():
    lit = words(render("headlight", "headlight"))
    unlit = words(render("headlight"))
    hit = hit_mask("headlight")
    d = headlight_cosine("headlight")
    expected = unlit * (0.25 + 0.75 * np.clip(d, 0.0, 1.0))[..., None]
    error = np.abs(lit - expected)[hit] / ONE
    assert error.max() < 0.01, error.max()


def test_headlight_darkens_faces_turned_away():
    lit = render("headlight", "headlight").image.astype(float)
    unlit = render("headlight").image.astype(float)
    hit = hit_mask("headlight")
    d = headlight_cosine("headlight")
    normal = words(render("headlight", "probe:normal"))
    faces = {}
    for key in np.unique(np.sign(normal[hit]), axis=0):
        on_face = hit & (np.sign(normal) == key).all(axis=-1) & (unlit.sum(axis=-1) > 60)
        if on_face.sum() >= 20:
            ratio = lit[on_face].sum() / unlit[on_face].sum()
            faces[tuple(key)] = (float(d[on_face].mean()), ratio)
    assert len(faces) == 3, faces          # front, right and top of the cube
    ordered = sorted(faces.values())       # by mean cosine
    ratios = [ratio for _, ratio in ordered]
    assert ratios == sorted(ratios), ordered
    assert ratios[-1] - ratios[0] > 0.2, ordered


# ---------------------------------------------------------------------------- depth.s


def test_depth_grey_falls_as_the_hit_distance_grows():
    grey = words(render("depth", "depth"))
    t = words(render("depth", "probe:t"))[..., 0]
    hit = hit_mask("depth")
    assert (grey[..., 0] == grey[..., 1]).all() and (grey[..., 1] == grey[..., 2]).all()
    order = np.argsort(t[hit], kind="stable")
    assert (np.diff(grey[..., 0][hit][order]) <= 0).all(), "grey must not increase with t"
    assert ((0 <= grey[hit]) & (grey[hit] <= ONE)).all()


@pytest.mark.parametrize("model, camera", [("pyramid.obj", None), ("cube.obj", "4,-3,8")])
def test_depth_clamps_to_black_beyond_far_and_white_before_near(model, camera):
    constants = user_constants("depth")
    near, far = int(constants["C1"][0]), int(constants["C2"][0])
    assert (near, far) == (to_fixed(8.75), to_fixed(13.75))
    other = build_scene({"scene": None, "obj": str(EXAMPLES / "models" / model), "texture": None,
                         "camera": camera, "window": None, "resolution": f"{SIDE}x{SIDE}"})
    grey = words(THEIA.machine(program_image("depth")).render(other))[..., 0]
    t = words(THEIA.machine(program_image("probe:t")).render(other))[..., 0]
    hit = t > 0
    beyond, before = hit & (t >= far), hit & (t < near)
    assert beyond.sum() + before.sum() >= 20, "this view must reach outside NEAR..FAR"
    assert (grey[beyond] == 0).all(), "beyond FAR is black (a negative word would show as white)"
    assert (grey[before] == ONE).all(), "nearer than NEAR is white"
    order = np.argsort(t[hit], kind="stable")
    assert (np.diff(grey[hit][order]) <= 0).all()


def test_depth_uses_the_grey_range():
    image = render("depth", "depth").image
    hit = hit_mask("depth")
    levels = image[..., 0][hit]
    assert levels.max() >= 230 and levels.min() <= 40, (levels.min(), levels.max())
    assert len(np.unique(levels)) >= 100


# ---------------------------------------------------------------------------- toon.s


TOON_LEVELS = (1.0, 0.7, 0.45, 0.25)
TOON_THRESHOLDS = (0.85, 0.5, 0.2)


def test_toon_snaps_to_four_levels_chosen_by_the_cosine():
    shaded = words(render("toon", "toon"))
    texture = words(render("toon"))
    hit = hit_mask("toon")
    d = headlight_cosine("toon")
    # which of the four exact truncated multiples each hit pixel is
    candidates = np.stack([(texture * to_fixed(level)) >> 17 for level in TOON_LEVELS])
    matches = (candidates == shaded[None]).all(axis=-1)
    assert matches[:, hit].any(axis=0).all(), "every hit pixel is texture * one level"
    band = np.select([d > TOON_THRESHOLDS[0], d > TOON_THRESHOLDS[1], d > TOON_THRESHOLDS[2]], [0, 1, 2], 3)
    clear = hit & (np.min([np.abs(d - limit) for limit in TOON_THRESHOLDS], axis=0) > 0.01)
    chosen = matches[band, np.arange(SIDE)[:, None], np.arange(SIDE)[None, :]]
    assert chosen[clear].all(), "the level follows the cosine's band"
    used = {int(level) for level in np.unique(band[clear])}
    assert len(used) >= 3, used
    assert (render("toon", "toon").image <= render("toon").image).all()


# ---------------------------------------------------------------------------- scanner.s


def test_scanner_changes_with_time():
    hit = hit_mask("scanner")
    start = render("scanner", "scanner", 0.0).image
    later = render("scanner", "scanner", 0.5).image
    changed = (start != later).any(axis=-1)
    assert changed[hit].mean() > 0.1
    assert not changed[~hit].any()


def test_scanner_loops_seamlessly_over_its_demo():
    frames, fps, _ = demo("scanner")
    assert frames > 1
    period = frames / fps
    assert np.array_equal(render("scanner", "scanner", 0.0).memory, render("scanner", "scanner", period).memory)
    assert not np.array_equal(render("scanner", "scanner", 0.0).memory,
                              render("scanner", "scanner", period / 2).memory)


@pytest.mark.parametrize("time", [0.0, 0.75])
def test_scanner_matches_its_formula(time):
    shaded = words(render("scanner", "scanner", time)) / ONE
    texture = words(render("scanner")) / ONE
    t = words(render("scanner", "probe:t"))[..., 0] / ONE
    hit = hit_mask("scanner")
    phase = np.mod(t / 2.0 - time / 2.0, 1.0)
    expected = 0.6 * texture + (phase ** 8)[..., None] * np.array([0.3, 1.0, 0.85])
    assert np.abs(shaded - expected)[hit].max() < 0.002
    glowing = hit & (phase > 0.9)
    assert glowing.sum() > 20, "some ring crosses the model"
    assert (shaded[glowing][:, 1] > 0.6 * texture[glowing][:, 1] + 0.4).all()
