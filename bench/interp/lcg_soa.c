/* The structure-of-arrays twin of bench/lcg.simd, compiled with -O3
** -march=native: the lanes in the inner loop, as the interpreter keeps
** them, vectorised as far as this CPU allows. The limit. */
#include "twin.h"
int main(int argc, char **argv)
{
	int64_t n = arg(argc, argv, 1, 10850);
	enum { T = 1024 };
	static int64_t x[T], acc[T];
	for (int64_t t = 0; t < T; t++)
		x[t] = t;
	for (int64_t i = 0; i < n; i++)
		for (int64_t t = 0; t < T; t++) {
			int64_t v = ((x[t] * 1103515245) + 12345) & 0x7fffffff;
			x[t] = v;
			acc[t] += v >> 16;
		}
	return finish(acc, T);
}
