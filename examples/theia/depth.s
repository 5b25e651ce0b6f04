// depth.s — depth visualisation: grey level from the hit distance
//
// What it shows: the rolling terrain (a 200-triangle height field) as a depth
// map: the nearest slopes are white and the surface fades to black towards the
// far edge, so the hills read by their silhouettes against what lies behind.
//
// How it works (PIXELSHADER, hit pixels only; no-hit pixels stay black):
//   grey = clamp( (FAR - t) / (FAR - NEAR), 0, 1.0 )
//       t = CREG_LAST_t.x, the distance along the unit ray direction from the eye
//       to the closest hit (BIU keeps the smallest t of the pixel). Near is bright
//       so that depth reads like fog. The division is done once: USERCONSTANTS
//       stores 1 / (FAR - NEAR) and the pixel shader multiplies by it (a MUL is
//       cheap; a DIV is a long iterative operation on THEIA).
//   The lower clamp matters: a negative word would be shown as 255 (white), since
//   the host converts colours as min(255, word >> 9) on the unsigned word.
//   The upper clamp keeps surfaces nearer than NEAR at full white (1.0).
//
// NEAR and FAR are set for this scene and camera: its hits lie between t = 8.76
// and 13.74 (128 x 128). For another model or camera, change the two SETX lines.
//
// Constants (USERCONSTANTS): C1 = NEAR, C2 = FAR, C3 = 1 / (FAR - NEAR),
// C4 = 0, C5 = 1.0, all replicated to the three lanes.
//
// demo: frames=1 fps=10 args: --obj models/terrain.obj --camera 0,-6,9

ENTRYPOINT_ADRR_USERCONSTANTS:
    ZERO C1
    SETX C1 8.75                    // NEAR, this distance and nearer is white
    SWIZZLE3D C1 SWIZZLE_XXX
    ZERO C2
    SETX C2 13.75                   // FAR, this distance and farther is black
    SWIZZLE3D C2 SWIZZLE_XXX
    SUB R1 C2 C1                    // FAR - NEAR
    ZERO C5
    SETX C5 1.0
    SWIZZLE3D C5 SWIZZLE_XXX
    DIV C3 C5 R1                    // 1 / (FAR - NEAR), per lane
    ZERO C4
    RETURN RT_TRUE

ENTRYPOINT_ADRR_PIXELSHADER:
    COPY R1 CREG_LAST_t
    SWIZZLE3D R1 SWIZZLE_XXX        // (t, t, t)
    SUB R1 C2 R1                    // FAR - t
    MUL R1 R1 C3                    // (FAR - t) / (FAR - NEAR)
    JGX DEPTH_NOT_FAR R1 C4
    ZERO R1                         // at or beyond FAR
DEPTH_NOT_FAR:
    JLX DEPTH_DONE R1 C5            // at most 1.0 (JLX is "not greater")
    COPY R1 C5                      // nearer than NEAR
DEPTH_DONE:
    COPY OREG_PIXEL_COLOR R1
    RETURN RT_TRUE
