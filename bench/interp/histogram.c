/* The twin of histogram.simd: scalar C, one thread after another (the
** atomics' order does not change the counts). */
#include "twin.h"
int main(int argc, char **argv)
{
	int64_t n = arg(argc, argv, 1, 5000);
	int64_t *mem = cells(2048);
	for (int64_t t = 0; t < 1024; t++) {
		int64_t x = t;
		for (int64_t i = 0; i < n; i++) {
			x = ((x * 1103515245) + 12345) & 0x7fffffff;
			mem[x >> 20] += 1;
		}
	}
	return finish(mem, 2048);
}
