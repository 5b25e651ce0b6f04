// checker.s — a procedural checkerboard, no texture needed
//
// What it shows: the globe (a 168-triangle UV sphere) painted with 16 x 8
// orange and navy checks along its longitude and latitude. The checks do not
// line up with the 12 x 8 facets: the pattern is computed per pixel from the
// interpolated texture coordinates, not per triangle.
//
// How it works (PIXELSHADER, hit pixels only; no-hit pixels stay black):
//   (s, t) = UV0 + u (UV1 - UV0) + v (UV2 - UV0)
//       CREG_LAST_u / CREG_LAST_v are the hit's barycentric weights (BIU stores them
//       with the UV rows of the closest triangle). TCC does the same sum, but only
//       when texturing is on; this scene has no texture, so we do it ourselves.
//   (a, b) = MOD( (s, t) * (16, 8), 2.0 )
//       MOD by a power of two keeps the low integer bits and clears the fraction,
//       so a = floor(16 s) mod 2 and b = floor(8 t) mod 2, each 0 or 1.0.
//   parity = MOD( a + b, 2.0 )
//       a + b is formed by adding the row to its YXZ swizzle, one of the four
//       swizzles V1 implements (spec §4.5); the others give zeros.
//   colour = parity ? C3 : C2
//
// Constants (USERCONSTANTS): C1 = check counts (16, 8, 0), C2 / C3 = the two
// colours, C4 = (2.0, 2.0, 2.0) for MOD, C5 = 0 for the compare. C1.z = 0 also
// clears the alpha lane of the interpolated UV row.
//
// demo: frames=1 fps=10 args: --obj models/globe.obj

ENTRYPOINT_ADRR_USERCONSTANTS:
    ZERO C1
    SETX C1 16.0                    // checks around the globe (s, longitude)
    SETY C1 8.0                     // checks from pole to pole (t, latitude)
    ZERO C2
    SETX C2 1.0                     // even checks, warm orange
    SETY C2 0.55
    SETZ C2 0.1
    ZERO C3
    SETX C3 0.08                    // odd checks, navy
    SETY C3 0.16
    SETZ C3 0.5
    ZERO C4
    SETX C4 2.0
    SWIZZLE3D C4 SWIZZLE_XXX        // (2, 2, 2), the MOD divisor
    ZERO C5
    RETURN RT_TRUE

ENTRYPOINT_ADRR_PIXELSHADER:
    SUB R1 CREG_UV1_LAST CREG_UV0_LAST
    MUL R1 CREG_LAST_u R1           // u (UV1 - UV0), u in 0..1 first (exact MUL range)
    SUB R2 CREG_UV2_LAST CREG_UV0_LAST
    MUL R2 CREG_LAST_v R2           // v (UV2 - UV0)
    ADD R1 R1 R2
    ADD R1 R1 CREG_UV0_LAST         // (s, t, alpha) at the hit point
    MUL R1 R1 C1                    // (16 s, 8 t, 0)
    MOD R1 R1 C4                    // (a, b, 0), each 0 or 1.0
    COPY R2 R1
    SWIZZLE3D R2 SWIZZLE_YXZ        // (b, a, 0)
    ADD R1 R1 R2                    // (a + b, a + b, 0)
    MOD R1 R1 C4                    // parity in X
    JGX CHECKER_ODD R1 C5
    COPY OREG_PIXEL_COLOR C2
    RETURN RT_TRUE
CHECKER_ODD:
    COPY OREG_PIXEL_COLOR C3
    RETURN RT_TRUE
