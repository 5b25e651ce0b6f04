"""Running decompiled RSX programs on OpenGL: Mesa llvmpipe through moderngl and headless EGL.

* :func:`render_fragment_fullscreen` draws a fragment shader from
  ``decompile(program, fullscreen=True)`` over the whole viewport into an RGBA32F framebuffer
  cleared to the kill sentinel (-12345.0, golden/rsx/emu/README.md), so discarded pixels keep it;
  the image comes back as (height, width, 4) float32 with row 0 at the bottom, like the
  emulator's :func:`~shaderkit.isa.rsx.fragment.fragment_image`.
* :func:`run_vertex_glsl` runs a decompiled vertex shader over vertices with transform feedback
  and returns o[0..15] as (16, n, 4) float32, like the emulator's ``run_vertex_program``;
  outputs the shader does not write hold (0, 0, 0, 1).
* :func:`prepare_fullscreen` / :func:`time_fragment_fullscreen` keep the GL objects of one
  full-screen draw for repeated renders (the benchmark).

The context (:func:`~shaderkit.core.gl.gl_context`: created once per process, llvmpipe through
``LIBGL_ALWAYS_SOFTWARE=1``, :class:`GlUnavailable` when anything is missing), program
compilation and the transform-feedback run are :mod:`shaderkit.core.gl`'s, shared with the other
ISA packages; :class:`GlUnavailable`, :func:`gl_context` and :func:`renderer` are importable from
here too.

Textures (:class:`~shaderkit.isa.rsx.textures.Texture`) are uploaded as RGBA32F with their
filter (nearest/linear, no mipmaps) and wrap mode; row 0 of the texels is t = 0, as in GL. A
rectangle texture (``rectangle=True``) becomes a GL_TEXTURE_RECTANGLE texture, what the
``sampler2DRect`` of a RECT unit reads; moderngl makes only 2D textures, so it is made, bound and
released through GL 4.5's direct state access functions.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from functools import cache

import numpy as np

from shaderkit.core.diagnostics import InputError
from shaderkit.core.gl import GlUnavailable, capture_vertices, compile_program, gl_context, renderer

from .glsl_fragment import override_uniform
from .glsl_vertex import output_varyings
from .fragment import KILLED_SENTINEL
from .limits import VP_CONSTANTS, VP_OUTPUTS
from .textures import Texture
from .vertex import check_attributes

__all__ = ["GlUnavailable", "FullscreenFrame", "gl_context", "prepare_fullscreen", "render_fragment_fullscreen",
           "renderer", "run_vertex_glsl", "time_fragment_fullscreen"]

DEFAULT_OUTPUT = (0.0, 0.0, 0.0, 1.0)
# GL enums moderngl has no attribute for (mirrored repeat and rectangle textures are set up
# through direct state access).
GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT = 0x2802, 0x2803, 0x8370
GL_TEXTURE_RECTANGLE, GL_RGBA32F, GL_RGBA, GL_FLOAT = 0x84F5, 0x8814, 0x1908, 0x1406
GL_TEXTURE_MAG_FILTER, GL_TEXTURE_MIN_FILTER, GL_NEAREST, GL_LINEAR = 0x2800, 0x2801, 0x2600, 0x2601
GL_CLAMP_TO_EDGE = 0x812F
MINIMUM_TIMED_FRAMES = 3

# A full-viewport quad at z = 0, w = 1 (window depth 0.5), drawn as a triangle strip.
_FULLSCREEN_VERTEX_SHADER = """\
#version 430
in vec2 rsx_corner;
void main() { gl_Position = vec4(rsx_corner, 0.0, 1.0); }
"""
_QUAD = np.array([-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0], dtype=np.float32)


# --- textures ------------------------------------------------------------------------------------


def _upload(context, texture: Texture):
    import moderngl
    if texture.rectangle:
        return _RectangleTexture(texture)
    texels = np.ascontiguousarray(texture.texels, dtype=np.float32)
    handle = context.texture((texture.width, texture.height), 4, texels.tobytes(), dtype="f4")
    smoothing = moderngl.LINEAR if texture.filter == "linear" else moderngl.NEAREST
    handle.filter = (smoothing, smoothing)
    handle.repeat_x = handle.repeat_y = texture.wrap == "repeat"
    if texture.wrap == "mirror":
        _mirror(handle)
    return handle


@cache
def _gl_function(name: str, *argument_types, purpose: str):
    """A GL function moderngl has no call for, by its address (eglGetProcAddress)."""
    import ctypes
    egl = ctypes.CDLL("libEGL.so.1")
    egl.eglGetProcAddress.restype = ctypes.c_void_p
    egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]
    address = egl.eglGetProcAddress(name.encode("ascii"))
    if not address:
        raise GlUnavailable(f"OpenGL is unavailable: {name} ({purpose}) is missing")
    return ctypes.CFUNCTYPE(None, *argument_types)(address)


def _texture_parameter(purpose: str):
    import ctypes
    return _gl_function("glTextureParameteri", ctypes.c_uint, ctypes.c_uint, ctypes.c_int, purpose=purpose)


def _mirror(handle) -> None:
    """GL_MIRRORED_REPEAT, which moderngl cannot set."""
    parameter = _texture_parameter("mirrored wrap")
    for wrap in (GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T):
        parameter(handle.glo, wrap, GL_MIRRORED_REPEAT)


class _RectangleTexture:
    """A GL_TEXTURE_RECTANGLE texture of a :class:`Texture` (RGBA32F, its filter, clamped to the
    edge), with the ``use``/``release`` of a moderngl texture."""

    PURPOSE = "rectangle textures"

    def __init__(self, texture: Texture):
        import ctypes
        unsigned, integer = ctypes.c_uint, ctypes.c_int
        name = unsigned(0)
        _gl_function("glCreateTextures", unsigned, integer, ctypes.POINTER(unsigned),
                     purpose=self.PURPOSE)(GL_TEXTURE_RECTANGLE, 1, ctypes.byref(name))
        self.glo = name.value
        _gl_function("glTextureStorage2D", unsigned, integer, unsigned, integer, integer,
                     purpose=self.PURPOSE)(self.glo, 1, GL_RGBA32F, texture.width, texture.height)
        texels = np.ascontiguousarray(texture.texels, dtype=np.float32)
        _gl_function("glTextureSubImage2D", unsigned, integer, integer, integer, integer, integer, unsigned,
                     unsigned, ctypes.c_void_p, purpose=self.PURPOSE)(
            self.glo, 0, 0, 0, texture.width, texture.height, GL_RGBA, GL_FLOAT, texels.ctypes.data)
        smoothing = GL_LINEAR if texture.filter == "linear" else GL_NEAREST
        parameter = _texture_parameter(self.PURPOSE)
        for setting, value in ((GL_TEXTURE_MIN_FILTER, smoothing), (GL_TEXTURE_MAG_FILTER, smoothing),
                               (GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE), (GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE)):
            parameter(self.glo, setting, value)

    def use(self, location: int) -> None:
        import ctypes
        _gl_function("glBindTextureUnit", ctypes.c_uint, ctypes.c_uint, purpose=self.PURPOSE)(location, self.glo)

    def release(self) -> None:
        import ctypes
        if self.glo:
            _gl_function("glDeleteTextures", ctypes.c_int, ctypes.POINTER(ctypes.c_uint),
                         purpose=self.PURPOSE)(1, ctypes.byref(ctypes.c_uint(self.glo)))
            self.glo = 0


_SAMPLER = re.compile(r"layout\(binding = (\d+)\) uniform (sampler2DRect|sampler2D) ")


def _bind_textures(context, textures: Mapping[int, Texture], glsl: str) -> list:
    """Upload and bind each texture to its unit; samplers use layout(binding = unit). A texture
    whose kind is not the sampler's (a rectangle texture for a ``sampler2D``, or the reverse)
    is refused: GL would read (0, 0, 0, 1) from it without a word."""
    samplers = {int(unit): kind for unit, kind in _SAMPLER.findall(glsl)}
    for unit, texture in textures.items():  # all checked before any is uploaded: nothing to release
        if not isinstance(unit, (int, np.integer)) or not 0 <= unit < 16:
            raise InputError(f"texture unit {unit!r} is not 0..15")
        if not isinstance(texture, Texture):
            raise InputError(f"texture unit {unit}: expected a Texture, not {type(texture).__name__}")
        wanted = samplers.get(int(unit))
        if wanted is not None and (wanted == "sampler2DRect") != texture.rectangle:
            given = "a rectangle texture" if texture.rectangle else "a 2D texture"
            raise InputError(f"texture unit {unit}: the shader samples it as {wanted}, but {given} is bound")
    handles = []
    for unit, texture in textures.items():
        handle = _upload(context, texture)
        handle.use(location=int(unit))
        handles.append(handle)
    return handles


# --- fragment programs ---------------------------------------------------------------------------


class FullscreenFrame:
    """One fragment shader drawn over a ``width`` x ``height`` viewport, ready to render again."""

    def __init__(self, glsl: str, width: int, height: int,
                 overrides: Mapping[str, tuple[float, float, float, float]] = {},
                 textures: Mapping[int, Texture] = {}):
        if width < 1 or height < 1:
            raise InputError(f"a {width} x {height} viewport has no pixels")
        context = gl_context()
        largest = context.info["GL_MAX_TEXTURE_SIZE"]
        if max(width, height) > largest:
            raise InputError(f"a {width} x {height} viewport is larger than OpenGL's {largest} x {largest}")
        self.context, self.width, self.height = context, int(width), int(height)
        self.glsl = glsl
        self.program = compile_program(context, vertex_shader=_FULLSCREEN_VERTEX_SHADER, fragment_shader=glsl)
        self._set_inputs(overrides)
        self.quad = context.buffer(_QUAD.tobytes())
        self.vertex_array = context.vertex_array(self.program, [(self.quad, "2f", "rsx_corner")])
        self.target = context.texture((self.width, self.height), 4, dtype="f4")
        self.framebuffer = context.framebuffer(color_attachments=[self.target])
        self.textures = textures
        self._handles: list = []

    def _set_inputs(self, overrides: Mapping[str, tuple[float, float, float, float]]) -> None:
        if "rsx_viewport_size" in self.program:
            self.program["rsx_viewport_size"].value = (float(self.width), float(self.height))
        mask = 0
        for name, values in overrides.items():
            bit, uniform = override_uniform(name)
            try:
                vector = tuple(float(value) for value in np.asarray(values, dtype=np.float32).reshape(4))
            except (TypeError, ValueError):
                raise InputError(f"the override for {name} must be four numbers") from None
            if uniform in self.program:  # an input the program does not read has no uniform
                self.program[uniform].value = vector
                mask |= 1 << bit
        if "rsx_override_mask" in self.program:
            self.program["rsx_override_mask"].value = mask

    def draw(self) -> None:
        """Draw into the framebuffer (no read back)."""
        import moderngl
        if not self._handles and self.textures:
            self._handles = _bind_textures(self.context, self.textures, self.glsl)
        for unit, handle in zip(self.textures, self._handles):
            handle.use(location=int(unit))
        self.framebuffer.use()
        self.context.viewport = (0, 0, self.width, self.height)
        self.framebuffer.clear(KILLED_SENTINEL, KILLED_SENTINEL, KILLED_SENTINEL, KILLED_SENTINEL)
        self.vertex_array.render(moderngl.TRIANGLE_STRIP)

    def render(self) -> np.ndarray:
        """The picture as float32 (height, width, 4), row 0 at the bottom."""
        self.draw()
        data = self.framebuffer.read(components=4, dtype="f4")
        return np.frombuffer(data, dtype=np.float32).reshape(self.height, self.width, 4).copy()

    def release(self) -> None:
        for resource in (*self._handles, self.framebuffer, self.target, self.vertex_array, self.quad,
                         self.program):
            resource.release()
        self._handles = []


def prepare_fullscreen(glsl: str, width: int, height: int, *,
                       overrides: Mapping[str, tuple[float, float, float, float]] = {},
                       textures: Mapping[int, Texture] = {}) -> FullscreenFrame:
    """Compile ``glsl`` (from ``decompile(program, fullscreen=True)``) for repeated renders."""
    return FullscreenFrame(glsl, width, height, overrides, textures)


def render_fragment_fullscreen(glsl: str, width: int, height: int, *,
                               overrides: Mapping[str, tuple[float, float, float, float]] = {},
                               textures: Mapping[int, Texture] = {}) -> np.ndarray:
    """(height, width, 4) float32, row 0 the bottom; discarded pixels hold -12345.0.

    ``overrides`` replace fragment inputs by constants (keys ``TEX0``, ``COL0`` ... as in the
    emulator's ``fullscreen_inputs``); ``textures`` map units to textures.
    """
    frame = prepare_fullscreen(glsl, width, height, overrides=overrides, textures=textures)
    try:
        return frame.render()
    finally:
        frame.release()


def time_fragment_fullscreen(glsl: str, width: int, height: int, seconds: float) -> float:
    """Megapixels per second of full-screen draws, each finished (glFinish) before the next."""
    frame = prepare_fullscreen(glsl, width, height)
    try:
        frame.draw()
        frame.context.finish()  # compile and warm up outside the timing
        frames = 0
        start = time.perf_counter()
        while frames < MINIMUM_TIMED_FRAMES or time.perf_counter() - start < seconds:
            frame.draw()
            frame.context.finish()
            frames += 1
        elapsed = time.perf_counter() - start
    finally:
        frame.release()
    return frames * width * height / elapsed / 1e6


# --- vertex programs -----------------------------------------------------------------------------


def run_vertex_glsl(glsl: str, attributes: Mapping[int, np.ndarray], constants: np.ndarray, *,
                    branch_bits: int = 0, textures: Mapping[int, Texture] = {}) -> np.ndarray:
    """Run a decompiled vertex shader once per vertex; returns o[0..15] as float32 (16, n, 4).

    ``attributes`` maps v indexes to (n, 4) arrays (missing ones read (0, 0, 0, 1));
    ``constants`` is c[0..467] as (468, 4), fewer rows padded with zeros.
    """
    from .glsl_vertex import INPUT_NAMES

    count, arrays = check_attributes(attributes)
    if not count:
        raise InputError("a vertex program run needs at least one attribute array with vertices")
    table = _constant_table(constants)
    context = gl_context()
    varyings = output_varyings(glsl)
    program = compile_program(context, vertex_shader=glsl, varyings=list(varyings.values()))
    resources = [program]
    try:
        if "vc" in program:  # the compiler keeps the array only up to the last element read
            program["vc"].write(table[:program["vc"].array_length].tobytes())
        if "rsx_branch_bits" in program:
            program["rsx_branch_bits"].value = int(branch_bits) & 0xFFFFFFFF
        resources += _bind_textures(context, textures, glsl)
        inputs = [(array.tobytes(), "4f", INPUT_NAMES[index]) for index, array in arrays.items()]
        captured = capture_vertices(program, inputs, count, len(varyings) * 16)
        data = np.frombuffer(captured, dtype=np.float32).reshape(count, len(varyings), 4)
    finally:
        for resource in reversed(resources):
            resource.release()
    outputs = np.empty((VP_OUTPUTS, count, 4), dtype=np.float32)
    outputs[...] = DEFAULT_OUTPUT
    for position, index in enumerate(varyings):
        outputs[index] = data[:, position]
    return outputs


def _constant_table(constants: np.ndarray) -> np.ndarray:
    try:
        array = np.asarray(constants, dtype=np.float32)
    except (TypeError, ValueError):
        raise InputError("vertex constants are not numeric") from None
    if array.ndim != 2 or array.shape[1] != 4 or array.shape[0] > VP_CONSTANTS:
        raise InputError(f"vertex constants have shape {array.shape}, expected ({VP_CONSTANTS}, 4)")
    table = np.zeros((VP_CONSTANTS, 4), dtype=np.float32)
    table[:array.shape[0]] = array
    return table
