// inverse_hadamard.s — a 4×4 inverse transform: pictures decoded from their transform coefficients
//
// What it shows: in the upper half of the data store, the transform coefficients of the
// landscape (64×64, one 4×4 block of coefficients per 4×4 block of pixels, as signed bytes
// stored with 128 added: the block's mean at its top left, the detail around it, mid-grey
// where a coefficient is 0), and below it the picture decoded from them by the inverse 4×4
// Walsh-Hadamard transform, the integer transform H.264 uses for its DC blocks:
//     x = H c H,   H = [[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]]
// computed in signed saturating bytes, as butterflies (each sum and difference clipped to
// -128..127, as vadd s / vsub s do), then 128 added back. The coefficients were made by
// pictures/make_pictures.py as round(H x H / 16) of the landscape minus 128.
//
// How it works (layout of shaderkit.isa.vp1.pictures), a pass per 4 rows × 16 columns:
//   vertical butterflies between the 4 row vectors (ldvh at $a0 OR 0x0/0x40/0x80/0xc0);
//   horizontal butterflies inside each vector: vswz with the selector $v20 swaps the lanes of
//   each pair (i ^ 1), vadd s and vsub s make the sums and differences, and vswz with $v21
//   keeps the sum in even lanes and the difference in odd ones; then the same across pairs
//   (i ^ 2) with $v22 and $v23. The selectors are built word by word from $r1 (mov $vN W $rM).
//   An inner loop runs the 4 strips of a band (bra loop $l0, $l0 = 0x303, the default loop
//   rule); $a0 has limit 0x1000, so aef ends the outer loop after 16 bands.
// Runs 64 passes of 57 bundles and 3 more a band (3,752 bundles in all).
//
// demo: frames=1 fps=20 args: --image-in pictures/landscape_hadamard.png

        mov $r1 0x1
        sethi $r1 0x02030000
        mov $v20 0x0 $r1
        mov $r1 0x405
        sethi $r1 0x06070000
        mov $v20 0x1 $r1
        mov $r1 0x809
        sethi $r1 0x0a0b0000
        mov $v20 0x2 $r1
        mov $r1 0xc0d
        sethi $r1 0x0e0f0000
        mov $v20 0x3 $r1
        mov $r1 0x1100
        sethi $r1 0x13020000
        mov $v21 0x0 $r1
        mov $r1 0x1504
        sethi $r1 0x17060000
        mov $v21 0x1 $r1
        mov $r1 0x1908
        sethi $r1 0x1b0a0000
        mov $v21 0x2 $r1
        mov $r1 0x1d0c
        sethi $r1 0x1f0e0000
        mov $v21 0x3 $r1
        mov $r1 0x302
        sethi $r1 0x01000000
        mov $v22 0x0 $r1
        mov $r1 0x706
        sethi $r1 0x05040000
        mov $v22 0x1 $r1
        mov $r1 0xb0a
        sethi $r1 0x09080000
        mov $v22 0x2 $r1
        mov $r1 0xf0e
        sethi $r1 0x0d0c0000
        mov $v22 0x3 $r1
        mov $r1 0x100
        sethi $r1 0x13120000
        mov $v23 0x0 $r1
        mov $r1 0x504
        sethi $r1 0x17160000
        mov $v23 0x1 $r1
        mov $r1 0x908
        sethi $r1 0x1b1a0000
        mov $v23 0x2 $r1
        mov $r1 0xd0c
        sethi $r1 0x1f1e0000
        mov $v23 0x3 $r1
        setlo $a0 0x0
        sethi $a0 0x10000000
        setlo $a1 0x1000
        setlo $a6 0x10
        setlo $a7 0xc0
        mov $l0 $c0 0x303
.align 4
strip:
        ldvh $v1 $a0 0x0
        ldvh $v2 $a0 0x40
        ldvh $v3 $a0 0x80
        ldvh $v4 $a0 0xc0
        aadd $a0 $a6
        vxor $v1 $v1 0x80
        vxor $v2 $v2 0x80
        vxor $v3 $v3 0x80
        vxor $v4 $v4 0x80
        vadd s $v5 $v1 $v2
        vsub s $v6 $v1 $v2
        vadd s $v7 $v3 $v4
        vsub s $v8 $v3 $v4
        vadd s $v1 $v5 $v7
        vadd s $v2 $v6 $v8
        vsub s $v3 $v5 $v7
        vsub s $v4 $v6 $v8
        vswz $v9 $v1 $v1 lo $v20
        vadd s $v10 $v1 $v9
        vsub s $v11 $v9 $v1
        vswz $v1 $v10 $v11 lo $v21
        vswz $v9 $v1 $v1 lo $v22
        vadd s $v10 $v1 $v9
        vsub s $v11 $v9 $v1
        vswz $v1 $v10 $v11 lo $v23
        vxor $v1 $v1 0x80
        vswz $v9 $v2 $v2 lo $v20
        vadd s $v10 $v2 $v9
        vsub s $v11 $v9 $v2
        vswz $v2 $v10 $v11 lo $v21
        vswz $v9 $v2 $v2 lo $v22
        vadd s $v10 $v2 $v9
        vsub s $v11 $v9 $v2
        vswz $v2 $v10 $v11 lo $v23
        vxor $v2 $v2 0x80
        vswz $v9 $v3 $v3 lo $v20
        vadd s $v10 $v3 $v9
        vsub s $v11 $v9 $v3
        vswz $v3 $v10 $v11 lo $v21
        vswz $v9 $v3 $v3 lo $v22
        vadd s $v10 $v3 $v9
        vsub s $v11 $v9 $v3
        vswz $v3 $v10 $v11 lo $v23
        vxor $v3 $v3 0x80
        vswz $v9 $v4 $v4 lo $v20
        vadd s $v10 $v4 $v9
        vsub s $v11 $v9 $v4
        vswz $v4 $v10 $v11 lo $v21
        vswz $v9 $v4 $v4 lo $v22
        vadd s $v10 $v4 $v9
        vsub s $v11 $v9 $v4
        vswz $v4 $v10 $v11 lo $v23
        vxor $v4 $v4 0x80
        stvh $v1 $a1 0x0
        stvh $v2 $a1 0x40
        stvh $v3 $a1 0x80
        stvh $v4 $a1 0xc0
        bra loop $l0 $l0 #strip

        aadd $a1 $a6

        aadd $a0 $c0 $a7
        aadd $a1 $a7
        bra not $c0 aef #strip

        bnop

        exit 0x0
