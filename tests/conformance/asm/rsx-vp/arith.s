!!ARBvp1.0
OPTION NV_vertex_program3;
# tests/golden/rsx/asm/vp_vec_arith.vp.txt with the slots of vp_vec_arith.vpo.words.txt (cgcomp).
#var float4 scale :  : c[0] : 1 : 1
#const c[1] = 0.5 2 -1 4
PARAM c[2] = { program.local[0], { 0.5, 2, -1, 4 } };
TEMP R0, R1;
MUL R0, vertex.position, c[0];             ~> 0x00001c6c 0x0080000d 0x8106c0c3 0x6041fffc
ADD R1, R0, c[1];                          ~> 0x00009c6c 0x00c0100d 0x8086c083 0x6061fffc
MAD R0, vertex.normal, c[1].x, R1;         ~> 0x00001c6c 0x0100120d 0x810000c3 0x60a1fffc
SUB R1, R0, vertex.position;               ~> 0x00009c6c 0x00c0000d 0x8086c0a3 0x6041fffc
MOV result.position, vertex.position;      ~> 0x401f9c6c 0x0040000d 0x8106c083 0x6041ff80
MOV result.texcoord[0], R0;                ~> 0x401f9c6c 0x0040000d 0x8086c083 0x6041ff9c
MOV result.texcoord[1], R1;                ~> 0x401f9c6c 0x0040000d 0x8286c083 0x6041ffa1
END
