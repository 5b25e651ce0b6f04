// flag_wave.s — the flag of Upper Austria rippling in the wind (rev B ROM op FlagP)
//
// What it draws: the flag-on-a-pole picture from the FlagP ROM, filled with the
// white-over-red flag of Upper Austria (home of FH Hagenberg, where the TPP was
// designed). The border between white and red ripples from the pole outwards;
// behind it a blue sky brightens towards the horizon.
//
// How it works: FlagP R1 gives 0 for ink (pole, flag outline), 42 inside the
// flag's rectangle and 63 for the sky. One COMP against 42 separates all three:
//   EQ -> flag cloth, GT -> sky, LT -> pole/outline (black).
// For the cloth a wave w = SIN(RX - RT) >> 4 (0..3 rows) is added to RY; rows
// above the threshold are white, below red. The sky is blue plus a green term
// RY >> 4 that grows towards the bottom.
// Needs rev B (on rev A FlagP is a NOP).
//
// model: well-behaved (COMPs precede the conditional ops, every register written before read)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

CLOTH   = 42               // FlagP value inside the flag rectangle
MIDLINE = 21               // white/red border (flag rows 10..29, plus mean wave 1.5)
WHITE   = 0b111111
RED     = 0b110000
BLUE    = 0b000011

    FlagP R1
    // the ripple: shifted row y' = RY + (SIN(RX - RT) >> 4)
    MOV  R2 RX
    SUB  R2 RT
    SIN  R2 R2
    SR   R2 #4
    ADD  R2 RY
    SET  R3 #MIDLINE
    COMP R2 R3
    SET  R0 #RED
    SETLT R0 #WHITE        // upper half of the cloth
    // sky gradient term: green level RY >> 4, in the green bits
    MOV  R2 RY
    SR   R2 #4
    SL   R2 #2
    // choose cloth / sky / pole by the ROM value
    SET  R3 #CLOTH
    COMP R1 R3
    MOVLT R0 R1            // ink: R1 = 0, black
    SETGT R0 #BLUE         // sky ...
    ADDGT R0 R2            // ... lighter near the horizon
