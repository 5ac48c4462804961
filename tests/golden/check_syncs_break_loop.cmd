# a loop with two exits: the stack grows, no sync can pop it
check examples/break_loop.simd
