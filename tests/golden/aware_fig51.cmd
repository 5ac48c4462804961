# ElTantawy 2018, Figure 5.1: the splits table (ST) and the reconvergence table (RT) step by step under aware
repl --echo --model aware tests/golden/aware_fig51.simd
