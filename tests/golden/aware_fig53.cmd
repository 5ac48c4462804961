# ElTantawy 2018, Figure 5.3: a divergent barrier passes under aware (the BL bit)
repl --echo --model aware tests/golden/aware_fig53.simd
