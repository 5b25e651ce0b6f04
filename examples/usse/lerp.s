// lerp.s — a USSE vertex program written for shaderkit: o4..o7 = mix(a, b, t) per vertex,
// a = pa4..pa7, b = pa8..pa11, t = sa0 (one uniform for all vertices); the position pa0..pa3
// goes to o0..o3 unchanged. F32 vector operations write a 64-bit register pair (two channels)
// each, so every step is done for channels x, y and then for z, w.
// demo: frames=1 fps=1 args: --inputs lerp.json --resolution 480x272
.primary
vmov.f32 o0.xy, pa0.xy             // the position
vmov.f32 o2.xy, pa2.xy
vadd r0.xy, -pa4.xy, pa8.xy        // r0, r1 = b - a (x, y)
vadd r2.xy, -pa6.xy, pa10.xy       // r2, r3 = b - a (z, w)
vmad2 o4.xy, r0.xy, sa0.xx, pa4.xy // o4, o5 = (b - a) * t + a
vmad2 o6.xy, r2.xy, sa0.xx, pa6.xy // o6, o7
