// Our superset (README "THEIA in detail"): commas, any-case mnemonics, label and instruction on
// one line, constants, and immediates as hex, decimal raw words or fixed point (1.0 = 0x20000,
// spec/theia.md §1).
HALF = 0x10000
.equ SEVEN 7
start: add R1, R2, R3                       ~> 0x0001004700480049
SETX R1 1.5                                 ~> 0x0041004700030000
SETY R1 -1.0                                ~> 0x00420047fffe0000
SETZ R1 250.0                               ~> 0x0043004701f40000
SETX R2 HALF                                ~> 0x0041004800010000
SETX R2 SEVEN                               ~> 0x0041004800000007
SETX R2 ((1 << 17) | 5)                     ~> 0x0041004800020005
JMP start                                   ~> 0x0058800b00000000
SWIZZLE3D R6 0x15                           ~> 0x0044004c00000015
