// credits_raster.s — the chip's credits screen with rolling raster colours (rev B ROM op Credits)
//
// What it draws: the team credits stored in the Credits ROM, each letter row lit
// by pastel rainbow "raster bars" that roll down through the text, on a dark
// navy-and-black XOR checkerboard — a demoscene end screen that stays put while
// its colours run.
//
// How it works:
//   ink colour = SIN(4*RY + RX/4 - 2*RT) OR 0b010101
//                (4*RY: a new hue every text row; the RX/4 term tilts the bars
//                slightly; OR 0b010101 lifts every channel to at least 1: pastel)
//   background = ((RX XOR RY) >> 4) AND 0b010101 -> black or navy (bit 0 only)
//   Credits R1 gives 0 on ink and 63 elsewhere; NOT R1 is a mask for the ink:
//   colour = background OR (ink AND NOT R1). The background only has bits that
//   the pastel ink already has set, so OR-ing it in never changes the letters.
// Needs rev B (on rev A the Credits opcode is a NOP: R1 stays 0 and the whole
// screen shows the raster colours).
//
// model: well-behaved (no conditions, every register written before read)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

PASTEL = 0b010101

    Credits R1             // 0 = ink, 63 = background
    // raster colour for the letters
    MOV  R2 RY
    SL   R2 #2             // 4*RY
    MOV  R3 RX
    SR   R3 #2
    ADD  R2 R3             // + RX/4
    SUB  R2 RT
    SUB  R2 RT             // - 2*RT: the bars roll down
    SIN  R2 R2
    SET  R3 #PASTEL
    OR   R2 R3
    // background weave
    MOV  R0 RX
    XOR  R0 RY
    SR   R0 #4
    AND  R0 R3
    // letters through the ROM mask
    NOR  R1 R1             // 63 on ink
    AND  R2 R1
    OR   R0 R2
