// The upstream theia_compile syntax (spec/theia.md §8), words by its encoding rule: high word
// OP << 16 | DST, low word S1 << 16 | S2; a label is 0x8000 | (instruction index + 11).
ENTRYPOINT_ADRR_PIXELSHADER:
MAG R1 CREG_TEXTURE_COLOR                   ~> 0x00050047006e0000
JLX BLACK R1 C1                             ~> 0x0009801000470040
SETX OREG_PIXEL_COLOR 32'h20000             ~> 0x0041008000020000
SWIZZLE3D OREG_PIXEL_COLOR SWIZZLE_XXX      ~> 0x0044008000000000
RETURN RT_TRUE                              ~> 0x0040000000000001
BLACK:
ZERO OREG_PIXEL_COLOR VOID VOID             ~> 0x000f008000000000
JMP BLACK VOID VOID                         ~> 0x0058801000000000
DIV CREG_t CREG_H1 CREG_DELTA               ~> 0x0003006300690066
SUB CREG_T CREG_CAMERA_POSITION CREG_V0     ~> 0x000200580001002c
NOP RT_FALSE                                ~> 0x0000000000000000
