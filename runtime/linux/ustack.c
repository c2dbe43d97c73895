/*
 * ustack.c -- user stack walk and user symbol lookup (see ustack.h).
 *
 * Registers: a uprobe handler has the task's user registers in c->regs
 * (tap_uprobe_current says where it stopped); a kernel probe reached from
 * user space walks task_pt_regs(current).
 *
 * Each frame is unwound by the CFI rule of its pc when the file mapped
 * there has a table (struct tap_ucfi: the mapping's inode matched to the
 * embedded files, the pc's file offset looked up by binary search), else
 * by frame pointers: at a function's first instruction the return address
 * is at [sp] and rbp is still the caller's, so that frame takes [sp];
 * later ones follow rbp.  CFI gives back the caller's rsp and rbp too, so
 * the two mix: a frame-pointer program calling into a libc without frame
 * pointers, and back.  The mmap lock is taken once per walk (trylock; a
 * busy lock means frame pointers only), and the last mapping is kept, so
 * a walk costs a find_vma per file it crosses.  A function with a .return
 * probe returns to the uretprobe trampoline: the kernel keeps the real
 * return address, by stack slot, in current->utask, where the walk finds
 * it (uret.c, which reads that list no-fault too).  Nothing is
 * allocated; every user read is no-fault.
 *
 * Names: a mapping's inode matched to the embedded files, the symbol by
 * binary search of the file's table.  A whole stack (print_ubacktrace,
 * sprint_ubacktrace) is named under one mmap lock with the same mapping
 * cache as the walk.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>
#include "compat/compat.h"
#include "context.h"
#include "output.h"
#include "probes_uprobe.h"
#include "uret.h"
#include "ustack.h"

static bool
tap_uread_ulong(unsigned long addr, unsigned long *out)
{
	return !copy_from_user_nofault(out, (const void __user *)addr,
				       sizeof(*out));
}

/* The user registers of this probe, or NULL when there are none. */
static struct pt_regs *
tap_uregs(struct tap_context *c)
{
	if (tap_uprobe_current(c))
		return c->regs;
	if (!current->mm || (current->flags & PF_KTHREAD))
		return NULL;
	return task_pt_regs(current);
}

unsigned long
tap_uaddr(struct tap_context *c)
{
	const struct tap_uprobe_hit *h = tap_uprobe_current(c);
	struct pt_regs *regs;

	if (h)
		return h->pc;
	regs = tap_uregs(c);
	return regs ? instruction_pointer(regs) : 0;
}

/* ---- the walk ---- */

/* What the walk knows of one frame: its pc and the registers it can
 * recover in every frame (rsp, rbp); all of them in the first frame. */
struct tap_uframe {
	unsigned long pc, sp, bp;
	bool bp_ok;		/* rbp is known */
	bool exact;		/* pc is not a return address (look it up as
				 * it is, not pc - 1) */
	struct pt_regs *regs;	/* the first frame's registers, or NULL */
};

/* The mapping the walk looked in last: most frames are in the same one,
 * so most skip find_vma and the search of the files. */
struct tap_uvma {
	unsigned long start, end, pgoff;	/* pgoff in bytes */
	const struct tap_usym_file *file;	/* NULL: not one of ours */
	bool exec;				/* VM_EXEC */
};

/* DWARF register n of a full register set (x86_64 psABI numbering). */
static bool
tap_ureg_dwarf(const struct pt_regs *r, unsigned int n, unsigned long *v)
{
	switch (n) {
	case 0: *v = r->ax; return true;
	case 1: *v = r->dx; return true;
	case 2: *v = r->cx; return true;
	case 3: *v = r->bx; return true;
	case 4: *v = r->si; return true;
	case 5: *v = r->di; return true;
	case 6: *v = r->bp; return true;
	case 7: *v = r->sp; return true;
	case 8: *v = r->r8; return true;
	case 9: *v = r->r9; return true;
	case 10: *v = r->r10; return true;
	case 11: *v = r->r11; return true;
	case 12: *v = r->r12; return true;
	case 13: *v = r->r13; return true;
	case 14: *v = r->r14; return true;
	case 15: *v = r->r15; return true;
	default: return false;
	}
}

/* Register n in frame f, if the walk knows it there. */
static bool
tap_uframe_reg(const struct tap_uframe *f, unsigned int n, unsigned long *v)
{
	if (n == 7) {
		*v = f->sp;
		return true;
	}
	if (n == 6) {
		*v = f->bp;
		return f->bp_ok;
	}
	if (n == 16) {
		*v = f->pc;
		return true;
	}
	return f->regs && tap_ureg_dwarf(f->regs, n, v);
}

/* The CFI rule of file offset off, or NULL. */
static const struct tap_ucfi_rule *
tap_ucfi_find(const struct tap_ucfi *t, unsigned long off)
{
	u32 lo = 0, hi = t->nblocks, mid, first, end;
	u16 d;

	if (off > U32_MAX)
		return NULL;
	while (lo < hi) {	/* first block starting above off */
		mid = lo + (hi - lo) / 2;
		if (t->blocks[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	first = t->blocks[lo - 1].first;
	end = lo < t->nblocks ? t->blocks[lo].first : t->nrows;
	if (off - t->blocks[lo - 1].start > U16_MAX)
		d = U16_MAX;	/* past the block: its last row holds */
	else
		d = off - t->blocks[lo - 1].start;
	lo = first;
	hi = end;
	while (lo < hi) {	/* first row of the block starting above d */
		mid = lo + (hi - lo) / 2;
		if (t->delta[mid] <= d)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == first || t->rule[lo - 1] == TAP_UCFI_NONE)
		return NULL;
	return &t->rules[t->rule[lo - 1]];
}

/* Point cache at the mapping holding pc; false when none does.  The
 * caller holds the mmap lock. */
static bool
tap_uvma_at(struct mm_struct *mm, struct tap_uvma *cache, unsigned long pc)
{
	struct vm_area_struct *vma;
	struct inode *inode;
	size_t i;

	if (pc >= cache->start && pc < cache->end)
		return true;
	vma = find_vma(mm, pc);
	if (!vma || vma->vm_start > pc)
		return false;
	cache->start = vma->vm_start;
	cache->end = vma->vm_end;
	cache->pgoff = vma->vm_pgoff << PAGE_SHIFT;
	cache->exec = vma->vm_flags & VM_EXEC;
	cache->file = NULL;
	inode = vma->vm_file ? file_inode(vma->vm_file) : NULL;
	for (i = 0; inode && i < tap_uprobe_tables.n_usym_files; i++)
		if (tap_uprobe_tables.usym_files[i].inode == inode) {
			cache->file = &tap_uprobe_tables.usym_files[i];
			break;
		}
	return true;
}

/* The rule for pc, from the file mapped there; NULL when there is none. */
static const struct tap_ucfi_rule *
tap_ucfi_rule_at(struct mm_struct *mm, struct tap_uvma *cache,
		 unsigned long pc)
{
	if (!tap_uvma_at(mm, cache, pc) || !cache->file || !cache->file->cfi)
		return NULL;
	return tap_ucfi_find(cache->file->cfi, pc - cache->start + cache->pgoff);
}

/* A register's value in the caller by rule r; false when unknown. */
static bool
tap_ucfi_reg(const struct tap_ucfi_reg *r, const struct tap_uframe *f,
	     unsigned long cfa, unsigned long same, unsigned long *v)
{
	unsigned long base;

	switch (r->kind) {
	case TAP_UCFI_SAME:
		*v = same;
		return true;
	case TAP_UCFI_AT_CFA:
		return tap_uread_ulong(cfa + r->off, v);
	case TAP_UCFI_VAL_CFA:
		*v = cfa + r->off;
		return true;
	case TAP_UCFI_AT_REG:
		return tap_uframe_reg(f, r->reg, &base) &&
		       tap_uread_ulong(base + r->off, v);
	case TAP_UCFI_VAL_REG:
		if (!tap_uframe_reg(f, r->reg, &base))
			return false;
		*v = base + r->off;
		return true;
	default:
		return false;
	}
}

/* The CFA of frame f by rule r. */
static bool
tap_ucfi_cfa(const struct tap_ucfi_rule *r, const struct tap_uframe *f,
	     unsigned long *cfa)
{
	unsigned long base;

	switch (r->cfa_kind) {
	case TAP_UCFI_CFA_REG:
		if (!tap_uframe_reg(f, r->cfa_reg, &base))
			return false;
		*cfa = base + r->cfa_off;
		return true;
	case TAP_UCFI_CFA_DEREF:
		return tap_uframe_reg(f, r->cfa_reg, &base) &&
		       tap_uread_ulong(base + r->cfa_off, cfa);
	case TAP_UCFI_CFA_PLT:
		*cfa = f->sp + r->cfa_off +
		       ((f->pc & 15) >= r->cfa_reg ? 8 : 0);
		return true;
	default:
		return false;
	}
}

/* One frame up by CFI: f becomes the caller.  1: done, 0: the stack
 * ends here (the return address is undefined), -1: the rule cannot be
 * applied (the caller tries frame pointers). */
static int
tap_ucfi_step(const struct tap_ucfi_rule *r, struct tap_uframe *f)
{
	unsigned long cfa, ra, sp, bp = 0;
	bool bp_ok;

	if (r->ra.kind == TAP_UCFI_UNDEF)
		return 0;
	if (!tap_ucfi_cfa(r, f, &cfa) || !tap_ucfi_reg(&r->ra, f, cfa, 0, &ra) ||
	    r->ra.kind == TAP_UCFI_SAME || !tap_ucfi_reg(&r->sp, f, cfa, f->sp, &sp))
		return -1;
	/* the stack grows down: a caller's frame is above (a signal frame's
	 * may be anywhere, sigaltstack) */
	if (!r->signal && sp <= f->sp)
		return -1;
	bp_ok = (r->bp.kind == TAP_UCFI_SAME && f->bp_ok) ||
		(r->bp.kind != TAP_UCFI_SAME &&
		 tap_ucfi_reg(&r->bp, f, cfa, f->bp, &bp));
	if (r->bp.kind == TAP_UCFI_SAME)
		bp = f->bp;
	if (r->ra.kind == TAP_UCFI_AT_CFA)
		ra = tap_uret_original(cfa + r->ra.off, ra);
	f->pc = ra;
	f->sp = sp;
	f->bp = bp_ok ? bp : 0;
	f->bp_ok = bp_ok;
	f->exact = r->signal;
	f->regs = NULL;
	return 1;
}

/* One frame up by frame pointers: false when rbp does not look like a
 * frame.  At a function's first instruction (a uprobe there) the return
 * address is at [sp] and rbp is still the caller's. */
static bool
tap_ufp_step(struct tap_uframe *f, bool at_entry)
{
	unsigned long next, ret;

	if (at_entry) {
		if (!tap_uread_ulong(f->sp, &ret) || !ret)
			return false;
		f->pc = tap_uret_original(f->sp, ret);
		f->sp += sizeof(long);
	} else {
		if (!f->bp_ok || !f->bp || (f->bp & (sizeof(long) - 1)) ||
		    f->bp < f->sp || !tap_uread_ulong(f->bp, &next) ||
		    !tap_uread_ulong(f->bp + sizeof(long), &ret) || !ret)
			return false;
		f->pc = tap_uret_original(f->bp + sizeof(long), ret);
		f->sp = f->bp + 2 * sizeof(long);
		/* callers are above; a chain going down has ended */
		f->bp_ok = next > f->bp;
		f->bp = next;
	}
	f->exact = false;
	f->regs = NULL;
	return true;
}

unsigned int
tap_ubt_save(struct tap_context *c, unsigned long *frames)
{
	const struct tap_uprobe_hit *h = tap_uprobe_current(c);
	struct pt_regs *regs = tap_uregs(c);
	struct mm_struct *mm = NULL;
	struct tap_uvma cache = { 0 };
	const struct tap_ucfi_rule *r;
	struct tap_uframe f;
	bool locked, at_entry;
	unsigned int n = 0;
	int step;

	if (!regs)
		return 0;
	f = (struct tap_uframe){
		.pc = tap_uaddr(c), .sp = regs->sp, .bp = regs->bp,
		.bp_ok = true, .regs = regs,
		/* a uretprobe's pc is the return address in the caller */
		.exact = !(h && h->u->is_return),
	};
	at_entry = h && h->u->at_entry && !h->u->is_return;
	frames[n++] = f.pc;
#ifndef TAP_UBT_NO_CFI	/* -D TAP_UBT_NO_CFI: frame pointers only */
	if (tap_uprobe_tables.n_usym_files)
		mm = tap_mm_read_trylock();
#endif
	locked = mm != NULL;
	while (n < TAP_UBT_FRAMES) {
		r = locked ? tap_ucfi_rule_at(mm, &cache,
					      f.exact ? f.pc : f.pc - 1)
			   : NULL;
		step = r ? tap_ucfi_step(r, &f) : -1;
		if (!step)
			break;	/* the outermost frame (_start) */
		if (step < 0 && !tap_ufp_step(&f, at_entry && n == 1))
			break;
		if (!f.pc)
			break;
		/* a frame pointer that was not one leads into data: with the
		 * mappings at hand, a return address must be in code (the
		 * uretprobe trampoline's page is code too) */
		if (step < 0 && locked &&
		    (!tap_uvma_at(mm, &cache, f.pc) || !cache.exec))
			break;
		frames[n++] = f.pc;
	}
	if (locked)
		tap_mm_read_unlock(mm);
	return n;
}

/* The embedded symbol of file f at file offset off. */
static const struct tap_usym *
tap_usym_find(const struct tap_usym_file *f, unsigned long off)
{
	size_t lo = 0, hi = f->nsyms, mid;
	const struct tap_usym *s;

	while (lo < hi) {	/* first symbol above off */
		mid = (lo + hi) / 2;
		if (f->syms[mid].offset <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &f->syms[lo - 1];
	return !s->size || off < s->offset + s->size ? s : NULL;
}

/* What addr is, with the mmap lock held and cache as tap_uvma_at's. */
static bool
tap_usym_lookup_in(struct mm_struct *mm, struct tap_uvma *cache,
		   unsigned long addr, struct tap_usym_info *info)
{
	const struct tap_usym_file *f;
	const struct tap_usym *s;

	memset(info, 0, sizeof(*info));
	if (!tap_uvma_at(mm, cache, addr) || !cache->file)
		return false;
	f = cache->file;
	info->path = f->path;
	info->file_offset = addr - cache->start + cache->pgoff;
	s = tap_usym_find(f, info->file_offset);
	if (s) {
		info->name = f->names + s->name;
		info->offset = info->file_offset - s->offset;
		info->size = s->size;
	}
	return true;
}

bool
tap_usym_lookup(unsigned long addr, struct tap_usym_info *info)
{
	struct mm_struct *mm = tap_mm_read_trylock();
	struct tap_uvma cache = { 0 };
	bool found;

	memset(info, 0, sizeof(*info));
	if (!mm)
		return false;
	found = tap_usym_lookup_in(mm, &cache, addr, info);
	tap_mm_read_unlock(mm);
	return found;
}

bool
tap_umod_offset(unsigned long addr, unsigned long *offset)
{
	struct mm_struct *mm = tap_mm_read_trylock();
	struct vm_area_struct *vma, *first;
	unsigned long base;
	bool found = false;

	if (!mm)
		return false;
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start <= addr && vma->vm_file) {
		/* the file's segments are mapped at their offsets from one
		 * base (the ELF loader's way): the first page's mapping is
		 * where that base is, when it is still there */
		base = vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT);
		first = vma->vm_pgoff ? find_vma(mm, base) : vma;
		if (first && first->vm_start == base && !first->vm_pgoff &&
		    first->vm_file &&
		    file_inode(first->vm_file) == file_inode(vma->vm_file))
			base = first->vm_start;
		*offset = addr - base;
		found = true;
	}
	tap_mm_read_unlock(mm);
	return found;
}

const char *
tap_umod_build_id(unsigned long addr)
{
	struct mm_struct *mm = tap_mm_read_trylock();
	struct tap_uvma cache = { 0 };
	const char *id = NULL;

	if (!mm)
		return NULL;
	if (tap_uvma_at(mm, &cache, addr) && cache.file)
		id = cache.file->build_id;
	tap_mm_read_unlock(mm);
	return id;
}

static const char *
tap_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* One line of print_ubacktrace() for addr, from what was found. */
static int
tap_usym_frame_line(char *buf, size_t size, unsigned long addr,
		    const struct tap_usym_info *in)
{
	if (!in->path)
		return scnprintf(buf, size, " 0x%lx\n", addr);
	if (!in->name)
		return scnprintf(buf, size, " 0x%lx [%s+0x%lx]\n", addr,
				 tap_basename(in->path), in->file_offset);
	return scnprintf(buf, size, " 0x%lx : %s+0x%lx/0x%lx [%s]\n", addr,
			 in->name, in->offset, in->size, in->path);
}

int
tap_usym_format_frame(char *buf, size_t size, unsigned long addr)
{
	struct tap_usym_info in;

	tap_usym_lookup(addr, &in);
	return tap_usym_frame_line(buf, size, addr, &in);
}

size_t
tap_ubt_sprint(char *buf, size_t size, const unsigned long *frames,
	       unsigned int n)
{
	struct mm_struct *mm = tap_mm_read_trylock();
	struct tap_uvma cache = { 0 };
	struct tap_usym_info in;
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n && len + 1 < size; i++) {
		if (!mm || !tap_usym_lookup_in(mm, &cache, frames[i], &in))
			memset(&in, 0, sizeof(in));
		len += tap_usym_frame_line(buf + len, size - len, frames[i], &in);
	}
	if (mm)
		tap_mm_read_unlock(mm);
	return len;
}

int
tap_usym_format_data(char *buf, size_t size, unsigned long addr)
{
	struct tap_usym_info in;

	if (!tap_usym_lookup(addr, &in) || !in.path)
		return scnprintf(buf, size, "0x%lx", addr);
	if (!in.name)
		return scnprintf(buf, size, "0x%lx [%s+0x%lx]", addr,
				 tap_basename(in.path), in.file_offset);
	return scnprintf(buf, size, "%s+0x%lx/0x%lx [%s]", in.name, in.offset,
			 in.size, tap_basename(in.path));
}

/* One frame's line into the probe's output. */
static void
tap_usym_print_line(struct tap_context *c, unsigned long addr,
		    const struct tap_usym_info *in)
{
	if (!in->path)
		tap_printf(c, " 0x%lx\n", addr);
	else if (!in->name)
		tap_printf(c, " 0x%lx [%s+0x%lx]\n", addr, tap_basename(in->path),
			   in->file_offset);
	else
		tap_printf(c, " 0x%lx : %s+0x%lx/0x%lx [%s]\n", addr, in->name,
			   in->offset, in->size, in->path);
}

void
tap_usym_print_frame(struct tap_context *c, unsigned long addr)
{
	struct tap_usym_info in;

	tap_usym_lookup(addr, &in);
	tap_usym_print_line(c, addr, &in);
}

void
tap_ubt_print(struct tap_context *c, const unsigned long *frames,
	      unsigned int n)
{
	struct mm_struct *mm = tap_mm_read_trylock();
	struct tap_uvma cache = { 0 };
	struct tap_usym_info in;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!mm || !tap_usym_lookup_in(mm, &cache, frames[i], &in))
			memset(&in, 0, sizeof(in));
		tap_usym_print_line(c, frames[i], &in);
	}
	if (mm)
		tap_mm_read_unlock(mm);
}
