!!ARBfp1.0
OPTION NV_fragment_program2;
# tests/golden/rsx/asm/fp_arith_const.fp.txt with the slots of fp_arith_const.fpo.words.txt
# (cgcomp): each instruction that reads a constant is followed by its literal slot.
#const c[0] = 0.5 0.25 2 1
#const c[1] = 0.125 0.375 -0.5 0
PARAM c[2] = { { 0.5, 0.25, 2, 1 }, { 0.125, 0.375, -0.5, 0 } };
TEMP R0, R1;
MULR R0, fragment.texcoord[0], c[0];       ~> 0x02009e00 0x1c9dc801 0x0001c802 0xbfe1c800 0x3f000000 0x3e800000 0x40000000 0x3f800000
ADDR R1, R0, c[1];                         ~> 0x03001e02 0x1c9dc800 0x0001c802 0x0001c800 0x3e000000 0x3ec00000 0xbf000000 0x00000000
MADR R0, R1, fragment.color, c[0].wzyx;    ~> 0x04003e00 0x1c9dc804 0x0001c801 0x00003602 0x3f000000 0x3e800000 0x40000000 0x3f800000
MOVR result.color, R0;                     ~> 0x01001e01 0x1c9dc800 0x0001c800 0x0001c800
END
