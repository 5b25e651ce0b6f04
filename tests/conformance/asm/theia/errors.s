// One mistake per line (upstream would encode some of them silently).
SWIZZLE3D R6 SWIZZLE_ABC                    ~> error 14: unknown swizzle 'SWIZZLE_ABC'
FOO R1 R2                                   ~> error 1: unknown instruction 'FOO'
COPY creg_t R1                              ~> error 6: 'creg_t'
SETX R1 32'h1FFFFFFFF                       ~> error 9: is wider than 32 bits
JMP NOWHERE                                 ~> error 5: undefined symbol 'NOWHERE'
RETURN RT_MAYBE                             ~> error 8: RT_MAYBE
SETX R1 99999999999                         ~> error 9: does not fit in a 32-bit word
