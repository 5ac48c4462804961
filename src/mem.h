/*
** mem.h — memory Σ (and each thread's local memory): a partial map ℕ → ℤ
** in pages of 256 cells, found through an open-addressing table. The cost
** of what it holds is reported through the callers' byte counters (the
** --max-memory budget); mem.c knows nothing of machines.
*/
#ifndef MUSIMD_MEM_H
#define MUSIMD_MEM_H

#include "bits.h"
#include "num.h"
#include "util.h"

#define MEM_PAGE_BITS 8
#define MEM_PAGE_SIZE (1 << MEM_PAGE_BITS)

typedef struct MemPage {
	int64_t key;                   /* address >> MEM_PAGE_BITS */
	uint64_t init[MEM_PAGE_SIZE / 64];
	int64_t val[MEM_PAGE_SIZE];
	__mpz_struct **big;            /* NULL until a cell holds a big value */
} MemPage;

typedef struct Mem {
	MemPage **pages;               /* in creation order */
	int32_t npages, cappages;
	int32_t *slots;                /* open-addressing table of page indexes, -1 empty */
	int32_t nslots;
	int32_t last;                  /* last page looked up (a cache) */
	MemPage **cache;               /* direct-mapped by key, MEM_CACHE entries, made when the
	                               ** table reaches MEM_CACHE_AT pages (scattered addresses
	                               ** skip the hash); NULL before, and in a clone */
} Mem;

/* Memory accounting (--max-memory): what one page costs with its share of
** the page list and the hash table (at most twice and four times the
** pages), and the table of big values a page gets with its first one. A
** sparse store pays a whole page, not the 9 bytes of one cell. */
#define PAGE_BYTES ((uint64_t)sizeof(MemPage) + 2 * sizeof(MemPage *) + 4 * sizeof(int32_t))
#define PAGE_BIG_BYTES ((uint64_t)MEM_PAGE_SIZE * sizeof(__mpz_struct *))
#define MEM_CACHE 256
#define MEM_CACHE_AT 4
#define MEM_CACHE_BYTES ((uint64_t)MEM_CACHE * sizeof(MemPage *))

/* Heap bytes of a value beyond int64 (for the --max-memory budget). */
static inline uint64_t zbytes(const __mpz_struct *z)
{
	return (uint64_t)z->_mp_alloc * sizeof(mp_limb_t) + sizeof *z;
}

/* Free the big value in *slot (if any) and take it off the budget. */
static inline void drop_big(__mpz_struct **slot, uint64_t *big_bytes)
{
	if (*slot) {
		*big_bytes -= zbytes(*slot);
		num_free(&(Num){0, *slot});
		*slot = NULL;
	}
}

/* Fibonacci hash of a page key or an address (the page table; the race
** detector's table of addresses). */
static inline uint32_t mem_hash(int64_t key)
{
	uint64_t x = (uint64_t)key * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(x >> 32);
}

/* The page holding cells key << MEM_PAGE_BITS ..., or NULL. */
MemPage *mem_find(const Mem *mem, int64_t key);
/* The page holding cells key << MEM_PAGE_BITS ..., created when absent
** (its cost added to *mem_bytes). */
MemPage *mem_page(Mem *mem, int64_t key, uint64_t *mem_bytes);
/* A cell (borrowed), false if uninitialised. */
bool mem_get(const Mem *mem, int64_t addr, Num *out);
/* Store an owned value; returns true if the cell was not initialised before.
** *big_bytes follows the heap size of the values beyond int64, *mem_bytes
** that of the pages. */
bool mem_put(Mem *mem, int64_t addr, Num v, uint64_t *big_bytes, uint64_t *mem_bytes);
/* Visit initialised cells in ascending address order. */
typedef void (*MemVisit)(void *ctx, int64_t addr, Num value);
void mem_each(const Mem *mem, MemVisit visit, void *ctx);
void mem_free(Mem *mem);
/* Empty mem (as mem_free), taking what its pages and values cost off the
** counters mem_put added them to. */
void mem_clear(Mem *mem, uint64_t *big_bytes, uint64_t *mem_bytes);
/* dst (uninitialised) becomes a deep copy of src. */
void mem_clone(Mem *dst, const Mem *src);

#endif
