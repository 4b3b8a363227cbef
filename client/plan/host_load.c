/*-------------------------------------------------------------------------
 *
 * host_load.c
 *		What the host allows a run, as the pre-flight begins: the CPUs this
 *		process may use against the processes a run keeps busy at once,
 *		the share of those CPUs other processes took over half a second
 *		(/proc/stat), steal time, the load average (/proc/loadavg) and the
 *		CPU frequency governor where /sys shows it.
 *
 * It is read before this experiment's servers start, so that the load is
 * that of others; the noise history (noise_history.c) files each record
 * under the load it was measured at.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "digest.h"
#include "host_load.h"

#include <math.h>
#include <sched.h>
#include <unistd.h>

/*
 * The CPU times of /proc/stat summed over the CPUs in mine, the ones this
 * process may use and a duet pins its sides to: busy (without idle and
 * iowait), steal, total.  Where mine is NULL (the mask could not be read),
 * or the kernel gives no line of them (a /proc of another shape), the
 * first line's, of every CPU.  On a machine of many CPUs of which a run
 * may use a few, what the others do is not the load a run meets.
 */
static bool
read_cpu_times(const cpu_set_t *mine, double *busy, double *steal, double *total)
{
	FILE	   *f = fopen("/proc/stat", "re");
	char		line[512];
	double		all[3] = {0};
	double		own[3] = {0};
	const double *from;
	bool		have_all = false;
	bool		have_own = false;

	if (f == NULL)
		return false;
	/* "cpu" then a line per CPU, "cpu0" ...: user nice system idle iowait irq softirq steal */
	while (fgets(line, sizeof(line), f) && strncmp(line, "cpu", 3) == 0)
	{
		unsigned long long v[8] = {0};
		int			cpu = -1;
		bool		ok;
		double	   *sum;

		if (line[3] == ' ')
			ok = sscanf(line + 3, "%llu %llu %llu %llu %llu %llu %llu %llu",
						&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8;
		else
			ok = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
						&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9;
		if (!ok || (cpu >= 0 && (mine == NULL || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, mine))))
			continue;
		sum = cpu < 0 ? all : own;
		sum[0] += v[0] + v[1] + v[2] + v[5] + v[6];
		sum[1] += v[7];
		for (int i = 0; i < 8; i++)
			sum[2] += v[i];
		if (cpu < 0)
			have_all = true;
		else
			have_own = true;
	}
	fclose(f);
	if (!have_own && !have_all)
		return false;
	from = have_own ? own : all;
	*busy = from[0];
	*steal = from[1];
	*total = from[2];
	return true;
}

void
host_load_measure(HostLoad *h)
{
	cpu_set_t	mine;
	bool		known;
	double		b0,
				s0,
				t0,
				b1,
				s1,
				t1;
	FILE	   *f;
	char	   *governor;

	memset(h, 0, sizeof(*h));
	h->busy_pct = h->steal_pct = h->load1 = NAN;
	known = sched_getaffinity(0, sizeof(mine), &mine) == 0;
	h->cpus = known ? CPU_COUNT(&mine) : 1;
	/* half a second of this process's CPUs, before this experiment loads them */
	if (read_cpu_times(known ? &mine : NULL, &b0, &s0, &t0))
	{
		pg_usleep(500000);
		if (read_cpu_times(known ? &mine : NULL, &b1, &s1, &t1) && t1 > t0)
		{
			h->busy_pct = 100 * (b1 - b0) / (t1 - t0);
			h->steal_pct = 100 * (s1 - s0) / (t1 - t0);
		}
	}
	if ((f = fopen("/proc/loadavg", "re")) != NULL)
	{
		if (fscanf(f, "%lf", &h->load1) != 1)
			h->load1 = NAN;
		fclose(f);
	}
	governor = first_line_of_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	h->governor = *governor ? governor : NULL;
}

/*
 * Processes that want a CPU at once during a run: backends and pgbench
 * threads, but one client's backend and its pgbench take turns (each waits
 * for the other's answer), so they want one.
 */
static int
demand_of(const ExperimentSpec *spec)
{
	int			most = 0;

	for (int c = 0; c < spec->nclients; c++)
		most = Max(most, spec->clients[c] == 1 ? 1 :
				   spec->clients[c] + experiment_jobs_for(spec, spec->clients[c]));
	return most * (spec->quiet.schedule == SCHEDULE_DUET ? 2 : 1);
}

void
host_load_print(const ExperimentSpec *spec, const HostLoad *h, FILE *out)
{
	int			demand = demand_of(spec);

	fprintf(out, "pre-flight: %d CPU%s; other processes busy %.0f%% of them, steal %.1f%%, load %.2f; governor %s\n",
			h->cpus, h->cpus == 1 ? "" : "s", h->busy_pct, h->steal_pct, h->load1,
			h->governor ? h->governor : "not visible");
	if (demand > h->cpus)
		fprintf(out, "pre-flight: warning: a run has %d processes that want a CPU at once (backends and pgbench threads%s) on %d CPUs: they queue, and the queue is noise\n",
				demand, spec->quiet.schedule == SCHEDULE_DUET ? ", both sides of a duet" : "", h->cpus);
	if (h->busy_pct > LOADED_BUSY_PCT)
		fprintf(out, "pre-flight: warning: other processes keep %.0f%% of the CPUs busy: expect more noise than on a quiet host\n",
				h->busy_pct);
	if (h->steal_pct > 2)
		fprintf(out, "pre-flight: warning: the hypervisor steals %.1f%% of the CPU time\n", h->steal_pct);
	if (h->governor && strcmp(h->governor, "performance") != 0)
		fprintf(out, "pre-flight: warning: the CPU frequency governor is \"%s\": frequencies follow the load; \"performance\" holds them\n",
				h->governor);
}
