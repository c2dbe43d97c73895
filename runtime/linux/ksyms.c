/*
 * ksyms.c -- the table of symbol addresses taprun hands the module (see
 * ksyms.h).  Takes: the __tap_ksyms module parameter, parsed once at init.
 * Produces: tap_ksym() lookups.  Must not: allocate after init.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "ksyms.h"

static char *__tap_ksyms = "";
module_param(__tap_ksyms, charp, 0);
MODULE_PARM_DESC(__tap_ksyms, "name:hexaddr,... from /proc/kallsyms (taprun)");

struct tap_ksym_entry {
	const char *name;	/* points into __tap_ksyms */
	unsigned long addr;
};

static struct tap_ksym_entry tap_ksym_table[TAP_MAX_KSYMS];
static unsigned int tap_ksym_count;

/* Split "a:ffff...,mod:b:ffff..." in place (a module's symbol is
 * "module:name": the address follows the last colon). */
int
tap_ksyms_init(void)
{
	char *p = __tap_ksyms, *entry, *colon;

	while (p && *p && tap_ksym_count < TAP_MAX_KSYMS) {
		entry = strsep(&p, ",");
		colon = strrchr(entry, ':');
		if (!colon)
			return -EINVAL;
		*colon = '\0';
		if (kstrtoul(colon + 1, 16, &tap_ksym_table[tap_ksym_count].addr))
			return -EINVAL;
		tap_ksym_table[tap_ksym_count++].name = entry;
	}
	return 0;
}

unsigned long
tap_ksym(const char *name)
{
	unsigned int i;

	for (i = 0; i < tap_ksym_count; i++)
		if (strcmp(tap_ksym_table[i].name, name) == 0)
			return tap_ksym_table[i].addr;
	return 0;
}
