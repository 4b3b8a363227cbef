# test/test.mk — the tests' part of the top-level Makefile, included by it
# before PGXS (whose REGRESS and TAP_TESTS handling reads the variables set
# here).  docs/testing.md describes the targets:
#
#   make installcheck        pg_regress on the running server that PG*
#                            variables name (make installcheck-regress),
#                            then the TAP tests
#   make prove_installcheck  the TAP tests (test/t/*.pl), each on servers of
#                            its own (PostgreSQL::Test::Cluster)
#   make check-regress       the whole pg_regress suite on a temporary
#                            instance with test/pgbench_ext.conf
#   make test, test-server, test-build   tools/run-tests: set-up, build,
#                            both suites, one line "N passed, N failed"
#
# The regression tests (sql/ and expected/ at the top, as contrib keeps
# them) are split by what the server must offer.  REGRESS needs the
# extension installed and nothing else,
# so "make installcheck" runs it on any server; REGRESS_PRELOAD needs
# pgbench_ext in shared_preload_libraries (shared memory, its settings), so
# installcheck adds it only when the server preloads pgbench_ext.  A new test
# joins REGRESS unless it is listed here.
REGRESS_PRELOAD = counters environment inject_delay
REGRESS = $(filter-out $(REGRESS_PRELOAD),$(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql))))
# installcheck is defined below, so that it can add REGRESS_PRELOAD
NO_INSTALLCHECK = 1
EXTRA_CLEAN += output_regress

# TAP tests: 0NN_*.pl need this tree (its client or unit-test programs);
# 1NN_*.pl are server-side, needing only the installed extension and a
# server, and "make test-server" runs them alone against any installation.
TAP_TESTS = 1
PROVE_TESTS = $(sort $(wildcard test/t/*.pl))
SERVER_PROVE_TESTS = $(sort $(wildcard test/t/1[0-9][0-9]_*.pl))

# The TAP tests run TEST_JOBS at a time: each has servers, ports and
# directories of its own.  A timed pgbench run takes what CPU is free for
# its fixed duration, so more tests at once shorten the suite even on two
# busy cores: 6 ran make test in 354 s where 4 took 375-408 s
# (docs/testing.md).  test/testrules.yml runs the tests that build
# PostgreSQL from source (PGBENCH_EXT_TEST_LONG=1) in their own order,
# beside the rest from the start.  TEST_JOBS=1 runs everything in order.
TEST_JOBS ?= 6
prove_schedule = --timer -j$(TEST_JOBS)
# The longest start first, so that none is left running alone at the end
# (their times: docs/testing.md).  The farm's two-agent tests (143, 141)
# take four minutes of a loaded host whatever else runs: started last, in
# their numbers' order, they were the last two minutes of make test alone.
# 010 runs the statistics' simulations, minutes at full size (LONG) and
# seconds at the size of make test.
LONG_FIRST = $(wildcard $(addprefix test/t/,077_*.pl 097_*.pl 098_*.pl 075_*.pl 079_*.pl 078_*.pl 074_*.pl 061_*.pl \
	$(if $(PGBENCH_EXT_TEST_LONG),010_*.pl 096_*.pl) 093_*.pl 143_*.pl 141_*.pl 043_*.pl 046_*.pl 062_*.pl 041_*.pl \
	094_*.pl 055_*.pl 047_*.pl 072_*.pl 060_*.pl 045_*.pl 042_*.pl 010_*.pl))
PROVE_TESTS := $(LONG_FIRST) $(filter-out $(LONG_FIRST),$(PROVE_TESTS))

# PostgreSQL's servers refuse to run as root.  As root, pg_regress runs as
# the account the client's servers use (PGBENCH_EXT_OS_USER, default
# postgres), in an output directory given to it; prove runs as root, so that
# the client's own dropping of privileges is tested as CI runs it, and each
# test that starts servers of its own reruns itself as that account
# (test/lib/AsServerAccount.pm) in a directory below tmp_check/ given to it.
# The tree only needs to be readable by it.
ifeq ($(shell id -u),0)
test_account = $(or $(PGBENCH_EXT_OS_USER),postgres)
as_test_account = runuser -u $(test_account) --
give_to_test_account = chown $(test_account)
check_test_account = $(as_test_account) test -r '$(CURDIR)/test/test.mk' || { \
	echo "pgbench_ext: error: the account \"$(test_account)\" that runs servers for root's tests cannot read $(CURDIR)" >&2; \
	echo "pgbench_ext: hint: give it read access to the tree, or name another account in PGBENCH_EXT_OS_USER" >&2; \
	exit 2; }
else
as_test_account =
give_to_test_account = :
check_test_account = :
endif

pg_regress = $(top_builddir)/src/test/regress/pg_regress

# the unit tests of client code link the client's objects
test-programs: client-all
	$(MAKE) -C test PG_CONFIG='$(PG_CONFIG)'

# pg_regress on the running server, as PGXS's installcheck does, with the
# preload set when the server can serve it.  A server that cannot be
# reached is left to pg_regress to report.  installcheck-regress is that
# alone, which needs nothing built: the tests of an installed package
# (debian/tests/installcheck, tools/test-package) run it from a clean tree.
installcheck: installcheck-regress test-programs
	$(MAKE) prove_installcheck
installcheck-regress:
	@tests='$(REGRESS)'; \
	if preloaded=$$('$(bindir)/psql' -X -A -t -d postgres -c 'SHOW shared_preload_libraries' 2>/dev/null); then \
		case ",$$(echo "$$preloaded" | tr -d ' ')," in \
		*,pgbench_ext,*) tests="$$tests $(REGRESS_PRELOAD)" ;; \
		*) echo "installcheck: the server does not preload pgbench_ext, so $(REGRESS_PRELOAD) are skipped (docs/testing.md)" ;; \
		esac; \
	fi; \
	$(pg_regress_installcheck) $(REGRESS_OPTS) $$tests

# The TAP tests, as PGXS's prove_installcheck runs them: PostgreSQL::Test::Utils
# keeps everything under tmp_check/ (TESTDIR up to PostgreSQL 15, TESTDATADIR
# and TESTLOGDIR from 16), and the installation's bindir comes first on PATH.
# tmp_check/ is in memory where there is room (tools/test-scratch says when),
# the tree's tmp_check a link to it; the initdb cache, hundreds of megabytes
# that serve only this run, goes when it ends.
# The client's clusters are copies of one initdb per installation, options
# and locale (PGBENCH_EXT_INITDB_CACHE, given to the server account so that
# tests running as that account use it too).
# PG_CONFIG names the installation to the tests (test/lib/PgbenchExtTest.pm).
# PROVE_FLAGS is the user's (e.g. --verbose).
prove_installcheck: test-programs
	@test '$(enable_tap_tests)' = yes || { \
		echo "pgbench_ext: error: $(PG_CONFIG) belongs to a PostgreSQL built without --enable-tap-tests" >&2; \
		echo "pgbench_ext: hint: the TAP tests need its PostgreSQL::Test modules; build it with --enable-tap-tests" >&2; \
		exit 2; }
	@$(check_test_account)
	@scratch=$$(tools/test-scratch) || exit 2; \
	cache="$$scratch/tmp_check/initdb-cache"; \
	$(MKDIR_P) "$$cache" && chmod 700 "$$cache" && $(give_to_test_account) "$$cache" || exit 2; \
	echo "the tests' data: $$scratch/tmp_check"; \
	env TESTDIR="$$scratch" TESTDATADIR="$$scratch/tmp_check" TESTLOGDIR="$$scratch/tmp_check/log" \
		PGBENCH_EXT_INITDB_CACHE="$$cache" \
		PATH='$(bindir)':"$$PATH" PG_REGRESS='$(pg_regress)' PG_CONFIG='$(PG_CONFIG)' \
		HARNESS_RULESFILE='$(CURDIR)/test/testrules.yml' \
		$(PROVE) $(PG_PROVE_FLAGS) -I test/lib $(prove_schedule) $(PROVE_FLAGS) $(PROVE_TESTS); \
	status=$$?; rm -rf "$$cache"; exit $$status

# The whole pg_regress suite on a temporary instance with the preload, as
# contrib/pg_stat_statements runs its own (--temp-config); the instance,
# results/ and regression.diffs are in output_regress/.
check-regress:
	@$(check_test_account)
	rm -rf output_regress && $(MKDIR_P) output_regress && $(give_to_test_account) output_regress
	$(as_test_account) $(pg_regress) --temp-instance=output_regress/instance \
		--temp-config=test/pgbench_ext.conf --outputdir=output_regress --bindir='$(bindir)' \
		$(pg_regress_locale_flags) $(EXTRA_REGRESS_OPTS) $(REGRESS_OPTS) $(REGRESS) $(REGRESS_PRELOAD)

.PHONY: test-programs installcheck installcheck-regress prove_installcheck check-regress
