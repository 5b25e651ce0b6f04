// One mistake per line; every error of the file is reported at once.
ad $r1 $r2 $r3                       ~> error 1: unknown instruction 'ad'
add $r1 $r99 $r2                     ~> error 9: unknown register '$r99'
vmov $v0 0x100                       ~> error 10: out of range
bra 0x41                             ~> error 5: multiple of 4
mov $r1 UNDEFINED                    ~> error 9: 'UNDEFINED'
add $r1                              ~> error 1: 'add' takes
mov $r1 0x40000                      ~> error 9: out of range
