# next over the spin lock's loop branch under aware with a delayed point: it stops where the branch reconverges, the delayed point C2, not at the immediate post-dominator
repl --echo --model aware --aware-delay B:C2 tests/golden/aware_fig54.simd
