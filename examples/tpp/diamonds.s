// diamonds.s — concentric diamonds pulsing out of the screen centre
//
// What it draws: nested diamond rings (the "taxicab circles" |x-32| + |y-24|)
// around the middle of the screen. The rings stream outwards like a tunnel and
// their colours cycle through pink, white, cyan and yellow.
//
// How it works:
//   dx: RX - 32, and if RX < 32 (COMP RX ..., then NORLT) invert it: the 6-bit
//       NOT of RX - 32 = RX + 32 is 31 - RX, the mirror image. So dx is
//       |RX - 31.5| - 1/2, perfectly symmetric around the centre line.
//   dy: the same fold around RY = 24 (23 - RY above, RY - 24 below)
//   d  = dx + dy - 2*RT                    rings move outwards over time
//   colour: green/blue = SIN(d) >> 2 (smooth rings, dark where the sine is 0),
//           red = (d >> 3) & 3, which steps every 8 blocks of distance and tints the
//           rings pink, white and yellow in turn
//
// model: well-behaved (both COMPs precede their conditional ops, no mid OUT)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

HALF_W = 32
HALF_H = 24

    // dx = |RX - 31.5| - 1/2
    SET  R2 #HALF_W
    MOV  R1 RX
    SUB  R1 R2             // right half: RX - 32
    COMP RX R2
    NORLT R1 R1            // left half: NOT(RX + 32) = 31 - RX
    // dy = |RY - 23.5| - 1/2
    SET  R2 #HALF_H
    MOV  R3 RY
    SUB  R3 R2
    COMP RY R2
    NORLT R3 R3            // upper half: 23 - RY
    // distance, animated
    ADD  R1 R3
    SUB  R1 RT
    SUB  R1 RT
    // palette: green/blue from SIN(d), red steps up every 8 blocks of distance
    SIN  R0 R1
    SR   R0 #2             // green = SIN(d) >> 4, blue = next two bits
    SR   R1 #3
    SL   R1 #4             // red = (d >> 3) & 3, a staircase across the rings
    OR   R0 R1
