// Every way of writing the same words (spec/vp1.md §11 and §14; envyas's canonical encodings).
add $r1 $r2 0x0                      ~> 0x4c08bfc4
add $r1 $r2 $r31                     ~> 0x4c08bfc4
abs $r2 $c3 $r5                      ~> 0x4a114003
mov $r2 0x1                          ~> 0x65100001
mov $r2 1                            ~> 0x65100001
mov $r28 -0x122de                    ~> 0x65e6dd22
vmac s rd int -0x4 hi $v1 u $v0 u $v0                   ~> 0x82080088
vmac s rd int 0xfffffffffffffffc hi $v1 u $v0 u $v0     ~> 0x82080088
vec -0x1c 0xa9 $vc2 sf 0x7           ~> 0x24d2a7c9
vmov $v0 0x0                         ~> 0xad000004
star $v0 $a0 (slct $c0 sf $a0d)      ~> 0xd7000001
exit 0xdead ; bnop                   ~> 0xff00dead 0xef000000
.b32 0x12345678                      ~> 0x12345678
