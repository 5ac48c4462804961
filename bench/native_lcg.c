/*
** native_lcg.c — the peer of bench/lcg.simd: the same kernel as plain
** scalar C, one thread after another, compiled with -O2. Prints the same
** Σ the interpreter computes (checked by bench/run.sh).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int64_t n = argc > 1 ? atoll(argv[1]) : 10850;
	int threads = argc > 2 ? atoi(argv[2]) : 1024;
	int64_t *mem = calloc((size_t)threads, sizeof *mem);
	if (!mem)
		return 1;
	for (int t = 0; t < threads; t++) {
		int64_t x = t, acc = 0;
		for (int64_t i = 0; i < n; i++) {
			x = x * 1103515245;
			x = x + 12345;
			x = x & 0x7fffffff;
			acc = acc + (x >> 16);
		}
		mem[t] = acc;
	}
	/* a checksum of Σ, so the work cannot be optimised away */
	int64_t sum = 0;
	for (int t = 0; t < threads; t++)
		sum = sum * 31 + mem[t];
	printf("%lld\n", (long long)sum);
	free(mem);
	return 0;
}
