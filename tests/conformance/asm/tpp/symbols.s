// Labels and constants (.equ, NAME = value), and permission for hardware-register destinations.
.slots written            // shaderkit's reading: comment lines take no slot, OUT lines stay
.equ WIDTH 10
TOP = 63
start:
SET R2 #(WIDTH - 1)      ~> 0x0a27
SET R3 #TOP              ~> 0x0bff
SR R1 #(start + 1)       ~> 0x3107
.allow special-writes
MOV RX R0                ~> 0x1403
ADD RT R1                ~> 0x1e23
