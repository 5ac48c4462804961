# ElTantawy 2018, Figure 5.2: nested divergence, the ST and RT of every step of the figure's table
repl --echo --model aware tests/golden/aware_fig52.simd
