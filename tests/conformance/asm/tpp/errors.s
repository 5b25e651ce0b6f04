// One mistake per line; every error of the file is reported at once.
ADX R0 R1                ~> error 1: unknown instruction 'ADX' (did you mean ADD?)
MOV RX R0                ~> error 5: 'RX' is a hardware register
SET R0 #64               ~> error 8: 64 is out of range (0 to 63)
ADD R0                   ~> error 1: 'ADD' takes 2 operands
ADDLT R0 R1 GT           ~> error 13: already carries a condition
SET R0 #LIMIT            ~> error 9: 'LIMIT'
MOV R0 R9                ~> error 8: unknown register 'R9'
COMP R1                  ~> error 1: 'COMP' takes 2 operands
SET R0 #(1 +             ~> error 9: malformed expression
##devMode##
MOV RX R0 R1             ~> error 11: 'MOV' takes 2 operands
