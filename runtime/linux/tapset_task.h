/*
 * tapset_task.h -- fault-safe readers of task_struct fields for the task_*
 * functions of tapsets/linux/task.stp.  Macros only, so that an embedded
 * function body may include it (it is included at block scope).
 */
#ifndef TAP_TAPSET_TASK_H
#define TAP_TAPSET_TASK_H

/* Read one field of a task (or any struct) fault-safely into a long. */
#define __TAP_TASK_FIELD(c, t, field, out) ({				\
	typeof(((struct task_struct *)0)->field) __ttf_v;			\
	bool __ttf_ok = tap_kread((c), &__ttf_v,				\
		&((struct task_struct *)(unsigned long)(t))->field,	\
		sizeof(__ttf_v));						\
	if (__ttf_ok)							\
		(out) = (int64_t)__ttf_v;					\
	__ttf_ok; })

/* One id out of a task's credentials: follow t->cred fault-safely. */
#define __TAP_TASK_CRED(c, t, field, out) do {				\
	const struct cred *__ttc_cred;					\
	typeof(__ttc_cred->field) __ttc_id;					\
	if (tap_kread((c), &__ttc_cred,					\
		      &((struct task_struct *)(unsigned long)(t))->cred, \
		      sizeof(__ttc_cred)) &&					\
	    tap_kread((c), &__ttc_id, &__ttc_cred->field, sizeof(__ttc_id)))	\
		(out) = __ttc_id.val;					\
} while (0)

#endif /* TAP_TAPSET_TASK_H */
