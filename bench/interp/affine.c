/* The twin of affine.simd: scalar C, one thread after another. */
#include "twin.h"
int main(int argc, char **argv)
{
	int64_t n = arg(argc, argv, 1, 10000);
	int64_t *mem = cells(8192);
	for (int64_t t = 0; t < 1024; t++)
		for (int64_t i = 0; i < n; i++) {
			int64_t a = (i & 7) * 1024 + t;
			mem[a] = mem[a] + i;
		}
	return finish(mem, 8192);
}
