!!ARBfp1.0
OPTION NV_fragment_program2;
# tests/golden/rsx/asm/fp_if_else.fp.txt with the slots of fp_if_else.fpo.words.txt (cgcomp):
# ELSE and ENDIF take no slot; IF holds their slots as word offsets.
#const c[0] = 0.5 1 0 0.25
PARAM c[1] = { { 0.5, 1, 0, 0.25 } };
TEMP R0;
ADDRC RC.x, fragment.texcoord[0].y, -c[0].x; ~> 0x4300837e 0x1c9caa01 0x00020002 0x3fe1c800 0x3f000000 0x3f800000 0x00000000 0x3e800000
IF GT.x;                                   ~> 0x42400000 0x00100000 0x80000010 0x00000018
  MOVR R0, fragment.color;                 ~> 0x01003e00 0x1c9dc801 0x0001c800 0x0001c800
ELSE;
  MOVR R0, c[0].wwwy;                      ~> 0x01001e00 0x1c9cfe02 0x0001c800 0x0001c800 0x3f000000 0x3f800000 0x00000000 0x3e800000
ENDIF;
MOVR result.color, R0;                     ~> 0x01001e01 0x1c9dc800 0x0001c800 0x0001c800
END
