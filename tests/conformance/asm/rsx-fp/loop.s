!!ARBfp1.0
OPTION NV_fragment_program2;
# tests/golden/rsx/asm/fp_loop.fp.txt with the slots of fp_loop.fpo.words.txt (cgcomp): LOOP
# holds count, start and step from c[0], and its end slot as a word offset.
#const c[0] = 3 0 1 0
#const c[1] = 0.25 0.125 0.0625 0.25
PARAM c[2] = { { 3, 0, 1, 0 }, { 0.25, 0.125, 0.0625, 0.25 } };
TEMP R0;
MOVR R0, fragment.color;                   ~> 0x01003e00 0x1c9dc801 0x0001c800 0x0001c800
LOOP c[0];                                 ~> 0x43400000 0x1c9c0000 0x8008000c 0x00000010
ADDR R0, R0, c[1];                         ~> 0x03001e00 0x1c9dc800 0x0001c802 0x0001c800 0x3e800000 0x3e000000 0x3d800000 0x3e800000
ENDLOOP;
MOVR result.color, R0;                     ~> 0x01001e01 0x1c9dc800 0x0001c800 0x0001c800
END
