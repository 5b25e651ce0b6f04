// toon.s — cel ("toon") shading: the headlight term snapped to four flat bands
//
// What it shows: the checker-textured pyramid seen from high above, each side
// in one of four flat brightness bands instead of a smooth falloff: the sides
// facing the viewer keep the full texture, the ones turned away drop to 70 %,
// 45 % or a 25 % "ink" level.
//
// How it works (PIXELSHADER, hit pixels only; no-hit pixels stay black):
//   d = DOT( CROSS(E1_LAST, E2_LAST) / MAG(...), -RAY_DIRECTION )
//       the same headlight cosine as headlight.s (light at the eye).
//   level = 1.0 if d > 0.85, 0.7 if d > 0.5, 0.45 if d > 0.2, else 0.25
//       a chain of compare-jumps (JGX jumps when d is greater than the threshold).
//       Negative d (a face seen from behind) falls through to the ink level, so no
//       negative colour word (shown as white by the host) can reach the output.
//   colour = TEXTURE_COLOR * level
//       level <= 1.0, so the result never exceeds the texture, and every hit pixel
//       is exactly one of four truncated multiples of its texture colour.
//
// Constants: C1..C3 = the thresholds 0.85, 0.5, 0.2 (X lane: the jumps compare X),
// C4 = the levels (1.0, 0.7, 0.45) in X, Y, Z and C5.x = 0.25, spread to all lanes
// with SWIZZLE3D (only XXX, YYY, ZZZ and YXZ work on V1) when a band is chosen.
//
// demo: frames=1 fps=10 args: --obj models/pyramid.obj --texture textures/checker.png --camera 2,-9,8

ENTRYPOINT_ADRR_USERCONSTANTS:
    ZERO C1
    SETX C1 0.85
    ZERO C2
    SETX C2 0.5
    ZERO C3
    SETX C3 0.2
    ZERO C4
    SETX C4 1.0                     // the three upper band levels, one per lane
    SETY C4 0.7
    SETZ C4 0.45
    ZERO C5
    SETX C5 0.25                    // the ink level
    RETURN RT_TRUE

ENTRYPOINT_ADRR_PIXELSHADER:
    CROSS R1 CREG_E1_LAST CREG_E2_LAST
    MAG R2 R1
    DIV R1 R1 R2                    // unit normal, out of the model
    NEG R3 CREG_RAY_DIRECTION       // towards the eye and the light
    DOT R4 R1 R3                    // (d, d, d)
    COPY R5 C4
    JGX TOON_FULL R4 C1
    JGX TOON_BRIGHT R4 C2
    JGX TOON_DIM R4 C3
    COPY R5 C5
    SWIZZLE3D R5 SWIZZLE_XXX        // (0.25, 0.25, 0.25)
    JMP TOON_SHADE VOID VOID
TOON_FULL:
    SWIZZLE3D R5 SWIZZLE_XXX        // (1.0, 1.0, 1.0)
    JMP TOON_SHADE VOID VOID
TOON_BRIGHT:
    SWIZZLE3D R5 SWIZZLE_YYY        // (0.7, 0.7, 0.7)
    JMP TOON_SHADE VOID VOID
TOON_DIM:
    SWIZZLE3D R5 SWIZZLE_ZZZ        // (0.45, 0.45, 0.45)
TOON_SHADE:
    MUL OREG_PIXEL_COLOR CREG_TEXTURE_COLOR R5
    RETURN RT_TRUE
