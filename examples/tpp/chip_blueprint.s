// chip_blueprint.s — the ESE chip drawing as an engineering blueprint (rev B ROM op ESE)
//
// What it draws: a static picture. The "HSD ESD" chip outline from the ESE ROM
// in white chalk on blueprint paper: a deep blue sheet ruled with a lighter
// blue grid every 8 blocks.
//
// How it works:
//   grid lines: g = RX << 3 and h = RY << 3 (6-bit) are 0 exactly on columns /
//   rows that are multiples of 8. min(g, h) is found with COMP g h + MOVGT, and
//   a second COMP against 0 (EQ) picks the grid colour.
//   ink: ESE R1 gives 0 on ink and 63 elsewhere, so NOT R1 is 63 on ink only;
//   OR-ing it into the colour paints the ink white.
// Needs rev B (on rev A the ESE opcode is a NOP: only the grid is drawn).
//
// model: well-behaved (both COMPs precede their conditional ops, every register written first)
// demo: frames=1 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

PAPER = 0b000010           // dark blueprint blue
GRID  = 0b000111           // lighter blue-green rule lines
GRID_SHIFT = 3             // 1 << 3 = 8 blocks between rules

    ESE  R1                // 0 = ink, 63 = paper
    // min((RX << 3) mod 64, (RY << 3) mod 64) is 0 exactly on the grid
    MOV  R2 RX
    SL   R2 #GRID_SHIFT
    MOV  R3 RY
    SL   R3 #GRID_SHIFT
    COMP R2 R3
    MOVGT R2 R3            // R2 = min
    SET  R3 #0
    SET  R0 #PAPER
    COMP R2 R3
    SETEQ R0 #GRID
    // white ink
    NOR  R1 R1             // 63 on ink, 0 on paper
    OR   R0 R1
