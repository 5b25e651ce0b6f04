"""How the RSX GLSL decompiler is put together: one translation table, modules without cycles.

The generated text itself is test_rsx_glsl's subject (and test_rsx_gl_vs_emulator's, for what it
computes); these tests keep the structure that makes the decompiler easy to extend.
"""

from __future__ import annotations

import ast
from pathlib import Path

import shaderkit.isa.rsx as rsx_package
from shaderkit.isa.rsx.glsl_operations import OPERATIONS
from shaderkit.isa.rsx.opcodes import FP, VP_SCALAR, VP_VECTOR
from shaderkit.isa.rsx.semantics import FRAGMENT, SEMANTICS, VERTEX_SCALAR, VERTEX_VECTOR

PACKAGE = Path(rsx_package.__file__).parent
GLSL_MODULES = sorted(path.stem for path in PACKAGE.glob("glsl*.py"))


def test_every_mnemonic_the_emulator_computes_has_one_glsl_translation():
    computed = set()
    for group, table in ((VERTEX_VECTOR, VP_VECTOR), (VERTEX_SCALAR, VP_SCALAR), (FRAGMENT, FP)):
        computed |= {opcode.name for opcode in table.values() if SEMANTICS.has_function(opcode.name, group)}
    # ARL has no function of its own (the vertex machine computes it as a MOV) but is translated.
    assert set(OPERATIONS) == computed | {"ARL"}


def _glsl_imports(module: str) -> tuple[set[str], list[str]]:
    """(the glsl modules ``module`` imports, imports written inside functions)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    imported, nested = set(), []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nested += [f"{module}.{node.name}" for inner in ast.walk(node)
                       if isinstance(inner, (ast.Import, ast.ImportFrom))]
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in GLSL_MODULES:
            imported.add(node.module)
    return imported, nested


def test_glsl_modules_import_each_other_without_cycles_and_at_module_level():
    graph = {}
    for module in GLSL_MODULES:
        graph[module], nested = _glsl_imports(module)
        assert not nested, f"imports inside functions: {nested}"
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join(path + (module,))}"
        if module in done:
            return
        for imported in graph[module]:
            visit(imported, path + (module,))
        done.add(module)

    for module in GLSL_MODULES:
        visit(module, ())
    assert {"glsl_fragment", "glsl_vertex"} <= graph["glsl"]
