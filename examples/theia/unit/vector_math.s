// vector_math.s — a bare program for `run -m theia --program … --registers`
//
// A bare run executes this on one lane with every register zero, from the first
// instruction until RETURN, and prints each row it wrote as `NAME x y z` in hex
// (fixed point: 0x00020000 is 1.0). Use it as a template for unit-testing microcode.

SETX R1 1.5            // R1 = (1.5, 0, 0)
SETY R1 -2.0           // R1 = (1.5, -2, 0)
SETZ R1 0.25           // R1 = (1.5, -2, 0.25)
ADD R2 R1 R1           // R2 = 2 * R1
MUL R3 R1 R1           // element-wise square
MAG R4 R1              // length of R1 in every lane
RETURN RT_TRUE
