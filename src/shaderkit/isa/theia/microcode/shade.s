// Per hit pixel: texture coordinates and bilinear weights (TCC, spec §6.7), the
// bilinear blend (PSU2, §6.9), diffuse shading without texture (PSU, §6.10) and the
// default pixel shader (§6.11).

TCC:
    JGX TCC_DONE CREG_t CREG_LAST_t
    SUB R1 CREG_UV1_LAST CREG_UV0_LAST
    MUL R1 CREG_LAST_u R1
    SUB R2 CREG_UV2_LAST CREG_UV0_LAST
    MUL R2 CREG_LAST_v R2
    ADD R1 R1 R2
    ADD R1 R1 CREG_UV0_LAST                     // (u, v, alpha) at the hit
    MUL R1 R1 CREG_TEXTURE_SIZE                 // st: texel space (s, t, 0)
    MOD R2 R1 CREG_TEXTURE_SIZE                 // (u1, v1, 0): integer texel, wrapped
    INC R3 R2
    MOD R3 R3 CREG_TEXTURE_SIZE                 // (u2, v2, 1.0): its right/bottom neighbour
    UNSCALE R2 R2
    UNSCALE R3 R3
    UNSCALE R4 CREG_TEXTURE_SIZE                // (W, H, 0), raw
    // V = (v2, v1, .), U = (u1, u2, .), U' = (u2, u1, .), all raw
    COPY R5 R3
    SWIZZLE3D R5 SWIZZLE_YYY
    XCHANGEX R5 R2 R5                           // V = (v2, v1, 0)
    COPY R6 R3
    SWIZZLE3D R6 SWIZZLE_YXZ
    XCHANGEX R6 R6 R2                           // U = (u1, u2, 1)
    IMUL R5 R5 R4                               // (v2 * W, v1 * H, 0)
    ZERO R7
    SETX R7 3
    SWIZZLE3D R7 SWIZZLE_XXX                    // (3, 3, 3)
    ADD R8 R6 R5
    IMUL OREG_TEX_COORD1 R8 R7                  // 3 * (u1 + v2*W, u2 + v1*H, 1)
    SWIZZLE3D R6 SWIZZLE_YXZ                    // U' = (u2, u1, 1)
    ADD R8 R6 R5
    IMUL OREG_TEX_COORD2 R8 R7                  // 3 * (u2 + v2*W, u1 + v1*H, 1)
    // weights from the fractions (fu, fv, 0); 1 - f is INC(NEG(f))
    FRAC R2 R1
    NEG R3 R2
    INC R3 R3                                   // (1-fu, 1-fv, 1)
    SWIZZLE3D R3 SWIZZLE_YXZ                    // (1-fv, 1-fu, 1)
    MULP R4 R3
    COPY CREG_TEXWEIGHT1 R4
    SWIZZLE3D CREG_TEXWEIGHT1 SWIZZLE_ZZZ       // (1-fv)(1-fu)
    MUL R4 R2 R3                                // (fu(1-fv), fv(1-fu), 0)
    COPY CREG_TEXWEIGHT2 R4
    SWIZZLE3D CREG_TEXWEIGHT2 SWIZZLE_XXX
    COPY CREG_TEXWEIGHT3 R4
    SWIZZLE3D CREG_TEXWEIGHT3 SWIZZLE_YYY
    MULP R4 R2
    COPY CREG_TEXWEIGHT4 R4
    SWIZZLE3D CREG_TEXWEIGHT4 SWIZZLE_ZZZ       // fu * fv
TCC_DONE:
    RETURN RT_TRUE

// TEX_COLOR5 = T(u1,v1), 2 = T(u2,v1), 1 = T(u1,v2), 4 = T(u2,v2) (spec §6.8)
PSU2:
    MUL R1 CREG_TEX_COLOR5 CREG_TEXWEIGHT1
    MUL R2 CREG_TEX_COLOR2 CREG_TEXWEIGHT2
    ADD R1 R1 R2
    MUL R2 CREG_TEX_COLOR1 CREG_TEXWEIGHT3
    ADD R1 R1 R2
    MUL R2 CREG_TEX_COLOR4 CREG_TEXWEIGHT4
    ADD CREG_TEXTURE_COLOR R1 R2
    RETURN RT_TRUE

// Upstream V1 reads the light's diffuse colour from address 6 (a bug, spec §6.10);
// we read it from the light record's second row, CREG_LIGHT_DIFFUSE (9).
PSU:
    CROSS R1 CREG_E1_LAST CREG_E2_LAST
    MAG R2 R1
    DIV R1 R1 R2                                // N
    MUL R3 CREG_RAY_DIRECTION CREG_LAST_t
    ADD R3 R3 CREG_CAMERA_POSITION              // the hit point
    SUB R4 CREG_FIRST_LIGTH R3
    MAG R5 R4
    DIV R4 R4 R5                                // L
    DOT R5 R4 R1                                // d = L.N, not clamped
    MUL R6 CREG_TRI_DIFFUSE_LAST CREG_LIGHT_DIFFUSE
    MUL CREG_COLOR_ACC R6 R5
    COPY CREG_TEXTURE_COLOR CREG_COLOR_ACC
    RETURN RT_TRUE

PIXELSHADER:
    COPY OREG_PIXEL_COLOR CREG_TEXTURE_COLOR
    RETURN RT_TRUE
