# pgbench_ext — top-level PGXS build.
#
# Builds the server module (extension/*.c + the shared statistics in common/)
# and its install script, then recurses into client/ for the driver program.
# PG_CONFIG selects the installation to build against, so a variant built
# from source gets its own copy: make PG_CONFIG=/prefix/bin/pg_config install
#
# The version string lives only in pgbench_ext.control; everything else
# (library, install script name, client) derives from it here.

EXTENSION = pgbench_ext
EXTVERSION := $(shell sed -n "s/^default_version *= *'\([^']*\)'/\1/p" $(dir $(lastword $(MAKEFILE_LIST)))pgbench_ext.control)

MODULE_big = pgbench_ext
EXT_SRCS = $(sort $(wildcard extension/*.c))
COMMON_SRCS = $(sort $(wildcard common/*.c))
OBJS = $(EXT_SRCS:.c=.o) $(COMMON_SRCS:.c=.o)

# The install script is assembled from one fragment per job so that each
# extension source file keeps its SQL declarations beside it.
SQL_FRAGMENTS = $(sort $(wildcard extension/sql/*.sql))
EXT_INSTALL_SCRIPT = extension/$(EXTENSION)--$(EXTVERSION).sql
DATA_built = $(EXT_INSTALL_SCRIPT)
# From 1.0.0 on, a change to the SQL objects comes with an update script from
# each released version, extension/pgbench_ext--FROM--TO.sql
# (docs/extension.md, "Updating").
DATA = $(sort $(wildcard extension/$(EXTENSION)--*--*.sql))

# PGBENCH_EXT_BACKEND: common/ compiled into the server, where its loops
# can be cancelled and its memory is palloc'd (common/stats_host.h)
PG_CPPFLAGS = -I$(CURDIR)/common -DPGBENCH_EXT_VERSION='"$(EXTVERSION)"' -DPGBENCH_EXT_BACKEND
# Only the entry points are exported (PGDLLEXPORT, see extension/compat.h):
# PGXS hides the rest itself from PG 16, this does it for earlier releases.
PG_CFLAGS = -fvisibility=hidden
SHLIB_LINK = -lm

EXTRA_CLEAN = $(EXT_INSTALL_SCRIPT)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

# On a fresh machine PGXS may be missing until "make deps" (or "make test",
# which runs it) installs the server development package; only those targets
# work until then.
# The default goal, before test/test.mk's targets: PGXS fills it in.
all:

ifneq ($(wildcard $(PGXS)),)
# REGRESS, TAP_TESTS and the test targets (docs/testing.md); optional, as
# the client builds the extension for a variant from a copy of only the
# build's files
-include test/test.mk
include $(PGXS)

$(EXT_INSTALL_SCRIPT): $(SQL_FRAGMENTS) pgbench_ext.control
	( printf "%s\n" '/* $(EXTENSION)--$(EXTVERSION).sql — generated from extension/sql/ by make; edit the fragments */'; \
	  printf '%s\n' '\echo Use "CREATE EXTENSION $(EXTENSION)" to load this file. \quit'; \
	  for f in $(SQL_FRAGMENTS); do echo; echo "-- from $$f"; cat $$f; done ) > $@

# the version is compiled in (pgbench_ext.c): a new one rebuilds
$(OBJS): $(wildcard extension/*.h) $(wildcard common/*.h) Makefile pgbench_ext.control

# Objects belong to the installation whose headers they were compiled with.
# The stamp records it (version, server headers, library directory) and is
# rewritten only when PG_CONFIG names another one; everything compiled
# depends on it, so "make PG_CONFIG=<another> install" after a build for
# one installation recompiles instead of installing the first one's objects.
PG_CONFIG_STAMP = pg_config.stamp
pg_config_id := $(shell $(PG_CONFIG) --version --includedir-server --pkglibdir | tr '\n' ' ')
$(PG_CONFIG_STAMP): FORCE
	@echo '$(pg_config_id)' | cmp -s - $@ || echo '$(pg_config_id)' > $@
$(OBJS): $(PG_CONFIG_STAMP)
client-all client-install: $(PG_CONFIG_STAMP)
EXTRA_CLEAN += $(PG_CONFIG_STAMP)

# PGXS comes with Debian's postgresql-client-NN, the server headers with
# postgresql-server-dev-NN: without them a build stops at its first #include.
ifeq ($(wildcard $(includedir_server)/postgres.h),)
all install: server-headers-missing
server-headers-missing:
	@echo "pgbench_ext: error: the server headers of $(PG_CONFIG) are missing: no $(includedir_server)/postgres.h"; \
	 echo "pgbench_ext: hint: run \"make deps\" (Debian: installs postgresql-server-dev-$(MAJORVERSION)), or set PG_CONFIG to an installation that has them"; exit 2
endif

# The client is a separate PGXS program build (PGXS builds one product per Makefile).
CLIENT_MAKE = $(MAKE) -C client PG_CONFIG='$(PG_CONFIG)' EXTVERSION='$(EXTVERSION)'

all: client-all
client-all:
	+$(CLIENT_MAKE) all
install: client-install
client-install:
	+$(CLIENT_MAKE) install
uninstall: client-uninstall
client-uninstall:
	+$(CLIENT_MAKE) uninstall
clean: client-clean
client-clean:
	+$(CLIENT_MAKE) clean
	$(MAKE) -C test clean
	tools/test-scratch --remove

else
all install installcheck installcheck-regress prove_installcheck check-regress:
	@echo "pgbench_ext: PGXS not found via $(PG_CONFIG)"; \
	 echo "pgbench_ext: hint: run \"make deps\" (installs postgresql-server-dev), or set PG_CONFIG=/path/to/pg_config"; exit 2
endif

# The README's two commands; both install what they need first, then build.
# make test builds with COPT=-Werror (COPT= turns that off); see tools/run-tests.
test:
	tools/run-tests

# What CI runs (.ci/run): "make test" plus the tests that build PostgreSQL
# from source, and PostgreSQL 18 built from source with the extension's
# suites run on it (docs/testing.md).
test-build:
	.ci/run

# The server-side tests alone (the pg_regress suite, test/t/1NN_*.pl)
# against the installation PG_CONFIG names, e.g. a PostgreSQL built from source.
test-server:
	tools/run-tests server

demo:
	tools/demo

deps:
	tools/deps install

.PHONY: FORCE all install server-headers-missing client-all client-install client-uninstall client-clean test test-build test-server demo deps
