# --atomic-order any with 9 lanes of an atominc on one cell: more orders than the explorer tries, unknown (exit 4)
explore examples/atominc.simd --atomic-order any --threads 9 --model sync
