// mc_average.s — bi-predictive motion compensation: the rounded average of two reference blocks
//
// What it shows: the picture in the upper half of the data store (64×64, rows 0-63) and, below
// it, the bi-prediction of rows 0-59 from two references: the picture itself (motion vector
// (0, 0)) and the picture 4 rows down (motion vector (0, +4)), averaged as H.264 and MPEG
// average two predictions: P = (A + B + 1) >> 1. Edges appear doubled where the two blocks
// disagree (the ridge, the house); rows 60-63 of the result stay black (B would leave the
// picture).
//
// How it works (data store layout of shaderkit.isa.vp1.pictures: 64 pixels a row, stride 0):
//   $a0 walks A from 0x0000, $a1 walks B from 0x0100 (limit 0x1000, so aef ends the loop
//   after 240 vectors), $a2 walks the result from 0x1000; 16 pixels per pass.
//   vlrp rn 0x0 $v4 $v2d $v8 with $v8 = 0x80 in every lane computes
//       (B << 8) + (A - B) * 0x80 + 0x80 = 128 (A + B) + 128,   high byte = (A + B + 1) >> 1
//   exactly, in the vector unit's 28-bit accumulator path (spec §7.2).
// Runs 240 passes of 5 bundles (1,209 bundles in all).
//
// demo: frames=1 fps=20 args: --image-in pictures/landscape.png

        setlo $a0 0x0
        setlo $a1 0x100
        sethi $a1 0x10000000
        setlo $a2 0x1000
        vmov $v8 0x80
.align 4
loop:
        ldavh $v2 $a0 0x10

        ldavh $v3 $c0 $a1 0x10
        bnop

        vlrp rn 0x0 $v4 $v2d $v8

        stavh $v4 $a2 0x10
        bra not $c0 aef #loop

        bnop
        exit 0x0
