# gen --concurrent: locks, flags, tickets, atomics, barriers for the explorer
gen --concurrent --seed 5
