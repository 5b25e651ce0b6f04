// munching_squares.s — the classic "munching squares" XOR display hack, glowing
//
// What it draws: a fractal of nested squares that eats its way across a dark
// blue checkerboard. At time RT every block whose (RX XOR RY) is below RT has
// been eaten, the blocks exactly equal to RT form a white "bite front", and the
// eaten area glows like embers: freshly eaten blocks sparkle pink, yellow and
// white, older ones cool down through red to black. When RT wraps the board is
// whole again.
//
// How it works: v = RX XOR RY. The age of an eaten block is RT - v, its heat
// h = NOT(age) = 63 - age. Heat -> colour with the "fire" trick: from 48 up
// the raw 6-bit value is already red + rising green/blue (red, orange, yellow,
// white); below 48 it is masked to its red bits (dark red, then black) with
// COMP h, 48 -> ANDLT. Then one COMP v, RT uses all three outcomes:
//   LT -> eaten (ember colour), EQ -> bite front (white), GT -> board (v AND 1)
//
// model: well-behaved (every conditional op follows a COMP, all registers written first)
// demo: frames=64 fps=20 still: --rt 20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

WHITE  = 0b111111
RED    = 0b110000          // also the heat where the palette turns from red to yellow

    MOV  R1 RX
    XOR  R1 RY             // v = RX XOR RY, 0..63
    // ember colour from the age RT - v
    MOV  R2 RT
    SUB  R2 R1
    NOR  R2 R2             // heat h = 63 - age
    SET  R3 #RED
    COMP R2 R3
    ANDLT R2 R3            // cool embers: red levels only
    // untouched board: a faint blue checker
    MOV  R0 R1
    SET  R3 #1
    AND  R0 R3
    // who has been eaten?
    COMP R1 RT
    SETEQ R0 #WHITE
    MOVLT R0 R2
