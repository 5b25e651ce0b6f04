// multiply_moire.s — x*y without a multiplier: a zone-plate moiré from an accumulator
//
// What it draws: the product (RX - 32) * (RY - 24) mod 64 as rippling cyan,
// green and blue rings: the wrap-around of the product aliases into nested
// ring systems (a "zone plate" moiré) in the four quadrants, which fold into
// each other like interference in a ripple tank; the rings flow with RT.
//
// How it works — STATEFUL, this program needs the exact cycle model (spec 7.2):
// the TPP cannot multiply, but it can add the same number again and again.
// R1 is never initialised; each run does R1 += f with f = RY - 24, so along a
// scan line R1 grows by f per block. The run(s) that see RX = 0 (the pre-roll
// run before the visible line, and the run after its end) reset the sum with
// MOVEQ to 32*f, which equals -32*f mod 64. Block b therefore shows
//   R1 = (b - 32) * f = (RX - 32) * (RY - 24)  (mod 64),
// and every scan line starts afresh, so the picture is clean 10x10 blocks.
// Slot 0 also executes on its own during horizontal blanking and slots 0-2 in a
// short fragment after the line, so those slots only hold idempotent work.
// The simple per-block model starts every block with R1 = 0 and gets it wrong.
// Colour: SIN(product + 2*RT) >> 2 -> green level plus a finer blue level.
//
// model: stateful (R1 is read before it is written; R1 carries a sum from block to block)
// demo: frames=32 fps=20
// demo note: using the exact model: slot 5: ADD reads R1 before it is written on every path
// demo note: starting after an upload, as on the chip: slot 5: ADD reads R1 before it is written on every path (--start reset preloads the program instead)

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

CENTRE_Y = 24

    SET  R2 #0             // slot 0: idempotent (it also runs while the CPU idles)
    COMP RX R2             // EQ only in the runs that see RX = 0
    MOV  R2 RY
    SET  R3 #CENTRE_Y
    SUB  R2 R3             // f = RY - 24
    ADD  R1 R2             // the accumulator: R1 += f (reads last block's R1)
    MOV  R3 R2
    SL   R3 #5             // 32*f mod 64 = -32*f
    MOVEQ R1 R3            // new line: restart at -32*f
    // palette
    MOV  R0 R1
    ADD  R0 RT
    ADD  R0 RT
    SIN  R0 R0
    SR   R0 #2
