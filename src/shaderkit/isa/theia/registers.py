"""THEIA V1 data addresses, routine entry points and symbolic constants (spec §2.2, §3, §5).

The decimal addresses of spec §3 are authoritative (the seed manual's hex column is
wrong in places). Names are case-sensitive: ``CREG_t`` (99) is not ``CREG_T`` (88).
"""

from __future__ import annotations

# Data address → names, the printed name first.
ADDRESS_NAMES: dict[int, tuple[str, ...]] = {
    0: ("VOID", "CREG_LIGHT_INFO"),
    1: ("CREG_CAMERA_POSITION",),
    2: ("CREG_PROJECTION_WINDOW_MIN",),
    3: ("CREG_PROJECTION_WINDOW_MAX",),
    4: ("CREG_RESOLUTION",),
    5: ("CREG_TEXTURE_SIZE",),
    6: ("CREG_PIXEL_2D_INITIAL_POSITION",),
    7: ("CREG_PIXEL_2D_FINAL_POSITION",),
    8: ("CREG_FIRST_LIGTH", "CREG_FIRST_LIGTH_DIFFUSE", "CREG_FIRST_LIGHT"),
    # Our name: the light record's second row (its diffuse colour), see microcode/shade.s.
    9: ("CREG_LIGHT_DIFFUSE",),
    42: ("CREG_AABBMIN",),
    43: ("CREG_AABBMAX",),
    44: ("CREG_V0",),
    45: ("CREG_UV0",),
    46: ("CREG_V1",),
    47: ("CREG_UV1",),
    48: ("CREG_V2",),
    49: ("CREG_UV2",),
    50: ("CREG_TRI_DIFFUSE",),
    **{52 + k: (f"CREG_TEX_COLOR{k}",) for k in range(1, 8)},
    **{63 + k: (f"C{k}",) for k in range(1, 8)},
    **{70 + k: (f"R{k}",) for k in range(1, 13)},
    83: ("CREG_PROJECTION_WINDOW_SCALE",),
    84: ("CREG_UNORMALIZED_DIRECTION",),
    85: ("CREG_RAY_DIRECTION",),
    86: ("CREG_E1_LAST",),
    87: ("CREG_E2_LAST",),
    88: ("CREG_T",),
    89: ("CREG_P",),
    90: ("CREG_Q",),
    91: ("CREG_UV0_LAST",),
    92: ("CREG_UV1_LAST",),
    93: ("CREG_UV2_LAST",),
    94: ("CREG_TRI_DIFFUSE_LAST",),
    95: ("CREG_LAST_t", "GREG_LAST_t"),
    96: ("CREG_LAST_u",),
    97: ("CREG_LAST_v",),
    98: ("CREG_COLOR_ACC",),
    99: ("CREG_t",),
    100: ("CREG_E1",),
    101: ("CREG_E2",),
    102: ("CREG_DELTA",),
    103: ("CREG_u",),
    104: ("CREG_v",),
    105: ("CREG_H1",),
    106: ("CREG_H2",),
    107: ("CREG_H3",),
    108: ("CREG_PIXEL_PITCH",),
    109: ("CREG_LAST_COL",),
    110: ("CREG_TEXTURE_COLOR",),
    111: ("CREG_PIXEL_2D_POSITION",),
    **{111 + k: (f"CREG_TEXWEIGHT{k}",) for k in range(1, 5)},
    128: ("OREG_PIXEL_COLOR",),
    129: ("OREG_TEX_COORD1",),
    130: ("OREG_TEX_COORD2",),
    131: ("OREG_ADDR_O",),
}

ADDRESSES: dict[str, int] = {name: address for address, names in ADDRESS_NAMES.items() for name in names}


def address_name(address: int) -> str:
    """The printed name of a data address, or its number."""
    names = ADDRESS_NAMES.get(address)
    return names[0] if names else f"0x{address:x}"


# Memory banks (spec §3.1).
# 32..63 swap RAM (geometry and texels) and 64..127 general RAM are read-write.
CONFIG_END = 32        # 0..31: loaded by the host, read-only for programs
OUTPUT_START = 128     # 128..255: output RAM, write-only for programs
DATA_ROWS = 256

# The 11 routines in entry-table order, with the upstream ROM addresses of their
# defaults (spec §5). Upstream Instructions.mem files point unchanged entries there.
ROUTINES = ("INITIAL", "CPPU", "RGU", "AABBIU", "BIU", "PSU", "PSU2", "TCC", "NPG",
            "USERCONSTANTS", "PIXELSHADER")
UPSTREAM_ENTRY_ADDRESSES = {
    "INITIAL": 0, "CPPU": 29, "RGU": 32, "AABBIU": 53, "BIU": 141, "PSU": 216, "PSU2": 232,
    "TCC": 174, "NPG": 39, "USERCONSTANTS": 241, "PIXELSHADER": 243,
}
ENTRY_LABEL_PREFIX = "ENTRYPOINT_ADRR_"

# Code addresses (spec §2.3): bit 15 selects the user instruction RAM.
RAM_BIT = 0x8000
RAM_WORDS = 512
ENTRY_TABLE_SIZE = len(ROUTINES)
USER_CODE_START = RAM_BIT | ENTRY_TABLE_SIZE  # upstream labels: 0x8000 | (index + 11)

# Only XXX, YYY, ZZZ and YXZ work on V1; the other codes yield (0, 0, 0) (semantics.py).
SWIZZLES: dict[str, int] = {f"SWIZZLE_{name}": code for code, name in enumerate((
    "XXX", "YYY", "ZZZ", "XYY", "XXY", "XZZ", "XXZ", "YXX", "YYX", "YZZ", "YYZ",
    "ZXX", "ZZX", "ZYY", "ZZY", "XZX", "XYX", "YXY", "YZY", "ZXZ", "ZYZ", "YXZ"))}
