!!ARBfp1.0
OPTION NV_fragment_program2;
# holes.fp — KIL punches round holes; IF/ELSE picks the colour of alternate rows
# demo: frames=1 fps=20 args: --vp holes.vp --mesh models/torus.obj
#
# What it shows: the torus as a perforated shell: the (u, v) plane is cut into 24 x 12 cells,
# and every fragment within 0.3 of its cell's centre is discarded (KIL under a CC test), so the
# inside of the tube shows through. Cells in even rings are yellow, odd ones blue (IF/ELSE on
# a CC set from the ring index).
#const c[0] = 24 12 0.5 0
#const c[1] = 0.09 0.5 0.25 0
#const c[2] = 0.95 0.8 0.2 1
#const c[3] = 0.2 0.45 0.95 1
TEMP R0, R1, R2;
MULR R0.xy, fragment.texcoord[0], c[0];
FRCR R1.xy, R0;
ADDR R1.xy, R1, -c[0].z;
DP2R R1.z, R1, R1;
ADDRC RC.x, R1.z, -c[1].x;
KIL LT.x;
FLRR R2.x, R0.x;
MULR R2.x, R2.x, c[1].y;
FRCR R2.x, R2.x;
ADDRC RC.x, R2.x, -c[1].z;
IF LT.x;
MULR R2.xyz, fragment.color, c[2];
ELSE;
MULR R2.xyz, fragment.color, c[3];
ENDIF;
MOVR R2.w, c[2].w;
MOVR result.color, R2;
END
