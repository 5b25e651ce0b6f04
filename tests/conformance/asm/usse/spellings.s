// Spellings the assembler accepts beside the canonical ones: flags in any order, a swizzle given
// whole, assignments in any order, upper-case mnemonics, `;` comments.
VMUL.SKIPINV o0.xy, pa0.xyzw, c1.yy                    ~> 0x90040001 0x08a51185
vmul.skipinv o0.xy, pa0.xyzw, c1.yyyy ; whole entry    ~> 0x90040001 0x08a51185
vpckf32f32.nosched.skipinv i0.xyz, pa0.xyzx, pa2        ~> 0xaf818002 0x40c00d9c
PHAS.IMM temp_count=0x1 wait_cond=0x7                   ~> 0x00000000 0xfa440701
p0 vf16mad2.skipinv o[idx1+16].xyz, r108.xxx, r[idx2+27].xyz, -r[idx1+2].yyy, unused=0x48000000000000 ~> 0xcc0366c2 0x05cb338b
.word 0x00000000, 0xf8000140                            ~> 0x00000000 0xf8000140
