!!ARBfp1.0
OPTION NV_fragment_program2;
# phong.fp — per-pixel Blinn-Phong with a specular highlight, colour bands along the ring
# demo: frames=1 fps=20 args: --vp phong.vp --mesh models/torus.obj
#
# What it shows: the torus lit per pixel: N and V are renormalised (NRM), the half vector
# H = normalize(V + L), specular = (N.H)^40 through LG2/MUL/EX2, diffuse = N.L. The base
# colour alternates between teal and plum in 12 bands around the ring (FRC of u, a CC
# update and a conditional write), computed in fp16 H registers.
#const c[0] = 0.4472136 0.5405797 0.71258234 0
#const c[1] = 0 0 0 40
#const c[2] = 0.1 0.1 0.12 1
#const c[3] = 12 0.5 0 0
#const c[4] = 0.15 0.6 0.6 1
#const c[5] = 0.6 0.25 0.55 1
#const c[6] = 0.9 0.9 0.85 0
TEMP R0, R1, R2, R3;
TEMP H8;
NRMR R1.xyz, fragment.texcoord[1];
NRMR R2.xyz, -fragment.texcoord[2];
ADDR R0.xyz, R2, c[0];
NRMR R0.xyz, R0;
DP3R_SAT R0.w, R1, R0;
LG2R R0.w, R0.w;
MULR R0.w, R0.w, c[1].w;
EX2R R0.w, R0.w;
DP3R_SAT R2.w, R1, c[0];
MULH H8.x, fragment.texcoord[0].x, c[3].x;
FRCH H8.x, H8.x;
ADDHC HC.x, H8.x, -c[3].y;
MOVH H8, c[4];
MOVH H8(GE.x), c[5];
MULR R3.xyz, H8, R2.w;
ADDR R3.xyz, R3, c[2];
MADR R3.xyz, R0.w, c[6], R3;
MOVR R3.w, c[2].w;
MOVR result.color, R3;
END
