// tartan.s — a living tartan woven from XOR
//
// What it draws: a green / gold / red plaid with fine checked "threads", whose
// stripes widen, narrow and change colour as the weave breathes.
//
// How it works: two offsets a = SIN(RT) >> 2 and b = SIN(RT + 8) >> 2 (a
// sine/cosine pair, 0..15) move a point around a circle. The colour is
//   ((RX + a) XOR (RY + b)) XOR ((a - RX) XOR (b - RY))
// which regroups into [(RX + a) XOR (a - RX)] XOR [(RY + b) XOR (b - RY)]:
// one term depends only on the column, the other only on the row, so the
// picture is vertical stripes XOR horizontal stripes — exactly how a tartan is
// woven (warp and weft). RX + a and a - RX always have the same parity, so bit 0
// of each bracket is 0: the blue channel only ever uses its upper bit.
//
// model: well-behaved (no conditions, every register written before read)
// demo: frames=32 fps=20

.slots written   // shaderkit's reading: comment lines take no slot, OUT lines stay where written

QUARTER = 8                // a quarter of the SIN period: turns sine into cosine

    SET  R3 #QUARTER
    MOV  R1 RT
    ADD  R1 R3
    SIN  R1 R1
    SR   R1 #2             // b (cosine)
    SIN  R2 RT
    SR   R2 #2             // a (sine)
    MOV  R0 RX
    ADD  R0 R2             // RX + a
    MOV  R3 RY
    ADD  R3 R1             // RY + b
    XOR  R0 R3
    SUB  R2 RX             // a - RX
    SUB  R1 RY             // b - RY
    XOR  R1 R2
    XOR  R0 R1
