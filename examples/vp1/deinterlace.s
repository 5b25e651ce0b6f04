// deinterlace.s — line doubling of one video field: 32 lines become a 64-line frame
//
// What it shows: one field of an interlaced picture (64×32, rows 0-31 of the data store: the
// even lines of the landscape) and, in rows 64-127, the frame rebuilt from it ("bob"
// deinterlacing): the field's lines are the frame's even lines, and each odd line is the
// rounded average of the field lines above and below it,
//     frame[2y] = field[y],  frame[2y+1] = (field[y] + field[y+1] + 1) >> 1,
// with the last line repeated (frame[62] = frame[63] = field[31]).
//
// How it works (layout of shaderkit.isa.vp1.pictures: 64 pixels a row, stride 0):
//   An inner loop over the 4 vectors of a line (bra loop $l0: $l0 = 0x303 runs it 4 times and
//   reloads itself, with the default loop rule "before") and an outer loop over the field's
//   lines ($a1, the line below, has limit 0x800: aef ends it after 31 lines).
//   vlrp rn 0x0 $v4 $v2d $v8 ($v8 = 0x80) interpolates the odd line exactly:
//       (below << 8) + (above - below) * 0x80 + 0x80, high byte = (above + below + 1) >> 1.
//   stvh $v4 $a2 0x40 stores it one frame line below $a2 (address OR 0x40: $a2 is on an even
//   line), stavh $v2 $a2 0x10 stores the field line itself (in the delay slot).
// Runs 31 lines of 4 passes of 5 bundles and 3 more a line, then 4 passes of 3 bundles for
// the last line (734 bundles in all).
//
// demo: frames=1 fps=20 args: --image-in pictures/landscape_field.png

        setlo $a0 0x0
        setlo $a1 0x40
        sethi $a1 0x8000000
        setlo $a2 0x1000
        setlo $a5 0x40
        vmov $v8 0x80
        mov $l0 $c0 0x303
.align 4
line:
        ldavh $v2 $a0 0x10

        ldavh $v3 $c0 $a1 0x10
        bnop

        vlrp rn 0x0 $v4 $v2d $v8

        stvh $v4 $a2 0x40
        bra loop $l0 $l0 #line

        stavh $v2 $a2 0x10

        aadd $a2 $a5

        bra not $c0 aef #line

        bnop
.align 4
last:
        ldavh $v2 $a0 0x10

        stvh $v2 $a2 0x40
        bra loop $l0 $l0 #last

        stavh $v2 $a2 0x10

        exit 0x0
