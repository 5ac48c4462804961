# Markdown tables
policies examples/policy_diamond.simd examples/tf_exception_cond.simd --policy ipdom,tf,longestpathp --format markdown
