/*
 * ksyms.c -- the table of symbol addresses taprun hands the module (see
 * ksyms.h).  Takes: the __tap_ksyms module parameter, parsed once at init.
 * Produces: tap_ksym() lookups; a module's symbols are (re)placed as the
 * module comes and goes (tap_ksyms_module_event, from the module
 * notifier in probes_kprobe.c).  Must not: allocate after init.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "ksyms.h"
#include "preempt_enable.h"

static char *__tap_ksyms[TAP_MAX_KSYMS];
static unsigned int __tap_nksyms;
module_param_array(__tap_ksyms, charp, &__tap_nksyms, 0);
MODULE_PARM_DESC(__tap_ksyms, "name:hexaddr,... from /proc/kallsyms (taprun)");

struct tap_ksym_entry {
	const char *name;	/* points into an element of __tap_ksyms */
	unsigned long addr;
};

static struct tap_ksym_entry tap_ksym_table[TAP_MAX_KSYMS];
static unsigned int tap_ksym_count;

/* Split each "a:ffff..." or "mod:b:ffff..." element in place (a module's
 * symbol is "module:name": the address follows the last colon). */
int
tap_ksyms_init(void)
{
	char *entry, *colon;
	unsigned int i;

	for (i = 0; i < __tap_nksyms; i++) {
		entry = __tap_ksyms[i];
		colon = entry ? strrchr(entry, ':') : NULL;
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
			return READ_ONCE(tap_ksym_table[i].addr);
	return 0;
}

bool
tap_ksyms_have_module_syms(void)
{
	unsigned int i;

	for (i = 0; i < tap_ksym_count; i++)
		if (strchr(tap_ksym_table[i].name, ':'))
			return true;
	return false;
}

/* Symbol `name` of a coming module, from its own symbol table (all of
 * it, init symbols too, until the module is live). */
static unsigned long
tap_ksyms_module_lookup(struct module *mod, const char *name)
{
#ifdef CONFIG_KALLSYMS
	struct mod_kallsyms *ks;
	unsigned long addr = 0;
	unsigned int i;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++)
		if (strcmp(ks->strtab + ks->symtab[i].st_name, name) == 0 &&
		    ks->symtab[i].st_shndx != SHN_UNDEF) {
			addr = kallsyms_symbol_value(&ks->symtab[i]);
			break;
		}
	tap_preempt_enable();
	return addr;
#else
	return 0;
#endif
}

/* A module's statics ("mod:sym") are placed when it comes (taprun found
 * no address while it was not loaded) and forgotten when it goes: a read
 * then faults at a small address and is a script error. */
void
tap_ksyms_module_event(struct module *mod, bool coming)
{
	size_t len = strlen(mod->name);
	unsigned int i;

	for (i = 0; i < tap_ksym_count; i++) {
		const char *name = tap_ksym_table[i].name;

		if (strncmp(name, mod->name, len) != 0 || name[len] != ':')
			continue;
		WRITE_ONCE(tap_ksym_table[i].addr,
			   coming ? tap_ksyms_module_lookup(mod, name + len + 1)
				  : 0);
	}
}
