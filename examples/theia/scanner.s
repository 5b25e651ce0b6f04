// scanner.s — animated: sonar rings sweep away from the eye (uses the time in C7)
//
// What it shows: the cube, dimmed and coloured by a rainbow texture, swept by
// bright cyan rings: spheres around the eye whose radius grows with time, so
// every ring spreads from the nearest corner over the three visible faces to
// the far edges. Each ring has a sharp leading front and a wake that fades
// towards the viewer. The 2-second loop (24 frames at 12 fps) is seamless.
//
// How it works:
//   shaderkit loads C7 = (time in seconds, 0, 0) before USERCONSTANTS (V1 has
//   no clock), so USERCONSTANTS turns it into a phase once per frame,
//       C2 = time / PERIOD.
//   PIXELSHADER (hit pixels only; no-hit pixels stay black), with t = CREG_LAST_t.x
//   the eye-to-hit distance:
//       f    = FRAC( t / SPACING - time / PERIOD )
//           FRAC keeps the raw fraction bits, i.e. x - floor(x), also for negative
//           x. f grows with t and wraps to 0 just beyond each ring's front; as time
//           grows, the wrap moves to larger t, so the rings travel away at
//           SPACING / PERIOD units per second.
//       glow = f^8
//           three MULs (squaring); above 0.5 only in the last 8 % before the wrap,
//           which gives the sharp front and the soft wake.
//       colour = 0.6 * TEXTURE_COLOR + glow * GLOW_COLOUR
//           both terms are non-negative; where they add up past 1.0 the host's
//           min(255, word >> 9) saturates, which is the bright rim we want.
//   Every MUL here has its first operand far below 10922, the exact range.
//   time = PERIOD gives the same phase as time = 0 exactly (time / PERIOD is then
//   1.0, which FRAC removes), hence the seamless loop.
//
// Constants: C1 = 1 / SPACING (SPACING = 2.0), C2 = time / PERIOD (PERIOD = 2.0 s),
// C3 = glow colour, C4 = texture dimming 0.6, all replicated to three lanes
// (C3 per channel).
//
// demo: frames=24 fps=12 args: --obj models/cube.obj --texture textures/gradient.png --camera 6,-5,10

ENTRYPOINT_ADRR_USERCONSTANTS:
    ZERO C1
    SETX C1 0.5                     // 1 / SPACING, rings 2.0 units apart
    SWIZZLE3D C1 SWIZZLE_XXX
    ZERO R1
    SETX R1 0.5                     // 1 / PERIOD, one ring passes a point every 2 s
    MUL C2 C7 R1                    // time / PERIOD in X (C7 = (time, 0, 0))
    SWIZZLE3D C2 SWIZZLE_XXX
    ZERO C3
    SETX C3 0.3                     // glow colour, cyan
    SETY C3 1.0
    SETZ C3 0.85
    ZERO C4
    SETX C4 0.6
    SWIZZLE3D C4 SWIZZLE_XXX        // how much of the texture shows between rings
    RETURN RT_TRUE

ENTRYPOINT_ADRR_PIXELSHADER:
    COPY R1 CREG_LAST_t
    SWIZZLE3D R1 SWIZZLE_XXX        // (t, t, t)
    MUL R1 R1 C1                    // t / SPACING
    SUB R1 R1 C2                    // minus time / PERIOD
    FRAC R1 R1                      // f in [0, 1)
    MUL R2 R1 R1                    // f^2
    MUL R2 R2 R2                    // f^4
    MUL R2 R2 R2                    // f^8, the glow
    MUL R2 C3 R2                    // glow colour * glow
    MUL R3 CREG_TEXTURE_COLOR C4    // dimmed texture
    ADD OREG_PIXEL_COLOR R3 R2
    RETURN RT_TRUE
