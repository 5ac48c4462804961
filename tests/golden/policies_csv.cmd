# CSV and Markdown, with one fetch unit (pure SIMD: cycles = fetches)
policies examples/policy_diamond.simd --policy minpc@ins,its:lee,rr --format csv --fetch-units 1
