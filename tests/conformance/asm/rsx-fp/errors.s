!!ARBfp1.0
OPTION NV_fragment_program2;
# One mistake per line; every error of the file is reported at once.
MOVR R0, c[5];                             ~> error 10: c[5] is not declared
ADDR R0, {1, 2, 3, 4}, {5, 6, 7, 8};       ~> error 24: one literal slot
MOVR R0, R1 + MOVR R1, R2;                 ~> error 13: co-issue ('+') exists only in vertex programs
ADDR R0, fragment.color, fragment.texcoord[0]; ~> error 26: one input attribute
MOVR R0 R1;                                ~> error 9: expected ',' between operands
FOO R0, R1;                                ~> error 1: instruction 'FOO'
MOVR R99, R1;                              ~> error 6: R99
