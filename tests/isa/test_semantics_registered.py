"""Every mnemonic of every processor has its semantics registered (shaderkit.core.semantics).

The machines and the reference manuals find what a mnemonic does only through each ISA's
``SEMANTICS`` registry, so a mnemonic the description declares but the registry lacks would be
an instruction that cannot run or be documented. Mnemonics the machines compute with a function
must have one; the others (flow control, no-ops, outputs, texture fetches ...) are registered as
handled by the machine, with their meaning.
"""

from __future__ import annotations

import pytest

import shaderkit.isa as isas
from shaderkit.isa.rsx import opcodes as rsx_opcodes
from shaderkit.isa.rsx import semantics as rsx_semantics
from shaderkit.isa.theia import semantics as theia_semantics
from shaderkit.isa.tpp import semantics as tpp_semantics
from shaderkit.isa.tpp.opcodes import hardware_mnemonic


@pytest.mark.parametrize("rev", ["A", "B"])
def test_every_tpp_mnemonic_is_registered(rev):
    declared = [form.mnemonic for form in isas.get("tpp", rev=rev).description.forms]
    executed = {hardware_mnemonic(opcode, rev) for opcode in range(32)}
    assert tpp_semantics.SEMANTICS.missing([*declared, *executed]) == []
    for mnemonic in {*declared, *executed}:
        computes = tpp_semantics.TARGET[mnemonic] in (tpp_semantics.Target.REGISTER, tpp_semantics.Target.FLAG)
        assert tpp_semantics.SEMANTICS.has_function(mnemonic) == computes, mnemonic


def test_every_theia_mnemonic_is_registered():
    declared = {form.mnemonic for form in isas.get("theia").description.forms}
    assert theia_semantics.SEMANTICS.missing(sorted(declared)) == []
    carried_out_by_the_machine = {"NOP", "DEBUG_PRINT", "JMP"}
    for mnemonic in declared:
        assert theia_semantics.SEMANTICS.has_function(mnemonic) == (mnemonic not in carried_out_by_the_machine)
    assert set(theia_semantics.JUMP_TESTS) <= declared


RSX_GROUPS = [(rsx_semantics.VERTEX_VECTOR, rsx_opcodes.VP_VECTOR),
              (rsx_semantics.VERTEX_SCALAR, rsx_opcodes.VP_SCALAR),
              (rsx_semantics.FRAGMENT, rsx_opcodes.FP)]
# Besides flow control and texture fetches, the machines themselves carry out ARL's address write,
# the address stack, the no-ops and KIL; opcodes the hardware does not implement have no function
# (but LIT, unimplemented in fragment programs, has the vertex scalar unit's).
RSX_MACHINE_WORK = {"ARL", "PSH", "POP", "NOP", "FENCT", "FENCB", "KIL", "POW", "BEM", "BEMLUM", "TIMESWTEX"}


@pytest.mark.parametrize("group, table", RSX_GROUPS, ids=[group for group, _ in RSX_GROUPS])
def test_every_rsx_opcode_is_registered_in_its_group(group, table):
    names = [opcode.name for opcode in table.values()]
    assert rsx_semantics.SEMANTICS.missing(names, group) == []
    for opcode in table.values():
        machine_work = opcode.flow or opcode.texture or opcode.name in RSX_MACHINE_WORK
        assert rsx_semantics.SEMANTICS.has_function(opcode.name, group) == (not machine_work), opcode.name
