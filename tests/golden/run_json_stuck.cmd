# error.stack is structured like the stacks of a trace
run examples/nested_else.simd --strict-push --json
