// Slots 0-18 hold code and slot 19 is OUT R0 (spec/tpp.md §6): a 20th instruction that is not
// OUT R0 does not fit.
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
NOPEQ                    ~> error 1: program too long
