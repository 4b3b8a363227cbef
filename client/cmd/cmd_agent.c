/*-------------------------------------------------------------------------
 *
 * cmd_agent.c
 *		"pgbench_ext agent CONNINFO [--once] [--poll SECONDS] [--timeout
 *		SECONDS] [--state-dir DIR]": the arguments of a host's agent of the
 *		queue; what it does is farm_agent.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_agent_bisect.h"
#include "cmd_agent_watch.h"
#include "commands.h"
#include "conn.h"
#include "farm_agent.h"

#include <getopt.h>

#include "common/logging.h"
#include "fe_utils/option_utils.h"

#define AGENT_POLL_S 30

static void
agent_usage(void)
{
	printf("%s agent: how does this host run the experiments queued for it?\n\n", progname);
	printf("It registers this machine in the results database, takes the next job\n"
		   "queued for it, its host name or any machine (\"%s submit\"), runs it as\n"
		   "\"run\" does, imports the results in the transaction that marks the job\n"
		   "done, and waits for the next.  A running job whose heartbeat is older than\n"
		   "--timeout is taken again: on the host that ran it, it is resumed.  A\n"
		   "watch (\"submit --watch\") builds its branch's head when it has moved; a\n"
		   "bisect job, queued for a watch's change point, bisects the commits around\n"
		   "it and stores the answer with the change point.\n\n", progname);
	printf("Usage:\n  %s agent [OPTION]... [CONNINFO]\n\n", progname);
	printf("Options:\n");
	printf("      --once               take one job (waiting for it), run it, then exit\n");
	printf("      --poll=SECONDS       between two looks at an empty queue (default %d)\n", AGENT_POLL_S);
	printf("      --timeout=SECONDS    a running job whose agent's heartbeat is older\n"
		   "                           is taken again (default %d; this agent beats\n"
		   "                           %d times within it)\n", AGENT_TIMEOUT_S, AGENT_BEATS_PER_TIMEOUT);
	printf("      --state-dir=DIR      the jobs' results directories, one a job\n"
		   "                           (default: pgbench_ext-agent in the current directory)\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nCtrl-C stops the experiment and its servers and puts the job back in the queue.\n");
}

int
cmd_agent(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{"once", no_argument, NULL, 1},
		{"poll", required_argument, NULL, 2},
		{"timeout", required_argument, NULL, 3},
		{"state-dir", required_argument, NULL, 4},
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	AgentOptions agent = {false, AGENT_POLL_S, AGENT_TIMEOUT_S, "pgbench_ext-agent", &agent_git, agent_bisect};
	int			c;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		agent_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS, long_options, "agent")) != -1)
	{
		switch (c)
		{
			case 1:
				agent.once = true;
				break;
			case 2:
				if (!option_parse_int(optarg, "--poll", 1, 3600, &agent.poll_s))
					exit(EXIT_USAGE);
				break;
			case 3:
				if (!option_parse_int(optarg, "--timeout", 1, 86400, &agent.timeout_s))
					exit(EXIT_USAGE);
				break;
			case 4:
				if (optarg[0] == '\0')
					usage_error("agent", "--state-dir needs a directory");
				agent.state_dir = optarg;
				break;
			default:
				if (!conn_option(c, optarg, &opts))
				{
					pg_log_error_hint("Try \"%s agent --help\" for more information.", progname);
					exit(EXIT_USAGE);
				}
		}
	}
	if (argc - optind > 1)
		usage_error("agent", "too many command-line arguments (first is \"%s\")", argv[optind + 1]);
	opts.conninfo = optind < argc ? argv[optind] : NULL;
	return farm_agent(&opts, &agent);
}
