# error.stack of an ipdom run stopped at the step limit
run examples/sum_triangle.simd --model ipdom --max-steps 20 --json
