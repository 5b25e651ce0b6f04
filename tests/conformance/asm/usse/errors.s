// Errors point at the operand (or the mnemonic) with the reason.
vmul.skipinv o0.xy, pa1.xyzw, c1.yy          ~> error 21: register numbers here count 64-bit pairs
vmul.bogus o0.xy, pa0.xyzw, c1.yy            ~> error 1: unknown instruction 'vmul.bogus'
vmul o0.xy, pa0.xyzw                         ~> error 1: 'vmul' takes 3 operands
vmul o0.xy, pa0.qq, c1.yy                    ~> error 13: 'pa0.qq' is not a valid source
limm r0, #0x100000000                        ~> error 10: out of range
vmov.f64 r0.x, r2.x                          ~> error 1: unknown instruction 'vmov.f64'
vpckf16f32 pa0.x, pa2.yxxx, #0, bogus=0x1    ~> error 33: no field 'bogus' to assign here
vpckf32f16 o6.xy, pa0.zwzw, #0               ~> error 1: operands disagree about bits 0x2
