// Every way of writing the same words (spec/tpp.md §2.4 and §3; words from §2.4 or the §2 field table).
.slots written            // shaderkit's reading: comment lines take no slot, OUT lines stay
MOV R0 RX                ~> 0x1083
mov r0 r4                ~> 0x1083
ADDLT R0 RT              ~> 0x18c2
ADD R0 RT LT             ~> 0x18c2
ADD R0 R6 LT             ~> 0x18c2
XOR R0 R1  ; a comment   ~> 0x5823
SET R1 #60 // a comment  ~> 0x09f3
SET R1 #0x3c             ~> 0x09f3
SET R1 #(64 - 4)         ~> 0x09f3
COMP R1 R0               ~> 0x8903
FH R0                    ~> 0x9003
OUT R1                   ~> 0x6023
NOP                      ~> 0x0003
NOPEQ                    ~> 0x0000
SETEQ R0 #48             ~> 0x08c0
SET R0 #48 EQ            ~> 0x08c0
// a comment line takes no slot
.word 0x181f             ~> 0x181f
