!!ARBvp1.0
OPTION NV_vertex_program3;
# tests/golden/rsx/asm/vp_branch.vp.txt with the slots of vp_branch.vpo.words.txt (cgcomp).
#var float4 scale :  : c[0] : 1 : 1
PARAM c[1] = { program.local[0] };
TEMP R0;
MOV R0, vertex.color;                      ~> 0x00001c6c 0x0040030d 0x8106c083 0x6041fffc
MOVC CC.x, vertex.normal.x;                ~> 0x201fdc6c 0x00400200 0x0106c083 0x60411ffc
BRA skip(LE.x);                            ~> 0x001fac00 0x4800000d 0x8106c080 0x805e1ffc
MUL R0, R0, c[0].z;                        ~> 0x00001c6c 0x0080000d 0x80aa80c3 0x6041fffc
skip:
MOV result.color, R0;                      ~> 0x401f9c6c 0x0040000d 0x8086c083 0x6041ff84
MOV result.position, vertex.position;      ~> 0x401f9c6c 0x0040000d 0x8106c083 0x6041ff81
END
