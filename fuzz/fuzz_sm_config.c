/*
** fuzz_sm_config.c — libFuzzer target for the SM model's configuration
** reader (src/sm/config.c, fuzz/README.md).
**
** The input is a gpgpusim.config text (not NUL-terminated, so ASan sees a
** read past its end). It is read over the default configuration and the
** diagnostics are rendered. When it reads cleanly, the configuration is
** printed and the printed text must read back, without errors and without
** ignored options, to the very same configuration, and print the same.
** The input, cut at its first NUL, is also given to sm_config_set as one
** --set argument. A crash, a sanitizer report or an abort is a bug.
**
** Built into the libFuzzer binary fuzz_sm_config (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm.h"

static bool read_render(SmConfig *c, const char *path, const char *src, size_t len, Buf *ignored)
{
	Diags d;
	diag_init(&d, path, src, len);
	d.max_errors = 100;
	bool ok = sm_config_read(c, path, src, len, ignored, &d);
	if (ok != (d.nerrors == 0))
		abort();
	Buf r = {0};
	diag_render(&d, &r);
	buf_free(&r);
	diag_free(&d);
	return ok;
}

MU_NORETURN static void fail(const char *why, const uint8_t *data, size_t size, const Buf *text)
{
	fprintf(stderr, "fuzz_sm_config: %s\n---- input ----\n%.*s\n---- printed ----\n%s", why, (int)size,
	        (const char *)data, buf_str(text));
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	SmConfig c, r;
	Buf ignored = {0};
	sm_config_default(&c);
	if (read_render(&c, "fuzz.config", (const char *)data, size, &ignored)) {
		Buf text = {0}, again = {0}, ign2 = {0};
		sm_config_print(&c, &text);
		memset(&r, 0, sizeof r);
		if (!read_render(&r, "printed.config", buf_str(&text), text.len, &ign2) || ign2.len)
			fail("the printed configuration does not read back", data, size, &text);
		sm_config_print(&r, &again);
		if (memcmp(&c, &r, sizeof c) || strcmp(buf_str(&text), buf_str(&again)))
			fail("the printed configuration reads back to another one", data, size, &text);
		buf_free(&text);
		buf_free(&again);
		buf_free(&ign2);
	}
	/* the same text as one --set argument */
	char *arg = xstrndup((const char *)data, size);
	Diags d;
	diag_init(&d, "--set", arg, strlen(arg));
	SmConfig before = c;
	if (!sm_config_set(&c, arg, &ignored, &d) && memcmp(&before, &c, sizeof c))
		abort(); /* a refused --set changes nothing */
	Buf out = {0};
	diag_render_options(&d, "musimd sm", &out);
	buf_free(&out);
	diag_free(&d);
	free(arg);
	buf_free(&ignored);
	return 0;
}
