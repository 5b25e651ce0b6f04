// rainbow_wave.s — scrolling rainbow with a sine-shaped wavefront
//
// What it draws: vertical rainbow bands that bend into a smooth S-curve down the
// screen and scroll sideways, like a rainbow ribbon fluttering past.
//
// How it works: a hue h is built per block, then turned into colour by three
// triangle waves (RAMP, period 32) that are a third of a turn apart:
//   h     = RX - RT + SIN(RY) >> 2        the SIN term bends the bands
//   red   = RAMP(h)          >> 4 << 4
//   green = RAMP(h + 11)     >> 4 << 2
//   blue  = RAMP(h + 21)     >> 4
// Offsets 11 and 21 are ~1/3 and ~2/3 of the RAMP period, which walks the colour
// around red -> yellow -> green -> cyan -> blue -> magenta.
//
// model: well-behaved (all registers written before they are read)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

THIRD      = 11            // ~ 32/3
TWO_THIRDS = 21            // ~ 2*32/3
RED_MASK   = 0b110000

    SIN  R1 RY
    SR   R1 #2             // bend: 0..15 blocks
    ADD  R1 RX
    SUB  R1 RT             // R1 = hue h, scrolls right as RT grows
    // red
    RAMP R0 R1
    SET  R3 #RED_MASK
    AND  R0 R3
    // green
    SET  R2 #THIRD
    ADD  R2 R1
    RAMP R2 R2
    SR   R2 #4
    SL   R2 #2
    OR   R0 R2
    // blue
    SET  R2 #TWO_THIRDS
    ADD  R2 R1
    RAMP R2 R2
    SR   R2 #4
    OR   R0 R2
