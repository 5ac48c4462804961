/*
** args.c — parameter values and initial memory typed by the user (args.h).
*/
#include "args.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char msg[200];

const char *args_param(SemArgs *a, const char *what, const char *arg)
{
	const char *eq = strchr(arg, '=');
	Num v;
	if (!eq || eq == arg || !num_parse(eq + 1, strlen(eq + 1), &v)) {
		snprintf(msg, sizeof msg, "%s needs NAME=INT, not '%.100s'", what, arg);
		return msg;
	}
	size_t len = (size_t)(eq - arg);
	for (int32_t i = 0; i < a->nparams; i++)
		if (strlen(a->params[i].name) == len && !strncmp(a->params[i].name, arg, len)) {
			num_free(&a->params[i].value);
			a->params[i].value = v;
			return NULL;
		}
	ParamSetting ps = {xstrndup(arg, len), v};
	VEC_PUSH(a->params, a->nparams, a->capparams, ps);
	return NULL;
}

const char *args_data(SemArgs *a, const char *what, const char *arg)
{
	const char *eq = strchr(arg, '=');
	long long addr;
	size_t len = eq ? (size_t)(eq - arg) : 0;
	char *addr_text = xstrndup(arg, len);
	bool ok = eq && str_to_ll(addr_text, 0, LLONG_MAX, &addr);
	/* a natural too large for int64 gets its own message */
	bool digits = len > 0 && strspn(addr_text, "0123456789") == len;
	free(addr_text);
	if (!ok) {
		if (eq && digits)
			snprintf(msg, sizeof msg, "%s: address %.*s is beyond the largest address, %lld", what,
			         (int)(len < 60 ? len : 60), arg, LLONG_MAX);
		else
			snprintf(msg, sizeof msg, "%s needs ADDR=INT[,INT...], not '%.100s'", what, arg);
		return msg;
	}
	int32_t first = a->ndata;
	for (const char *s = eq + 1;; addr++) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		Num v;
		if (!num_parse(s, n, &v)) {
			snprintf(msg, sizeof msg, "%s: '%.*s' is not an integer", what, (int)(n < 100 ? n : 100), s);
			goto undo;
		}
		MemInit mi = {addr, 1, v, LOC_NONE};
		VEC_PUSH(a->data, a->ndata, a->capdata, mi);
		if (!comma)
			return NULL;
		s = comma + 1;
		if (addr == LLONG_MAX) { /* addresses are naturals that fit int64 */
			snprintf(msg, sizeof msg, "%s: the cells from %lld on run past the largest address, %lld",
			         what, (long long)a->data[first].addr, LLONG_MAX);
			goto undo;
		}
	}
undo:
	while (a->ndata > first)
		num_free(&a->data[--a->ndata].value);
	return msg;
}

const char *args_degree(const char *what, const char *text, int32_t *degree)
{
	long long v;
	if (!str_to_ll(text, 0, ANA_MAX_DEGREE, &v)) {
		snprintf(msg, sizeof msg, "%s needs a number from 0 to %d, not '%.60s'", what, ANA_MAX_DEGREE, text);
		return msg;
	}
	*degree = (int32_t)v;
	return NULL;
}

const char *args_max_memory(const char *what, const char *text, uint64_t *bytes)
{
	long long v;
	if (!str_to_ll(text, 1, ARGS_MAX_MEMORY_MIB, &v)) {
		snprintf(msg, sizeof msg, "%s needs a number of MiB from 1 to %lld, not '%.60s'", what,
		         ARGS_MAX_MEMORY_MIB, text);
		return msg;
	}
	*bytes = (uint64_t)v << 20;
	return NULL;
}

const char *args_max_time(const char *what, const char *text, double *secs)
{
	if (!str_to_seconds(text, secs)) {
		snprintf(msg, sizeof msg, "%s needs a positive number of seconds (at most 1e9), not '%.60s'", what,
		         text ? text : "");
		return msg;
	}
	return NULL;
}

const char *args_max_work(const char *what, const char *text, uint64_t *n)
{
	long long v;
	if (!str_to_ll(text, 1, LLONG_MAX, &v)) {
		snprintf(msg, sizeof msg, "%s needs a positive number of thread instructions, not '%.60s'", what,
		         text ? text : "");
		return msg;
	}
	*n = (uint64_t)v;
	return NULL;
}

void args_aware_delay(SemArgs *a, const char *arg)
{
	if (!strcmp(arg, "off")) {
		free(a->aware_delay);
		a->aware_delay = NULL;
		return;
	}
	size_t old = a->aware_delay ? strlen(a->aware_delay) : 0, n = strlen(arg);
	a->aware_delay = xrealloc(a->aware_delay, old + n + 2);
	if (old)
		a->aware_delay[old++] = ',';
	memcpy(a->aware_delay + old, arg, n + 1);
}

const char *args_aware_timeout(const char *what, const char *text, int64_t *timeout)
{
	long long v;
	if (!strcmp(text, "any"))
		*timeout = SEM_TIMEOUT_ANY;
	else if (!strcmp(text, "off"))
		*timeout = 0;
	else if (str_to_ll(text, 1, ARGS_MAX_TIMEOUT, &v))
		*timeout = v;
	else {
		snprintf(msg, sizeof msg, "%s needs a number of steps from 1 to %lld, 'any' or 'off', not '%.60s'",
		         what, ARGS_MAX_TIMEOUT, text);
		return msg;
	}
	return NULL;
}

void args_drop_param(SemArgs *a, int32_t i)
{
	free((char *)a->params[i].name);
	num_free(&a->params[i].value);
	memmove(&a->params[i], &a->params[i + 1], (size_t)(a->nparams - i - 1) * sizeof *a->params);
	a->nparams--;
}

void args_clear_data(SemArgs *a)
{
	while (a->ndata > 0)
		num_free(&a->data[--a->ndata].value);
}

void args_lend(const SemArgs *a, SemOptions *o)
{
	o->params = a->params;
	o->nparams = a->nparams;
	o->data = a->data;
	o->ndata = a->ndata;
	o->aware_delay = a->aware_delay;
}

void args_free(SemArgs *a)
{
	while (a->nparams > 0)
		args_drop_param(a, a->nparams - 1);
	free(a->params);
	args_clear_data(a);
	free(a->data);
	free(a->aware_delay);
	*a = (SemArgs){0};
}
