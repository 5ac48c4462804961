/*
** sweep.c — `musimd sm --sweep`: the same program on configurations that
** differ in one or two options (a GPGPU-Sim option, or the program's
** threads), a table of the results and an SVG plot of one measure against
** the first option, a line per value of the second.
*/
#include "sm.h"

#include <stdlib.h>
#include <string.h>

const char *const sm_sweep_metrics[] = {"warp_ipc", "gpu_ipc", "cycles", "simd_efficiency", NULL};

static double metric(const SmSweepRow *r, int m)
{
	switch (m) {
	case 0: return r->cycles ? (double)r->warp_insn / (double)r->cycles : 0;
	case 1: return r->cycles ? (double)r->thread_insn / (double)r->cycles : 0;
	case 2: return (double)r->cycles;
	default: return r->simd_efficiency;
	}
}

bool sm_sweep(const SmCode *code, const SmConfig *base, const SemOptions *so, const SmSweepAxis *ax, int nax,
              SmSweepRow **out, int *nout, Diags *d)
{
	int n1 = ax[0].n, n2 = nax > 1 ? ax[1].n : 1;
	SmSweepRow *rows = xcalloc((size_t)n1 * (size_t)n2 + 1, sizeof *rows);
	int k = 0;
	for (int j = 0; j < n2; j++)
		for (int i = 0; i < n1; i++, k++) {
			SmConfig c = *base;
			SemOptions o = *so;
			const char *v[2] = {ax[0].values[i], nax > 1 ? ax[1].values[j] : NULL};
			for (int a = 0; a < nax; a++) {
				if (!strcmp(ax[a].name, "threads")) {
					o.threads = (int32_t)strtol(v[a], NULL, 10);
					continue;
				}
				Buf set = {0};
				buf_printf(&set, "%s=%s", ax[a].name, v[a]);
				Buf ignored = {0};
				Diags d2;
				diag_init(&d2, "--sweep", buf_str(&set), set.len);
				bool ok = sm_config_set(&c, buf_str(&set), &ignored, &d2);
				if (!ok)
					diag_error(d, LOC_NONE, "--sweep %s=%s: %s", ax[a].name, v[a],
					           d2.n ? d2.v[0].msg : "not a valid setting");
				diag_free(&d2);
				buf_free(&ignored);
				buf_free(&set);
				if (!ok) {
					free(rows);
					return false;
				}
			}
			SmResult *r = sm_run(code, &c, &o, d);
			if (!r) {
				free(rows);
				return false;
			}
			rows[k] = (SmSweepRow){v[0], v[1], r->status, r->cycles, r->warp_insn, r->thread_insn,
			                       r->warp_insn ? (double)r->thread_insn /
			                                          ((double)r->warp_insn * (double)r->warpsize)
			                                    : 0};
			sm_result_free(r);
		}
	*out = rows;
	*nout = k;
	return true;
}

void sm_sweep_table(Buf *b, const SmSweepAxis *ax, int nax, const SmSweepRow *rows, int n)
{
	buf_printf(b, "| %s |", ax[0].name);
	if (nax > 1)
		buf_printf(b, " %s |", ax[1].name);
	buf_puts(b, " status | gpu_sim_cycle | warp_insn | gpu_sim_insn | warp_ipc | gpu_ipc | simd_efficiency |\n|---|");
	if (nax > 1)
		buf_puts(b, "---|");
	buf_puts(b, "---|---:|---:|---:|---:|---:|---:|\n");
	for (int i = 0; i < n; i++) {
		const SmSweepRow *r = &rows[i];
		buf_printf(b, "| %s |", r->v1);
		if (nax > 1)
			buf_printf(b, " %s |", r->v2);
		buf_printf(b, " %s | %llu | %llu | %llu | %.4f | %.4f | %.4f |\n", sm_status_name(r->status),
		           (unsigned long long)r->cycles, (unsigned long long)r->warp_insn,
		           (unsigned long long)r->thread_insn, metric(r, 0), metric(r, 1), r->simd_efficiency);
	}
}

void sm_sweep_svg(Buf *b, const SmSweepAxis *ax, int nax, const SmSweepRow *rows, int n, int m)
{
	const int W = 640, H = 400, L = 70, R = 150, T = 30, B = 50;
	int n1 = ax[0].n, n2 = nax > 1 ? ax[1].n : 1;
	double top = 0;
	for (int i = 0; i < n; i++)
		if (metric(&rows[i], m) > top)
			top = metric(&rows[i], m);
	if (top <= 0)
		top = 1;
	static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"};
	buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
	           "font-size=\"12\">\n", W, H);
	buf_printf(b, "<text x=\"%d\" y=\"18\">%s against ", L, sm_sweep_metrics[m]);
	buf_put_xml(b, ax[0].name);
	buf_puts(b, "</text>\n");
	buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
	buf_printf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, H - B);
	for (int t = 0; t <= 4; t++) {
		double y = H - B - (H - B - T) * t / 4.0;
		buf_printf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", L - 6, y + 4, top * t / 4.0);
	}
	for (int i = 0; i < n1; i++) {
		double x = n1 > 1 ? L + (double)(W - L - R) * i / (n1 - 1) : L + (W - L - R) / 2.0;
		buf_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, H - B + 18);
		buf_put_xml(b, ax[0].values[i]);
		buf_puts(b, "</text>\n");
	}
	for (int j = 0; j < n2; j++) {
		const char *col = colours[j % 6];
		buf_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
		for (int i = 0; i < n1; i++) {
			double x = n1 > 1 ? L + (double)(W - L - R) * i / (n1 - 1) : L + (W - L - R) / 2.0;
			double y = H - B - (H - B - T) * metric(&rows[j * n1 + i], m) / top;
			buf_printf(b, "%s%.1f,%.1f", i ? " " : "", x, y);
		}
		buf_puts(b, "\"/>\n");
		if (nax > 1) {
			buf_printf(b, "<text x=\"%d\" y=\"%d\" fill=\"%s\">", W - R + 10, T + 16 * (j + 1), col);
			buf_put_xml(b, ax[1].name);
			buf_puts(b, " = ");
			buf_put_xml(b, ax[1].values[j]);
			buf_puts(b, "</text>\n");
		}
	}
	buf_puts(b, "</svg>\n");
}
