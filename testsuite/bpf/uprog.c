/*
 * uprog.c -- the BPF tier's user-space workload for uprobes: add_seven()
 * called exactly five times (x = 0..4, so its results sum to 45) and an
 * SDT marker tapbpf:tick after each call with the loop index (an int in
 * a 32-bit register) and the running sum (a long).  The marker's note is
 * written here directly, in the layout <sys/sdt.h> uses, so the tier
 * needs no systemtap-sdt-dev.
 */

/* One SDT note: the probe address, the base for prelink adjustment, no
 * semaphore, provider, name, and the operands' "size@register" text. */
#define TAPBPF_MARK2(name, a1, a2) \
	__asm__ __volatile__( \
		"990: nop\n" \
		".pushsection .note.stapsdt,\"?\",\"note\"\n" \
		".balign 4\n" \
		".4byte 992f-991f, 994f-993f, 3\n" \
		"991: .asciz \"stapsdt\"\n" \
		"992: .balign 4\n" \
		"993: .8byte 990b\n" \
		".8byte _.stapsdt.base\n" \
		".8byte 0\n" \
		".asciz \"tapbpf\"\n" \
		".asciz \"" #name "\"\n" \
		".asciz \"-4@%0 -8@%1\"\n" \
		"994: .balign 4\n" \
		".popsection\n" \
		".ifndef _.stapsdt.base\n" \
		".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
		".weak _.stapsdt.base\n" \
		".hidden _.stapsdt.base\n" \
		"_.stapsdt.base: .space 1\n" \
		".size _.stapsdt.base, 1\n" \
		".popsection\n" \
		".endif\n" \
		: : "r"(a1), "r"(a2))

__attribute__((noinline)) long
add_seven(long x)
{
	__asm__ __volatile__("" : "+r"(x));	/* not folded into main */
	return x + 7;
}

int
main(void)
{
	long sum = 0;

	for (int i = 0; i < 5; i++) {
		sum += add_seven(i);
		TAPBPF_MARK2(tick, i, sum);
	}
	return 0;
}
