// Once per core, before the first pixel: INITIAL, CPPU and the default USERCONSTANTS
// (spec §6.2, §6.3, §5). Raw integers (not fixed point) are kept where noted.

INITIAL:
    ZERO CREG_LAST_t
    SETX CREG_LAST_t 250.0                      // "no hit yet" distance
    ZERO OREG_PIXEL_COLOR
    COPY CREG_PIXEL_2D_POSITION CREG_PIXEL_2D_INITIAL_POSITION
    // PIXEL_PITCH = 3 * (x0 + H * y0), raw; the row stride is the height (spec §6.2)
    UNSCALE R1 CREG_RESOLUTION                  // (W, H, 0)
    UNSCALE R2 CREG_PIXEL_2D_INITIAL_POSITION   // (x0, y0, 0)
    COPY R3 R1
    SWIZZLE3D R3 SWIZZLE_YYY                    // (H, H, H)
    COPY R4 R2
    SWIZZLE3D R4 SWIZZLE_YYY                    // (y0, y0, y0)
    IMUL R3 R3 R4
    COPY R4 R2
    SWIZZLE3D R4 SWIZZLE_XXX                    // (x0, x0, x0)
    ADD R3 R3 R4
    ZERO R5
    SETX R5 3
    SWIZZLE3D R5 SWIZZLE_XXX                    // (3, 3, 3)
    IMUL CREG_PIXEL_PITCH R3 R5
    COPY OREG_ADDR_O CREG_PIXEL_PITCH
    ZERO R1
    ZERO R2
    ZERO R3
    ZERO R4
    ZERO R5
    RETURN RT_TRUE

CPPU:
    SUB R1 CREG_PROJECTION_WINDOW_MAX CREG_PROJECTION_WINDOW_MIN
    DIV CREG_PROJECTION_WINDOW_SCALE R1 CREG_RESOLUTION
    RETURN RT_TRUE

USERCONSTANTS:
    NOP RT_FALSE
    RETURN RT_TRUE
