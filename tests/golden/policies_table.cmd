# The policy lab on two of the digest examples (seed 000 T1, T3), four policies: the table per file, then DLP and throughput per policy and file (Tables 5.3, 5.4)
policies examples/policy_diamond.simd examples/policy_if_no_else.simd --policy minpc,long:8,postdom+minpc,tf:sandy
