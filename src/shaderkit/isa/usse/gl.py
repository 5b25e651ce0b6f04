"""Running decompiled USSE vertex programs (:func:`.glsl.decompile`) on OpenGL: Mesa's llvmpipe
through :mod:`shaderkit.core.gl` (headless EGL context, transform feedback).

API::

    outputs = run_glsl(source, pa, sa)     # (o registers, lanes) uint32, like UsseMachine.bank("o")
    run = prepare_run(source, pa, sa)      # the GL objects kept, for repeated runs (the benchmark)
    run.run(); run.draw(); run.release()

``pa`` is (registers, lanes) uint32 (registers past the shader's ``pa_count`` are refused, fewer
are padded with zeros); ``sa`` is (registers,) — one set of uniforms for every lane — or
(registers, lanes): lanes with different SA columns are drawn separately, one draw per distinct
column, with the uniform array set for each (so one call can hold many draws' uniforms, as the
emulator's per-lane SA bank does). A vertex that reaches a trap (a word the emulator does not
model, a return with no link, the instruction budget) raises the emulator's InputError.
"""

from __future__ import annotations

import re

import numpy as np

from ...core.diagnostics import InputError
from ...core.gl import FeedbackRun, compile_program, gl_context
from .glsl import OUTPUTS_MARK, TRAP_MARK

_ATTRIBUTE = re.compile(r"^in uvec4 usse_pa(\d+);", re.M)
_UNIFORM = re.compile(r"^uniform uint usse_sa\[(\d+)\];", re.M)
_TRAP = re.compile("^" + re.escape(TRAP_MARK) + r"(\d+): (.*)$", re.M)
_VECTORS = re.compile(r"^flat out uvec4 usse_o(\d+);", re.M)
_OUTPUTS = re.compile("^" + re.escape(OUTPUTS_MARK) + r"(\d+)$", re.M)


def _layout(source: str) -> tuple[int, int, int, int, dict[int, str]]:
    """(uvec4 attributes, SA uniforms, o registers, uvec4 outputs per run, trap messages)
    declared by the source."""
    outputs = _OUTPUTS.search(source)
    if outputs is None:
        raise InputError("not a decompiled USSE program (no usse-outputs line)")
    attributes = len(_ATTRIBUTE.findall(source))
    uniform = _UNIFORM.search(source)
    traps = {int(code): message for code, message in _TRAP.findall(source)}
    vectors = len(_VECTORS.findall(source))
    return attributes, int(uniform.group(1)) if uniform else 0, int(outputs.group(1)), vectors, traps


def _registers(values, rows: int, lanes: int | None, what: str) -> np.ndarray:
    array = np.asarray(values)
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.ndim != 2:
        raise InputError(f"{what} registers must be (registers, lanes), not shape {array.shape}")
    if array.shape[0] > rows:
        raise InputError(f"{array.shape[0]} {what} registers given, the shader takes {rows}")
    if lanes is not None and array.shape[1] not in (1, lanes):
        raise InputError(f"{what} registers have {array.shape[1]} lanes, expected {lanes}")
    padded = np.zeros((rows, array.shape[1] if lanes is None else lanes), np.uint32)
    padded[:array.shape[0]] = array.astype(np.uint32)
    return padded


class GlslRun:
    """A decompiled program compiled and its inputs uploaded, ready to run again and again."""

    def __init__(self, source: str, pa, sa=()):
        attributes, sa_count, self.outputs, self.vectors, self.traps = _layout(source)
        pa = np.asarray(pa)
        lanes = pa.shape[1] if pa.ndim == 2 else 1
        pa = _registers(pa, 4 * attributes, lanes, "PA")
        sa = _registers(sa if np.size(sa) else np.zeros((0, 1)), sa_count, lanes, "SA")
        self.lanes = lanes
        self.windows = range(0, self.outputs, 4 * self.vectors)
        varyings = [f"usse_o{k}" for k in range(self.vectors)] + ["usse_trap"]
        self.program = compile_program(gl_context(), vertex_shader=source, varyings=varyings)
        self.stride = 16 * self.vectors + 8
        self.groups = []  # (lanes of the group, SA column, FeedbackRun)
        try:
            if sa.shape[0] == 0 or bool((sa == sa[:, :1]).all()):  # one set of uniforms: one draw
                columns, inverse = sa[:, :1].T, np.zeros(lanes, np.int64)
            else:
                columns, inverse = np.unique(sa.T, axis=0, return_inverse=True)
            for group, column in enumerate(columns):
                chosen = np.flatnonzero(inverse.reshape(-1) == group)
                inputs = [(np.ascontiguousarray(pa[4 * k:4 * k + 4, chosen].T).tobytes(), "4u", f"usse_pa{k}")
                          for k in range(attributes)]
                run = FeedbackRun(self.program, inputs, len(chosen), self.stride)
                self.groups.append((chosen, np.ascontiguousarray(column, np.uint32), run))
        except Exception:
            self.release()
            raise

    def _set_uniforms(self, column: np.ndarray, base: int = 0) -> None:
        if "usse_o_base" in self.program:
            self.program["usse_o_base"].value = base
        if "usse_sa" in self.program:  # the compiler keeps the array only up to the last element read
            length = self.program["usse_sa"].array_length
            self.program["usse_sa"].write(column[:length].tobytes())

    def draw(self) -> None:
        """Run every lane (no read back)."""
        for _, column, run in self.groups:
            for base in self.windows:
                self._set_uniforms(column, base)
                run.draw()

    def run(self) -> np.ndarray:
        """The o registers, (registers, lanes) uint32; a trap raises its InputError."""
        outputs = np.zeros((self.outputs, self.lanes), np.uint32)
        for chosen, column, run in self.groups:
            for base in self.windows:
                self._set_uniforms(column, base)
                data = np.frombuffer(run.run(), np.uint32).reshape(len(chosen), self.stride // 4)
                trapped = np.flatnonzero(data[:, -2])
                if trapped.size:
                    code, pc = data[trapped[0], -2:]
                    message = self.traps.get(int(code), f"trap {int(code)}")
                    raise InputError(message.replace("{pc}", str(int(pc))))
                window = outputs[base:base + 4 * self.vectors]
                window[:, chosen] = data[:, :4 * self.vectors].T[:window.shape[0]]
        return outputs

    def release(self) -> None:
        for _, _, run in self.groups:
            run.release()
        self.groups = []
        if self.program is not None:
            self.program.release()
            self.program = None


def prepare_run(source: str, pa, sa=()) -> GlslRun:
    return GlslRun(source, pa, sa)


def run_glsl(source: str, pa, sa=()) -> np.ndarray:
    """Run a decompiled program over the lanes of ``pa``; the o registers as (registers, lanes)
    uint32 (see the module docstring)."""
    run = GlslRun(source, pa, sa)
    try:
        return run.run()
    finally:
        run.release()
