/* The twin of divergent.simd: scalar C, one thread after another. */
#include "twin.h"
int main(int argc, char **argv)
{
	int64_t r = arg(argc, argv, 1, 160), threads = 1024;
	int64_t *mem = cells(1024);
	for (int64_t t = 0; t < threads; t++) {
		int64_t acc = 0, lim = (t % 64) * r;
		for (int64_t i = 0; i < lim; i++) {
			if (i & 1) {
				if (i & 2)
					acc = acc + i;
				else
					acc = acc + 3;
			} else {
				acc = acc ^ i;
			}
		}
		mem[t] = acc;
	}
	return finish(mem, 1024);
}
