/*
 * profile_sample_cost.c — the CPU one perf sample costs, for
 * bench/profile_sample_cost.sh.
 *
 * "profile_sample_cost work FILE": a fixed amount of CPU-bound work (a loop
 * at the bottom of a 30-deep call chain, about as deep as a backend's while
 * it executes a query, so that unwinding the frame pointers costs what it
 * does there); writes its own user and system CPU seconds to FILE.
 * "profile_sample_cost run COMMAND...": runs COMMAND and prints the CPU
 * time (user + system, seconds) of it and everything it waited for,
 * perf and the sampled work alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void
descend(int depth, unsigned long n)
{
	if (depth > 0)
	{
		descend(depth - 1, n);
		sink++;
		return;
	}
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "work") == 0)
	{
		struct rusage ru;
		FILE	   *f;

		descend(30, 1000000000UL);
		getrusage(RUSAGE_SELF, &ru);
		if ((f = fopen(argv[2], "w")) == NULL)
			return 1;
		fprintf(f, "%.6f %.6f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
				ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		return fclose(f) != 0;
	}
	if (argc >= 3 && strcmp(argv[1], "run") == 0)
	{
		pid_t		pid = fork();
		struct rusage ru;
		int			status;

		if (pid == 0)
		{
			execvp(argv[2], argv + 2);
			perror(argv[2]);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		getrusage(RUSAGE_CHILDREN, &ru);
		printf("%.6f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			   ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	fprintf(stderr, "usage: %s work FILE | run COMMAND...\n", argv[0]);
	return 2;
}
