// smooth.s — a vertical [1 2 1] / 4 smoothing filter over a 64×64 greyscale picture
//
// What it shows: the picture (upper half of the data store) and below it the picture
// smoothed across rows: every pixel of rows 1-62 becomes
//     (up + 2 * here + down + 2) >> 2
// the 3-tap kernel deblocking and scaling filters are built from. Horizontal edges (the
// horizon, the roof, the furrows) soften; vertical ones stay sharp. Rows 0 and 63 of the
// result stay black (they lack a neighbour).
//
// How it works (layout of shaderkit.isa.vp1.pictures: 64 pixels a row, stride 0, so the pixel
// below is 0x40 further on), 16 pixels a pass:
//   $v2, $v3 = the rows above and below (a pair, $v2d), $v5 = the row itself, $v0 = 0.
//   vec 0x40 0x40 sends the factors 64, 64 down the scalar-to-vector path, and in the same
//   bundle vmad2 ... # u $v2d u $v0 accumulates $va = 64 * up + 64 * down (+ 0 << 8).
//   vmac u rn ... $v4 u $v5 u $v9 ($v9 = 0x80) adds 128 * here and the rounding 128 and
//   reads out the high byte: (64 (up + 2 here + down) + 128) >> 8, exactly.
//   $a1 (the row below) has limit 0x1000: aef ends the loop after 62 rows of 4 vectors.
//   The result is stored in the branch's delay slot.
// Runs 248 passes of 6 bundles (1,496 bundles in all).
//
// demo: frames=1 fps=20 args: --image-in pictures/landscape.png

        setlo $a0 0x0
        setlo $a1 0x80
        sethi $a1 0x10000000
        setlo $a3 0x40
        setlo $a2 0x1040
        vmov $v0 0x0
        vmov $v9 0x80
.align 4
loop:
        ldavh $v2 $a0 0x10

        ldavh $v3 $c0 $a1 0x10
        bnop

        ldavh $v5 $a3 0x10

        vec 0x40 0x40 $vc0 sf 0x0
        vmad2 s factor rd fract 0x0 hi # u $v2d u $v0

        vmac u rn fract 0x0 hi $v4 u $v5 u $v9
        bra not $c0 aef #loop

        stavh $v4 $a2 0x10
        bnop

        exit 0x0
