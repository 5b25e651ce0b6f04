"""ISA-independent machinery: bit fields, the description model, assembler and
disassembler drivers, diagnostics, binary containers and lane helpers.

Nothing in this package knows about a particular processor.
"""
