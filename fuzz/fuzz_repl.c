/*
** fuzz_repl.c — libFuzzer target for the REPL's command input
** (fuzz/README.md).
**
** The input is a μ-SIMD program, a line "%%", then REPL commands, one a
** line (musimd-repl(1)). Without "%%" the whole input is the program and a
** fixed script of commands runs on it (so the regression inputs, which are
** programs, exercise every command). The session is confined
** (ReplLimits): at most 3000 steps, 16 threads, 64 MiB of state, no files
** read, 4096-bit integers. Every command must end: the libFuzzer timeout
** (-timeout=10) is part of the check. A crash, a sanitizer report, a
** timeout or a memory blow-up is a bug; commands that fail with a message
** are normal.
**
** Built into the libFuzzer binary fuzz_repl (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdlib.h>
#include <string.h>

#include "repl.h"
#include "num.h"

/* What runs on a program given without commands: every command once,
** the stepping ones several ways. */
static const char script[] =
	"step\n"
	"\n"
	"st 3\n"
	"next\n"
	"next 4\n"
	"info stack\n"
	"info threads\n"
	"info warps\n"
	"info rules\n"
	"info program\n"
	"print tid laneid mem[0..15]\n"
	"list\n"
	"grid\n"
	"back 2\n"
	"goto 7\n"
	"watch mem[0]\n"
	"continue\n"
	"back\n"
	"info breakpoints\n"
	"delete\n"
	"break 1\n"
	"run\n"
	"analyze\n"
	"analyze simple\n"
	"model ipdom\n"
	"continue\n"
	"grid 5\n"
	"model mimd\n"
	"set lane-order random\n"
	"continue\n"
	"back 1000\n"
	"warp 0\n"
	"step 2\n"
	"warp auto\n"
	"set bz-polarity rules\n"
	"set strict-push on\n"
	"run\n"
	"threads 3\n"
	"warpsize 2\n"
	"data 0=1,2,3\n"
	"continue\n"
	"goto 0\n"
	"quit\n";

static const ReplLimits limits = {
	.max_steps = 3000,
	.max_memory = (uint64_t)64 << 20,
	.max_threads = 16,
	.no_files = true,
};

/* The commands of text[0..len), one a line (not NUL-terminated). */
static void run_commands(Repl *r, const char *text, size_t len, Buf *out)
{
	Buf line = {0};
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		buf_reset(&line);
		buf_putn(&line, text + i, n);
		bool more = repl_exec(r, buf_str(&line));
		repl_take_output(r, out);
		buf_reset(out); /* formatted, then dropped */
		if (!more)
			break;
		i += n + 1;
	}
	buf_free(&line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t saved_bits = num_max_bits;
	num_max_bits = 4096;

	const char *text = (const char *)data;
	size_t plen = size;
	const char *cmds = script;
	size_t clen = sizeof script - 1;
	/* "%%" on a line of its own ends the program */
	for (size_t i = 0; i + 2 <= size; i++)
		if ((i == 0 || text[i - 1] == '\n') && text[i] == '%' && text[i + 1] == '%' &&
		    (i + 2 == size || text[i + 2] == '\n')) {
			plen = i;
			cmds = text + i + 2;
			clen = size - i - 2;
			break;
		}
	Repl *r = repl_new(&limits);
	Buf out = {0};
	bool loaded = repl_load_source(r, "fuzz.simd", text, plen);
	repl_take_output(r, &out);
	(void)loaded; /* without a program the commands say so: that is exercised too */
	run_commands(r, cmds, clen, &out);
	buf_free(&out);
	repl_free(r);

	num_max_bits = saved_bits;
	return 0;
}
