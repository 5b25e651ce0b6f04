!!ARBfp1.0
OPTION NV_fragment_program2;
# textured.fp — a bilinear texture fetch modulated by the vertex lighting
# demo: frames=1 fps=20 args: --vp textured.vp --mesh ../theia/models/cube.obj --texture 0=../theia/textures/bricks.png
#
# What it shows: the brick cube of the THEIA examples, drawn by the RSX pipeline: each face
# samples the brick texture at its perspective-correct texture coordinates, and the faces are
# darker the further they turn from the light (vertex Lambert term plus 25 % ambient).
TEMP R0;
TEXR R0, fragment.texcoord[0], texture[0], 2D;
MULR R0.xyz, R0, fragment.color;
MOVR result.color, R0;
END
