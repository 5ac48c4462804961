# The explorer s verdict per policy on the done flag: Min-PC livelocks, Lee terminates
policies examples/done_flag.simd --policy minpc,lee,long:8 --explore --max-steps 500
