// Slots 0-18 hold code and slot 19 is OUT R0 (spec/tpp.md §6): a 20th instruction that is
// neither OUT R0 nor the NOP a devMode upload sends to slot 19 does not fit.
.slots written            // shaderkit's reading: comment lines take no slot, OUT lines stay
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
NOP
MOV R0 R1                ~> error 1: program too long
