# ElTantawy 2018, Figure 5.5: the spin lock's reconvergence at C times out under aware (--aware-timeout 3)
repl --echo --model aware --aware-timeout 3 tests/golden/aware_fig54.simd
