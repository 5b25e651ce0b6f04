// Labels as branch targets, with envyas's #name or without; targets count from the branch's 4-word group.
start:  mov $r0 0x3                  ~> 0x65000003
        bra #start                   ~> 0xe00001e4
        bnop                         ~> 0xef000000
        bnop                         ~> 0xef000000
        call next                    ~> 0xe40003e4
.align 4                             ~> 0x0 0x0 0x0
next:   ret                          ~> 0xe8000004
        bra 0x40                     ~> 0xe0001de4
        abra 0x15ff8                 ~> 0xea0057fe
