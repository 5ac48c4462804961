deadlock examples/producer_consumer.simd --divergence
