/*-------------------------------------------------------------------------
 *
 * perf_events.c
 *		Hardware and software counters of the calling process through
 *		perf_event_open(2), read with rdpmc where the kernel allows it.
 *
 * Two groups are opened, each read in one go with PERF_FORMAT_GROUP:
 * hardware (cycles, instructions, caches) and software (task clock, context
 * switches, page faults), each led by its first event that opens.  When the
 * PMU is shared by more events than it has counters, the kernel time-slices
 * whole groups; the values are then scaled by time_enabled / time_running,
 * as perf stat does.
 *
 * A read() of a group costs a system call (about 370 ns on the machines
 * this was written on), too much at every transaction boundary.  Where the
 * kernel sets cap_user_rdpmc in an event's mmap'd control page, the count
 * is instead offset + the PMC read with the rdpmc instruction, under the
 * page's sequence lock.  That shortcut is only taken while the group has
 * never been multiplexed (time_enabled == time_running); otherwise read()
 * gives the kernel's scaled figures.
 *
 * Nothing here throws: a failed perf_event_open leaves its errno in the
 * set, so the caller can report why a counter is missing and keep going.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#endif

#include "port/atomics.h"

#include "perf_events.h"

static const char *const event_names[PERF_EV_COUNT] = {
	[PERF_EV_CYCLES] = "cycles",
	[PERF_EV_INSTRUCTIONS] = "instructions",
	[PERF_EV_CACHE_REFERENCES] = "cache_references",
	[PERF_EV_CACHE_MISSES] = "cache_misses",
	[PERF_EV_L1D_READ_MISSES] = "l1d_read_misses",
	[PERF_EV_TASK_CLOCK] = "task_clock_ns",
	[PERF_EV_CONTEXT_SWITCHES] = "context_switches",
	[PERF_EV_PAGE_FAULTS] = "page_faults",
};

const char *
perf_event_name(PerfEventKind kind)
{
	Assert(kind >= 0 && kind < PERF_EV_COUNT);
	return event_names[kind];
}

bool
perf_event_is_hardware(PerfEventKind kind)
{
	return kind < PERF_EV_FIRST_SOFTWARE;
}

static void
perf_events_reset_set(PerfEventSet *set, int err)
{
	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		set->fd[k] = -1;
		set->err[k] = err;
		set->id[k] = 0;
		set->leader[k] = perf_event_is_hardware(k) ? PERF_EV_CYCLES : PERF_EV_TASK_CLOCK;
		set->user_only[k] = false;
		set->mmap_page[k] = NULL;
	}
	set->use_rdpmc = false;
}

#ifdef __linux__

/* Group reads: PERF_FORMAT_GROUP | ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING */
#define GROUP_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
						   PERF_FORMAT_TOTAL_TIME_ENABLED | \
						   PERF_FORMAT_TOTAL_TIME_RUNNING)

typedef struct GroupReadBuf
{
	uint64		nr;
	uint64		time_enabled;
	uint64		time_running;
	struct
	{
		uint64		value;
		uint64		id;
	}			cntr[PERF_EV_COUNT];
} GroupReadBuf;

/* perf_event_attr type and config of each kind */
static const struct
{
	uint32		type;
	uint64		config;
}			event_codes[PERF_EV_COUNT] = {
	[PERF_EV_CYCLES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	[PERF_EV_INSTRUCTIONS] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	[PERF_EV_CACHE_REFERENCES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
	[PERF_EV_CACHE_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	[PERF_EV_L1D_READ_MISSES] = {PERF_TYPE_HW_CACHE,
		PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
	(PERF_COUNT_HW_CACHE_RESULT_MISS << 16)},
	[PERF_EV_TASK_CLOCK] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
	[PERF_EV_CONTEXT_SWITCHES] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
	[PERF_EV_PAGE_FAULTS] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
};

static void
event_attr(PerfEventKind kind, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = event_codes[kind].type;
	attr->config = event_codes[kind].config;
	attr->read_format = GROUP_READ_FORMAT;
	attr->exclude_hv = 1;
}

/*
 * Open one event for this process on any CPU.  Counting kernel mode is
 * tried first (context switches and page faults happen there); when
 * perf_event_paranoid forbids it, user mode only is the fallback.
 */
static void
open_one(PerfEventSet *set, PerfEventKind kind, int group_fd, bool user_only)
{
	struct perf_event_attr attr;
	int			fd;

	event_attr(kind, &attr);
	attr.exclude_kernel = user_only ? 1 : 0;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && !user_only && (errno == EACCES || errno == EPERM))
	{
		attr.exclude_kernel = 1;
		user_only = true;
		fd = syscall(__NR_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
	{
		set->err[kind] = errno;
		return;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ID, &set->id[kind]) != 0)
	{
		set->err[kind] = errno;
		close(fd);
		return;
	}
	set->fd[kind] = fd;
	set->err[kind] = 0;
	set->user_only[kind] = user_only;
}

/*
 * The first event of the range that opens leads the group, so one event the
 * CPU lacks (say, a cache event on a partial virtual PMU) does not take the
 * others down with it.
 */
static void
open_group(PerfEventSet *set, PerfEventKind first, PerfEventKind end)
{
	int			leader = -1;

	for (int k = first; k < end; k++)
	{
		if (leader < 0)
		{
			open_one(set, k, -1, false);
			if (set->fd[k] >= 0)
				leader = k;
		}
		else
			open_one(set, k, set->fd[leader], set->user_only[leader]);
	}
	for (int k = first; k < end; k++)
		set->leader[k] = leader < 0 ? first : leader;
}

/*
 * Map each hardware event's control page; rdpmc is used only if every open
 * hardware event allows it, so one read path serves the whole group.
 */
static void
map_rdpmc_pages(PerfEventSet *set)
{
#if defined(__x86_64__) || defined(__i386__)
	long		page_size = sysconf(_SC_PAGESIZE);
	bool		all = false;

	for (int k = 0; k < PERF_EV_FIRST_SOFTWARE; k++)
	{
		struct perf_event_mmap_page *pc;
		void	   *p;

		if (set->fd[k] < 0)
			continue;
		p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, set->fd[k], 0);
		if (p == MAP_FAILED)
			return;
		set->mmap_page[k] = p;
		pc = (struct perf_event_mmap_page *) p;
		if (!pc->cap_user_rdpmc)
			return;
		all = true;
	}
	set->use_rdpmc = all;
#endif
}

void
perf_events_open(PerfEventSet *set, bool hardware)
{
	perf_events_reset_set(set, PERF_EV_NOT_REQUESTED);
	if (hardware)
	{
		open_group(set, PERF_EV_CYCLES, PERF_EV_FIRST_SOFTWARE);
		map_rdpmc_pages(set);
	}
	open_group(set, PERF_EV_TASK_CLOCK, PERF_EV_COUNT);
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64
rdpmc(uint32 counter)
{
	uint32		low,
				high;

	__asm__ volatile("rdpmc" : "=a"(low), "=d"(high) : "c"(counter));
	return low | ((uint64) high << 32);
}

/*
 * The user-space read protocol documented in linux/perf_event.h.  Returns
 * false when the event is not on a PMC right now or has been multiplexed,
 * in which case read() must be used.
 */
static bool
read_rdpmc(struct perf_event_mmap_page *pc, uint64 *value)
{
	uint32		seq;
	uint64		count;
	uint64		enabled;
	uint64		running;
	uint32		idx;

	do
	{
		seq = pc->lock;
		pg_compiler_barrier();
		idx = pc->index;
		count = pc->offset;
		enabled = pc->time_enabled;
		running = pc->time_running;
		if (pc->cap_user_rdpmc && idx != 0)
		{
			uint16		width = pc->pmc_width;
			int64		pmc = rdpmc(idx - 1);

			/* sign-extend the PMC's width to 64 bits */
			pmc <<= 64 - width;
			pmc >>= 64 - width;
			count += pmc;
		}
		pg_compiler_barrier();
	} while (pc->lock != seq);

	if (idx == 0 || enabled != running)
		return false;
	*value = count;
	return true;
}
#endif

/* One read() of a whole group, scaled if the group was multiplexed. */
static void
read_group(PerfEventSet *set, PerfEventKind first, PerfEventKind end,
		   uint64 *values, bool *valid)
{
	int			leader = set->leader[first];
	GroupReadBuf buf;
	ssize_t		n;

	if (set->fd[leader] < 0)
		return;
	n = read(set->fd[leader], &buf, sizeof(buf));
	if (n < (ssize_t) (3 * sizeof(uint64)) || buf.time_running == 0)
		return;

	for (uint64 i = 0; i < buf.nr && i < PERF_EV_COUNT; i++)
	{
		for (int k = first; k < end; k++)
		{
			double		v;

			if (set->fd[k] < 0 || set->id[k] != buf.cntr[i].id)
				continue;
			v = (double) buf.cntr[i].value;
			if (buf.time_running < buf.time_enabled)
				v = v * ((double) buf.time_enabled / (double) buf.time_running);
			values[k] = (uint64) v;
			valid[k] = true;
		}
	}
}

void
perf_events_read(PerfEventSet *set, uint64 *values, bool *valid)
{
	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		values[k] = 0;
		valid[k] = false;
	}

#if defined(__x86_64__) || defined(__i386__)
	if (set->use_rdpmc)
	{
		bool		ok = true;

		for (int k = 0; k < PERF_EV_FIRST_SOFTWARE && ok; k++)
		{
			if (set->fd[k] >= 0)
			{
				ok = read_rdpmc(set->mmap_page[k], &values[k]);
				valid[k] = ok;
			}
		}
		if (!ok)
			read_group(set, PERF_EV_CYCLES, PERF_EV_FIRST_SOFTWARE, values, valid);
	}
	else
#endif
		read_group(set, PERF_EV_CYCLES, PERF_EV_FIRST_SOFTWARE, values, valid);

	read_group(set, PERF_EV_TASK_CLOCK, PERF_EV_COUNT, values, valid);
}

void
perf_events_close(PerfEventSet *set)
{
	long		page_size = sysconf(_SC_PAGESIZE);

	/* members before leaders, so no group is left without its leader */
	for (int k = PERF_EV_COUNT - 1; k >= 0; k--)
	{
		if (set->mmap_page[k] != NULL)
			munmap(set->mmap_page[k], page_size);
		if (set->fd[k] >= 0)
			close(set->fd[k]);
	}
	perf_events_reset_set(set, PERF_EV_NOT_OPENED);
}

#else							/* !__linux__ */

void
perf_events_open(PerfEventSet *set, bool hardware)
{
	perf_events_reset_set(set, ENOSYS);
	if (!hardware)
		for (int k = 0; k < PERF_EV_FIRST_SOFTWARE; k++)
			set->err[k] = PERF_EV_NOT_REQUESTED;
}

void
perf_events_read(PerfEventSet *set, uint64 *values, bool *valid)
{
	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		values[k] = 0;
		valid[k] = false;
	}
}

void
perf_events_close(PerfEventSet *set)
{
	perf_events_reset_set(set, PERF_EV_NOT_OPENED);
}

#endif							/* __linux__ */

/* kernel.perf_event_paranoid, or INT_MIN when it cannot be read */
static int
perf_event_paranoid(void)
{
	FILE	   *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int			level = PG_INT32_MIN;

	if (f != NULL)
	{
		if (fscanf(f, "%d", &level) != 1)
			level = PG_INT32_MIN;
		fclose(f);
	}
	return level;
}

static const char *
errno_name(int err)
{
	switch (err)
	{
		case ENOENT:
			return "ENOENT";
		case EOPNOTSUPP:
			return "EOPNOTSUPP";
		case EACCES:
			return "EACCES";
		case EPERM:
			return "EPERM";
		case ENOSYS:
			return "ENOSYS";
		case EINVAL:
			return "EINVAL";
		case ENODEV:
			return "ENODEV";
		case EBUSY:
			return "EBUSY";
		case EMFILE:
			return "EMFILE";
		default:
			return NULL;
	}
}

/*
 * Why an event is not counting, in words, or NULL when it is.  The text is
 * in a static buffer per event kind, valid until the next call for the same
 * kind.
 */
const char *
perf_event_reason(const PerfEventSet *set, PerfEventKind kind)
{
	static char buf[PERF_EV_COUNT][160];
	int			err = set->err[kind];
	const char *name = errno_name(err);
	char	   *out = buf[kind];

	if (set->fd[kind] >= 0)
		return NULL;

	switch (err)
	{
		case PERF_EV_NOT_REQUESTED:
			return "not requested (hardware counters are off)";
		case PERF_EV_NOT_OPENED:
			return "not opened";
		case ENOENT:
		case EOPNOTSUPP:
		case ENODEV:
			snprintf(out, sizeof(buf[0]), "not supported by this CPU or hypervisor (%s)", name);
			return out;
		case EACCES:
		case EPERM:
			{
				int			level = perf_event_paranoid();

				if (level != PG_INT32_MIN && level >= 2)
					snprintf(out, sizeof(buf[0]),
							 "forbidden by kernel.perf_event_paranoid = %d (%s)", level, name);
				else
					snprintf(out, sizeof(buf[0]),
							 "forbidden by the kernel, a seccomp filter or a security module (%s)",
							 name);
				return out;
			}
		case ENOSYS:
			return "perf_event_open is not available on this system (ENOSYS)";
		case EINVAL:
			return "rejected by the kernel as invalid for this CPU (EINVAL)";
		case EBUSY:
			return "the counter is taken by another user of the PMU (EBUSY)";
		case EMFILE:
			return "no file descriptors left (EMFILE)";
		default:
			snprintf(out, sizeof(buf[0]), "perf_event_open failed: %s%s%s%s",
					 strerror(err), name ? " (" : "", name ? name : "", name ? ")" : "");
			return out;
	}
}
