// copper_bars.s — two Amiga-style "copper bars" swinging past each other
//
// What it draws: two 8-row rainbow bars — one shading red, yellow, green, the
// other green, cyan, blue — sweeping up and down with a sine motion on a navy
// backdrop. They move as mirror images, cross in the middle of the screen (the
// blue one passes in front) and dip out of sight past the top and bottom edges.
//
// How it works: s = SIN(RT) >> 1 (0..31) is the swing.
//   bar A: e = s - RY;          e in 0..7 (COMP e, 8 -> LT) means "on the bar"
//   bar B: e = NOT(s + RY + 8); the NOT mirrors the motion around row 24
// Each bar's profile is RAMP(4e) = 0,16,32,48 (up: the red bits fill) then
// 60,44,28,12 (down: the mirrored half is not a multiple of 16, so the green
// bits take over): read as a raw colour that is black, red, yellow, green
// (bar A). Shifted right by two bits the same ramp becomes green, cyan, blue
// (bar B). Drawing B after A puts it in front.
//
// model: well-behaved (each conditional MOV follows its own COMP, all registers written first)
// demo: frames=32 fps=20 still: --rt 6

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

THICK = 8                  // bar thickness in rows (and the mirror offset)
NAVY  = 0b000001

    SET  R3 #THICK
    SET  R0 #NAVY          // backdrop
    SIN  R1 RT
    SR   R1 #1             // s = swing 0..31
    // bar A (red/yellow)
    MOV  R2 R1
    SUB  R2 RY
    COMP R2 R3
    SL   R2 #2
    RAMP R2 R2
    MOVLT R0 R2
    // bar B (green/cyan), mirrored
    ADD  R1 RY
    ADD  R1 R3
    NOR  R1 R1
    COMP R1 R3
    SL   R1 #2
    RAMP R1 R1
    SR   R1 #2
    MOVLT R0 R1
