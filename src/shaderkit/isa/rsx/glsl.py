"""RSX programs as GLSL 4.30: the decompiler's entry point (spec/rsx.md section 7).

:func:`decompile` turns a decoded vertex or fragment program into one complete GLSL 4.30 core
shader. The work is split so that the modules depend on each other in one direction only:

* :mod:`.glsl_fragment` and :mod:`.glsl_vertex` write the shader of each program kind;
* :mod:`.glsl_operations` is the one table that translates each arithmetic mnemonic, for both;
* :mod:`.glsl_shared` holds what all of them build on: literals, operands and results, CC tests,
  masked and conditional writes, and the helper functions a shader may need.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from shaderkit.core.diagnostics import InputError

from .container import CgParameter, FragmentProgramHeader, ProgramKind
from .glsl_fragment import decompile_fragment
from .glsl_vertex import decompile_vertex
from .instruction import Program


def decompile(program: Program, parameters: Sequence[CgParameter] | None = None, *,
              fullscreen: bool = False, header: FragmentProgramHeader | None = None,
              rectangle_units: Collection[int] = ()) -> str:
    """A complete GLSL 4.30 core shader for a decoded RSX program.

    ``parameters`` (a container's parameter table) names uniforms and samplers. ``fullscreen``
    (fragment programs only) computes the inputs from ``gl_FragCoord`` as the emulation goldens
    define them, for :func:`shaderkit.isa.rsx.gl.render_fragment_fullscreen`. ``header`` (a
    fragment container's sub-header) says whether the colour comes from H0 and whether the
    program replaces depth; without it both are inferred from the code. ``rectangle_units``
    (fragment programs) are texture units sampled as rectangles, ``sampler2DRect``, besides those
    the parameters record as samplerRECT: the microcode does not say (spec 3.7).
    """
    if program.kind is ProgramKind.FRAGMENT:
        return decompile_fragment(program, parameters, fullscreen=fullscreen, header=header,
                                  rectangle_units=rectangle_units)
    if fullscreen:
        raise InputError("fullscreen=True is for fragment programs; this is a vertex program")
    if rectangle_units:
        raise InputError("rectangle_units are a fragment program's texture units; this is a vertex program")
    return decompile_vertex(program, parameters)
