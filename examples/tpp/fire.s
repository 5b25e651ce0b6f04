// fire.s — a wall of flickering flames with a RAMP fire palette
//
// What it draws: flames licking up from the bottom edge: yellow at the base,
// orange and red higher up, dark red tongues that reach about two thirds of the
// way up, and black night above. The tongues sway and the turbulence climbs
// upwards.
//
// How it works:
//   w    = RAMP(RY + 2*RT + RX) >> 2     0..15, turbulence that scrolls upward
//   heat = RY + SIN(2*RX + w) >> 2       bottom rows are hottest
// Palette (no table needed — the raw 6-bit value already is a fire ramp from
// 48 up: 48 red, 52 orange, 56 amber, 60 yellow):
//   colour = RAMP(heat >> 2)             = 4 * (heat >> 2): heat without blue bits
//   if heat < 48 (COMP -> LT): colour AND 32   -> dark red or black
// The mask 32 is made from the compare constant 48 by SL #1 (96 mod 64 = 32).
//
// model: well-behaved (COMP before ANDLT, every register written before read)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

HOT = 48                   // from here up the raw value is red+green (orange..yellow)

    // turbulence
    MOV  R1 RY
    ADD  R1 RT
    ADD  R1 RT
    ADD  R1 RX
    RAMP R1 R1
    SR   R1 #2
    // flame tongues
    ADD  R1 RX
    ADD  R1 RX
    SIN  R1 R1
    SR   R1 #2
    ADD  R1 RY             // R1 = heat
    // palette
    MOV  R0 R1
    SR   R0 #2
    RAMP R0 R0             // heat with the blue bits cleared
    SET  R3 #HOT
    COMP R1 R3
    SL   R3 #1             // 48 << 1 = 32 (6-bit)
    ANDLT R0 R3            // cooler than HOT: only the red MSB survives
