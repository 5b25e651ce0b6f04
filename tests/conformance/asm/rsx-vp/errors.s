!!ARBvp1.0
OPTION NV_vertex_program3;
# One mistake per line; every error of the file is reported at once.
ADD R0 R1, R2;                             ~> error 8: expected ',' between operands
FOO R0, R1;                                ~> error 1: instruction 'FOO'
ADD R0, vertex.position, vertex.normal;    ~> error 26: one input attribute
MUL R0, c[0], c[1];                        ~> error 15: one constant
MOV R0, R1                                 ~> error 11: missing ';'
MOV R0, v[16];                             ~> error 11: v index 16 is out of range
top:
top:                                       ~> error 1: 'top' is already defined
