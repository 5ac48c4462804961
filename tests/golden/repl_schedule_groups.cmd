# follow an its:any schedule with its groups (warp.group), as musimd explore prints it
repl --echo --model its:any --threads 2 --schedule 0.0,0.0,0.0,0.1/0.0,0.0,0.0 tests/golden/its_any_loop.simd
