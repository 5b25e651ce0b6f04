!!ARBfp1.0
OPTION NV_fragment_program2;
# gouraud.fp — the interpolated vertex colour, nothing else
# demo: frames=1 fps=20 args: --vp gouraud.vp --mesh models/torus.obj
#
# What it shows: the orange torus lit per vertex by gouraud.vp; the light falls from the upper
# right, the far side of the tube stays at the 15 % ambient level, and the facets of the
# 48 x 24 mesh are smoothed over by the colour interpolation.
MOVR result.color, fragment.color;
END
