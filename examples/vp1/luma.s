// luma.s — colour conversion: the luma (Y') of a colour picture from its R, G, B planes
//
// What it shows: a 64×32 colour picture loaded as three planes (red at rows 0-31 of the data
// store, green at 32-63, blue at 64-95) and, in rows 96-127, its luma by the ITU-R BT.601
// weights in 8 bits:
//     Y = (77 R + 150 G + 29 B + 128) >> 8
// (the weights add up to 256). The sun is bright in red and green and dark in blue; in the
// luma it is the brightest thing in the picture.
//
// How it works (layout of shaderkit.isa.vp1.pictures), 16 pixels a pass:
//   vmul ... # u $v1 u $v10   $va  = 77 R          ($v10 = 77 in every lane)
//   vmac ... # u $v2 u $v11   $va += 150 G         ($v11 = 150)
//   vmac u rn ... $v4 u $v3 u $v12   + 29 B + 128, high byte read out   ($v12 = 29)
//   The largest sum, 255 * 256 + 128, fits the 16-bit readout, so the result is exact.
//   $a2 (blue) has limit 0x1800: aef ends the loop after 128 vectors; the result is stored
//   in the branch's delay slot.
// Runs 128 passes of 7 bundles (904 bundles in all).
//
// demo: frames=1 fps=20 args: --image-in pictures/landscape_rgb.png

        setlo $a0 0x0
        setlo $a1 0x800
        setlo $a2 0x1000
        sethi $a2 0x18000000
        setlo $a3 0x1800
        vmov $v10 0x4d
        vmov $v11 0x96
        vmov $v12 0x1d
.align 4
loop:
        ldavh $v1 $a0 0x10

        ldavh $v2 $a1 0x10

        ldavh $v3 $c0 $a2 0x10
        bnop

        vmul s rd fract 0x0 hi # u $v1 u $v10

        vmac s rd fract 0x0 hi # u $v2 u $v11

        vmac u rn fract 0x0 hi $v4 u $v3 u $v12
        bra not $c0 aef #loop

        stavh $v4 $a3 0x10
        bnop

        exit 0x0
