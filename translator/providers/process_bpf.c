/*
 * process_bpf.c -- --runtime=bpf for process("PATH").function("NAME")
 * [.return] and process("PATH").mark("NAME"): a uprobe (uretprobe) BPF
 * program the user program attaches at the file offset pass 2 resolved
 * (process.c, from the ELF symbol table or the SDT notes), and the
 * context variables a BPF handler can read from the registers: $return,
 * and the .mark operands held in registers or given as constants.
 * Must not: resolve anything itself (process.c did), or read user memory
 * without a fault check (memory operands are refused instead).
 */
#include <string.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/sdt.h"
#include "translator/providers/process.h"
#include "translator/sema/sema.h"

enum bpf_place
process_bpf_place(const struct derived_probe *dp, struct arena *a,
		  struct bpf_attach *att)
{
	const struct pdata_uprobe *pd = process_uprobe_of(dp);

	/* the process life-cycle events and .plt stubs ($$name) have no
	 * BPF program (yet) */
	if (!pd || pd->plt || !pd->path)
		return BPF_PLACE_NONE;
	att->section = pd->is_return ? "uretprobe" : "uprobe";
	att->ctx_type = "struct pt_regs___tap";
	att->guard = NULL;
	att->uprobe_path = pd->path;
	att->uprobe_offset = pd->offset;
	att->uprobe_ref_ctr_offset = pd->ref_ctr_offset;
	att->uprobe_pid = pd->pid;
	att->uprobe_return = pd->is_return;
	att->what = arena_printf(a, "%s %s+0x%llx", pd->is_return ? "uretprobe" : "uprobe",
				 pd->path, (unsigned long long)pd->offset);
	return BPF_PLACE_KERNEL;
}

/* A register operand narrowed to its size and signedness, as the
 * module's sdt_arg_expr does. */
static const char *
register_operand(struct arena *a, const struct sdt_arg *arg)
{
	static const char *const known[] = {
		"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "r8", "r9",
		"r10", "r11", "r12", "r13", "r14", "r15",
	};
	const char *ctype;
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(arg->reg, known[i]) == 0)
			break;
	if (i == sizeof(known) / sizeof(known[0]))
		return NULL;
	switch (arg->size) {
	case 1: ctype = arg->is_signed ? "int8_t" : "uint8_t"; break;
	case 2: ctype = arg->is_signed ? "int16_t" : "uint16_t"; break;
	case 4: ctype = arg->is_signed ? "int32_t" : "uint32_t"; break;
	default: ctype = "int64_t"; break;
	}
	return arena_printf(a, "((int64_t)(%s)ctx->%s)", ctype, arg->reg);
}

const char *
process_bpf_target_expr(struct arena *a, const struct derived_probe *dp,
			const struct context_var *cv)
{
	const struct pdata_uprobe *pd = process_uprobe_of(dp);

	if (!pd || cv->type != TY_LONG || cv->access)
		return NULL;
	if (cv->arg_index == UPROBE_ARG_RETURN)
		return "((int64_t)ctx->ax)";
	if (!pd->mark || cv->arg_index < 0 || cv->arg_index >= pd->nargs)
		return NULL;	/* DWARF variables: refused by the caller */
	switch (pd->args[cv->arg_index].kind) {
	case SDT_ARG_IMM:
		return arena_printf(a, "((int64_t)%lldLL)",
				    (long long)pd->args[cv->arg_index].value);
	case SDT_ARG_REG:
		return register_operand(a, &pd->args[cv->arg_index]);
	default:
		return NULL;	/* a memory operand: refused by the caller */
	}
}
