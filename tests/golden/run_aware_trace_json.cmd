# run --json --trace under aware: each record of the tables with its "table"
run tests/golden/aware_fig51.simd --model aware --json --trace
