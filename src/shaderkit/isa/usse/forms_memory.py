"""Texture samples, loads and stores, depth feedback and phase control (spec/usse.md §2.1 rows 25,
26, 33 and 35, §3, §4, §5): SMP, VLDST, DEPTHF and PHAS, in our syntax (§6.2).

* ``smp1d``/``smp2d``/``smp3d``/``smp4d{flags} dest, src0, src1, src2, drc<n>`` — a texture
  sample of ``dim`` + 1 dimensions (§5). ``smp4d`` is ``dim`` 3: the older family's map calls that
  code invalid (§2.2) and what it does on SGX543 is unknown; it is printed so the word reads back.
  The level-of-detail mode is ``.bias``, ``.replace`` or ``.gradient`` (``lod_mode`` 1–3; none for
  0); the coordinate type (``src0_type``) ``.coord_f16``, ``.coord_c10`` or ``.coord_type3`` (none
  for F32, 3 has no known meaning); the output conversion (``fconv_type``) ``.fconv1`` (meaning
  unknown), ``.fconv_f16`` or ``.fconv_f32`` (code 3; code 0, which Vita3K also reads as F32, prints
  nothing). ``dest`` is ``r<n>`` or ``pa<n>`` by ``dest_use_pa``, its number not doubled; sources 0–2
  count 64-bit pairs (§3.2), source 0 in the source-0 banks, sources 1 and 2 in the source-1/2
  banks (§3.1). ``drc<n>`` is the dependent-read counter ``drc_sel``. ``.minpack`` is the
  single-bit ``minpack`` (meaning unknown, §9); ``sb_mode`` and ``mask_count`` (no meaning given
  for SMP) stay ``name=value``.
* ``ld``/``st.<size>{flags} dest, src0, src1, src2, drc<n>`` — load (major opcode 0x1D, ``op1`` 1)
  or store (0x1E, ``op1`` 2); the size ``.b32``, ``.b16``, ``.b8`` is ``data_type`` 0–2 (``.t3``
  for the code without a name), ``.count<n>`` the count ``mask_count`` + 1 when more than 1 (as
  ``rptN``). ``dest`` is ``r<n>`` or ``pa<n>`` by ``dest_bank_primattr``; no number is doubled
  (§3.2). The single-bit fields whose meaning is unknown (§9) are flags by their spec names:
  ``.moe_expand``, ``.cache_ext``, ``.range_enable``, ``.increment_or_decrement``,
  ``.cache_by_pass12``; ``addr_mode`` and ``mode`` stay ``name=value``.
* ``depthf{flags} src0, src1, src2`` — source 0 counts 64-bit pairs in the source-0 banks,
  sources 1 and 2 do not (§3.2); a short predicate (§4). Flags ``.sync``, ``.end``, ``.nosched``,
  ``.two_sided``. ``dest_n`` (the form has no bank field for it) and the 2-bit ``feedback`` have
  no known meaning and stay ``name=value``.
* ``phas{flags}`` — the spec gives PHAS field names only (§9): its single-bit fields are flags by
  their names (``.sprvv .end .imm .mode .rate_hi .rate_lo_or_nosched``), every other field is
  ``name=value`` (``phas.imm wait_cond=0x7``).
"""

from __future__ import annotations

from ...core.model import Choice, Operand
from . import tables
from .syntax import FormSyntax

SAMPLE_MNEMONICS = ("smp1d", "smp2d", "smp3d", "smp4d")
LOD_MODES = ("", "bias", "replace", "gradient")
COORDINATE_TYPES = ("", "coord_f16", "coord_c10", "coord_type3")
OUTPUT_CONVERSIONS = ("", "fconv1", "fconv_f16", "fconv_f32")
DATA_SIZES = ("b32", "b16", "b8", "t3")
ACCESSES = {1: "ld", 2: "st"}  # op1 (0x1D load, 0x1E store); 0 and 3 are SMP's and 0x1F's opcodes
TEMPORARY_OR_PRIMARY = {(0, 0): "r", (1, 0): "pa"}


def _drc(syntax: FormSyntax, width: int) -> str:
    return syntax.bind("drc", Operand("drc_sel", Choice({value: f"drc{value}" for value in range(1 << width)}),
                                      title="dependent-read counter"))


def _sources(syntax: FormSyntax, ext0: str, ext1: str, ext2: str, doubled: tuple[bool, bool, bool]) -> list[str]:
    sources = [syntax.register("src0", banks=tables.SRC0_BANKS, bank="src0_bank", ext=ext0, number="src0_n",
                               doubled=doubled[0])]
    for index, ext in ((1, ext1), (2, ext2)):
        sources.append(syntax.register(f"src{index}", banks=tables.SRC12_BANKS, bank=f"src{index}_bank", ext=ext,
                                       number=f"src{index}_n", doubled=doubled[index]))
    return sources


def smp(syntax: FormSyntax):
    flags = syntax.flags(*((name, "lod_mode", value) for value, name in enumerate(LOD_MODES) if value),
                         *((name, "src0_type", value) for value, name in enumerate(COORDINATE_TYPES) if value),
                         *((name, "fconv_type", value) for value, name in enumerate(OUTPUT_CONVERSIONS) if value),
                         ("skipinv", "skipinv", 1), ("nosched", "nosched", 1), ("syncstart", "syncstart", 1),
                         ("minpack", "minpack", 1))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    dest = syntax.register("dest", banks=TEMPORARY_OR_PRIMARY, bank="dest_use_pa", ext=None, number="dest_n")
    sources = _sources(syntax, "src0_ext", "src1_ext", "src2_ext", doubled=(True, True, True))
    drc = _drc(syntax, 2)
    operands = ", ".join("{" + name + "}" for name in (dest, *sources, drc))
    for dim, mnemonic in enumerate(SAMPLE_MNEMONICS):
        yield syntax.build(f"{{{pred}?}} {mnemonic}{{{flags}}} {operands}", dim=dim)


def vldst(syntax: FormSyntax):
    flags = syntax.flags(("skipinv", "skipinv", 1), ("nosched", "nosched", 1), ("syncstart", "sync_start", 1),
                         *((f"count{count + 1}", "mask_count", count) for count in range(1, 16)),
                         ("moe_expand", "moe_expand", 1), ("cache_ext", "cache_ext", 1),
                         ("range_enable", "range_enable", 1),
                         ("increment_or_decrement", "increment_or_decrement", 1),
                         ("cache_by_pass12", "cache_by_pass12", 1))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_EXTENDED)
    dest = syntax.register("dest", banks=TEMPORARY_OR_PRIMARY, bank="dest_bank_primattr", ext=None, number="dest_n")
    sources = _sources(syntax, "src0_bank_ext", "src1_bank_ext", "src2_bank_ext", doubled=(False, False, False))
    drc = _drc(syntax, 1)
    operands = ", ".join("{" + name + "}" for name in (dest, *sources, drc))
    for op1, mnemonic in ACCESSES.items():
        for data_type, size in enumerate(DATA_SIZES):
            yield syntax.build(f"{{{pred}?}} {mnemonic}.{size}{{{flags}}} {operands}", op1=op1, data_type=data_type)


def depthf(syntax: FormSyntax):
    flags = syntax.flags(("sync", "sync", 1), ("end", "end", 1), ("nosched", "nosched", 1),
                         ("two_sided", "two_sided", 1))
    pred = syntax.choice("pred", "pred", tables.PREDICATES_SHORT)
    sources = _sources(syntax, "src0_bank_ext", "src1_bank_ext", "src2_bank_ext", doubled=(True, False, False))
    yield syntax.build(f"{{{pred}?}} depthf{{{flags}}} " + ", ".join("{" + name + "}" for name in sources))


def phas(syntax: FormSyntax):
    flags = syntax.flags(*((name, name, 1) for name in ("sprvv", "end", "imm", "mode", "rate_hi",
                                                         "rate_lo_or_nosched")))
    yield syntax.build(f"phas{{{flags}}}")


DECLARED = {"SMP": smp, "PHAS": phas, "DEPTHF": depthf, "VLDST": vldst}

_SAMPLE = ("Texture sample of {dimensions} (`dim` {dim}): `dest` (`r`, or `pa` with `dest_use_pa`) receives the "
           "sample at the coordinates in source 0; sources 1 and 2 are the sampler's other inputs. The level of "
           "detail is the default, `.bias`, `.replace` or `.gradient` (`lod_mode` 0–3); the coordinate type F32, "
           "`.coord_f16` or `.coord_c10` (`src0_type`; `.coord_type3` unknown); the output conversion F32, "
           "`.fconv_f16` or `.fconv_f32` (`fconv_type` 0, 2, 3; `.fconv1` unknown). `drc<n>` is the "
           "dependent-read counter (`drc_sel`). Source numbers count 64-bit pairs, the destination's does not. "
           "Filtering, the texture state format, `sb_mode`, `minpack` and `mask_count` are unknown; not modelled.")
_SIZES = {"b32": "32-bit", "b16": "16-bit", "b8": "8-bit"}
_ACCESS = {"ld": "Load (major opcode 0x1D): address = src0 + src1 + src2, into dest",
           "st": "Store (major opcode 0x1E): address = src0 + src1"}


def _access_meaning(mnemonic: str) -> str:
    access, _, size = mnemonic.partition(".")
    kind = (f"{_SIZES[size]} data (`data_type` {DATA_SIZES.index(size)})" if size in _SIZES else
            "data type code 3, which the spec does not name (semantics unknown)")
    return (f"{_ACCESS[access]}; {kind}, an immediate src1 scaled by the data size; `.count<n>` moves `mask_count` "
            f"+ 1 items. `dest` is `r`, or `pa` with `dest_bank_primattr`; no register number is doubled. "
            f"`addr_mode`, `mode`, `range_enable`, `increment_or_decrement`, `moe_expand`, `drc<n>` (`drc_sel`) "
            f"and the cache bits are unknown; not modelled.")


MEANINGS = {
    **{mnemonic: _SAMPLE.format(dimensions=("4 dimensions, a code the older family's map calls invalid (its "
                                            "meaning on SGX543 is unknown)" if dim == 3 else f"{dim + 1}D data"),
                                dim=dim)
       for dim, mnemonic in enumerate(SAMPLE_MNEMONICS)},
    **{f"{access}.{size}": _access_meaning(f"{access}.{size}") for access in ACCESSES.values() for size in DATA_SIZES},
    "depthf": ("Depth feedback / replace: replaces the fragment depth. Source 0 counts 64-bit pairs, sources 1 and 2 "
               "do not. `dest_n` (no bank field), `feedback` and the flags `.sync`, `.two_sided` have no known "
               "meaning; not modelled."),
    "phas": ("Phase control. Its fields are unknown beyond their names: single bits print as flags by name, the "
             "rest as `name=value`; the emulator treats it as having no effect."),
}
