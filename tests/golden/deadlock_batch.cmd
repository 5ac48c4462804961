deadlock examples/spin_lock.simd examples/simt_safe_lock.simd examples/done_flag.simd examples/producer_consumer.simd examples/tid_loop.simd
