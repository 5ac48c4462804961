# the trace limit cuts the text trace and the grid: a last line, a warning, exit 4
run examples/if_else_coutinho.simd --trace --grid --trace-limit 3 --quiet
