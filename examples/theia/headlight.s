// headlight.s — Lambert shading with a light at the eye ("headlight")
//
// What it shows: the brick-textured cube seen from above right, each face
// darkened by how far it is turned away from the viewer: the front face keeps
// about three quarters of the texture's brightness, the right face half, and
// the top face, seen at the most grazing angle, is darkest.
//
// How it works (PIXELSHADER, hit pixels only; no-hit pixels stay black):
//   N = CROSS(E1_LAST, E2_LAST) / MAG(...)
//       E1_LAST, E2_LAST are the closest triangle's edges, kept by BIU. The scene
//       builder orders the corners so this cross product points out of the model.
//       MAG gives the length in all three lanes, so one per-lane DIV normalises.
//   d = DOT(N, -RAY_DIRECTION)
//       RAY_DIRECTION is the unit vector from the eye to the pixel; the light sits
//       at the eye, so -RAY_DIRECTION is the direction to the light. DOT puts d
//       in all three lanes.
//   d = clamp(d, 0, 1.0)
//       Negative d (a face seen from behind, e.g. the underside of an open mesh)
//       must become 0: a negative colour word would be shown as 255 (white),
//       because the host converts the unsigned word. The upper clamp absorbs the
//       rounding of MAG/DIV, so the shaded colour never exceeds the texture.
//   colour = TEXTURE_COLOR * (0.25 + 0.75 d)
//       A quarter ambient keeps faces turned away readable. Both MULs have
//       operands of at most 1.0, so they are exact truncations.
//
// Constants (USERCONSTANTS): C1 = ambient, C2 = diffuse weight (they add up to
// 1.0), C3 = 1.0, C4 = 0, all replicated to the three lanes.
//
// demo: frames=1 fps=10 args: --obj models/cube.obj --texture textures/bricks.png --camera 6,-5,10

ENTRYPOINT_ADRR_USERCONSTANTS:
    ZERO C1
    SETX C1 0.25
    SWIZZLE3D C1 SWIZZLE_XXX        // ambient
    ZERO C2
    SETX C2 0.75
    SWIZZLE3D C2 SWIZZLE_XXX        // diffuse weight
    ZERO C3
    SETX C3 1.0
    SWIZZLE3D C3 SWIZZLE_XXX
    ZERO C4
    RETURN RT_TRUE

ENTRYPOINT_ADRR_PIXELSHADER:
    CROSS R1 CREG_E1_LAST CREG_E2_LAST
    MAG R2 R1                       // (|N|, |N|, |N|)
    DIV R1 R1 R2                    // unit normal
    NEG R3 CREG_RAY_DIRECTION       // towards the eye, where the light is
    DOT R4 R1 R3                    // (d, d, d)
    JGX HEADLIGHT_FACING R4 C4
    ZERO R4                         // turned away from the light
HEADLIGHT_FACING:
    JLX HEADLIGHT_SHADE R4 C3       // d <= 1.0 (JLX is "not greater")
    COPY R4 C3
HEADLIGHT_SHADE:
    MUL R4 R4 C2
    ADD R4 R4 C1                    // 0.25 + 0.75 d, at most 1.0
    MUL OREG_PIXEL_COLOR CREG_TEXTURE_COLOR R4
    RETURN RT_TRUE
