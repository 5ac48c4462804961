/*
** xform.c — the table of transformations (xform.h).
*/
#include "xform.h"

#include <string.h>

const Xform *const xforms[] = {&xform_ssde, &xform_inline_calls, NULL};

const Xform *xform_find(const char *name)
{
	for (int i = 0; xforms[i]; i++)
		if (!strcmp(xforms[i]->name, name))
			return xforms[i];
	return NULL;
}
