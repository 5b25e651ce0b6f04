// plasma.s — domain-warped sine plasma
//
// What it draws: a flowing, full-screen demoscene plasma in hot pink, white,
// cyan and deep blue. The bands bend like a flag in the wind because the x
// coordinate of the main field is itself displaced by a sine wave of y + t.
//
// How it works (A and B are two smooth sine fields, 0..63):
//   A     = SIN(RX + SIN(RY + RT))        warped field, drifts down over time
//   red   = A & 0b110000                  top two bits of A
//   blue  = NOT(A) >> 4                   the complement, so red and blue swap
//   B     = SIN(RX/2 + RY - RT)           a wide diagonal wave moving the other way
//   green = B >> 2                        (its low bits add a fine blue shimmer)
//   colour = red | blue | green
// SIN has period 32 and RT wraps at 64, so a 64-frame loop is seamless.
//
// model: well-behaved (every R0-R3 written before read, no COMP needed, no mid OUT)
// demo: frames=64 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

    // field A, with the warp
    MOV  R1 RY
    ADD  R1 RT
    SIN  R1 R1          // warp = SIN(RY + RT), 0..63
    ADD  R1 RX
    SIN  R1 R1          // R1 = A
    // blue = NOT(A) >> 4, red = A with the low four bits cleared
    MOV  R0 R1
    NOR  R0 R0
    SR   R0 #4
    SR   R1 #4
    SL   R1 #4
    OR   R0 R1
    // field B -> green (+ a little blue)
    MOV  R2 RX
    SR   R2 #1
    ADD  R2 RY
    SUB  R2 RT
    SIN  R2 R2
    SR   R2 #2
    OR   R0 R2
