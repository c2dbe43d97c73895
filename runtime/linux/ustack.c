/*
 * ustack.c -- user stack walk and user symbol lookup (see ustack.h).
 *
 * Registers: a uprobe handler has the task's user registers in c->regs
 * (tap_uprobe_current says where it stopped); a kernel probe reached from
 * user space walks task_pt_regs(current).  At a function's first
 * instruction the caller's frame is not set up yet for the callee: the
 * return address is at [sp] and rbp is still the caller's, so the walk
 * takes [sp] first and then follows rbp.  A function with a .return probe
 * returns to the uretprobe trampoline: the kernel keeps the real return
 * address, by stack slot, in current->utask, where the walk finds it.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>
#include "compat/compat.h"
#include "context.h"
#include "probes_uprobe.h"
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

/* The return address stored at user address slot, as the program put it
 * there (not the uretprobe trampoline that replaced it). */
static unsigned long
tap_uret_original(unsigned long slot, unsigned long ret)
{
#if defined(TAPCONF_UPROBE_RETURN_INSTANCES) && defined(CONFIG_UPROBES)
	struct return_instance *ri;
	int n = 0;

	/* only this task changes its list, and this is this task */
	if (!current->utask)
		return ret;
	for (ri = current->utask->return_instances; ri && n < 64;
	     ri = ri->next, n++)
		if (ri->stack == slot)
			return ri->orig_ret_vaddr;
#endif
	return ret;
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

unsigned int
tap_ubt_save(struct tap_context *c, unsigned long *frames)
{
	const struct tap_uprobe_hit *h = tap_uprobe_current(c);
	struct pt_regs *regs = tap_uregs(c);
	unsigned long bp, next, ret;
	unsigned int n = 0;

	if (!regs)
		return 0;
	frames[n++] = tap_uaddr(c);
	if (h && h->u->at_entry && !h->u->is_return &&
	    tap_uread_ulong(regs->sp, &ret) && ret)
		frames[n++] = tap_uret_original(regs->sp, ret);
	bp = regs->bp;
	while (n < TAP_UBT_FRAMES) {
		if (!bp || (bp & (sizeof(long) - 1)) || bp < regs->sp ||
		    !tap_uread_ulong(bp, &next) ||
		    !tap_uread_ulong(bp + sizeof(long), &ret) || !ret)
			break;
		frames[n++] = tap_uret_original(bp + sizeof(long), ret);
		if (next <= bp)	/* the stack grows down: callers are above */
			break;
		bp = next;
	}
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

bool
tap_usym_lookup(unsigned long addr, struct tap_usym_info *info)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct inode *inode = NULL;
	const struct tap_usym_file *f;
	const struct tap_usym *s;
	size_t i;

	memset(info, 0, sizeof(*info));
	if (!mm || in_nmi() || (current->flags & PF_KTHREAD) ||
	    !mmap_read_trylock(mm))
		return false;
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start <= addr && vma->vm_file) {
		inode = file_inode(vma->vm_file);
		info->file_offset = addr - vma->vm_start +
				    (vma->vm_pgoff << PAGE_SHIFT);
	}
	mmap_read_unlock(mm);
	if (!inode)
		return false;
	for (i = 0; i < tap_uprobe_tables.n_usym_files; i++) {
		f = &tap_uprobe_tables.usym_files[i];
		if (f->inode != inode)
			continue;
		info->path = f->path;
		s = tap_usym_find(f, info->file_offset);
		if (s) {
			info->name = f->names + s->name;
			info->offset = info->file_offset - s->offset;
			info->size = s->size;
		}
		return true;
	}
	return false;
}

static const char *
tap_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int
tap_usym_format_frame(char *buf, size_t size, unsigned long addr)
{
	struct tap_usym_info in;

	if (!tap_usym_lookup(addr, &in) || !in.path)
		return scnprintf(buf, size, " 0x%lx\n", addr);
	if (!in.name)
		return scnprintf(buf, size, " 0x%lx [%s+0x%lx]\n", addr,
				 tap_basename(in.path), in.file_offset);
	return scnprintf(buf, size, " 0x%lx : %s+0x%lx/0x%lx [%s]\n", addr,
			 in.name, in.offset, in.size, in.path);
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
