/* What the native twins of bench/interp.py share: their arguments, the
** memory (zeroed cells), and the checksum they print, the same one the
** script computes from musimd's JSON: s = s * 31 + Σ[a] over a = 0 .. n-1
** in int64 wrap-around (a cell never written counts 0). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline int64_t arg(int argc, char **argv, int i, int64_t dflt)
{
	return argc > i ? atoll(argv[i]) : dflt;
}

static inline int64_t *cells(int64_t n)
{
	int64_t *m = calloc((size_t)n, sizeof *m);
	if (!m)
		exit(1);
	return m;
}

static inline int finish(const int64_t *mem, int64_t n)
{
	uint64_t s = 0;
	for (int64_t a = 0; a < n; a++)
		s = s * 31 + (uint64_t)mem[a];
	printf("%lld\n", (long long)(int64_t)s);
	return 0;
}
