// fluted_glass.s — a plasma seen through fluted glass, using mid-program OUTs
//
// What it draws: soft plasma colour bands (magenta, red, yellow, cyan, white)
// behind a pane of reeded glass: every 10-pixel block becomes a little vertical
// flute with a bright highlight on its left edge, the plain colour in the
// middle and a dark shadow on its right edge.
//
// How it works — STATEFUL, this program needs the exact cycle model (spec 7.2):
// an OUT in slot s of the run for block b+1 shows up at pixel
// x = 10*b + 1 + s/2 (rounded down), i.e. still inside block b, and slot 19's
// fixed OUT R0 shows at the first pixel of block b+1. So one run paints
//   pixel 0 of its own block      : R0            = highlight = colour OR  0b010101
//   pixels 1..6 of the previous   : OUT R2 (slot 1) = colour the previous run left in R2
//   pixels 7..9 of the previous   : OUT R1 (slot 13) = shadow = that colour AND 0b101010
// and only then overwrites R2 with the colour of its own block. R2 is read
// before it is written (it is the previous block's colour) and OUTs happen
// mid-program — the simple per-block model shows only the highlight colour.
//   colour = (SIN(RX - RT) & 0b110000) | SIN(RY + RT) >> 2
// Note: the upstream flasher drops OUT lines unless it is in ##devMode##; the
// '.slots written' line below keeps them where they stand.
//
// model: stateful (mid-program OUTs; R2 carries the colour from one run to the next)
// demo: frames=32 fps=20
// demo note: using the exact model: slot 1: OUT reads R2 before it is written on every path
// demo note: starting after an upload, as on the chip: slot 1: OUT reads R2 before it is written on every path (--start reset preloads the program instead)

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

SHADE = 0b101010           // AND: keep the upper bit of every channel; NOT of it (0b010101) lifts them

    SET  R3 #SHADE         // slot 0 (also runs while idle: harmless)
    OUT  R2                // slot 1  -> pixels 1..6 of the previous block
    MOV  R1 R2
    AND  R1 R3             // shadow of the previous block's colour
    // colour of this block: red from SIN(RX - RT), green/blue from SIN(RY + RT)
    MOV  R2 RX
    SUB  R2 RT
    SIN  R2 R2
    SR   R2 #4
    SL   R2 #4
    MOV  R0 RY
    ADD  R0 RT
    SIN  R0 R0
    SR   R0 #2
    OUT  R1                // slot 13 -> pixels 7..9 of the previous block
    OR   R2 R0             // R2 = colour, kept for the next run
    NOR  R3 R3             // 0b010101
    MOV  R0 R2
    OR   R0 R3             // highlight -> slot 19 -> pixel 0 of this block
