/* The twin of barrier.simd: scalar C, the threads of a phase one after
** another. */
#include "twin.h"
int main(int argc, char **argv)
{
	int64_t n = arg(argc, argv, 1, 2000);
	int64_t *mem = cells(1024), acc[1024];
	for (int64_t t = 0; t < 1024; t++)
		acc[t] = t;
	for (int64_t i = 0; i < n; i++) {
		for (int64_t t = 0; t < 1024; t++)
			mem[t] = acc[t];
		for (int64_t t = 0; t < 1024; t++)
			acc[t] = (acc[t] + mem[(t + 1) & 1023]) & 0xffffff;
	}
	for (int64_t t = 0; t < 1024; t++)
		mem[t] = acc[t];
	return finish(mem, 1024);
}
