// The start of the golden p4gvert1 primary program (tests/golden/usse/vectors), as our syntax.
phas.imm wait_cond=0x7                                            ~> 0x00000000 0xfa440700
vmul.skipinv o0.xy, pa0.xyzw, c1.yy                               ~> 0x90040001 0x08a51185
vmul.skipinv o2.xy, #0.11, c1.yy                                  ~> 0x90568001 0x08831181
vpckf32f32.skipinv.nosched i0.xyz, pa0.xyzx, pa2                  ~> 0xaf818002 0x40c00d9c
vmad3.skipinv.nosched.rpt_smlsi i2.xyz, i1.xxx, sa16.xyz, i0.000  ~> 0xdf818108 0x18e18b80
vdp3.skipinv.nosched.rpt_smlsi pa0.x, i1.xyz, i1.xyzw             ~> 0x1011a23d 0x18818882
vrsq.skipinv.nosched pa0.x, pa0.x                                 ~> 0x80000001 0x30800a02
vpckf32f16.skipinv o6.xy, pa0.zwzw, #1, comp0_sel_bit1=0x1        ~> 0xa0db8082 0x40810b8d
vmovc.f32.skipinv.ne pa8.xy, i0, pa28.xyz1, pa24.xyz1             ~> 0xa313c38c 0x388045fa
spec category=0x2 unused=0x3075000a0200000                        ~> 0xa0200000 0xfb275000
