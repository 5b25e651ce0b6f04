"""The sizes of the RSX register files and program memory, and the names of the CC tests
(spec/rsx.md sections 2.1, 2.3, 3.1): what the descriptions, the text tables and the machines
all bound their numbers by."""

CONDITION_NAMES = ("FL", "LT", "EQ", "LE", "GT", "NE", "GE", "TR")
VP_TEMPORARIES = 32
FP_TEMPORARIES = 48
VP_CONSTANTS = 468
VP_INPUTS = 16  # v[0..15]
VP_OUTPUTS = 16  # o[0..15]
VP_CODE_SLOTS = 512  # spec section 2.1; RPCS3 allows 544 [uncertain]
