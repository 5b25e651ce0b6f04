// shaderkit's default THEIA V1 microcode (the internal ROM), written from spec §6.
// rom.py places it after 245 words whose upstream entry addresses hold a JMP here,
// so entry tables of upstream Instructions.mem files find these routines.

.include "setup.s"
.include "pixel.s"
.include "intersect.s"
.include "shade.s"
