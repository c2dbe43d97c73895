/*
 * ksyms.h -- addresses of kernel symbols a module needs but cannot look up
 * itself (kallsyms_lookup_name is not exported since Linux 5.7).
 *
 * Generated code names each symbol once at file scope with
 * TAP_NEED_KSYM(name); that becomes a "tap_ksym=name" .modinfo string, which
 * taprun reads, resolves in /proc/kallsyms and passes back as the module
 * parameter __tap_ksyms="name:hexaddr,...", an array with one element per
 * symbol (a single string parameter is cut at 1,024 bytes, about 25
 * symbols, by the kernel).  tap_ksym("name") then gives
 * the address (0 when unknown), from any context.  A module's symbol is
 * named "module:symbol" (MODULE_INFO(tap_ksym, "module:symbol")): taprun
 * takes it from the "[module]" entries of /proc/kallsyms.
 * Must not: be asked for a name not declared with TAP_NEED_KSYM.
 */
#ifndef TAP_LINUX_KSYMS_H
#define TAP_LINUX_KSYMS_H

#include <linux/module.h>
#include "tap_protocol.h"

#define TAP_NEED_KSYM(sym)	MODULE_INFO(tap_ksym, #sym)
/* TAP_MAX_KSYMS (how many one module may name) is in tap_protocol.h:
 * taprun checks it too. */

int tap_ksyms_init(void);
unsigned long tap_ksym(const char *name);
/* Whether any symbol asked for is a module's ("module:symbol"). */
bool tap_ksyms_have_module_syms(void);
/* MODULE_STATE_COMING (coming) / GOING of `mod`: place or forget the
 * addresses of its symbols.  Process context. */
void tap_ksyms_module_event(struct module *mod, bool coming);

#endif /* TAP_LINUX_KSYMS_H */
