# the trace limit cuts the JSON trace: it says so, the run goes on, exit 4
run examples/if_else_coutinho.simd --json --trace --trace-limit 3
