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

/* A page, 64-byte aligned: a lane's access touches the line of the bits
** and the line of its value, or its value alone on a page whose cells are
** all initialised (mem_dense); the key is also in the page cache
** (Mem.cache) and whether any page holds a big value in Mem.nbig, so the
** scattered accesses of the fast paths (data.c) read neither key nor big
** here. */
typedef struct MemPage {
	_Alignas(64) uint64_t init[MEM_PAGE_SIZE / 64];
	int64_t key;                   /* address >> MEM_PAGE_BITS */
	__mpz_struct **big;            /* NULL until a cell holds a big value */
	int64_t val[MEM_PAGE_SIZE];
} MemPage;

typedef struct MemCacheSlot {
	int64_t key;
	struct MemPage *pg;            /* NULL: empty */
	bool full;                     /* every cell of pg is initialised (cells are never
	                               ** uninitialised again: false may be stale, true is not) */
} MemCacheSlot;

typedef struct Mem {
	MemPage **pages;               /* in creation order */
	int32_t npages, cappages;
	int32_t *slots;                /* open-addressing table of page indexes, -1 empty */
	int32_t nslots;
	int32_t last;                  /* last page looked up (a cache) */
	int32_t nbig;                  /* pages with a table of big values (MemPage.big) */
	MemCacheSlot *cache;           /* direct-mapped by key, MEM_CACHE entries, made when the
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
#define MEM_CACHE_BYTES ((uint64_t)MEM_CACHE * sizeof(MemCacheSlot))

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

MemPage *mem_find_table(const Mem *mem, int64_t key);
MemPage *mem_page_table(Mem *mem, int64_t key, uint64_t *mem_bytes);

/* The page cache's hit for key, or NULL (no cache, or another page in the
** slot). Inline: a scattered load or store looks a page up per lane. */
static inline MemPage *mem_cached(const Mem *mem, int64_t key)
{
	if (!mem->cache)
		return NULL;
	const MemCacheSlot *c = &mem->cache[(uint64_t)key & (MEM_CACHE - 1)];
	return c->key == key ? c->pg : NULL;
}

_Static_assert(MEM_PAGE_SIZE == 256, "mem_page_full reads four words");
static inline bool mem_page_full(const MemPage *pg)
{
	return (pg->init[0] & pg->init[1] & pg->init[2] & pg->init[3]) == ~0ull;
}

/* The page of key when the page cache holds it, every cell of it is
** initialised and no page holds a value beyond int64: a cell of it is read
** and written with no bit to look at (the scattered accesses of data.c).
** NULL otherwise. */
static inline MemPage *mem_dense(const Mem *mem, int64_t key)
{
	if (!mem->cache || mem->nbig)
		return NULL;
	MemCacheSlot *c = &mem->cache[(uint64_t)key & (MEM_CACHE - 1)];
	if (c->key != key || !c->pg)
		return NULL;
	if (!c->full) {
		if (!mem_page_full(c->pg))
			return NULL;
		c->full = true;
	}
	return c->pg;
}

/* Whether cell off of page pg (of mem) holds a value beyond int64. */
static inline bool mem_big_at(const Mem *mem, const MemPage *pg, int32_t off)
{
	return mem->nbig && pg->big && pg->big[off];
}

/* The page holding cells key << MEM_PAGE_BITS ..., or NULL. */
static inline MemPage *mem_find(const Mem *mem, int64_t key)
{
	MemPage *pg = mem_cached(mem, key);
	return pg ? pg : mem_find_table(mem, key);
}

/* mem_find, telling in *dense whether the page is mem_dense's. */
static inline MemPage *mem_find_dense(const Mem *mem, int64_t key, bool *dense)
{
	MemPage *pg = mem_dense(mem, key);
	*dense = pg != NULL;
	return pg ? pg : mem_find(mem, key);
}

/* The page holding cells key << MEM_PAGE_BITS ..., created when absent
** (its cost added to *mem_bytes). */
static inline MemPage *mem_page(Mem *mem, int64_t key, uint64_t *mem_bytes)
{
	MemPage *pg = mem_cached(mem, key);
	return pg ? pg : mem_page_table(mem, key, mem_bytes);
}
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
