# no placement for a loop with a break: exit 3 and why
syncs examples/break_loop.simd
