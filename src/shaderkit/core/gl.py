"""OpenGL plumbing shared by the ISA packages that run decompiled GLSL: one headless context per
process (Mesa llvmpipe through moderngl and EGL), compiling a program with readable errors, and
running a vertex shader over vertices with transform feedback.

* :func:`gl_context` — ``moderngl.create_standalone_context(backend="egl", require=430)``,
  created once. ``LIBGL_ALWAYS_SOFTWARE=1`` is set (unless the caller set it) before the first
  context so that Mesa picks its software rasteriser, llvmpipe, even on a machine with a GPU:
  the goldens were made with llvmpipe and the tests compare to its precision. Anything missing
  (moderngl, EGL, a GL 4.3 driver) raises :class:`GlUnavailable` saying what it is.
* :func:`compile_program` — a moderngl program, or an InputError quoting the compiler's errors.
* :class:`FeedbackRun` / :func:`capture_vertices` — a vertex shader run once per vertex with
  rasterisation off, its varyings captured (interleaved) into one buffer.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache

from .diagnostics import InputError


class GlUnavailable(InputError):
    """OpenGL cannot run here; the message says what is missing."""


@cache
def gl_context():
    """The process's headless OpenGL 4.3+ context (Mesa llvmpipe through EGL)."""
    try:
        import moderngl
    except ImportError:
        raise GlUnavailable("OpenGL is unavailable: the Python package moderngl is not installed "
                            "(pip install moderngl)") from None
    os.environ.setdefault("LIBGL_ALWAYS_SOFTWARE", "1")
    try:
        return moderngl.create_standalone_context(backend="egl", require=430)
    except Exception as error:  # noqa: BLE001 - glcontext reports a missing libEGL/driver many ways
        message = " ".join(str(error).split()) or type(error).__name__
        raise GlUnavailable(f"OpenGL is unavailable: no headless EGL context with OpenGL 4.3 ({message}); "
                            "it needs libEGL and Mesa's llvmpipe (Debian: libegl1 libgl1-mesa-dri)") from None


def renderer() -> str:
    """The GL_RENDERER string of the context (``llvmpipe (LLVM ...)`` when Mesa is used)."""
    return gl_context().info["GL_RENDERER"]


def compile_program(context, **shaders):
    """``context.program(**shaders)``; a compile or link failure is an InputError quoting the
    compiler's first error lines."""
    import moderngl
    try:
        return context.program(**shaders)
    except moderngl.Error as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        problems = [line for line in lines if "error" in line.lower()] or lines
        raise InputError("the GLSL does not compile: " + " | ".join(problems[:5])) from None


class FeedbackRun:
    """A compiled vertex ``program`` (linked with its transform-feedback varyings) ready to run
    over ``count`` vertices again and again.

    ``inputs`` are (bytes, moderngl format, attribute name) triples, one buffer each; attributes
    the program does not use are left out. Each vertex writes ``stride`` bytes of varyings.
    """

    def __init__(self, program, inputs: Sequence[tuple[bytes, str, str]], count: int, stride: int):
        if count < 1:
            raise InputError("a vertex program run needs at least one vertex")
        context = program.ctx
        self.context, self.count = context, count
        self._resources = []
        try:
            content = []
            for data, layout, name in inputs:
                if name in program:
                    buffer = context.buffer(data)
                    self._resources.append(buffer)
                    content.append((buffer, layout, name))
            self.vertex_array = context.vertex_array(program, content)
            self._resources.append(self.vertex_array)
            # A surfaceless EGL context has no default framebuffer, and a draw without a complete
            # framebuffer fails even with rasterisation off: bind a 1x1 one.
            self.placeholder = context.simple_framebuffer((1, 1))
            self._resources.append(self.placeholder)
            self.captured = context.buffer(reserve=count * stride)
            self._resources.append(self.captured)
        except Exception:
            self.release()
            raise

    def draw(self) -> None:
        """Run every vertex (no read back)."""
        import moderngl
        self.placeholder.use()
        self.vertex_array.transform(self.captured, mode=moderngl.POINTS, vertices=self.count)

    def run(self) -> bytes:
        """Run every vertex; the captured varyings, vertex after vertex."""
        self.draw()
        return self.captured.read()

    def release(self) -> None:
        for resource in reversed(self._resources):
            resource.release()
        self._resources = []


def capture_vertices(program, inputs: Sequence[tuple[bytes, str, str]], count: int, stride: int) -> bytes:
    """One :class:`FeedbackRun`: the captured varyings of ``count`` vertices."""
    run = FeedbackRun(program, inputs, count, stride)
    try:
        return run.run()
    finally:
        run.release()
