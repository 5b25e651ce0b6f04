// credits_raster.s — the chip's credits screen with rolling raster colours (rev B ROM op Credits)
//
// What it draws: the team credits stored in the Credits ROM, each letter row lit
// by pastel rainbow "raster bars" that roll down through the text, on a navy
// background with a faint diagonal weave — a demoscene end-scroller that stays
// put while its colours run.
//
// How it works:
//   ink colour = SIN(4*RY + RX/4 - 2*RT) OR 0b010101
//                (4*RY: a new hue every text row; the RX/4 term tilts the bars
//                slightly; OR 0b010101 lifts every channel to at least 1: pastel)
//   background = ((RX XOR RY) >> 3) AND 1  -> navy / black weave
//   Credits R1 gives 0 on ink and 63 elsewhere; used as a mask:
//   colour = (background AND mask) OR (ink AND NOT mask)
// Needs rev B (on rev A the Credits opcode is a NOP: R1 stays 0 and the whole
// screen shows the raster colours).
//
// model: well-behaved (no conditions, every register written before read)
// demo: frames=32 fps=20

PASTEL = 0b010101

    Credits R1             // 0 = ink, 63 = background
    // raster colour for the letters
    MOV  R2 RX
    SR   R2 #2
    ADD  R2 RY
    ADD  R2 RY
    ADD  R2 RY
    ADD  R2 RY
    SUB  R2 RT
    SUB  R2 RT
    SIN  R2 R2
    SET  R3 #PASTEL
    OR   R2 R3
    // background weave
    MOV  R0 RX
    XOR  R0 RY
    SR   R0 #3
    AND  R0 R3             // bit 0 only (PASTEL has bit 0 set... and bits 2, 4: see note)
    // combine through the ROM mask
    AND  R0 R1
    NOR  R1 R1
    AND  R2 R1
