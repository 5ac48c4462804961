/*
** replay.c — run the fuzz harnesses on files, without libFuzzer: the
** regression test fuzz-regress (meson test) and a debugging aid.
**
**     fuzz-replay FILE|DIR...
**
** Every file given, and every regular file in a directory given (not
** recursive, in name order), is fed to every harness function
** (fuzz_parse.c, fuzz_run.c, fuzz_repl.c, fuzz_gsa.c, fuzz_explore.c,
** fuzz_sm_config.c, compiled with their entry points renamed).
** A harness that finds a bug aborts, so a failing input stops the run
** with the signal; build with -Db_sanitize=address,undefined to also get
** sanitizer reports.
*/
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

int fuzz_parse_one(const uint8_t *data, size_t size);
int fuzz_run_one(const uint8_t *data, size_t size);
int fuzz_repl_one(const uint8_t *data, size_t size);
int fuzz_gsa_one(const uint8_t *data, size_t size);
int fuzz_explore_one(const uint8_t *data, size_t size);
int fuzz_sm_config_one(const uint8_t *data, size_t size);
int fuzz_llvm_one(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	size_t len = 0;
	char *src = read_file(path, &len);
	if (!src) {
		fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	/* an exact-size copy, so that ASan sees reads past the end */
	uint8_t *data = xmalloc(len ? len : 1);
	memcpy(data, src, len);
	free(src);
	fprintf(stderr, "fuzz-replay: %s (%zu bytes)\n", path, len);
	fuzz_parse_one(data, len);
	fuzz_run_one(data, len);
	fuzz_repl_one(data, len);
	fuzz_gsa_one(data, len);
	fuzz_llvm_one(data, len);
	fuzz_explore_one(data, len);
	fuzz_sm_config_one(data, len);
	free(data);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, int *nfiles)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "fuzz-replay: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char **names = NULL;
	int n = 0, cap = 0, bad = 0;
	for (struct dirent *e; (e = readdir(dp));) {
		if (e->d_name[0] == '.')
			continue;
		VEC_PUSH(names, n, cap, xstrdup(e->d_name));
	}
	closedir(dp);
	if (n > 1)
		qsort(names, (size_t)n, sizeof *names, cmp_str);
	for (int i = 0; i < n; i++) {
		Buf path = {0};
		buf_printf(&path, "%s/%s", dir, names[i]);
		struct stat st;
		if (stat(buf_str(&path), &st) == 0 && S_ISREG(st.st_mode)) {
			bad |= replay_file(buf_str(&path));
			++*nfiles;
		}
		buf_free(&path);
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fuzz-replay FILE|DIR...\n");
		return 2;
	}
	int bad = 0, nfiles = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			bad |= replay_dir(argv[i], &nfiles);
		} else {
			bad |= replay_file(argv[i]);
			nfiles++;
		}
	}
	fprintf(stderr, "fuzz-replay: %d file%s replayed%s\n", nfiles, nfiles == 1 ? "" : "s",
	        bad ? ", some could not be read" : "");
	return bad;
}
