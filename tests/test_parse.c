#include <criterion/criterion.h>
#include "ir.h"
Test(parse, smoke) { cr_assert(1); }
