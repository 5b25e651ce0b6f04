// starfield.s — twinkling stars from the hardware random register RR
//
// What it draws: a night sky in three bands (black, navy, dark blue towards the
// horizon) full of stars that light up, flare white and fade out again, each at
// its own moment.
//
// How it works: RR is a deterministic 6-bit LFSR value that differs from block
// to block (but not from frame to frame). Each block gets a private clock
//   v = RR + 3*RY + RT
// (the 3*RY term breaks up the diagonal streaks the LFSR leaves between rows
// whose seeds are shifted copies of each other). A block is a star while v is in
// the window 0..3 (COMP v, WINDOW -> LT), i.e. for 4 of every 64 RT steps, so
// about 1/16 of the sky sparkles at any moment. During the window the
// brightness is L = SIN(8v) >> 4 = 0, 2, 3, 2, drawn as the grey L * 0b010101
// (the L = 0 step shows as a dark speck on the blue: the star 'opens its eye').
//
// model: well-behaved (the one COMP precedes MOVLT, all registers written first)
// demo: frames=64 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

WINDOW = 4                 // how long (in RT steps) a star stays lit

    MOV  R1 RY
    ADD  R1 RY
    ADD  R1 RY
    ADD  R1 RR
    ADD  R1 RT             // v = private clock of this block
    SET  R3 #WINDOW
    COMP R1 R3             // LT: this block is a star right now
    // sky: black, navy, blue from top to bottom
    MOV  R0 RY
    SR   R0 #4
    // star brightness L = SIN(8v) >> 4, grey = L * 0b010101
    SL   R1 #3
    SIN  R1 R1
    SR   R1 #4
    MOV  R2 R1
    SL   R2 #2
    OR   R1 R2
    SL   R2 #2
    OR   R1 R2
    MOVLT R0 R1
