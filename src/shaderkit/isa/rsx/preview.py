"""What ``run -m rsx`` supplies when the user gives no vertex program: the built-in one, the
framing of the mesh, and the time value of each frame.

The built-in vertex program is RSX assembly text shipped beside this module
(``builtin/preview.vp``, assembled by our assembler, so it runs like any user program); its
header documents the inputs it reads, the outputs a fragment program can use (COL0 lit colour,
TEX0 uv, TEX1 eye-space normal, TEX2 eye-space position, TEX3 model position) and the constant
registers the host sets, which :meth:`Framing.constants` fills:

* the model is centred on its bounding box and scaled into the unit sphere, so any turn about
  its centre stays in view;
* the eye (:data:`DEFAULT_EYE`, or ``--camera x,y,z`` in those normalised world coordinates)
  looks at the origin with y up through a perspective of :data:`FIELD_OF_VIEW_DEGREES` over the
  picture's narrower side; the default distance fits the unit sphere with a small margin.

The time value of frame k at F frames per second is ``(t, sin t, cos t, k)`` with t = k / F
seconds (:func:`time_value`); :mod:`.uniforms` says where programs read it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources

import numpy as np

from shaderkit.core.diagnostics import InputError

from .container import ProgramKind
from .image import RsxImage

BUILTIN_VERTEX_PROGRAM = "preview.vp"
# Constant registers of the built-in program (the header of builtin/preview.vp).
PROJECTION_ROWS, VIEW_ROWS, MODEL_FIT, LIGHT, SHADING, TURN = 0, 4, 7, 8, 9, 10
FIELD_OF_VIEW_DEGREES = 40.0
MAX_CAMERA_COORDINATE = 1e4
AMBIENT = 0.15
# Towards the light in eye space: upper right, in front (the light of examples/rsx/phong.fp).
LIGHT_DIRECTION = (0.4472136, 0.5405797, 0.71258234)
FRAMING_MARGIN = 1.08  # the unit sphere's silhouette fills 1 / 1.08 of the half field of view
# The default eye: in front (+z), above and a little to the right, at the fitting distance.
DEFAULT_EYE_DIRECTION = (0.35, 0.5, 0.8)
DEFAULT_EYE = tuple(
    float(c) for c in np.array(DEFAULT_EYE_DIRECTION) / np.linalg.norm(DEFAULT_EYE_DIRECTION)
    * FRAMING_MARGIN / math.sin(math.radians(FIELD_OF_VIEW_DEGREES / 2)))
SPHERE_CLEARANCE = 1.05  # near and far planes sit this far either side of the origin


def builtin_vertex_source() -> str:
    """The text of the built-in vertex program."""
    return resources.files(__package__).joinpath("builtin", BUILTIN_VERTEX_PROGRAM).read_text(encoding="utf-8")


def builtin_vertex_image(assemble) -> RsxImage:
    """The built-in vertex program, assembled by ``assemble(text, filename, kind)`` (the ISA's)."""
    return assemble(builtin_vertex_source(), BUILTIN_VERTEX_PROGRAM, ProgramKind.VERTEX).image


def time_value(frame: int, fps: float) -> tuple[float, float, float, float]:
    """``(t, sin t, cos t, frame)`` with t = frame / fps seconds."""
    seconds = frame / fps
    return (seconds, math.sin(seconds), math.cos(seconds), float(frame))


@dataclass(frozen=True)
class Framing:
    """Where the built-in vertex program puts the model and the eye."""

    centre: tuple[float, float, float]  # of the model's bounding box, in OBJ coordinates
    scale: float  # OBJ units to the unit sphere
    eye: tuple[float, float, float]  # in the normalised world
    view: np.ndarray  # (4, 4) eye from world
    projection: np.ndarray  # (4, 4) clip from eye

    def constants(self, turn_rate: float = 0.0) -> dict[int, tuple[float, float, float, float]]:
        """The built-in program's constant registers; ``turn_rate`` in radians per second."""
        rows = {PROJECTION_ROWS + n: tuple(self.projection[n]) for n in range(4)}
        rows.update({VIEW_ROWS + n: tuple(self.view[n]) for n in range(3)})
        rows[MODEL_FIT] = (*self.centre, self.scale)
        rows[LIGHT] = (*LIGHT_DIRECTION, 0.0)
        rows[SHADING] = (AMBIENT, 0.0, 1.0, 0.0)
        rows[TURN] = (turn_rate, 0.0, 0.0, 0.0)
        return {index: tuple(float(value) for value in row) for index, row in rows.items()}


def frame_mesh(positions: np.ndarray, size: tuple[int, int],
               camera: tuple[float, float, float] | None = None) -> Framing:
    """Centre and scale the model into the unit sphere, and place the eye (default or ``camera``)."""
    positions = np.asarray(positions, dtype=np.float64)
    low, high = positions.min(axis=0), positions.max(axis=0)
    centre = (low + high) / 2
    radius = float(np.linalg.norm(positions - centre, axis=1).max())
    scale = 1.0 / radius if radius > 0 else 1.0
    eye = np.array(DEFAULT_EYE if camera is None else camera, dtype=np.float64)
    if eye.shape != (3,) or not np.all(np.isfinite(eye)):
        raise InputError(f"--camera needs three numbers x,y,z, not {camera!r}")
    if not np.all(np.abs(eye) <= MAX_CAMERA_COORDINATE):
        # Past this the unit-sphere model is far below a pixel and float32 depth breaks down.
        raise InputError(f"--camera coordinates must lie within ±{MAX_CAMERA_COORDINATE:g} "
                         "(the model fills the unit sphere around the origin)")
    distance = float(np.linalg.norm(eye))
    if distance < 1e-6:
        raise InputError("--camera must not sit at the model's centre (0, 0, 0): the eye looks at it")
    width, height = size
    return Framing(tuple(float(c) for c in centre), scale, tuple(float(c) for c in eye),
                   _look_at_origin(eye), _perspective(width / height, distance))


def _look_at_origin(eye: np.ndarray) -> np.ndarray:
    """OpenGL's view matrix: the eye at the origin of eye space, looking down -z, y up."""
    forward = -eye / np.linalg.norm(eye)
    up = np.array([0.0, 1.0, 0.0])
    if np.linalg.norm(np.cross(forward, up)) < 1e-6:  # looking straight up or down: y cannot be up
        up = np.array([0.0, 0.0, -1.0 if forward[1] < 0 else 1.0])
    side = np.cross(forward, up)
    side /= np.linalg.norm(side)
    true_up = np.cross(side, forward)
    view = np.eye(4)
    view[0, :3], view[1, :3], view[2, :3] = side, true_up, -forward
    view[:3, 3] = -view[:3, :3] @ eye
    return view


def _perspective(aspect: float, distance: float) -> np.ndarray:
    """OpenGL's perspective projection; the field of view spans the narrower side."""
    focal = 1.0 / math.tan(math.radians(FIELD_OF_VIEW_DEGREES / 2))
    scale_x, scale_y = (focal / aspect, focal) if aspect >= 1 else (focal, focal * aspect)
    near = max(distance - SPHERE_CLEARANCE, 0.01)
    far = distance + SPHERE_CLEARANCE
    projection = np.zeros((4, 4))
    projection[0, 0], projection[1, 1] = scale_x, scale_y
    projection[2, 2] = (far + near) / (near - far)
    projection[2, 3] = 2 * far * near / (near - far)
    projection[3, 2] = -1.0
    return projection
