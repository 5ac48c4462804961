/*
** test_state.c — the state as data (state.c): packing is canonical and
** unpacking is its inverse. Along runs of every example under every model,
** each state packed, unpacked into another machine and packed again gives
** the same bytes, and both machines then step to the same state.
*/
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "testlib.h"

static char *read_example(const char *path)
{
	size_t len;
	char *src = read_file(path, &len);
	cr_assert_not_null(src, "cannot read %s", path);
	return src;
}

static void same_bytes(const Buf *a, const Buf *b, const char *what, uint64_t step)
{
	cr_assert(a->len == b->len && memcmp(a->s, b->s, a->len) == 0, "%s: step %llu: %zu bytes vs %zu", what,
	          (unsigned long long)step, a->len, b->len);
}

Test(state, unpack_inverts_pack_along_every_example_under_every_model)
{
	int nf;
	char **files = example_files(&nf);
	int checked = 0;
	for (int f = 0; f < nf; f++) {
		char *src = read_example(files[f]);
		Prog r = load(src);
		free(src);
		for (int k = 0; models[k]; k++) {
			SemOptions o = {0};
			o.model = models[k];
			o.max_steps = 400;
			Diags d;
			diag_init(&d, "t", NULL, 0);
			Machine *m = sem_new(r.p, &o, &d), *u = sem_new(r.p, &o, &d);
			diag_free(&d);
			cr_assert(m && u);
			Buf a = {0}, b = {0};
			for (uint64_t step = 0; m->status == SEM_RUNNING && step < 400; step++) {
				int32_t w = sem_pick(m);
				if (w < 0)
					break;
				buf_reset(&a);
				buf_reset(&b);
				sem_pack(m, &a);
				cr_assert(sem_unpack(u, a.s, a.len), "%s under %s: step %llu does not unpack", files[f],
				          models[k]->name, (unsigned long long)step);
				sem_pack(u, &b);
				same_bytes(&a, &b, files[f], step);
				sem_step(m, w, NULL);
				sem_advance(m, w);
				sem_step(u, w, NULL);
				buf_reset(&a);
				buf_reset(&b);
				sem_pack(m, &a);
				sem_pack(u, &b);
				same_bytes(&a, &b, files[f], step + 1);
				checked++;
			}
			buf_free(&a);
			buf_free(&b);
			sem_free(m);
			sem_free(u);
		}
		unload(&r);
	}
	free_names(files, nf);
	cr_expect_gt(checked, 1000, "only %d states checked", checked);
}

Test(state, truncated_or_padded_bytes_do_not_unpack)
{
	Prog r = load(".data 0: 5\nx = tid\nmem[tid] = x\nstop\n");
	SemOptions o = {0};
	Diags d;
	diag_init(&d, "t", NULL, 0);
	Machine *m = sem_new(r.p, &o, &d), *u = sem_new(r.p, &o, &d);
	diag_free(&d);
	sem_step(m, 0, NULL);
	sem_step(m, 0, NULL);
	Buf a = {0};
	sem_pack(m, &a);
	cr_expect_not(sem_unpack(u, a.s, a.len - 1), "one byte short");
	buf_putc(&a, 0);
	cr_expect_not(sem_unpack(u, a.s, a.len), "one byte too many");
	buf_free(&a);
	sem_free(m);
	sem_free(u);
	unload(&r);
}

/* The conformance of every model (models[]): a step that gets stuck changes
** nothing but the status, and a clone packs as its original. */
Test(state, a_stuck_step_changes_nothing_and_clones_pack_alike_under_every_model)
{
	int nf;
	char **files = example_files(&nf);
	int stuck = 0;
	for (int f = 0; f < nf; f++) {
		char *src = read_example(files[f]);
		Prog r = load(src);
		free(src);
		for (int k = 0; models[k]; k++) {
			SemOptions o = {0};
			o.model = models[k];
			o.max_steps = 2000;
			Diags d;
			diag_init(&d, "t", NULL, 0);
			Machine *m = sem_new(r.p, &o, &d);
			diag_free(&d);
			cr_assert_not_null(m);
			Buf before = {0}, after = {0};
			while (m->status == SEM_RUNNING) {
				int32_t w = sem_pick(m);
				if (w < 0)
					break;
				buf_reset(&before);
				sem_pack(m, &before);
				if (m->steps % 50 == 0) { /* clones, now and then */
					Machine *c = sem_clone(m);
					buf_reset(&after);
					sem_pack(c, &after);
					same_bytes(&before, &after, files[f], m->steps);
					sem_free(c);
				}
				uint64_t n = m->steps;
				sem_step(m, w, NULL);
				sem_advance(m, w);
				if (m->steps == n && m->status != SEM_RUNNING && m->status != SEM_LIMIT) {
					/* stuck: the state is the one before, but for its status */
					SemStatus st = m->status;
					m->status = SEM_RUNNING;
					buf_reset(&after);
					sem_pack(m, &after);
					m->status = st;
					same_bytes(&before, &after, files[f], n);
					stuck++;
				}
			}
			buf_free(&before);
			buf_free(&after);
			sem_free(m);
		}
		unload(&r);
	}
	free_names(files, nf);
	cr_expect_geq(stuck, 5, "only %d stuck steps seen", stuck);
}
