// tt_logo.s — Tiny Tapeout logo over a molten heat haze (rev B ROM op TT)
//
// What it draws: the Tiny Tapeout logo from the chip's TT ROM in front of wavy
// red / pink / yellow / white bands that roll upwards and ripple sideways. The
// logo itself shows the *negative* of the same bands (black, blue, cyan), so it
// looks like a window cut into the haze.
//
// How it works:
//   v      = SIN(2*RY + 2*RT + wobble),  wobble = SIN(RX + RT) >> 3 (0..7)
//   bg     = 0b110000 | v >> 2          full red, green/blue from the wave
//   TT R1  gives 63 on the background and 0 on the logo's ink, so R1 is used
//          directly as a bit mask: NOT(bg XOR mask) is bg outside the logo and
//          NOT bg on the ink — two instructions, no COMP.
// Needs rev B (on rev A the TT opcode is a NOP and the logo disappears).
//
// model: well-behaved (R1 is written by TT before use, every register written before read)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

RED = 0b110000

    TT   R1                // 63 = background, 0 = logo ink
    // background: rippling horizontal bands
    MOV  R0 RX
    ADD  R0 RT
    SIN  R0 R0
    SR   R0 #3             // wobble 0..7
    ADD  R0 RY
    ADD  R0 RY
    ADD  R0 RT
    ADD  R0 RT             // bands move up
    SIN  R0 R0
    SR   R0 #2             // green (and a touch of blue)
    SET  R2 #RED
    OR   R0 R2
    // logo: invert the colour where the ROM has ink
    XOR  R0 R1             // background: R0 XOR 63 = NOT R0; ink: R0
    NOR  R0 R0             // background: R0 again; ink: NOT R0
