// SPDX-License-Identifier: GPL-2.0
/*
 * tapkmod.c -- the test module of the DWARF tier (testsuite/kmod/): kernel
 * functions whose parameters and locals have every kind of value a script
 * reads through $var, built with -g so that tapc finds them in its DWARF.
 *
 * Writing anything to /sys/kernel/debug/tapkmod/trigger calls each
 * function once with the fixed values below, so a test knows exactly what
 * to expect.  The functions are noinline (except the inlined callee) and
 * their results are summed into a global so that the compiler keeps them.
 * /sys/kernel/debug/tapkmod/result shows what tk_write computed, so a
 * guru-mode test can see the values its probes wrote.
 * Must not: take a lock or sleep in the probed functions.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

struct tk_inner {
	int depth;
	const char *label;
};

struct tk_flags {
	unsigned int ready:1;
	unsigned int mode:3;
	signed int delta:5;
	unsigned int rest:23;
};

union tk_value {
	long as_long;
	unsigned char bytes[8];
};

struct tk_item {
	int id;
	char name[16];
	unsigned long weight;
	struct tk_flags flags;
	union tk_value value;
	int scores[4];
	struct tk_inner *inner;
	struct tk_item *next;
};

static struct tk_inner tk_inner_a = { .depth = 7, .label = "deep" };
static struct tk_item tk_second = {
	.id = 2, .name = "second", .weight = 20, .inner = &tk_inner_a,
};
static struct tk_item tk_first = {
	.id = 1, .name = "first", .weight = 1000000007UL,
	.flags = { .ready = 1, .mode = 5, .delta = -3, .rest = 4242 },
	.value = { .as_long = 0x1122334455667788L },
	.scores = { 10, -20, 30, -40 },
	.inner = &tk_inner_a, .next = &tk_second,
};
static long tk_sink;

noinline int tk_ints(int a, long b, unsigned char c, short d)
{
	int sum = a + (int)b + c + d;

	tk_sink += sum;
	return sum * 2;
}

noinline long tk_string(const char *msg, int len)
{
	long h = len;

	while (*msg)
		h = h * 31 + *msg++;
	tk_sink += h;
	return h;
}

noinline int tk_struct(struct tk_item *item, int extra)
{
	int total = item->id + extra;

	total += item->scores[2] + item->flags.mode;
	total += item->inner->depth + item->next->id;
	tk_sink += total;
	return total;
}

noinline long tk_union(union tk_value v, struct tk_flags f)
{
	long r = v.as_long ^ f.rest;

	tk_sink += r;
	return r;
}

static inline int tk_square_inline(int x)
{
	int sq = x * x;

	tk_sink += sq;		/* tk_inline_line */
	return sq;
}

noinline int tk_caller(int n)
{
	int local_twice = n * 2;
	int r;

	r = tk_square_inline(n + 1);
	r += tk_square_inline(local_twice);
	tk_sink += r;
	return r;
}

noinline void tk_fill(int *arr, int n)
{
	for (int i = 0; i < 4; i++)
		arr[i] = i * i + n;
}

/* A local array lives on the stack (its address escapes): a .statement
 * probe at tk_locals_line reads it through the frame base. */
noinline int tk_locals(int seed)
{
	int arr[4];
	long acc = seed * 3L;

	tk_fill(arr, seed);
	acc += arr[0] + arr[3];	/* tk_locals_line */
	tk_sink += acc;
	return (int)acc;
}

static int tk_scratch[4];

/* `shifted` is never stored: at tk_expr_line DWARF computes it from the
 * register that keeps `n` across the call (a location expression). */
noinline int tk_expr(int n)
{
	int shifted = n * 8 + 3;
	int r;

	tk_fill(tk_scratch, n);
	r = tk_scratch[1] + n;	/* tk_expr_line */
	tk_sink += r;
	tk_sink += shifted;
	return r;
}

/* Statics and globals for $var / @var (tests/statics.stp): a static
 * struct, a global int and a function's own static.  tk_statics writes
 * them so that they stay in .data with the values below at its entry. */
struct tk_config {
	int level;
	const char *tag;
	long limits[2];
};

static struct tk_config tk_settings = {
	.level = 3, .tag = "cfg", .limits = { 100, -200 },
};
int tk_global_count = 4242;

noinline int tk_statics(int n)
{
	static int calls = 11;

	calls += n;
	tk_global_count += n;
	tk_settings.limits[0] += n;
	tk_sink += tk_settings.level + calls;
	return calls;
}

/* Thirty statics for tests/statics30.stp: a script reading them asks
 * taprun for thirty "tapkmod:tk_static_NN" addresses, more than one
 * 1,024-byte module parameter string holds.  __used keeps each in .data
 * (and its DWARF): nothing else reads them. */
#define TK_S(nn, n) static long tk_static_##nn __used = n;
TK_S(00, 0) TK_S(01, 1) TK_S(02, 2) TK_S(03, 3) TK_S(04, 4) TK_S(05, 5)
TK_S(06, 6) TK_S(07, 7) TK_S(08, 8) TK_S(09, 9) TK_S(10, 10) TK_S(11, 11)
TK_S(12, 12) TK_S(13, 13) TK_S(14, 14) TK_S(15, 15) TK_S(16, 16)
TK_S(17, 17) TK_S(18, 18) TK_S(19, 19) TK_S(20, 20) TK_S(21, 21)
TK_S(22, 22) TK_S(23, 23) TK_S(24, 24) TK_S(25, 25) TK_S(26, 26)
TK_S(27, 27) TK_S(28, 28) TK_S(29, 29)

/* ---- location expressions (tests/locexpr.stp) ----
 * Structs passed by value in two registers: their parameters' locations
 * are DW_OP_piece lists (rdi:rsi, rdx:ecx). */
struct tk_pair {
	long lo;
	long hi;
};

struct tk_trio {
	int a;
	int b;
	int c;
};

noinline long tk_pieces(struct tk_pair p, struct tk_trio t)
{
	long r = p.lo * 3 + p.hi + t.a + t.b * 5 + t.c;

	tk_sink += r;
	return r;
}

noinline int tk_observe(int *slot)
{
	tk_sink += *slot;
	return *slot;
}

/* `slot`'s address escapes, so it lives on the stack, and only
 * tk_store knows its value; `next` is never used, so DWARF computes it
 * from slot's memory (DW_OP_deref_size in a location expression) until
 * tk_observe may change it. */
noinline void tk_store(int *slot, int v)
{
	*slot = v;
}

noinline void tk_deref(int seed)
{
	int slot, next;

	tk_store(&slot, seed * 2);
	next = slot + 1;
	tk_observe(&slot);	/* tk_deref_line */
}

noinline int tk_helper(int x)
{
	tk_sink += x;
	return x + 1;
}

/* `key` is dead after the first call, so from there on DWARF knows it
 * only as DW_OP_entry_value(rdi); `item` is kept in a callee-saved
 * register and `id` is read through it (memory reads in a location). */
noinline int tk_entry(int key, struct tk_item *item)
{
	int id = item->id;
	int r = tk_helper(key);

	r += tk_helper(id);	/* tk_entry_line */
	tk_sink += r + item->weight;
	return r;
}

/* ---- per-CPU data: @var reads this CPU's copy ---- */
struct tk_percpu_stats {
	long hits;
	int last;
};

static DEFINE_PER_CPU(struct tk_percpu_stats, tk_stats);

noinline int tk_percpu(int v)	/* called with preemption disabled */
{
	struct tk_percpu_stats *s = this_cpu_ptr(&tk_stats);

	s->hits++;
	s->last = v;
	return v;
}

/* ---- writes in guru mode (tests/write.stp) ----
 * tk_write's result and the counter are shown by
 * /sys/kernel/debug/tapkmod/result, so a test sees what a probe wrote
 * into a parameter (a register) and through a pointer (memory). */
struct tk_counter {
	long total;
	struct tk_flags flags;
	int limit;
};

static struct tk_counter tk_counter = { .total = 100, .limit = 9 };
static long tk_write_result;

noinline long tk_write(long v, struct tk_counter *ctr)
{
	ctr->total += v;
	tk_write_result = v * 2 + ctr->flags.mode + ctr->limit;
	return tk_write_result;
}

static ssize_t tk_trigger_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	tk_ints(-5, 1234567890123L, 200, -300);
	tk_string("hello kmod", 10);
	tk_struct(&tk_first, 3);
	tk_union(tk_first.value, tk_first.flags);
	tk_caller(4);
	tk_locals(6);
	tk_expr(5);
	tk_statics(1);
	tk_pieces((struct tk_pair){ .lo = 11, .hi = -22 },
		  (struct tk_trio){ .a = 1, .b = 2, .c = 3 });
	tk_entry(42, &tk_first);
	tk_deref(20);
	/* the probe on tk_percpu's return reads this CPU's copy: stay on
	 * the CPU that tk_percpu counted on */
	preempt_disable();
	tk_percpu(17);
	preempt_enable();
	tk_write(5, &tk_counter);
	return count;
}

static const struct file_operations tk_fops = {
	.owner = THIS_MODULE,
	.write = tk_trigger_write,
};

/* What tk_write computed and the counter it updated, for write.stp. */
static int tk_result_show(struct seq_file *m, void *v)
{
	seq_printf(m, "result=%ld total=%ld mode=%u limit=%d\n",
		   tk_write_result, tk_counter.total, tk_counter.flags.mode,
		   tk_counter.limit);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tk_result);

static struct dentry *tk_dir;

static int __init tk_init(void)
{
	tk_dir = debugfs_create_dir("tapkmod", NULL);
	debugfs_create_file("trigger", 0200, tk_dir, NULL, &tk_fops);
	debugfs_create_file("result", 0400, tk_dir, NULL, &tk_result_fops);
	return 0;
}

static void __exit tk_exit(void)
{
	debugfs_remove_recursive(tk_dir);
}

module_init(tk_init);
module_exit(tk_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc DWARF test module");
