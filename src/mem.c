/*
** mem.c — memory Σ and local memory (mem.h): pages, their hash table,
** ordered walks, copies.
*/
#include "mem.h"

#include <stdlib.h>
#include <string.h>

/* The page cache's slot for key (Mem.cache), or NULL without a cache. The
** slots are the table's, not the const Mem's contents: lookups fill them. */
static inline MemCacheSlot *cache_slot(const Mem *mem, int64_t key)
{
	return mem->cache ? &mem->cache[(uint64_t)key & (MEM_CACHE - 1)] : NULL;
}

static void cache_fill(MemCacheSlot *c, MemPage *pg)
{
	if (c)
		*c = (MemCacheSlot){pg->key, pg, mem_page_full(pg)};
}

/* A page, zeroed, on a 64-byte boundary (MemPage). */
static MemPage *page_alloc(void)
{
	MemPage *pg = xaligned(_Alignof(MemPage), sizeof *pg);
	memset(pg, 0, sizeof *pg);
	return pg;
}

/* mem_find past the page cache: the page looked up last, then the table. */
MemPage *mem_find_table(const Mem *mem, int64_t key)
{
	if (!mem->nslots)
		return NULL;
	/* runs of addresses stay on a page: the page looked up last first */
	if (mem->last >= 0 && mem->last < mem->npages && mem->pages[mem->last]->key == key)
		return mem->pages[mem->last];
	MemCacheSlot *c = cache_slot(mem, key);
	uint32_t mask = (uint32_t)mem->nslots - 1;
	for (uint32_t h = mem_hash(key) & mask;; h = (h + 1) & mask) {
		int32_t s = mem->slots[h];
		if (s < 0)
			return NULL;
		if (mem->pages[s]->key == key) {
			cache_fill(c, mem->pages[s]);
			return mem->pages[s];
		}
	}
}

static void mem_rehash(Mem *mem, int32_t nslots)
{
	free(mem->slots);
	mem->nslots = nslots;
	mem->slots = xmalloc((size_t)nslots * sizeof *mem->slots);
	for (int32_t i = 0; i < nslots; i++)
		mem->slots[i] = -1;
	uint32_t mask = (uint32_t)nslots - 1;
	for (int32_t p = 0; p < mem->npages; p++) {
		uint32_t h = mem_hash(mem->pages[p]->key) & mask;
		while (mem->slots[h] >= 0)
			h = (h + 1) & mask;
		mem->slots[h] = p;
	}
}


/* mem_page past the page cache (mem.h). */
MemPage *mem_page_table(Mem *mem, int64_t key, uint64_t *mem_bytes)
{
	if (mem->last >= 0 && mem->last < mem->npages && mem->pages[mem->last]->key == key)
		return mem->pages[mem->last];
	MemCacheSlot *c = cache_slot(mem, key);
	if (mem->nslots) {
		uint32_t mask = (uint32_t)mem->nslots - 1;
		for (uint32_t h = mem_hash(key) & mask; mem->slots[h] >= 0; h = (h + 1) & mask)
			if (mem->pages[mem->slots[h]]->key == key) {
				mem->last = mem->slots[h];
				cache_fill(c, mem->pages[mem->last]);
				return mem->pages[mem->last];
			}
	}
	*mem_bytes += PAGE_BYTES;
	MemPage *pg = page_alloc();
	pg->key = key;
	VEC_PUSH(mem->pages, mem->npages, mem->cappages, pg);
	if (!mem->cache && mem->npages >= MEM_CACHE_AT) {
		mem->cache = xmalloc(MEM_CACHE * sizeof *mem->cache);
		for (int32_t i = 0; i < MEM_CACHE; i++)
			mem->cache[i] = (MemCacheSlot){-1, NULL, false};
		*mem_bytes += MEM_CACHE_BYTES;
	}
	cache_fill(cache_slot(mem, key), pg);
	if (2 * mem->npages > mem->nslots)
		mem_rehash(mem, mem->nslots ? 2 * mem->nslots : 16);
	else {
		uint32_t mask = (uint32_t)mem->nslots - 1;
		uint32_t h = mem_hash(key) & mask;
		while (mem->slots[h] >= 0)
			h = (h + 1) & mask;
		mem->slots[h] = mem->npages - 1;
	}
	mem->last = mem->npages - 1;
	return pg;
}

bool mem_get(const Mem *mem, int64_t addr, Num *out)
{
	const MemPage *pg = mem_find(mem, addr >> MEM_PAGE_BITS);
	int32_t off = (int32_t)(addr & (MEM_PAGE_SIZE - 1));
	if (!pg || !bit_get(pg->init, off)) {
		*out = NUM_I(0);
		return false;
	}
	*out = (Num){pg->val[off], pg->big ? pg->big[off] : NULL};
	return true;
}

/* Store an owned value; returns true if the cell was not initialised before.
** *big_bytes follows the heap size of the values beyond int64, *mem_bytes
** that of the pages. */
bool mem_put(Mem *mem, int64_t addr, Num v, uint64_t *big_bytes, uint64_t *mem_bytes)
{
	MemPage *pg = mem_page(mem, addr >> MEM_PAGE_BITS, mem_bytes);
	int32_t off = (int32_t)(addr & (MEM_PAGE_SIZE - 1));
	bool fresh = !bit_get(pg->init, off);
	bit_set(pg->init, off);
	if (pg->big)
		drop_big(&pg->big[off], big_bytes);
	if (v.z) {
		if (!pg->big) {
			*mem_bytes += PAGE_BIG_BYTES;
			pg->big = xcalloc(MEM_PAGE_SIZE, sizeof *pg->big);
			mem->nbig++;
		}
		*big_bytes += zbytes(v.z);
		pg->big[off] = v.z;
		pg->val[off] = 0;
	} else {
		pg->val[off] = v.i;
	}
	return fresh;
}

static int page_cmp(const void *a, const void *b)
{
	const MemPage *x = *(MemPage *const *)a, *y = *(MemPage *const *)b;
	return (x->key > y->key) - (x->key < y->key);
}

static void visit_page(const MemPage *pg, MemVisit visit, void *ctx)
{
	BitIter it = bits_iter(pg->init, MEM_PAGE_SIZE / 64);
	for (int32_t off; (off = bits_iter_next(&it)) >= 0;)
		visit(ctx, pg->key * MEM_PAGE_SIZE + off, (Num){pg->val[off], pg->big ? pg->big[off] : NULL});
}

void mem_each(const Mem *mem, MemVisit visit, void *ctx)
{
	if (mem->npages == 0)
		return;
	if (mem->npages == 1) { /* the common case of small kernels (the explorer packs states) */
		visit_page(mem->pages[0], visit, ctx);
		return;
	}
	MemPage **sorted = xmalloc((size_t)mem->npages * sizeof *sorted);
	memcpy(sorted, mem->pages, (size_t)mem->npages * sizeof *sorted);
	qsort(sorted, (size_t)mem->npages, sizeof *sorted, page_cmp);
	for (int32_t p = 0; p < mem->npages; p++)
		visit_page(sorted[p], visit, ctx);
	free(sorted);
}

void mem_free(Mem *mem)
{
	for (int32_t p = 0; p < mem->npages; p++) {
		MemPage *pg = mem->pages[p];
		if (pg->big) {
			for (int32_t i = 0; i < MEM_PAGE_SIZE; i++)
				if (pg->big[i]) {
					mpz_clear(pg->big[i]);
					free(pg->big[i]);
				}
			free(pg->big);
		}
		free(pg);
	}
	free(mem->pages);
	free(mem->slots);
	free(mem->cache);
	memset(mem, 0, sizeof *mem);
	mem->last = -1;
}

void mem_clear(Mem *mem, uint64_t *big_bytes, uint64_t *mem_bytes)
{
	for (int32_t p = 0; p < mem->npages; p++) {
		MemPage *pg = mem->pages[p];
		*mem_bytes -= PAGE_BYTES;
		if (pg->big) {
			*mem_bytes -= PAGE_BIG_BYTES;
			for (int32_t i = 0; i < MEM_PAGE_SIZE; i++)
				drop_big(&pg->big[i], big_bytes);
		}
	}
	if (mem->cache)
		*mem_bytes -= MEM_CACHE_BYTES;
	mem_free(mem);
}

void mem_clone(Mem *dst, const Mem *src)
{
	memset(dst, 0, sizeof *dst);
	dst->last = -1;
	for (int32_t p = 0; p < src->npages; p++) {
		const MemPage *sp = src->pages[p];
		MemPage *pg = xaligned(_Alignof(MemPage), sizeof *pg);
		memcpy(pg, sp, sizeof *pg);
		if (sp->big) {
			pg->big = xcalloc(MEM_PAGE_SIZE, sizeof *pg->big);
			for (int32_t i = 0; i < MEM_PAGE_SIZE; i++)
				if (sp->big[i]) {
					Num c = num_copy((Num){0, sp->big[i]});
					pg->big[i] = c.z;
				}
		}
		VEC_PUSH(dst->pages, dst->npages, dst->cappages, pg);
	}
	dst->nbig = src->nbig;
	if (src->nslots)
		mem_rehash(dst, src->nslots);
}
