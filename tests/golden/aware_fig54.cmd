# ElTantawy 2018, Figure 5.4: delayed reconvergence of the spin lock under aware (--aware-delay B:C2)
repl --echo --model aware --aware-delay B:C2 tests/golden/aware_fig54.simd
