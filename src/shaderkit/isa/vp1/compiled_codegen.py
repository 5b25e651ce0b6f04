"""The compiled loop's kernel written per program: the hand-written loop and units with the
branches a program cannot reach removed, so that Numba compiles only what the program uses.

Compiling every opcode's branch (the loop of :mod:`.compiled_loop` with the scalar, address
and s2v units) takes 8–12 s of CPU time; a program uses a few opcodes of each unit, and the
kernel of just those compiles in 2–3 s (about 1.3 s of it is Numba's first compile and the
loop's fixed part). There is still one description of each opcode: the loop and the units as
written (:func:`.compiled_loop.run`, ``scalar_unit`` of :mod:`.compiled_scalar`, ``address_unit``
and ``r_port`` of :mod:`.compiled_address`, ``scalar_factors`` of :mod:`.compiled_s2v`).
:func:`kernel_source` takes their source and removes, by :class:`Pruner`, each branch whose
test no opcode of the program passes (or fails) — a test that reads only an opcode
(``vw >> 24``, and its high bits ``vw >> 28`` …), names computed from it (``kind =
kinds[op]``), constants and tables, which the pruner evaluates in Python for each of the
program's opcodes (and likewise the register file a ``mov`` names, ``sw >> 3 & 31``). Every
other statement is kept as written. The kernel of every opcode (:data:`EVERY_OPCODE`) is the
same text, bar an operand every compiled opcode decides alike.

:class:`Features` are what a kernel covers: the opcodes of each unit, the scalar opcodes
beside an s2v reader, and the files the scalar words may name. The source goes to
:func:`shaderkit.core.jit.compile_source`, which caches it on disk by its hash (a later
process loads the machine code) and compiles a given text once per process.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from typing import NamedTuple

import numpy as np

from .compiled_address import ADDRESS_COMPILED
from .compiled_scalar import SCALAR_COMPILED

VECTOR_COMPILED = frozenset(range(0x80, 0xC0))  # every vector opcode
BRANCH_COMPILED = frozenset({0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xEA, 0xEF, 0xF0, 0xFF})


class Features(NamedTuple):
    """What a kernel runs: the opcodes of each unit (frozensets of the word's top byte), and
    two finer sets the pruner reads (each a superset of the program's is still right):

    * ``s2v``: the scalar opcodes beside a vector op that reads the s2v factors
      (:data:`.compiled.VECTOR_READS_S2V`) — the only words ``scalar_factors`` is called with;
    * ``files``: bits 3–7 of the scalar words (``sw >> 3 & 31``), which are the register file
      a ``mov`` (0x6a/0x6b) names — so the moves and commits of files no ``mov`` names go.
    """
    address: frozenset
    scalar: frozenset
    vector: frozenset
    branch: frozenset
    s2v: frozenset
    files: frozenset

    def covers(self, other: Features) -> bool:
        return all(mine >= theirs for mine, theirs in zip(self, other, strict=True))


EVERY_OPCODE = Features(ADDRESS_COMPILED, SCALAR_COMPILED, VECTOR_COMPILED, BRANCH_COMPILED, SCALAR_COMPILED,
                        frozenset(range(32)))


def features(table) -> Features:
    """The opcodes (and :class:`Features`' finer sets) of the compiled bundles of a decoded
    program (:func:`.compiled.decode`).

    Every word address counts, not only the bundle starts a run from word 0 meets: a jump may
    land anywhere."""
    from .compiled import VECTOR_READS_S2V
    rows = table[table[:, 0] == 1]
    units = []
    for column in (2, 3, 4, 5):  # A, S, V, B; S is the empty scalar word where a bundle has none
        words = rows[:, column]
        units.append(frozenset(int(word) >> 24 for word in set(words[words >= 0].tolist())))
    beside_s2v = frozenset(int(scalar) >> 24 for scalar, vector in set(map(tuple, rows[:, [3, 4]].tolist()))
                           if vector >= 0 and vector >> 24 in VECTOR_READS_S2V)
    files = frozenset(int(word) >> 3 & 31 for word in set(rows[:, 3].tolist()))
    return Features(*units, beside_s2v, files)


# The pruned functions, callees first: (the hand-written one, its opcode expressions and their
# units). The generated module defines each under its own name, so the pruned ones call the
# pruned ones.
def _pruned_functions():
    from . import compiled_loop
    return (
        (compiled_loop.scalar_unit.py_func, {"sw >> 24": "scalar", "sw >> 3 & 31": "files"}),
        (compiled_loop.address_unit.py_func, {"aw >> 24": "address"}),
        (compiled_loop.r_port.py_func, {"aw >> 24": "address", "sw >> 24": "scalar"}),
        (compiled_loop.scalar_factors.py_func, {"sw >> 24": "s2v"}),
        (compiled_loop.run, {"aw >> 24": "address", "sw >> 24": "scalar", "vw >> 24": "vector", "bw >> 24": "branch",
                             "sw >> 3 & 31": "files"}),
    )


KERNEL = "run"  # the generated function compile_source compiles (and caches)
UNIT_JIT = "_unit_jit"  # the name the generated source compiles its units with


def kernel_source(covered: Features) -> str:
    """The source of a module defining ``run`` (the loop, cached) and the units it calls,
    with the branches no opcode of ``covered`` takes removed."""
    parts = [
        f'"""The VP1 compiled loop for the opcodes {_describe(covered)}: generated by '
        f'{__name__} (the loop and units as written, pruned)."""',
        f"from {__name__} import environment as _environment",
        "globals().update(_environment())",
    ]
    for function, roots in _pruned_functions():
        tree = _function_tree(function)
        pruner = Pruner({root: getattr(covered, unit) for root, unit in roots.items()}, _scope(function))
        tree.body = pruner.block(tree.body)
        tree.decorator_list = []
        parts.append(ast.unparse(ast.fix_missing_locations(tree)))
        if tree.name != KERNEL:
            parts.append(f"{tree.name} = {UNIT_JIT}({tree.name})")
    return "\n\n\n".join(parts) + "\n"


def _describe(covered: Features) -> str:
    return "; ".join(f"{unit} {' '.join(f'{opcode:02x}' for opcode in sorted(opcodes)) or '-'}"
                     for unit, opcodes in zip(Features._fields, covered, strict=True))


@functools.cache
def environment() -> dict:
    """The names the generated module's functions read, as the hand-written ones see them:
    their module globals and closure variables (the compiled rules, tables and constants),
    and the units' jit. A name two of them read as different objects is refused: one generated
    module has one namespace."""
    from . import compiled_loop
    names: dict = {UNIT_JIT: compiled_loop.njit(cache=False)}
    for function, _ in _pruned_functions():
        for name, value in _referenced(function).items():
            if name in names and names[name] is not value and not _same_constant(names[name], value):
                raise ValueError(f"compiled_codegen: {name!r} means two things in the units it merges")
            names[name] = value
    return names


def _same_constant(first, second) -> bool:
    return type(first) is type(second) and isinstance(first, (int, float, str)) and first == second


def _referenced(function) -> dict:
    """The global and closure names ``function``'s code reads, with their values."""
    code = function.__code__
    names = {name: function.__globals__[name] for name in code.co_names if name in function.__globals__}
    for name, cell in zip(code.co_freevars, function.__closure__ or (), strict=True):
        names[name] = cell.cell_contents
    return names


def _scope(function) -> dict:
    """What a test may read besides the opcode: the function's globals and closure, less its
    own locals (a local named like a global is not that global)."""
    local = set(function.__code__.co_varnames) | set(function.__code__.co_cellvars)
    return {name: value for name, value in _referenced(function).items() if name not in local}


def _function_tree(function) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]


class Pruner:
    """Removes the branches of a function body that no opcode takes.

    ``roots`` maps an opcode expression as written (``"vw >> 24"``) to the opcodes it may be
    where it is read (a word of that unit: a test reading it must come after the word's
    ``!= NONE``, as ``and`` makes it), or another field of a word (``"sw >> 3 & 31"``) to the
    values it may have; a name assigned from it, or from names computed so
    (``low = op & 0xF``), or a constant (``va_written = False``), is followed until it is
    assigned anything else. A test that reads one root through such names, and otherwise only
    ``scope`` (globals, closure constants and tables) — no calls — is evaluated for each opcode
    still possible there: a branch none takes is removed, and an ``if`` that every possible
    opcode takes one way keeps that branch alone, without the test (likewise ``a if t else
    b``). An operand of ``and``/``or`` so decided alike decides the test or drops out of it.
    Within a branch the possible opcodes are those that take it. Anything else is kept as
    written.
    """

    def __init__(self, roots: dict[str, frozenset], scope: dict):
        self.roots = {ast.dump(ast.parse(text, mode="eval").body): frozenset(values) for text, values in roots.items()}
        # A root ``word >> 24`` (the opcode byte of a 32-bit word) also gives ``word >> 28`` and
        # the like: the opcode's high bits (the unsigned and immediate bits of many forms).
        self.words = {}
        for key, expression in zip(self.roots, (ast.parse(text, mode="eval").body for text in roots), strict=True):
            if isinstance(expression, ast.BinOp) and isinstance(expression.op, ast.RShift) \
                    and isinstance(expression.left, ast.Name) and _constant(expression.right) == 24:
                self.words[expression.left.id] = key
        self.scope = scope
        self.possible = dict(self.roots)  # root -> opcodes possible here
        # name -> (root, value by opcode), or (None, {None: value}) for a constant
        self.followed: dict[str, tuple[str | None, dict]] = {}

    def block(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        kept: list[ast.stmt] = []
        for statement in statements:
            kept.extend(self.statement(statement))
            if kept and isinstance(kept[-1], (ast.Return, ast.Break, ast.Continue)):
                break  # the rest of the block is unreachable (a branch kept alone may end so)
        return kept or [ast.Pass()]

    def statement(self, statement: ast.stmt) -> list[ast.stmt]:
        if isinstance(statement, ast.If):
            return self._if(statement)
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)) and statement.value is not None:
            statement.value = self._fold(statement.value)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            name = statement.targets[0].id
            values = self.evaluate(statement.value)
            self.followed.pop(name, None)
            if values is not None:
                self.followed[name] = values
            return [statement]
        if isinstance(statement, (ast.For, ast.While)):
            if isinstance(statement, ast.For):
                statement.iter = self._fold(statement.iter)
            self._forget(statement)  # a loop may come round with its own assignments
            saved = dict(self.followed)
            statement.body = self.block(statement.body)
            self.followed = saved
            self._forget(statement)
            return [statement]
        self._forget(statement)
        return [statement]

    def _if(self, statement: ast.If) -> list[ast.stmt]:
        statement.test = self._simplify(statement.test)
        values = self.evaluate(statement.test)
        if values is None:
            statement.body = self._branch(statement.body, None, None)
            statement.orelse = self._branch(statement.orelse, None, None) if statement.orelse else []
            self._forget(statement)
            return [statement]
        root, results = values
        if root is None:  # decided whatever the opcode: that branch alone, run by every path
            return self._inline(self.block(statement.body if results[None] else statement.orelse))
        possible = self.possible[root]
        if not possible:  # no opcode gets here (a program without words of this unit): dead code
            return []
        taken = frozenset(opcode for opcode in possible if results[opcode])
        others = possible - taken
        if not others:
            return self._inline(self._branch(statement.body, root, taken))
        if not taken:
            return self._inline(self._branch(statement.orelse, root, others)) if statement.orelse else []
        statement.body = self._branch(statement.body, root, taken)
        orelse = self._branch(statement.orelse, root, others) if statement.orelse else []
        statement.orelse = [] if all(isinstance(kept, ast.Pass) for kept in orelse) else orelse
        self._forget(statement)
        return [statement]

    def _decided(self, expression: ast.expr):
        """True or False when every possible opcode decides ``expression`` alike, else None."""
        values = self.evaluate(expression)
        if values is None:
            return None
        outcomes = {bool(value) for value in values[1].values()}
        return outcomes.pop() if len(outcomes) == 1 else None

    def _simplify(self, test: ast.expr) -> ast.expr:
        """``test`` with the operands of its ``and``/``or`` that every possible opcode decides
        alike taken out: a False in an ``and`` (a True in an ``or``) decides it."""
        if not isinstance(test, ast.BoolOp):
            return test
        deciding = isinstance(test.op, ast.Or)  # the operand value that decides the whole
        kept = []
        for operand in test.values:
            decided = self._decided(operand)
            if decided is deciding:
                return ast.Constant(deciding)
            if decided is None:
                kept.append(operand)
        if not kept:
            return ast.Constant(not deciding)
        return kept[0] if len(kept) == 1 else ast.BoolOp(test.op, kept)

    def _fold(self, expression: ast.expr) -> ast.expr:
        """``expression`` with each ``a if test else b`` whose test every possible opcode
        decides alike replaced by the side they take."""
        pruner = self

        class Fold(ast.NodeTransformer):
            def visit_IfExp(self, node):
                self.generic_visit(node)
                decided = pruner._decided(pruner._simplify(node.test))
                if decided is None:
                    return node
                return node.body if decided else node.orelse

        return Fold().visit(expression)

    def _inline(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        """A branch kept alone: its statements in place of the ``if`` (names followed inside it
        stay followed, as every possible opcode ran them)."""
        return [statement for statement in statements if not isinstance(statement, ast.Pass)]

    def _branch(self, statements: list[ast.stmt], root, opcodes) -> list[ast.stmt]:
        saved_possible, saved_followed = dict(self.possible), dict(self.followed)
        if root is not None:
            self.possible[root] = opcodes
        kept = self.block(statements)
        inline = root is not None and not (saved_possible[root] - opcodes)
        self.possible = saved_possible
        if not inline:
            self.followed = saved_followed
        return kept

    def _forget(self, statement: ast.stmt) -> None:
        """Stop following the names ``statement`` assigns (they may differ by path)."""
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.followed.pop(node.id, None)

    def evaluate(self, expression: ast.expr):
        """``(root, value by possible opcode)`` when ``expression`` reads one root (directly or
        through followed names) and otherwise only followed constants and the scope,
        ``(None, {None: value})`` when it reads no root; an int or bool each time. None when it
        reads anything else, calls anything, or fails to evaluate."""
        expression, placeholder = self._with_placeholder(expression)
        if expression is None:  # two roots: not one opcode's
            return None
        roots = set()
        if placeholder is not None:
            roots.add(placeholder)
        for node in ast.walk(expression):
            if isinstance(node, ast.Call):
                return None  # a call may do anything (a compiled unit would compile)
            if isinstance(node, ast.Name) and node.id != "_opcode":
                if node.id in self.followed:
                    if self.followed[node.id][0] is not None:
                        roots.add(self.followed[node.id][0])
                elif node.id not in self.scope:
                    return None
        if len(roots) > 1:
            return None
        root = roots.pop() if roots else None
        code = compile(ast.Expression(ast.fix_missing_locations(expression)), "<pruner>", "eval")
        scope = dict(self.scope)  # eval adds __builtins__ to the globals it is given
        results = {}
        for opcode in (self.possible[root] if root is not None else (None,)):
            names = {"_opcode": opcode}
            for name, (other_root, by_opcode) in self.followed.items():
                if other_root is None or (other_root == root and opcode in by_opcode):
                    names[name] = by_opcode[None if other_root is None else opcode]
            try:
                value = eval(code, scope, names)  # noqa: S307 - the kernel's own tests
            except Exception:  # noqa: BLE001 - a test Python cannot evaluate stays in the kernel
                return None
            if not isinstance(value, (int, np.integer, np.bool_)):
                return None
            results[opcode] = value
        return root, results

    def _with_placeholder(self, expression: ast.expr):
        """``expression`` with a root written out in it replaced by the name ``_opcode``."""
        found = []

        class Replace(ast.NodeTransformer):
            def visit(inner, node):
                key = ast.dump(node) if isinstance(node, ast.expr) else None
                if key in self.roots:
                    found.append(key)
                    return ast.copy_location(ast.Name("_opcode", ast.Load()), node)
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.RShift) \
                        and isinstance(node.left, ast.Name) and node.left.id in self.words \
                        and (_constant(node.right) or 0) > 24:  # word >> 28: opcode >> 4
                    found.append(self.words[node.left.id])
                    return ast.copy_location(ast.BinOp(ast.Name("_opcode", ast.Load()), ast.RShift(),
                                                       ast.Constant(_constant(node.right) - 24)), node)
                return super().visit(node)

        replaced = Replace().visit(copy_tree(expression))
        if len(set(found)) > 1:
            return None, None
        return replaced, (found[0] if found else None)


def _constant(node: ast.expr):
    """The int a node writes out, or None."""
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def copy_tree(node: ast.AST) -> ast.AST:
    return ast.parse(ast.unparse(node), mode="eval").body
