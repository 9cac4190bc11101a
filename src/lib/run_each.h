/* run_each.h - n tasks, each on a thread of its own */
#ifndef GH_RUN_EACH_H
#define GH_RUN_EACH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* Runs fn on each of the n task structs of `size` bytes at tasks: the
 * first in the calling thread, the others on threads of their own (in the
 * calling thread, after the first, where no thread can be started), and
 * waits for them all.  Every task runs, whatever threads there are. */
static inline void gh_run_each(int n, void *(*fn)(void *), void *tasks,
			       size_t size)
{
	enum { MOST = 64 };
	pthread_t tid[MOST];
	bool started[MOST] = { false };
	char *task = tasks;

	for (int k = 1; k < n && k < MOST; k++)
		started[k] = !pthread_create(&tid[k], NULL, fn,
					     task + (size_t)k * size);
	if (n > 0)
		fn(task);
	for (int k = 1; k < n; k++) {
		if (k < MOST && started[k])
			pthread_join(tid[k], NULL);
		else
			fn(task + (size_t)k * size);
	}
}

#endif
